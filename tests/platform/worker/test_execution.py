"""The worker side: a match's end counts exactly once, however often its task runs."""

from __future__ import annotations

import contextlib
import functools
import threading
from dataclasses import replace

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from arena import upkeep
from arena.ladders import counting
from arena.records import MatchRecord, MatchStatus
from arena.settings import Settings
from arena.storage import Store
from arena.worker import celery_app, execution
from arena.worker.celery_app import TASK_NAME, make_celery, wait_for_store
from arena.worker.execution import RunOutcome, execute, finish
from referee.game import TIME_LIMIT
from referee.protocol import Fault
from referee.replay import MoveRecord, Replay, verify_replay
from referee.runner import Player, run_match
from referee.transport.agents import LocalAgent, Reply
from tests.platform import bot_server
from tests.platform.conftest import Arena, ListQueue, make_runtime
from tests.platform.manual_clock import ManualClock
from tests.platform.round_trips import counting_round_trips
from tests.platform.waiting import wait_until


class TakeOne:
    def choose(self, request: dict) -> dict:
        return {"take": 1}


@pytest.fixture
def pair(arena: Arena) -> tuple[dict, dict]:
    return arena.register("A", "/first/a", ["nim"]), arena.register("B", "/first/b", ["nim"])


def played(arena: Arena, match: MatchRecord) -> Replay:
    spec = arena.runtime.store.matches.spec(match.id)
    assert spec is not None
    return run_match(match.id, spec, [Player(name, LocalAgent(TakeOne())) for name in match.names])


def set_status(arena: Arena, match_id: str, status: MatchStatus, **changes: object) -> None:
    arena.runtime.store.matches.update(match_id, lambda m: replace(m, status=status, **changes))


def test_running_the_finishing_step_twice_counts_the_match_once(arena: Arena, pair) -> None:
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])
    record = arena.runtime.store.matches.get(match["id"])
    replay = played(arena, record)
    assert finish(arena.runtime, record, replay) is True
    assert finish(arena.runtime, record, replay) is False
    rows = arena.runtime.store.ladders.rows("nim", "standard")
    assert rows[a["id"]]["games"] == rows[b["id"]]["games"] == 1
    assert rows[a["id"]]["rating"] == 1520.0
    assert arena.runtime.store.finishing.is_applied(match["id"])


def test_a_second_delivery_of_a_finished_match_does_nothing(arena: Arena, pair) -> None:
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])
    assert execute(arena.runtime, match["id"]) is RunOutcome.FINISHED
    assert execute(arena.runtime, match["id"]) is RunOutcome.ALREADY_ENDED
    assert arena.get(f"/api/v1/matches/{match['id']}")["attempts"] == 1
    assert arena.runtime.store.ladders.rows("nim", "standard")[a["id"]]["games"] == 1


def test_the_applied_mark_alone_stops_a_second_count(arena: Arena, pair) -> None:
    """Two runs of one match both reach the end (the first run's worker was thought dead)."""
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])
    record = arena.runtime.store.matches.get(match["id"])
    replay = played(arena, record)
    assert finish(arena.runtime, record, replay) is True
    # the slower run still sees the match running: only applied:<match id> stands in its way
    set_status(arena, match["id"], MatchStatus.RUNNING)
    assert finish(arena.runtime, record, replay) is False
    assert arena.runtime.store.ladders.rows("nim", "standard")[a["id"]]["games"] == 1
    assert arena.runtime.store.bots.faults(a["id"]) == {}


def test_a_live_lease_held_elsewhere_makes_the_run_wait(arena: Arena, pair) -> None:
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])
    assert arena.runtime.store.leases.acquire(match["id"], "another-worker", 30)
    assert execute(arena.runtime, match["id"]) is RunOutcome.BUSY
    assert arena.get(f"/api/v1/matches/{match['id']}")["status"] == "queued"
    arena.runtime.store.leases.release(match["id"], "someone-else")  # not the holder: no effect
    assert execute(arena.runtime, match["id"]) is RunOutcome.BUSY
    arena.runtime.store.leases.release(match["id"], "another-worker")
    assert execute(arena.runtime, match["id"]) is RunOutcome.FINISHED


