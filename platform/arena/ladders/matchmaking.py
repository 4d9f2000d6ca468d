"""The continuous ladder: the organizer turns matchmaking on for a game and variant, and a scheduler
keeps every bot of that game playing rated matches, within the rate the organizer set.

The scheduler calls :func:`tick_all` every ``ARENA_MATCHMAKING_SECONDS`` (10 by default): Celery
beat in a deployment (the ``arena.matchmaking_tick`` task, :mod:`arena.worker.celery_app`), a thread of the
process on the embedded default (:mod:`arena.worker.embedded`). A tick takes the time from the
runtime's clock (:attr:`arena.runtime.Runtime.clock`), so a test drives ticks at the moments it
chooses. A tick of one ladder:

1. takes the tick's period key (``SET NX``: with two beat processes only the first tick of each
   period does anything) and the ladder's lock (one tick at a time, whatever its period);
2. forgets the ladder's matches in flight that have ended; the bots of the others are busy;
3. works out how many matches it may make (:func:`arena.ladders.pairing.allowance`: the rate over the last
   minute, the cap of matches in flight, the tick's share) and pairs the free bots
   (:func:`arena.ladders.pairing.pair`: close ratings, high uncertainty, those that played least first, no
   repeat of a bot's last match where avoidable), leaving out the bots that rest (below);
4. stores the matches in one transaction that happens only if the settings are still those it
   read (so nothing is made after matchmaking is turned off), then queues them.

Turning matchmaking off (:func:`stop`) deletes the settings first, then cancels the ladder's queued
matches (aborted with the error "matchmaking stopped", as a cancelled tournament's are); matches a
worker is already playing finish and count. A tick that read the settings before they were deleted
cannot store its matches; one that stored them just before sees them cancelled (their task then
finds them ended and does nothing). Nothing is left half-done.

A bot that forfeited its last :data:`REST_AFTER_FORFEITS` matches of the ladder in a row (its
endpoint down, a wrong secret, a crash on every move) rests: the scheduler leaves it out, so it
neither burns the rate nor hands its opponents free wins, until its owner changes it (a new
endpoint or secret, each pinged, or any other change: the bot's ``updated_at`` later than the end of
its last match) or has it pinged (``POST /api/v1/bots/<id>/ping``: a ping it passes after that end
brings it back). Matches asked for by hand still seat it; one it plays to the end ends the rest.
The bot's page and ``GET /api/v1/bots/<id>`` say so (:func:`rests_of`).

Nothing here imports the API.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from redis.exceptions import RedisError

from arena import scheduling
from arena.errors import InvalidRequest, merge_errors
from arena.ladders import pairing, skill
from arena.match_bounds import bound_errors
from arena.records import BotRecord, MatchOrigin, MatchRecord, MatchStatus, now_iso
from arena.runtime import Runtime
from referee.game import SetupError
from referee.match import MatchSpec, TimeControl
from referee.registry import get_game
from referee.rng import derive_seed

log = logging.getLogger(__name__)
STOPPED = "matchmaking stopped"
LOCK_S = 30.0
"""The longest a tick may hold a ladder's lock (a tick takes milliseconds; a dead one frees it)."""
REST_AFTER_FORFEITS = 3
"""Forfeits in a row after which the scheduler rests a bot until its owner changes it."""


def iso_time(moment: float) -> str:
    """A timestamp as the platform writes times (UTC, ISO 8601, milliseconds)."""
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="milliseconds")


def default_seats(game_id: str, variant: str) -> int:
    """The fewest seats of at least two the variant is played by (else its fewest)."""
    counts = sorted(get_game(game_id).variant(variant).seats)
    return next((count for count in counts if count >= 2), counts[0])


def template(config: Mapping[str, Any]) -> MatchSpec:
    """The spec a ladder's matches share but for their bots and seed (raises :class:`SetupError`);
    placeholders hold its seats until :meth:`MatchSpec.reseated` seats a pod."""
    return MatchSpec.build(
        game=config["game"],
        variant=config["variant"],
        bots=tuple(f"seat-{n}" for n in range(config["seats"])),
        seed=0,
        options=config["options"],
        time=TimeControl(config["time"]["move_ms"], config["time"]["bank_ms"]),
        max_faults=config["max_faults"],
    )


