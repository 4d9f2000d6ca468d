"""Running one stored match: the whole body of the match task, without Celery.

The task may run more than once for a match (a worker killed mid-match, a broker redelivery), so
every step is safe to repeat:

1. A match that already ended is left alone.
2. A lease (a Redis key with a TTL, renewed by a heartbeat while the match runs) makes sure only one
   worker plays a match at a time; a run that finds a live lease reports :attr:`RunOutcome.BUSY` and
   does nothing (the lease holder stores the end; if it dies, :mod:`arena.worker.sweeper` queues the match
   again).
3. Every run counts an attempt. A run ends without the match's end either for a failure its
   worker saw (the store failing under it: :func:`count_failed_attempt`) or by its worker's death
   (nothing saw it end). After ``ARENA_MAX_ATTEMPTS`` failed runs, or ``ARENA_MAX_WORKER_DEATHS``
   runs ended by deaths (more: a crash storm must not abort matches that did nothing wrong, but
   bounded: a match that kills every worker playing it must end), the match is aborted
   (:func:`give_up_reason`).
4. The end is stored by :meth:`arena.storage.finishing.Finishing.finish_match`: result, replay,
   ladder and fault counts in one transaction guarded by ``applied:<match id>``, so a result counts
   exactly once even when two runs both reach the end.
5. A cancelled match stops before its next move: the runner asks a :class:`_StopCheck` between
   moves, which reads the store's stop marks (the match's, its tournament's) at most every
   :data:`STOP_CHECK_EVERY_S`; the moves so far are stored as its replay, the match ``cancelled``,
   unrated and counted for nobody (:func:`_store_cancelled`).
6. A run still playing after ``ARENA_MAX_MATCH_SECONDS`` (by the runtime's clock) is ended there by
   the runner; the moves so far are stored as its replay, the match ``aborted`` with the limit as
   its error, unrated and counted for nobody (:func:`_store_timed_out`).
7. No match is left ``running`` by a failure: anything that goes wrong while a match runs or is
   stored aborts it with the reason, except the store itself failing (:class:`RedisError`), which
   is raised so the task runs the match again once the store is back (the attempts bound that).

The walk of one match: :meth:`arena.storage.matches.Matches.begin` takes the lease, marks the match
running and reads its spec and the seats' bots in one transaction; build their agents,
:func:`referee.runner.run_match` (which returns a typed replay whose header is the spec),
then :func:`finish` (the ladder reads the replay's result; faults come from the replay's seats,
counted once by the runner; the end's transaction deletes the lease, which is released only when
no end was stored).
"""

from __future__ import annotations

import logging
import time
import uuid
from enum import StrEnum

from redis.exceptions import RedisError

from arena import metrics
from arena.ladders import scoring
from arena.ladders.counting import LadderCount
from arena.records import BotRecord, MatchRecord, MatchStatus
from arena.runtime import Runtime
from arena.settings import Settings
from arena.storage import Begun, MatchEnd, Store
from arena.tournaments import progress
from arena.upkeep import LiveWriter
from referee.game import STOPPED, TIME_LIMIT, SetupError
from referee.match import MatchSpec
from referee.registry import get_game
from referee.replay import MoveRecord, Replay, compress
from referee.runner import Player, run_match

log = logging.getLogger(__name__)
STOP_CHECK_EVERY_S = 0.5
"""How often, at most, a running match asks the store whether it was cancelled (one small read)."""


class RunOutcome(StrEnum):
    FINISHED = "finished"
    ALREADY_ENDED = "already_ended"
    """The match had ended (or another run stored its end first): nothing changed."""
    BUSY = "busy"
    """Another worker holds the match's lease and is playing it: nothing to do."""
    ABORTED = "aborted"
    CANCELLED = "cancelled"
    """Stopped at a move because the match or its tournament was cancelled; stored so."""
    MISSING = "missing"


def execute(runtime: Runtime, match_id: str) -> RunOutcome:
    """Play a stored match to its end and store the end (see the module's steps)."""
    store = runtime.store
    owner = uuid.uuid4().hex
    start = store.matches.begin(match_id, owner, runtime.settings.lease_s)
    if start.outcome is not Begun.STARTED:
        if start.outcome is Begun.MISSING:
            log.warning("match %s does not exist", match_id)
        return _NOT_STARTED[start.outcome]
    running, spec = start.match, start.spec
    assert running is not None and spec is not None
    outcome = RunOutcome.ABORTED
    try:
        reason = give_up_reason(running, runtime.settings)
        if reason is not None:
            return _abort(runtime, running, reason)
        outcome = _play_and_finish(runtime, running, spec, start.bots, owner)
        return outcome
    except RedisError:
        raise  # the store is unreachable: nothing can be recorded now; the task tries again later
    except Exception as error:  # a failure of ours must end this match, not leave it running
        log.exception("match %s: the worker failed", match_id)
        return _abort(runtime, running, f"worker error: {type(error).__name__}: {error}")
    finally:
        if outcome is not RunOutcome.FINISHED:  # a stored end took the lease away with it
            store.leases.release(match_id, owner)