def test_a_match_is_aborted_after_too_many_failed_attempts(arena: Arena, pair) -> None:
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])
    limit = arena.runtime.settings.max_attempts
    set_status(arena, match["id"], MatchStatus.RUNNING, attempts=limit, failed_attempts=limit)
    assert execute(arena.runtime, match["id"]) is RunOutcome.ABORTED
    done = arena.get(f"/api/v1/matches/{match['id']}")
    assert done["status"] == "aborted" and done["error"] == f"gave up after {limit} failed attempts"
    assert arena.runtime.store.ladders.rows("nim", "standard") == {}


def test_a_match_whose_workers_died_under_it_is_played_again_up_to_its_own_bound(arena: Arena, pair) -> None:
    # a crash storm: every earlier run ended with its worker killed, more of them than failures
    # are allowed; the match did nothing wrong and is played
    a, b = pair
    settings = arena.runtime.settings
    assert settings.max_worker_deaths > settings.max_attempts
    played_on = arena.match(game="nim", bots=[a["id"], b["id"]])
    set_status(arena, played_on["id"], MatchStatus.RUNNING, attempts=settings.max_worker_deaths - 1)
    assert execute(arena.runtime, played_on["id"]) is RunOutcome.FINISHED
    assert arena.get(f"/api/v1/matches/{played_on['id']}")["attempts"] == settings.max_worker_deaths
    # but a match that every worker playing it died under ends, at that bound
    killer = arena.match(game="nim", bots=[a["id"], b["id"]])
    set_status(arena, killer["id"], MatchStatus.RUNNING, attempts=settings.max_worker_deaths)
    assert execute(arena.runtime, killer["id"]) is RunOutcome.ABORTED
    done = arena.get(f"/api/v1/matches/{killer['id']}")
    assert done["error"] == f"gave up after {settings.max_worker_deaths} worker deaths"


@pytest.mark.parametrize(
    ("attempts", "failed", "reason"),
    [
        (1, 0, None),  # a first run
        (3, 2, None),  # two failed runs
        (4, 3, "gave up after 3 failed attempts"),
        (11, 0, None),  # ten earlier runs, all ended by deaths, is within the bound
        (12, 0, "gave up after 11 worker deaths"),
        (13, 2, None),  # two failed, ten deaths: each kind within its own bound
        (14, 2, "gave up after 11 worker deaths"),
    ],
)
def test_the_bounds_on_failed_runs_and_deaths_are_counted_apart(attempts: int, failed: int, reason) -> None:
    settings = Settings(max_attempts=3, max_worker_deaths=11)
    running = replace(
        MatchRecord.new("m-1", "nim", "standard", ("a", "b"), ("A", "B"), rated=False),
        status=MatchStatus.RUNNING,
        attempts=attempts,
        failed_attempts=failed,
    )
    assert execution.give_up_reason(running, settings) == reason


def test_a_run_the_store_failed_under_is_counted_failed_not_a_death(arena: Arena, pair, monkeypatch) -> None:
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])
    celery = make_celery(arena.runtime.settings, lambda app: arena.runtime)
    FlakyStore(monkeypatch, arena.runtime.store.finishing, "finish_match", times=2)
    celery.tasks[TASK_NAME].apply(args=[match["id"]])  # eager: each retry runs at once
    done = arena.runtime.store.matches.get(match["id"])
    assert done is not None and done.status is MatchStatus.FINISHED
    assert (done.attempts, done.failed_attempts) == (3, 2)
    # a failure before the run started counts nothing: the match was still queued
    queued = arena.match(game="nim", bots=[a["id"], b["id"]])
    execution.count_failed_attempt(arena.runtime, queued["id"])
    assert arena.runtime.store.matches.get(queued["id"]).failed_attempts == 0