def start(runtime: Runtime, game_id: str, variant: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """Turn matchmaking on for a ladder, or change its settings (``data`` as the API's
    ``MatchmakingSetSchema`` loads it); 422 naming the field when the game refuses them."""
    seats = data.get("seats") or default_seats(game_id, variant)
    config = {
        "game": game_id,
        "variant": variant,
        "matches_per_minute": data["matches_per_minute"],
        "max_in_flight": data.get("max_in_flight") or data["matches_per_minute"],
        "seats": seats,
        "options": dict(data.get("options") or {}),
        "time": dict(data.get("time") or {"move_ms": 2000, "bank_ms": 0}),
        "max_faults": data.get("max_faults", 3),
    }
    errors: dict[str, Any] = {}
    try:
        spec = template(config)
    except SetupError as error:
        name = "seats" if error.field_name == "bots" else error.field_name
        merge_errors(errors, {name: [str(error)]})
    else:
        config["options"] = dict(spec.config.options)
    merge_errors(errors, bound_errors(runtime.settings, config))
    if errors:
        raise InvalidRequest("The request has invalid fields.", errors)
    previous = runtime.store.matchmaking.config(game_id, variant)
    config["started_at"] = previous["started_at"] if previous else now_iso()
    runtime.store.matchmaking.put(game_id, variant, config)
    return status(runtime, game_id, variant)


@dataclass(frozen=True)
class InFlight:
    """A ladder's matches that have not ended, and the bots playing them."""

    match_ids: tuple[str, ...]
    running: tuple[str, ...]
    busy: frozenset[str]


def in_flight(runtime: Runtime, game_id: str, variant: str) -> InFlight:
    """Read the ladder's matches in flight, forgetting those that ended."""
    store = runtime.store
    ids = store.matchmaking.in_flight(game_id, variant)
    matches = {match.id: match for match in store.matches.get_many(ids)}
    ended = [match_id for match_id in ids if match_id not in matches or matches[match_id].status.ended]
    store.matchmaking.landed(game_id, variant, ended)
    live = [matches[match_id] for match_id in ids if match_id not in ended]
    return InFlight(
        match_ids=tuple(match.id for match in live),
        running=tuple(match.id for match in live if match.status is MatchStatus.RUNNING),
        busy=frozenset(bot for match in live for bot in match.bots),
    )


def stop(runtime: Runtime, game_id: str, variant: str) -> dict[str, Any]:
    """Turn matchmaking off: no match is made after this; queued ones are cancelled (see the module)."""
    store = runtime.store
    store.matchmaking.delete(game_id, variant)
    cancelled = [
        match_id
        for match_id in store.matchmaking.in_flight(game_id, variant)
        if store.matches.abort_if_queued(match_id, STOPPED) is not None
    ]
    return {**status(runtime, game_id, variant), "cancelled": cancelled}


def status(runtime: Runtime, game_id: str, variant: str) -> dict[str, Any]:
    """What ``GET /api/v1/ladders/<game>/<variant>/matchmaking`` shows; ``last_tick_at`` is when the
    scheduler last ran (any ladder's), so a deployment without a beat process shows it."""
    store = runtime.store
    config = store.matchmaking.config(game_id, variant)
    flight = in_flight(runtime, game_id, variant)
    window_start = runtime.clock.time() - pairing.WINDOW_S
    last_tick = store.matchmaking.last_tick()
    view: dict[str, Any] = {
        "game": game_id,
        "variant": variant,
        "enabled": config is not None,
        "matches_per_minute": None,
        "max_in_flight": None,
        "seats": None,
        "options": None,
        "time": None,
        "max_faults": None,
        "started_at": None,
        "tick_seconds": runtime.settings.matchmaking_tick_s,
        "last_tick_at": None if last_tick is None else iso_time(last_tick),
        "bots": len(store.bots.ids_of_game(game_id)),
        "in_flight": len(flight.match_ids),
        "running": len(flight.running),
        "made_last_minute": store.matchmaking.made_since(game_id, variant, window_start),
        "resting": resting_bots(runtime, game_id, variant),
    }
    if config is not None:
        view.update(
            {
                name: config[name]
                for name in (
                    "matches_per_minute",
                    "max_in_flight",
                    "seats",
                    "options",
                    "time",
                    "max_faults",
                    "started_at",
                )
            }
        )
    return view


def _candidates(
    runtime: Runtime, game_id: str, variant: str, busy: frozenset[str]
) -> list[pairing.Candidate]:
    store = runtime.store
    free = [bot for bot in store.bots.ids_of_game(game_id) if bot not in busy]
    rows = store.ladders.rows_of(game_id, variant, free)
    resting = _resting(runtime, rows)
    fresh = skill.start()
    found = []
    for bot in free:
        if bot in resting:
            continue
        row = rows.get(bot, {})
        mu, sigma = row.get("mu"), row.get("sigma")
        found.append(
            pairing.Candidate(
                bot_id=bot,
                mu=fresh.mu if mu is None else float(mu),
                sigma=fresh.sigma if sigma is None else float(sigma),
                games=int(row.get("games", 0)),
            )
        )
    return found


def _resting(runtime: Runtime, rows: Mapping[str, Mapping[str, Any]]) -> frozenset[str]:
    """The bots of ``rows`` that rest (see the module): only they cost a read of their bot and of
    their last match, so a ladder of bots that play costs nothing more."""
    tired = {
        bot: row["last_match"]
        for bot, row in rows.items()
        if row.get("forfeits_in_a_row", 0) >= REST_AFTER_FORFEITS and row.get("last_match")
    }
    if not tired:
        return frozenset()
    bots = runtime.store.bots.get_many(list(tired))
    back = runtime.store.bots.back_times(list(tired))
    ended = {match.id: match.finished_at for match in runtime.store.matches.get_many(list(tired.values()))}
    return frozenset(
        bot
        for bot, last_match in tired.items()
        if bot in bots and _rests(bots[bot].updated_at, back.get(bot), ended.get(last_match))
    )


def _rests(updated_at: str, back_at: str | None, last_end: str | None) -> bool:
    """Whether a bot that forfeited enough in a row still rests: neither changed nor pinged back
    since its last match ended (ISO times compare as text)."""
    return max(updated_at, back_at or "") <= (last_end or "")


@dataclass(frozen=True)
class Rest:
    """A bot resting on one ladder: since when (the end of its last forfeited match), why, and how
    to come back."""

    game: str
    variant: str
    since: str | None
    forfeits_in_a_row: int
    last_match: str
    reason: str
    how_to_return: str


def rests_of(
    runtime: Runtime, bot: BotRecord, rows: Mapping[tuple[str, str], Mapping[str, Any]]
) -> list[Rest]:
    """The ladders among ``rows`` (its row in each) on which ``bot`` rests (see the module)."""
    tired = {
        ladder: row
        for ladder, row in rows.items()
        if row.get("forfeits_in_a_row", 0) >= REST_AFTER_FORFEITS and row.get("last_match")
    }
    if not tired:
        return []
    back = runtime.store.bots.back_times([bot.id]).get(bot.id)
    ended = {
        match.id: match.finished_at
        for match in runtime.store.matches.get_many([row["last_match"] for row in tired.values()])
    }
    how = (
        f"fix the bot, then ask for a ping (POST /api/v1/bots/{bot.id}/ping with the bot's token): a "
        "ping it passes brings it back, as does any change to it (PATCH, a new secret) or a match it "
        "plays to the end"
    )
    return [
        Rest(
            game=game_id,
            variant=variant,
            since=ended.get(row["last_match"]),
            forfeits_in_a_row=int(row["forfeits_in_a_row"]),
            last_match=row["last_match"],
            reason=f"it forfeited its last {row['forfeits_in_a_row']} matches of this ladder in a row "
            f"(the last: {row['last_match']}), so the continuous ladder leaves it out of its matches",
            how_to_return=how,
        )
        for (game_id, variant), row in tired.items()
        if _rests(bot.updated_at, back, ended.get(row["last_match"]))
    ]


def resting_bots(runtime: Runtime, game_id: str, variant: str) -> list[str]:
    """The ladder's bots the scheduler leaves out for forfeiting (see the module), for the status."""
    store = runtime.store
    return sorted(_resting(runtime, store.ladders.rows_of(game_id, variant, store.bots.ids_of_game(game_id))))


def tick(runtime: Runtime, game_id: str, variant: str) -> list[str]:
    """One tick of one ladder (see the module); the ids of the matches it made and queued."""
    store = runtime.store
    tick_s = runtime.settings.matchmaking_tick_s
    now = runtime.clock.time()
    if store.matchmaking.config(game_id, variant) is None:
        return []
    if not store.matchmaking.take_tick(game_id, variant, int(now // tick_s), tick_s):
        return []
    owner = uuid.uuid4().hex
    if not store.matchmaking.take_lock(game_id, variant, owner, LOCK_S):
        return []
    try:
        return _make_matches(runtime, game_id, variant, now)
    finally:
        store.matchmaking.release_lock(game_id, variant, owner)


def _make_matches(runtime: Runtime, game_id: str, variant: str, now: float) -> list[str]:
    store = runtime.store
    config = store.matchmaking.config(game_id, variant)  # read under the lock
    if config is None:
        return []
    flight = in_flight(runtime, game_id, variant)
    count = pairing.allowance(
        config["matches_per_minute"],
        store.matchmaking.made_since(game_id, variant, now - pairing.WINDOW_S, trim=True),
        len(flight.match_ids),
        config["max_in_flight"],
        runtime.settings.matchmaking_tick_s,
    )
    if count == 0:
        return []
    tick_seed = derive_seed(scheduling.new_seed(), "matchmaking", game_id, variant)
    pods = pairing.pair(
        _candidates(runtime, game_id, variant, flight.busy),
        config["seats"],
        count,
        store.matchmaking.last_opponents(game_id, variant),
        tick_seed,
    )
    if not pods:
        return []
    try:
        shared = template(config)
    except SetupError as error:  # the game changed under a running ladder: nothing can be made
        log.warning("matchmaking %s/%s: %s", game_id, variant, error)
        return []
    bots = store.bots.get_many([bot for pod in pods for bot in pod])
    matches: list[tuple[MatchRecord, MatchSpec]] = []
    for pod in pods:
        if any(bot not in bots for bot in pod):  # deleted since it was listed
            continue
        spec = shared.reseated(pod, scheduling.new_seed())
        names = tuple(bots[bot].name for bot in spec.bots)
        record = MatchRecord.new(
            scheduling.new_match_id(),
            game_id,
            spec.variant,
            spec.bots,
            names,
            rated=True,
            origin=MatchOrigin.MATCHMAKING,
        )
        matches.append((record, spec))
    if not matches:
        return []
    try:  # stored only while the settings are still ``config``
        return scheduling.schedule(
            runtime, matches, lambda made: store.matchmaking.add_matches(game_id, variant, config, made, now)
        )
    except scheduling.NotQueued as failure:  # those not queued ended; the next tick makes others
        log.warning("matchmaking %s/%s: the queue is unavailable: %s", game_id, variant, failure.__cause__)
        return failure.queued


def tick_all(runtime: Runtime) -> dict[str, list[str]]:
    """One tick of every ladder with matchmaking on: ``"game/variant"`` -> the matches made."""
    made: dict[str, list[str]] = {}
    runtime.store.matchmaking.ticked(runtime.clock.time())
    for game_id, variant in runtime.store.matchmaking.ladders():
        try:
            made[f"{game_id}/{variant}"] = tick(runtime, game_id, variant)
        except RedisError:
            raise
        except Exception:  # one broken ladder must not stop the others
            log.exception("matchmaking %s/%s: the tick failed", game_id, variant)
    return made
