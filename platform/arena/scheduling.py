"""Scheduling matches: the one way a match comes to be played, whoever asks for it.

An API request (:func:`arena.matches.match_requests.create`), a tournament (its matches at once, or
a round or a knockout replay at a time: :mod:`arena.tournaments`) and a ladder's matchmaking tick
(:mod:`arena.ladders.matchmaking`) all make their matches with :func:`new_match_id` and
:func:`new_seed` and hand them to :func:`schedule`: store them (each caller with the keys of its
own that go with them, in the same transaction), then queue them in order. When the queue fails,
the matches not yet queued are aborted ("could not be queued: <error>"), so none is left waiting
for a worker nobody told, and :class:`NotQueued` says which were queued before the failure: the
API answers 503 and its client asks again, the next matchmaking tick makes others. A tournament's
round or replay is the exception (``abort_refused=False``): nobody asks for it again, and aborting
its matches would decide the round without a game (and leave nothing to end and make the next), so
they stay queued and the sweeper queues them again once the queue is back
(:mod:`arena.worker.sweeper`).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence

from arena.errors import QueueUnavailable
from arena.records import MatchRecord
from arena.runtime import Runtime
from referee.match import MatchSpec

log = logging.getLogger(__name__)

Scheduled = Sequence[tuple[MatchRecord, MatchSpec]]
"""Matches to schedule: each its status record and its spec."""

Writer = Callable[[Scheduled], object]
"""Stores the matches with what goes with them; returns False when it stored nothing (anything
else, None included, means stored)."""


class NotQueued(QueueUnavailable):
    """The queue failed part way: ``queued`` were handed to it, the others were aborted. An API
    request answers it 503 (a :class:`QueueUnavailable`)."""

    def __init__(self, queued: Sequence[str]) -> None:
        super().__init__("the match queue is unavailable; try again later")
        self.queued = list(queued)


def new_match_id() -> str:
    """A new match's id: ``m-`` and 16 random hex digits."""
    return "m-" + secrets.token_hex(8)


def new_seed() -> int:
    """A seed for a match (or a tournament, or a tick) that was not given one."""
    return secrets.randbelow(2**62)


def schedule(
    runtime: Runtime, matches: Scheduled, store: Writer | None = None, *, abort_refused: bool = True
) -> list[str]:
    """Store ``matches`` (with ``store``, by default :meth:`arena.storage.matches.Matches.add`) and
    queue them in order; their ids, or none when ``store`` stored nothing. Raises
    :class:`NotQueued` when the queue fails, after aborting the matches it did not take (left
    queued for the sweeper instead when not ``abort_refused``)."""
    written = (store or runtime.store.matches.add)(matches)
    if written is False:
        return []
    ids = [match.id for match, _ in matches]
    queue(runtime, ids, abort_refused=abort_refused)
    return ids


def queue(runtime: Runtime, match_ids: Sequence[str], *, abort_refused: bool = True) -> None:
    """Queue stored matches in order; if the queue fails, those not queued are aborted (unless not
    ``abort_refused``) and :class:`NotQueued` raised."""
    for position, match_id in enumerate(match_ids):
        try:
            runtime.queue.enqueue(match_id)
        except Exception as error:
            log.exception("could not queue match %s", match_id)
            if abort_refused:
                for stranded in match_ids[position:]:
                    runtime.store.matches.abort(stranded, f"could not be queued: {type(error).__name__}")
            raise NotQueued(match_ids[:position]) from error
