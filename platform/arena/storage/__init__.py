"""The platform's one store: bots, matches, replays, tournaments and ladders in Redis.

Everything lives under one key prefix, so several platforms (or test runs) can share a Redis.
Records are JSON strings of the types in :mod:`arena.records`; a match is its spec and its status
record, side by side; replays are gzip bytes; a ladder is a sorted set of its rows' ranking keys plus one
small record per row, so a page reads only its own rows and a finished match writes only its bots'.
Changes that must not interleave (a match's status, its finishing) are optimistic
transactions (:mod:`arena.storage.transaction`): ``WATCH`` the keys, read, compute,
``MULTI``/``EXEC``, retry on conflict.

:class:`Store` is made of one part per concern, each an object of a class in this package over the
clients, prefix and clock of :mod:`arena.storage.base` (``store.bots``, ``store.matches``, ...):
:mod:`~arena.storage.bots`, :mod:`~arena.storage.matches` (records, the lists that find them,
status changes, a run's start), :mod:`~arena.storage.status_index` (the lists by status, written in
one place), :mod:`~arena.storage.queue`, :mod:`~arena.storage.leases`,
:mod:`~arena.storage.progress`, :mod:`~arena.storage.replays`, :mod:`~arena.storage.archive`,
:mod:`~arena.storage.finishing` (a match's end, described by one :class:`MatchEnd`),
:mod:`~arena.storage.ladders`, :mod:`~arena.storage.history` (ratings over time, head-to-head),
:mod:`~arena.storage.matchmaking` and :mod:`~arena.storage.tournaments`.

Replays are not kept in Redis: they go to the store's files (:mod:`arena.storage.files`: a directory or an
S3 bucket), each run's under a name of its own, and the transaction that stores a match's end records
which run's replay counts (``match:<id>:replay`` holds that run's token; a replay stored whole there
by an older version is still read). Ended matches older than ``ARENA_ARCHIVE_AFTER_DAYS`` move to the
files as well (:mod:`arena.archive`): record, spec and replay token in one JSON document, and Redis
keeps only the id in ``matches``, through which they are still found and read.

Keys (after the prefix)::

    bot:<id>                 JSON      bots           zset of bot ids by creation time
                             (its secret sealed with ARENA_SECRETS_KEY when set: arena.storage.secret_box)
    bots:game:<game>         zset of the ids of the bots playing a game, by creation time
    bot:<id>:faults          hash kind -> count
    match:<id>               JSON status record        match:<id>:spec   JSON spec (written once)
    match:<id>:replay        token of the run whose replay counts   match:<id>:progress   moves so far
    match:<id>:live          list of the moves of a running match, as JSON (dropped when it ends)
    match:<id>:lease         the worker running it, with a TTL
    matches                  zset of match ids by creation time
    matches:bot:<id>, matches:game:<game>[:<variant>], matches:status:<finished|aborted|cancelled>
                             zsets of match ids by creation time, to list matches by filter
    running                  set of the ids of matches a worker started and that have not ended
    queued                   zset of the ids of matches waiting for a worker, by when they were queued
    sweeper                  held by the worker sweeping for stranded matches, with a TTL
    archiver                 held by the worker archiving old matches, with a TTL
    archive:cursor           creation time up to which every match is archived: the next pass starts there
    applied:<match id>       set when the match's result went into its ladder (exactly once)
    tournament:<id>          JSON      tournament:<id>:matches   list of match ids
    tournaments              zset of tournament ids by creation time
    ladder:<g>:<v>:rank      zset bot id -> minus the row's ranking key (ascending = best first;
                             equal keys share a rank, and Redis orders them by bot id)
    ladder:<g>:<v>:bot:<id>  JSON: the bot's row (see arena.ladders.rows); one key per row, so a finishing
                             match WATCHes only its own bots' rows, and a page is one MGET
    ladder:<g>:<v>:game      JSON: a team variant's game as an entrant (its skill; not ranked)
    ladder:<g>:<v>:results   list of the counted results, JSON {match, bots, places, team_won}
    ladder:<g>:<v>:refit     hash bot id -> JSON {rating, low, high} of the last batch refit
    ladder:<g>:<v>:history:<bot id>   list of the bot's rating after each counted match, JSON
                             {match, at, rating, mu, sigma, conservative}, oldest first, the newest
                             ARENA_HISTORY_POINTS kept (arena.storage.history)
    bot:<id>:versus          hash "<game>:<opponent id>:<win|draw|loss>" -> count: its head-to-head record
    ladder:<g>:<v>:refit:at  JSON {matches, samples, seed, at} of that refit
    ladder-names             hash bot id -> name, for showing ladders without reading bot records
    matchmaking:ladders      set of the ladders with matchmaking on, each JSON [game, variant]
    matchmaking:ticked       when the scheduler last ticked (a timestamp)
    matchmaking:<g>:<v>      JSON: the ladder's matchmaking settings (absent: matchmaking is off)
    matchmaking:<g>:<v>:in-flight   set of the ids of its matches not yet seen ended
    matchmaking:<g>:<v>:made        zset match id -> when made (the last minute's, for the rate)
    matchmaking:<g>:<v>:last        hash bot id -> JSON list of the bots of its last match
    matchmaking:<g>:<v>:lock        held by the scheduler tick making its matches, with a TTL
    matchmaking:<g>:<v>:tick:<n>    taken by the first tick of period n, with a TTL
"""

from arena.storage.finishing import LadderChange, MatchEnd
from arena.storage.ladders import LadderEntry, LadderPage, LadderRow
from arena.storage.matches import Begun, MatchStart
from arena.storage.store import Store

__all__ = [
    "Begun",
    "LadderChange",
    "LadderEntry",
    "LadderPage",
    "LadderRow",
    "MatchEnd",
    "MatchStart",
    "Store",
]