def test_a_bot_deleted_before_the_match_runs_aborts_it(arena: Arena, pair) -> None:
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])
    arena.client.delete(f"/api/v1/bots/{b['id']}", headers={"Authorization": f"Bearer {b['token']}"})
    assert execute(arena.runtime, match["id"]) is RunOutcome.ABORTED
    done = arena.get(f"/api/v1/matches/{match['id']}")
    assert done["status"] == "aborted" and b["id"] in done["error"]


def test_an_engine_failure_aborts_the_match_not_the_worker(arena: Arena, pair, monkeypatch) -> None:
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])

    def broken(*args, **kwargs):
        raise ZeroDivisionError("engine bug")

    monkeypatch.setattr(execution, "run_match", broken)
    assert execute(arena.runtime, match["id"]) is RunOutcome.ABORTED
    assert (
        arena.get(f"/api/v1/matches/{match['id']}")["error"] == "engine error: ZeroDivisionError: engine bug"
    )
    assert execute(arena.runtime, "m-unknown") is RunOutcome.MISSING


def test_a_result_that_cannot_be_stored_aborts_the_match_instead_of_leaving_it_running(
    arena: Arena, pair, monkeypatch
) -> None:
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])

    def broken(*args, **kwargs):
        raise KeyError("places")

    monkeypatch.setattr(counting.rows, "apply_result", broken)
    assert execute(arena.runtime, match["id"]) is RunOutcome.ABORTED
    done = arena.get(f"/api/v1/matches/{match['id']}")
    assert done["status"] == "aborted" and done["error"] == "worker error: KeyError: 'places'"
    assert not arena.runtime.store.finishing.is_applied(match["id"])
    assert arena.runtime.store.redis.get(arena.runtime.store.key("match", match["id"], "lease")) is None


class FlakyStore:
    """Makes one store method raise a Redis connection error the first ``times`` calls."""

    def __init__(self, monkeypatch, store, method: str, times: int = 1) -> None:
        self.left = times
        real = getattr(store, method)

        def flaky(*args, **kwargs):
            if self.left:
                self.left -= 1
                raise RedisConnectionError("connection reset by peer")
            return real(*args, **kwargs)

        monkeypatch.setattr(store, method, flaky)


def test_a_store_failure_at_the_end_is_raised_and_the_task_plays_the_match_again(
    arena: Arena, pair, monkeypatch
) -> None:
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])
    FlakyStore(monkeypatch, arena.runtime.store.finishing, "finish_match")
    with pytest.raises(RedisConnectionError):
        execute(arena.runtime, match["id"])
    assert arena.get(f"/api/v1/matches/{match['id']}")["status"] == "running"  # nothing could be stored

    celery = make_celery(arena.runtime.settings, lambda app: arena.runtime)
    FlakyStore(monkeypatch, arena.runtime.store.finishing, "finish_match")
    celery.tasks[TASK_NAME].apply(args=[match["id"]])  # eager: the retry runs at once
    done = arena.get(f"/api/v1/matches/{match['id']}")
    assert done["status"] == "finished" and done["attempts"] == 3
    assert arena.runtime.store.ladders.rows("nim", "standard")[a["id"]]["games"] == 1


def test_after_a_store_failure_the_task_waits_for_the_store_before_its_retry_goes_to_the_broker(
    arena: Arena, pair, monkeypatch
) -> None:
    """A retry sent, or an acknowledgement made, while Redis is away fails; the failed acknowledgement
    would keep a prefetch slot taken for good. So the task first waits for the store to answer."""
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])
    FlakyStore(monkeypatch, arena.runtime.store.finishing, "finish_match")
    away = FlakyStore(monkeypatch, arena.runtime.store, "ping", times=3)
    slept: list[float] = []
    monkeypatch.setattr(celery_app, "wait_for_store", functools.partial(wait_for_store, sleep=slept.append))
    celery = make_celery(arena.runtime.settings, lambda app: arena.runtime)
    celery.tasks[TASK_NAME].apply(args=[match["id"]])
    assert away.left == 0 and slept == [0.5, 0.5, 0.5], "three failed pings, then the retry"
    assert arena.get(f"/api/v1/matches/{match['id']}")["status"] == "finished"