def give_up_reason(running: MatchRecord, settings: Settings) -> str | None:
    """Why a match that has just started a run is aborted instead, or None to play it.

    Of its earlier runs (all but this one) those not counted failed were ended by their worker's
    death; each kind has its bound."""
    failed = running.failed_attempts
    deaths = running.attempts - 1 - failed
    if failed >= settings.max_attempts:
        return f"gave up after {failed} failed attempts"
    if deaths >= settings.max_worker_deaths:
        return f"gave up after {deaths} worker deaths"
    return None


def count_failed_attempt(runtime: Runtime, match_id: str) -> None:
    """Count the run of a match that the store failed under as failed, once the store answers
    again; a run never counted so was ended by its worker's death (:func:`give_up_reason`).

    Only a match still running is counted: a failure before its run started left it queued."""
    runtime.store.matches.update(
        match_id,
        lambda match: match.with_failed_attempt() if match.status is MatchStatus.RUNNING else None,
    )


_NOT_STARTED = {
    Begun.MISSING: RunOutcome.MISSING,
    Begun.ENDED: RunOutcome.ALREADY_ENDED,
    Begun.BUSY: RunOutcome.BUSY,
}


def _play_and_finish(
    runtime: Runtime, match: MatchRecord, spec: MatchSpec, bots: dict[str, BotRecord], owner: str
) -> RunOutcome:
    stop = _StopCheck(runtime.store, match)
    if stop():  # cancelled while it waited (its tournament, as a rule): no bot hears of it
        return _cancel_unplayed(runtime, match)
    missing = [bot_id for bot_id in dict.fromkeys(spec.bots) if bot_id not in bots]
    if missing:
        return _abort(runtime, match, f"bot(s) deleted before the match ran: {', '.join(missing)}")
    # each seat in its own bot's protocol version
    players = [
        Player(bots[bot_id].name, runtime.agent(bots[bot_id]), bots[bot_id].protocol) for bot_id in spec.bots
    ]
    progress = _ProgressReporter(runtime.live_writer, match.id)
    on_move = metrics.counting_moves(spec.game, progress)
    started = time.monotonic()
    try:
        with runtime.lease_keeper.holding(match.id, owner):
            try:
                replay = run_match(
                    match.id,
                    spec,
                    players,
                    on_move=on_move,
                    should_stop=stop,
                    max_seconds=runtime.settings.max_match_s,
                    clock=runtime.clock.time,
                )
            finally:
                progress.close()
    except SetupError as error:
        return _abort(runtime, match, f"could not start: {error}")
    except RedisError:
        raise
    except Exception as error:  # an engine bug must end this match, not the worker
        log.exception("match %s: the engine failed", match.id)
        return _abort(runtime, match, f"engine error: {type(error).__name__}: {error}")
    if replay.result.reason == STOPPED:
        return _store_cancelled(runtime, match, replay)
    if replay.result.reason == TIME_LIMIT:
        return _store_timed_out(runtime, match, replay)
    if not finish(runtime, match, replay):
        return RunOutcome.ALREADY_ENDED
    metrics.match_ended(spec.game, "finished", time.monotonic() - started)
    return RunOutcome.FINISHED


def _abort(runtime: Runtime, match: MatchRecord, reason: str) -> RunOutcome:
    """End the match as aborted (unless it ended meanwhile) and count it; an aborted match may be
    the last of its tournament's round, so the next round is looked for as after a finish."""
    if runtime.store.matches.abort(match.id, reason) is not None:
        metrics.match_ended(match.game, "aborted")
    _advance_tournament(runtime, match)
    return RunOutcome.ABORTED


class _StopCheck:
    """The runner's ``should_stop`` for one match: whether the match or its tournament was
    cancelled, read from the store at most every :data:`STOP_CHECK_EVERY_S` (the first time before
    the first move), so a fast game does not pay a read a move. A store that cannot answer lets the
    match go on; the next look asks again."""

    def __init__(self, store: Store, match: MatchRecord) -> None:
        self.store = store
        self.match = match
        self.next_look = 0.0

    def __call__(self) -> bool:
        now = time.monotonic()
        if now < self.next_look:
            return False
        self.next_look = now + STOP_CHECK_EVERY_S
        try:
            return self.store.matches.stop_asked(self.match.id, self.match.tournament)
        except RedisError as error:
            log.warning("match %s: could not ask whether it was cancelled: %s", self.match.id, error)
            return False


