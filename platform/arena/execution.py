"""Running one stored match: the whole body of the match task, without Celery.

The task may run more than once for a match (a worker killed mid-match, a broker redelivery), so
every step is safe to repeat:

1. A match that already ended is left alone.
2. A lease (a Redis key with a TTL, renewed by a heartbeat while the match runs) makes sure only one
   worker plays a match at a time; a run that finds a live lease reports :attr:`RunOutcome.BUSY` and
   the task retries after the lease would have lapsed.
3. Every run counts an attempt; past ``ARENA_MAX_ATTEMPTS`` the match is aborted rather than
   killing workers forever.
4. The end is stored by :meth:`arena.store.Store.finish_match`: result, replay, ladder and fault
   counts in one transaction guarded by ``applied:<match id>``, so a result counts exactly once
   even when two runs both reach the end.
5. No match is left ``running`` by a failure: anything that goes wrong while a match runs or is
   stored aborts it with the reason, except the store itself failing (:class:`RedisError`), which
   is raised so the task runs the match again once the store is back (the attempts bound that).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import Counter
from enum import StrEnum
from typing import Any

from redis.exceptions import RedisError

from arena import ladder
from arena.match_requests import abort
from arena.runtime import Runtime, now_iso
from arena.store import TERMINAL_STATUSES, Record
from referee.game import SetupError
from referee.registry import get_game
from referee.replay import compress
from referee.runner import SeatBot, TimeControl, run_match

log = logging.getLogger(__name__)
PROGRESS_EVERY_S = 0.5


class RunOutcome(StrEnum):
    FINISHED = "finished"
    ALREADY_ENDED = "already_ended"
    """The match had ended (or another run stored its end first): nothing changed."""
    BUSY = "busy"
    """Another worker holds the match's lease; try again once it could have lapsed."""
    ABORTED = "aborted"
    MISSING = "missing"


class _Heartbeat:
    """Renews the match's lease from a thread while the match plays (bots may think for long)."""

    def __init__(self, runtime: Runtime, match_id: str, owner: str) -> None:
        self.runtime = runtime
        self.match_id = match_id
        self.owner = owner
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"lease:{match_id}", daemon=True)

    def _beat(self) -> None:
        seconds = self.runtime.settings.lease_s
        while not self.stopped.wait(seconds / 3):
            try:
                renewed = self.runtime.store.renew_lease(self.match_id, self.owner, seconds)
            except RedisError as error:  # the next beat tries again; the lease may lapse meanwhile
                log.warning("match %s: could not renew the lease: %s", self.match_id, error)
                continue
            if not renewed:
                log.warning("match %s: lease lost while running", self.match_id)

    def __enter__(self) -> _Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()


def _mark_running(match: Record) -> Record | None:
    if match["status"] in TERMINAL_STATUSES:
        return None
    return {**match, "status": "running", "started_at": now_iso(), "attempts": match["attempts"] + 1}


def execute(runtime: Runtime, match_id: str) -> RunOutcome:
    """Play a stored match to its end and store the end (see the module's steps)."""
    store = runtime.store
    match = store.get_match(match_id)
    if match is None:
        log.warning("match %s does not exist", match_id)
        return RunOutcome.MISSING
    if match["status"] in TERMINAL_STATUSES:
        return RunOutcome.ALREADY_ENDED
    owner = uuid.uuid4().hex
    if not store.acquire_lease(match_id, owner, runtime.settings.lease_s):
        return RunOutcome.BUSY
    try:
        running = store.update_match(match_id, _mark_running)
        if running is None:
            return RunOutcome.ALREADY_ENDED
        if running["attempts"] > runtime.settings.max_attempts:
            abort(runtime, match_id, f"gave up after {runtime.settings.max_attempts} attempts")
            return RunOutcome.ABORTED
        return _play_and_finish(runtime, running, owner)
    except RedisError:
        raise  # the store is unreachable: nothing can be recorded now; the task tries again later
    except Exception as error:  # a failure of ours must end this match, not leave it running
        log.exception("match %s: the worker failed", match_id)
        abort(runtime, match_id, f"worker error: {type(error).__name__}: {error}")
        return RunOutcome.ABORTED
    finally:
        store.release_lease(match_id, owner)