def test_the_wait_for_the_store_is_bounded(arena: Arena, monkeypatch) -> None:
    def away() -> bool:
        raise RedisConnectionError("connection refused")

    with monkeypatch.context() as patch:
        patch.setattr(arena.runtime.store, "ping", away)
        slept: list[float] = []
        assert wait_for_store(arena.runtime, bound_s=0.0, sleep=slept.append) is False and slept == []
        assert wait_for_store(arena.runtime, bound_s=0.05, every_s=0.01) is False
    assert wait_for_store(arena.runtime, bound_s=0.0) is True


def test_progress_the_store_cannot_take_does_not_stop_the_match(arena: Arena, pair, monkeypatch) -> None:
    a, b = pair
    match = arena.match(game="nim", bots=[a["id"], b["id"]])
    FlakyStore(monkeypatch, arena.runtime.store.progress, "append_live", times=100)
    assert execute(arena.runtime, match["id"]) is RunOutcome.FINISHED
    assert arena.get(f"/api/v1/matches/{match['id']}")["status"] == "finished"


def _move(turn: int) -> MoveRecord:
    return MoveRecord(turn, turn % 2, {"take": 1}, "bot", None, 1.0, None)


def test_the_progress_of_every_match_is_written_in_one_round_trip_in_order(arena: Arena, monkeypatch) -> None:
    store = arena.runtime.store
    writes: list[dict] = []
    real = store.progress.append_live
    monkeypatch.setattr(
        store.progress, "append_live", lambda batch: (writes.append(dict(batch)), real(batch))
    )
    writer = upkeep.LiveWriter(store, every_s=3600)  # its thread stays asleep: the test flushes
    for match_id in ("m1", "m2"):
        writer.start(match_id)
    writer.add("m1", _move(0), 1)
    writer.add("m2", _move(0), 1)
    writer.add("m1", _move(1), 2)
    writer.flush()
    writer.add("m1", _move(2), 3)
    writer.flush()
    writer.flush()  # nothing new: no round trip
    assert [sorted(write) for write in writes] == [["m1", "m2"], ["m1"]]
    assert [move["turn"] for move in store.progress.live_moves("m1")] == [0, 1, 2]
    assert [move["turn"] for move in store.progress.live_moves("m2")] == [0]
    assert store.progress.played(["m1", "m2"]) == {"m1": 3, "m2": 1}
    writer.forget("m1")
    writer.forget("m2")


def test_a_match_forgotten_writes_nothing_more_and_a_failed_write_is_kept(arena: Arena, monkeypatch) -> None:
    store = arena.runtime.store
    writer = upkeep.LiveWriter(store, every_s=3600)  # its thread stays asleep: the test flushes
    writer.start("ended")
    writer.start("going")
    writer.add("ended", _move(0), 1)
    writer.add("going", _move(0), 1)
    FlakyStore(monkeypatch, store.progress, "append_live")
    writer.flush()  # fails: both kept
    writer.forget("ended")  # its end is stored now: what it had not written is dropped
    writer.add("ended", _move(1), 2)  # a late report of an ended match is ignored
    writer.add("going", _move(1), 2)
    writer.flush()
    assert store.progress.live_moves("ended") == []
    assert [move["turn"] for move in store.progress.live_moves("going")] == [0, 1]
    writer.forget("going")