def _cancel_unplayed(runtime: Runtime, match: MatchRecord) -> RunOutcome:
    """End a match taken from the queue after it was cancelled: cancelled, no move played."""
    reason = "cancelled before it started"
    stored = runtime.store.matches.update(
        match.id, lambda current: None if current.status.ended else current.cancelled(reason)
    )
    if stored is not None:
        metrics.match_ended(match.game, "cancelled")
    _advance_tournament(runtime, match)
    return RunOutcome.CANCELLED if stored is not None else RunOutcome.ALREADY_ENDED


def _store_cancelled(runtime: Runtime, match: MatchRecord, replay: Replay) -> RunOutcome:
    """Store a match stopped at a move: cancelled, its moves so far as its replay, no ladder, no
    faults (it counts for nobody); its tournament's round may have ended with it."""
    moves = len(replay.moves)
    reason = f"cancelled while running, after {moves} moves"
    return _store_unrated(runtime, match, replay, MatchStatus.CANCELLED, reason, RunOutcome.CANCELLED)


def _store_timed_out(runtime: Runtime, match: MatchRecord, replay: Replay) -> RunOutcome:
    """Store a match the runner ended at ``ARENA_MAX_MATCH_SECONDS``: aborted, its moves so far as
    its replay, no ladder, no faults.

    Not finished: the game did not reach its end, and a draw (as at a variant's ``max_moves``, a
    fact of the game) would be the platform's invention, one a seat could force by thinking slowly.
    Not cancelled: nobody asked for it. Aborted says it could not be played to its end, and why."""
    moves = len(replay.moves)
    limit = runtime.settings.max_match_s
    reason = f"ran past the platform's time limit of {limit} s for a match, after {moves} moves"
    return _store_unrated(runtime, match, replay, MatchStatus.ABORTED, reason, RunOutcome.ABORTED)


def _store_unrated(
    runtime: Runtime,
    match: MatchRecord,
    replay: Replay,
    status: MatchStatus,
    reason: str,
    outcome: RunOutcome,
) -> RunOutcome:
    """Store a match that ended before its game did, as ``status`` for ``reason``: its moves so far
    as its replay, no ladder rows, no faults; its tournament's round may have ended with it."""
    end = MatchEnd(match.id, status, compress(replay), len(replay.moves), reason=reason, bots=match.bots)
    stored = runtime.store.finishing.finish_match(end)
    if stored:
        metrics.match_ended(match.game, outcome.value)
    _advance_tournament(runtime, match)
    return outcome if stored else RunOutcome.ALREADY_ENDED


def _advance_tournament(runtime: Runtime, match: MatchRecord) -> None:
    if not match.tournament:
        return
    try:  # a failure here is retried by the next ended match of the round
        progress.advance(runtime, match.tournament)
    except Exception:
        log.exception("could not make the next round of tournament %s", match.tournament)


class _ProgressReporter:
    """Hands the moves played to the runtime's :class:`arena.upkeep.LiveWriter`, for spectators of
    a running match; :meth:`close` when the match has ended, before its end is stored."""

    def __init__(self, writer: LiveWriter, match_id: str) -> None:
        self.match_id = match_id
        self.played = 0  # the moves of an earlier run were cleared when this run began
        self.writer = writer
        self.writer.start(match_id)

    def __call__(self, record: MoveRecord) -> None:
        self.played += 1
        self.writer.add(self.match_id, record, self.played)

    def close(self) -> None:
        self.writer.forget(self.match_id)


def finish(runtime: Runtime, match: MatchRecord, replay: Replay) -> bool:
    """Store the end of a match: record, replay, ladder, faults, all at once and exactly once.

    Returns False when the match had already been finished (by this or another run).
    """
    stored = runtime.store.finishing.finish_match(match_end(match, replay, runtime.settings.history_points))
    _advance_tournament(runtime, match)
    return stored


def match_end(match: MatchRecord, replay: Replay, history_points: int) -> MatchEnd:
    """How a match played to its end is stored: its result, seats and faults from the replay, its
    head-to-head verdicts, and for a rated match how it counts in its ladder."""
    spec = replay.spec
    facts = get_game(spec.game).variant(spec.variant)  # declared facts: rated, team
    ladder = (
        LadderCount(spec.game, spec.variant, facts, tuple(spec.bots), replay.result, match.id)
        if match.rated
        else None
    )
    return MatchEnd(
        match.id,
        MatchStatus.FINISHED,
        compress(replay),
        len(replay.moves),
        result=replay.result,
        seats=replay.seats,
        bots=match.bots,
        ladder=ladder,
        faults=replay.faults_by_bot(),
        verdicts=scoring.head_to_head(spec.bots, replay.result, facts.team),
        history_points=history_points,
    )