def _play_and_finish(runtime: Runtime, match: Record, owner: str) -> RunOutcome:
    store = runtime.store
    match_id = match["id"]
    bots = store.get_bots(match["bots"])
    missing = [bot_id for bot_id in match["bots"] if bot_id not in bots]
    if missing:
        abort(runtime, match_id, f"bot(s) deleted before the match ran: {', '.join(missing)}")
        return RunOutcome.ABORTED
    seats = [
        SeatBot(bot_id, bots[bot_id]["name"], runtime.agent_for(bots[bot_id])) for bot_id in match["bots"]
    ]
    progress = _ProgressReporter(runtime, match_id)
    try:
        with _Heartbeat(runtime, match_id, owner):
            replay = run_match(
                match_id=match_id,
                game_id=match["game"],
                variant=match["variant"],
                seats=seats,
                seed=match["seed"],
                options=match["options"],
                setup=match["setup"],
                time=TimeControl.from_json(match["time"]),
                max_faults=match["max_faults"],
                on_move=progress,
            )
    except SetupError as error:
        abort(runtime, match_id, f"could not start: {error}")
        return RunOutcome.ABORTED
    except Exception as error:  # an engine bug must end this match, not the worker
        log.exception("match %s: the engine failed", match_id)
        abort(runtime, match_id, f"engine error: {type(error).__name__}: {error}")
        return RunOutcome.ABORTED
    progress.write(len(replay["moves"]))
    return RunOutcome.FINISHED if finish(runtime, match, replay) else RunOutcome.ALREADY_ENDED


class _ProgressReporter:
    """Writes the number of moves played now and then, for ``GET /matches/<id>`` while running."""

    def __init__(self, runtime: Runtime, match_id: str) -> None:
        self.runtime = runtime
        self.match_id = match_id
        self.moves = 0
        self.last = 0.0

    def __call__(self, record: dict[str, Any]) -> None:
        self.moves += 1
        now = time.monotonic()
        if now - self.last >= PROGRESS_EVERY_S:
            self.last = now
            self.write(self.moves)

    def write(self, moves: int) -> None:
        try:
            self.runtime.store.set_progress(self.match_id, moves)
        except RedisError as error:  # progress is only shown; the match goes on
            log.warning("match %s: could not report progress: %s", self.match_id, error)


def faults_by_bot(replay: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Fault kinds per bot from the replay's moves, plus ``forfeit`` for each seat that forfeited.

    Moves played for a seat after it forfeited are not faults of their own.
    """
    bot_of_seat = {seat["seat"]: seat["bot_id"] for seat in replay["seats"]}
    counts: dict[str, Counter[str]] = {bot: Counter() for bot in bot_of_seat.values()}
    for record in replay["moves"]:
        fault = record.get("fault")
        if fault and fault["kind"] != "forfeited":
            counts[bot_of_seat[record["seat"]]][fault["kind"]] += 1
    for seat in replay["seats"]:
        if seat["forfeited"]:
            counts[seat["bot_id"]]["forfeit"] += 1
    return {bot: dict(kinds) for bot, kinds in counts.items() if kinds}


def finish(runtime: Runtime, match: Record, replay: dict[str, Any]) -> bool:
    """Store the end of a match: record, replay, ladder, faults, all at once and exactly once.

    Returns False when the match had already been finished (by this or another run).
    """
    spec = get_game(match["game"]).variant(match["variant"])
    result = replay["result"]

    def finished(current: Record) -> Record:
        return {
            **current,
            "status": "finished",
            "finished_at": now_iso(),
            "result": result,
            "seats": [
                {
                    "seat": seat["seat"],
                    "bot_id": seat["bot_id"],
                    "name": seat["name"],
                    "faults": seat["faults"],
                    "forfeited": seat["forfeited"],
                }
                for seat in replay["seats"]
            ],
            "moves": len(replay["moves"]),
            "error": None,
        }

    def update_ladder(rows: dict[str, Record]) -> dict[str, Record]:
        return ladder.apply_result(rows, spec, match["bots"], result, match["id"])

    return runtime.store.finish_match(
        match["id"],
        finished,
        compress(replay),
        (match["game"], match["variant"]) if match["rated"] else None,
        update_ladder if match["rated"] else (lambda rows: {}),
        faults_by_bot(replay),
    )