@pytest.mark.parametrize("path", sorted(bot_server.RAW))
def test_answers_no_http_library_would_send_are_faults_not_a_failed_match(arena: Arena, path) -> None:
    odd = arena.register("odd", path, ["nim"])
    good = arena.register("good", "/first/good", ["nim"])
    match = arena.match(game="nim", bots=[odd["id"], good["id"]], max_faults=2)
    assert execute(arena.runtime, match["id"]) is RunOutcome.FINISHED
    done = arena.get(f"/api/v1/matches/{match['id']}")
    assert done["status"] == "finished" and done["error"] is None
    assert (done["seats"][0]["faults"], done["seats"][0]["forfeited"]) == (2, True)
    faults = arena.get(f"/api/v1/bots/{odd['id']}")["faults"]["by_kind"]
    assert faults == {"invalid_response": 2, "forfeit": 1}


def test_a_log_utf8_cannot_encode_is_kept_with_a_replacement_and_no_fault(arena: Arena) -> None:
    odd = arena.register("odd", "/oddlog/1", ["nim"])
    good = arena.register("good", "/first/good", ["nim"])
    match = arena.match(game="nim", bots=[odd["id"], good["id"]], options={"stones": 2})
    assert execute(arena.runtime, match["id"]) is RunOutcome.FINISHED
    replay = arena.client.get(f"/api/v1/matches/{match['id']}/replay").get_json()
    first = replay["moves"][0]
    assert (first["source"], first["fault"]) == ("bot", None)
    assert first["log"] == "? a lone surrogate: JSON can carry it, UTF-8 cannot"


def _sample(name: str, **labels: str) -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_run_counts_its_end_its_moves_and_its_faults_in_the_worker_metrics(arena: Arena) -> None:
    broken = arena.register("broken", "/deep/x", ["nim"])
    good = arena.register("good", "/first/good", ["nim"])
    before = {
        "finished": _sample("arena_matches_total", game="nim", outcome="finished"),
        "aborted": _sample("arena_matches_total", game="nim", outcome="aborted"),
        "moves": _sample("arena_move_think_seconds_count", game="nim"),
        "faults": _sample("arena_faults_total", game="nim", kind="invalid_response"),
    }
    # 9 stones: seat 0 moves at least twice before the pile is gone, whatever its fallbacks take
    match = arena.match(game="nim", bots=[broken["id"], good["id"]], max_faults=2)
    assert execute(arena.runtime, match["id"]) is RunOutcome.FINISHED
    assert _sample("arena_matches_total", game="nim", outcome="finished") == before["finished"] + 1
    moves = arena.client.get(f"/api/v1/matches/{match['id']}/replay").get_json()["moves"]
    kinds = [move["fault"]["kind"] if move["fault"] else None for move in moves]
    assert kinds.count("invalid_response") == 2  # the broken seat's two faults, then it forfeits
    assert _sample("arena_faults_total", game="nim", kind="invalid_response") == before["faults"] + 2
    asked = len([kind for kind in kinds if kind != "forfeited"])  # a forfeited seat is not asked
    assert _sample("arena_move_think_seconds_count", game="nim") == before["moves"] + asked
    aborted = arena.match(game="nim", bots=[broken["id"], good["id"]])
    arena.runtime.store.matches.abort(aborted["id"], "by hand")  # not a run of a worker: not counted
    assert _sample("arena_matches_total", game="nim", outcome="aborted") == before["aborted"]


LEASE_S = 30
NEARLY_LAPSED_MS = 5_000
"""What a lease's key is left to live, in Redis's own time, when a test stands for most of its life
having passed: the keeper's renewal is seen when the key has more than this again."""


def lease_key(store: Store, match_id: str) -> str:
    return store.key("match", match_id, "lease")


def nearly_lapse(store: Store, match_ids: list[str]) -> None:
    """Redis keeps a lease's time itself: a test shortens it rather than wait it out."""
    for match_id in match_ids:
        store.redis.pexpire(lease_key(store, match_id), NEARLY_LAPSED_MS)


def lives_ms(store: Store, match_id: str) -> int:
    return int(store.redis.pttl(lease_key(store, match_id)))


def test_a_running_match_keeps_its_lease_past_the_lease_time_and_gives_it_up_at_the_end() -> None:
    runtime = make_runtime(ListQueue(), lease_s=LEASE_S)
    runtime.clock = clock = ManualClock()
    store = runtime.store
    assert store.leases.acquire("m-1", "me", LEASE_S)
    with runtime.lease_keeper.holding("m-1", "me"):
        for _ in range(4):  # past the lease's time: only the renewals (every third of it) keep it
            clock.until_asleep("arena-leases")
            nearly_lapse(store, ["m-1"])
            clock.advance(LEASE_S / 3)
            clock.until_asleep("arena-leases")
            assert store.redis.get(lease_key(store, "m-1")) == "me"
            assert lives_ms(store, "m-1") > NEARLY_LAPSED_MS
    store.leases.release("m-1", "me")
    assert store.redis.get(lease_key(store, "m-1")) is None


def test_one_thread_keeps_the_leases_of_every_match_of_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    runtime = make_runtime(ListQueue(), lease_s=LEASE_S)
    runtime.clock = clock = ManualClock()
    store = runtime.store
    matches = [f"m-{number}" for number in range(20)]
    for match_id in matches:
        assert store.leases.acquire(match_id, f"run-{match_id}", LEASE_S)
    renewals: list[list[str]] = []
    renew = store.leases.renew

    def counted(held: dict[str, str], seconds: float) -> list[str]:
        renewals.append(sorted(held))
        return renew(held, seconds)

    monkeypatch.setattr(store.leases, "renew", counted)
    threads_before = threading.active_count()
    with contextlib.ExitStack() as held:
        for match_id in matches:
            held.enter_context(runtime.lease_keeper.holding(match_id, f"run-{match_id}"))
        assert threading.active_count() <= threads_before + 1
        clock.until_asleep("arena-leases")
        nearly_lapse(store, matches)
        clock.advance(LEASE_S / 3)
        clock.until_asleep("arena-leases")
        assert renewals == [sorted(matches)], "the one thread renewed them all at once"
        leases = [store.redis.get(lease_key(store, match_id)) for match_id in matches]
        assert leases == [f"run-{match_id}" for match_id in matches]
        assert min(lives_ms(store, match_id) for match_id in matches) > NEARLY_LAPSED_MS
    nearly_lapse(store, matches)
    clock.advance(LEASE_S / 3)  # no match is held: the thread stops, renewing nothing, and the leases lapse
    wait_until(lambda: threading.active_count() <= threads_before, 30, "the lease thread did not stop")
    assert len(renewals) == 1
    assert max(lives_ms(store, match_id) for match_id in matches) <= NEARLY_LAPSED_MS


def test_leases_are_renewed_together_and_only_where_their_owner_still_holds_them(monkeypatch) -> None:
    store = make_runtime(ListQueue()).store
    for number in range(5):
        assert store.leases.acquire(f"m-{number}", f"run-{number}", 1)
    assert store.leases.acquire("m-taken", "another run", 30)
    held = {f"m-{number}": f"run-{number}" for number in range(5)}
    held |= {"m-taken": "a run that lost it", "m-gone": "a run whose match ended"}
    with counting_round_trips(store, monkeypatch) as trips:
        lost = store.leases.renew(held, 30)
    assert sorted(lost) == ["m-gone", "m-taken"] and len(trips) == 2
    for number in range(5):
        assert 1_000 < store.redis.pttl(store.key("match", f"m-{number}", "lease")) <= 30_000
    assert store.redis.get(store.key("match", "m-taken", "lease")) == "another run"
    assert store.redis.get(store.key("match", "m-gone", "lease")) is None  # not brought back
    assert store.leases.renew({}, 30) == []


def test_a_renewal_after_the_release_does_not_bring_the_lease_back() -> None:
    # why dropping a match from the lease keeper need not wait for a round of renewals under way
    store = make_runtime(ListQueue()).store
    assert store.leases.acquire("m-1", "me", 30)
    store.leases.release("m-1", "me")
    assert store.leases.renew({"m-1": "me"}, 30) == ["m-1"]
    assert store.redis.get(store.key("match", "m-1", "lease")) is None
    assert store.leases.acquire("m-1", "another worker", 30)
    assert store.leases.renew({"m-1": "me"}, 30) == ["m-1"]
    assert store.redis.get(store.key("match", "m-1", "lease")) == "another worker"


class OnTheClock:
    """A bot that takes one stone after ``think_s`` of the runtime's clock, which it moves (or times
    out, the clock moved by the timeout, when given less)."""

    def __init__(self, clock: ManualClock, think_s: float) -> None:
        self.clock = clock
        self.think_s = think_s

    def ask(self, request: dict, timeout_s: float) -> Reply:
        if timeout_s < self.think_s:
            self.clock.advance(timeout_s)
            return Reply(None, timeout_s * 1000, Fault.TIMEOUT, "no answer in time")
        self.clock.advance(self.think_s)
        return Reply({"take": 1}, self.think_s * 1000)

    def notify(self, request: dict, timeout_s: float) -> None:
        pass


def test_a_match_past_the_platforms_time_limit_is_aborted_unrated_with_its_moves_so_far(
    arena: Arena, pair
) -> None:
    a, b = pair
    arena.runtime.settings = replace(arena.runtime.settings, max_match_s=10)
    arena.runtime.clock = clock = ManualClock()
    arena.runtime.agent_for = lambda bot: OnTheClock(clock, 2.0)
    match = arena.match(game="nim", bots=[a["id"], b["id"]], options={"stones": 50}, time={"move_ms": 5000})
    assert execute(arena.runtime, match["id"]) is RunOutcome.ABORTED
    shown = arena.get(f"/api/v1/matches/{match['id']}")
    assert shown["status"] == "aborted" and shown["moves"] == 5, "five moves of 2 s fill the 10 s"
    assert shown["error"] == "ran past the platform's time limit of 10 s for a match, after 5 moves"
    assert shown["result"] is None and shown["replay_url"] == f"/api/v1/matches/{match['id']}/replay"
    replay = arena.client.get(shown["replay_url"]).get_json()
    assert replay["result"]["reason"] == TIME_LIMIT and len(replay["moves"]) == 5
    assert verify_replay(replay) == []
    moves = arena.get(f"/api/v1/matches/{match['id']}/moves")["moves"]
    assert [move["move"] for move in moves] == [{"take": 1}] * 5
    page = arena.client.get(f"/matches/{match['id']}").get_data(as_text=True)
    assert shown["error"] in page.replace("&#39;", "'")
    assert 'data-total="5"' in page, "the page steps through its moves"
    # rated as asked, yet counted for nobody: no ladder row, no faults
    assert arena.runtime.store.ladders.rows("nim", "standard") == {}
    assert arena.get(f"/api/v1/bots/{a['id']}")["faults"]["total"] == 0
    assert execute(arena.runtime, match["id"]) is RunOutcome.ALREADY_ENDED


def test_the_runtime_owns_one_lease_keeper_and_one_live_writer() -> None:
    """No registry of the process: each runtime keeps its own, made once, and a new one when the
    test gives it a clock of its own."""
    runtime = make_runtime(ListQueue(), lease_s=LEASE_S)
    other = make_runtime(ListQueue(), lease_s=LEASE_S)
    other.store = runtime.store
    assert runtime.lease_keeper is runtime.lease_keeper and runtime.live_writer is runtime.live_writer
    assert other.lease_keeper is not runtime.lease_keeper and other.live_writer is not runtime.live_writer
    first = runtime.lease_keeper
    runtime.clock = clock = ManualClock()
    assert runtime.lease_keeper is not first and runtime.lease_keeper.clock is clock
