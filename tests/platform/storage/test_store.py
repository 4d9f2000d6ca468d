"""Replays and old matches out of Redis: a match's end and its replay are one run's, archived matches
leave only their id in Redis and read back unchanged through the store, the API and tournaments."""

from __future__ import annotations

import gzip
import json
import socket
import threading
import time
from typing import Any

import pytest
from redis.exceptions import RedisError

from arena.cli.main import main
from arena.ladders.counting import LadderCount
from arena.ladders.rows import new_row
from arena.matches import archive
from arena.matches.archive import archive_ended
from arena.records import BotRecord, MatchRecord, MatchStatus
from arena.settings import Settings
from arena.storage import MatchEnd, Store
from arena.storage.files import DirectoryStore, MemoryStore, StorageUnavailable, record_name, replay_name
from arena.storage.finishing import Finishing
from arena.worker.celery_app import redis_runtime
from referee.match import MatchSpec
from referee.registry import get_game
from referee.replay import MatchResult, decompress
from tests.platform.conftest import Arena
from tests.platform.manual_clock import ManualClock

LATER = time.time() + 3650 * archive.DAY_S
"""A "now" long after every match of these tests ended: all of them are old enough to archive."""


def _stored_match(store: Store, match_id: str) -> MatchRecord:
    match = MatchRecord.new(match_id, "nim", "standard", ("b-1", "b-2"), ("One", "Two"), rated=False)
    spec = MatchSpec.build(game="nim", bots=["b-1", "b-2"], seed=3)
    store.matches.add([(match, spec)])
    return match


RESULT = MatchResult(places=(1, 2), scores=(1.0, 0.0), reason="end")


def _finish(store: Store, match_id: str, replay: bytes, moves: int) -> bool:
    return store.finishing.finish_match(
        MatchEnd(match_id, MatchStatus.FINISHED, replay, moves, result=RESULT)
    )


def _replay_files(files: MemoryStore, match_id: str) -> list[str]:
    return sorted(name for name in files.documents if name.startswith(f"replays/{match_id}/"))


@pytest.fixture
def store(toy_games: None) -> Store:
    return Store.in_memory("t:", MemoryStore())


def test_the_store_stamps_a_requeued_match_with_its_own_clock(toy_games: None) -> None:
    """When a match waits in the queue since is the store's clock's, as the sweeper's "now" is the
    runtime's: a test that steps one clock sees both follow it."""
    clock = ManualClock(start=1_000.0)
    store = Store.in_memory("t:", MemoryStore(), clock=clock)
    _stored_match(store, "m-1")
    store.matches.start("m-1")
    clock.advance(500.0)
    assert store.queue.requeue_if_stranded("m-1")
    assert store.redis.zscore("t:queued", "m-1") == 1_500.0
    clock.advance(60.0)
    store.queue.requeued_now("m-1")
    assert store.queue.queued_before(1_559.0) == [] and store.queue.queued_before(1_560.0) == ["m-1"]


def test_a_match_is_listed_under_its_status_only_through_every_change(store: Store) -> None:
    """The lists by status follow the record through queued, running, requeued and ended."""

    def lists() -> dict[str, bool]:
        return {
            "queued": store.redis.zscore("t:queued", "m-1") is not None,
            "running": bool(store.redis.sismember("t:running", "m-1")),
            "finished": store.redis.zscore("t:matches:status:finished", "m-1") is not None,
        }

    _stored_match(store, "m-1")
    assert lists() == {"queued": True, "running": False, "finished": False}
    store.matches.start("m-1")
    assert lists() == {"queued": False, "running": True, "finished": False}
    assert store.queue.requeue_if_stranded("m-1")
    assert lists() == {"queued": True, "running": False, "finished": False}
    store.matches.start("m-1")
    assert _finish(store, "m-1", gzip.compress(b"{}"), 3)
    assert lists() == {"queued": False, "running": False, "finished": True}
    assert store.matches.ids_page(status=MatchStatus.FINISHED) == (["m-1"], 1)


def test_a_bot_added_once_is_added_by_the_first_only(store: Store) -> None:
    """Two adds of the same id (two processes registering the same house bot): the first is kept,
    listed once, and the second says it added nothing."""
    stamp = "2026-11-26T00:00:00+00:00"
    first = BotRecord("b-1", "First", "house:nim/a", ("nim",), "-", "s" * 32, stamp, 1.0, stamp)
    assert store.bots.add_once(first) is True
    second = BotRecord("b-1", "Second", "house:nim/a", ("nim", "party"), "-", "t" * 32, stamp, 2.0, stamp)
    assert store.bots.add_once(second) is False
    assert store.bots.get("b-1") == first
    assert [bot.id for bot in store.bots.list_all()] == ["b-1"]
    assert store.bots.ids_of_game("nim") == ["b-1"] and store.bots.ids_of_game("party") == []


def test_a_finished_match_keeps_only_a_run_token_in_redis(store: Store) -> None:
    _stored_match(store, "m-1")
    store.matches.start("m-1")
    replay = gzip.compress(b'{"moves":[1,2,3]}')
    assert _finish(store, "m-1", replay, 3)
    in_redis = bytes(store.blobs.get("t:match:m-1:replay") or b"")  # type: ignore[arg-type]
    assert in_redis is not None and len(in_redis) <= 16 and not in_redis.startswith(b"\x1f\x8b")
    [name] = _replay_files(store.files, "m-1")  # type: ignore[arg-type]
    assert name == replay_name("m-1", in_redis.decode())
    assert store.replays.get("m-1") == replay


def test_a_second_run_that_reaches_the_end_changes_nothing(store: Store) -> None:
    _stored_match(store, "m-1")
    assert _finish(store, "m-1", gzip.compress(b"first"), 1)
    assert not _finish(store, "m-1", gzip.compress(b"second"), 2)
    assert store.matches.get("m-1").moves == 1  # type: ignore[union-attr]
    assert gzip.decompress(store.replays.get("m-1") or b"") == b"first"
    assert len(_replay_files(store.files, "m-1")) == 1  # type: ignore[arg-type]


def test_when_two_runs_race_the_stored_replay_is_the_winners(store: Store) -> None:
    """Run A writes its replay; before its transaction, run B stores its whole end. A must lose, and
    the replay read back must be B's, the one whose result is stored."""
    _stored_match(store, "m-1")
    files = store.files
    assert isinstance(files, MemoryStore)
    put = files.put
    raced: list[str] = []

    def put_then_let_the_other_run_win(name: str, data: bytes) -> bool:
        stored = put(name, data)
        if not raced:
            raced.append(name)
            assert _finish(store, "m-1", gzip.compress(b"run B"), 7)
        return stored

    files.put = put_then_let_the_other_run_win  # type: ignore[method-assign]
    assert not _finish(store, "m-1", gzip.compress(b"run A"), 3)
    assert store.matches.get("m-1").moves == 7  # type: ignore[union-attr]
    assert gzip.decompress(store.replays.get("m-1") or b"") == b"run B"
    assert raced[0] not in files.documents  # the losing run's file is removed
    assert len(_replay_files(files, "m-1")) == 1


def test_a_replay_store_outage_leaves_the_match_to_be_run_again(store: Store) -> None:
    _stored_match(store, "m-1")
    store.matches.start("m-1")

    def fail(name: str, data: bytes) -> bool:
        raise StorageUnavailable("disk full")

    store.files.put = fail  # type: ignore[method-assign]
    with pytest.raises(StorageUnavailable):
        _finish(store, "m-1", gzip.compress(b"x"), 1)
    assert store.matches.get("m-1").status is MatchStatus.RUNNING  # type: ignore[union-attr]
    assert not store.finishing.is_applied("m-1")


def test_a_replay_an_older_version_kept_in_redis_is_read_and_archived(store: Store) -> None:
    _stored_match(store, "m-1")
    store.matches.abort("m-1", "to end it")  # an ended record, then the old layout's replay bytes
    legacy = gzip.compress(b'{"old":true}')
    store.blobs.set("t:match:m-1:replay", legacy)
    assert store.replays.get("m-1") == legacy
    assert archive_ended(store, 0, now=LATER).archived == 1
    assert store.blobs.get("t:match:m-1:replay") is None
    assert store.replays.get("m-1") == legacy


def _redis_keys(store: Store) -> set[str]:
    return {str(key) for key in store.redis.keys("t:*")}


def test_archiving_moves_ended_matches_out_and_they_read_back_the_same(store: Store) -> None:
    for match_id in ("m-1", "m-2", "m-3", "m-4"):
        _stored_match(store, match_id)
    _finish(store, "m-1", gzip.compress(b"one"), 1)
    _finish(store, "m-2", gzip.compress(b"two"), 2)
    store.matches.abort("m-3", "bot deleted")
    store.matches.start("m-4")  # still running: stays
    ids = ["m-1", "m-2", "m-3", "m-4"]
    before = (
        [m.to_json() for m in store.matches.get_many(ids)],
        store.matches.specs(ids),
        store.replays.get("m-1"),
    )

    report = archive_ended(store, 0, now=LATER)

    assert (report.archived, report.kept) == (3, 1)
    keys = _redis_keys(store)
    assert not any(key.startswith(("t:match:m-1", "t:match:m-2", "t:match:m-3")) for key in keys)
    assert not any(key.startswith("t:applied:") for key in keys)
    assert "t:match:m-4" in keys and store.matches.count() == 4
    assert {name for name in store.files.documents if name.startswith("matches/")} == {  # type: ignore[attr-defined]
        record_name(match_id) for match_id in ("m-1", "m-2", "m-3")
    }
    store.archive._cache.clear()  # read from the files, not from what archiving left in memory
    after = (
        [m.to_json() for m in store.matches.get_many(ids)],
        store.matches.specs(ids),
        store.replays.get("m-1"),
    )
    assert after == before
    assert store.matches.get("m-3").status is MatchStatus.ABORTED  # type: ignore[union-attr]
    assert store.replays.get("m-3") is None and store.matches.get("m-9") is None


def test_an_archived_match_is_not_run_again_nor_finished_twice(store: Store) -> None:
    _stored_match(store, "m-1")
    _finish(store, "m-1", gzip.compress(b"one"), 1)
    archive_ended(store, 0, now=LATER)
    assert store.matches.start("m-1") is None
    assert not _finish(store, "m-1", gzip.compress(b"again"), 5)
    assert store.matches.get("m-1").moves == 1  # type: ignore[union-attr]


def test_matches_that_ended_recently_stay_until_they_are_old_enough(store: Store) -> None:
    _stored_match(store, "m-1")
    _finish(store, "m-1", gzip.compress(b"one"), 1)
    assert archive_ended(store, 30).archived == 0
    assert archive_ended(store, 30, now=time.time() + 31 * archive.DAY_S).archived == 1


def test_a_pass_starts_where_the_last_one_stopped(store: Store) -> None:
    for match_id in ("m-0", "m-1", "m-2", "m-3"):
        _stored_match(store, match_id)
    for match_id in ("m-0", "m-1", "m-3"):
        _finish(store, match_id, gzip.compress(b"1"), 1)
    assert archive_ended(store, 0, now=LATER).archived == 3  # m-2 is queued and holds the cursor back
    looked_at: list[list[str]] = []
    unarchived = store.matches.unarchived

    def spy(match_ids: Any) -> Any:
        looked_at.append(list(match_ids))
        return unarchived(match_ids)

    store.matches.unarchived = spy  # type: ignore[method-assign]
    _finish(store, "m-2", gzip.compress(b"2"), 1)
    assert archive_ended(store, 0, now=LATER).archived == 1
    assert looked_at[0] == ["m-1", "m-2", "m-3"]  # from the last archived before m-2, not m-0
    looked_at.clear()
    assert archive_ended(store, 0, now=LATER).archived == 0
    assert looked_at[0] == ["m-3"]  # only the last one, where the cursor stands now


def test_an_interrupted_archiving_is_completed_by_the_next_pass(store: Store) -> None:
    _stored_match(store, "m-1")
    _finish(store, "m-1", gzip.compress(b"1"), 1)
    delete = store.redis.pipeline

    calls = []

    def crash_before_redis(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        raise ConnectionError("worker killed")

    store.redis.pipeline = crash_before_redis  # type: ignore[method-assign]
    with pytest.raises(ConnectionError):
        store.archive.archive("m-1")
    store.redis.pipeline = delete  # type: ignore[method-assign]
    assert store.files.exists(record_name("m-1")) and "t:match:m-1" in _redis_keys(store)
    assert archive_ended(store, 0, now=LATER).archived == 1
    assert "t:match:m-1" not in _redis_keys(store)


# -- through the API -----------------------------------------------------------------------------


def _played(arena: Arena, seeds: range) -> list[dict[str, Any]]:
    first = arena.register("First", "/first/1", ["nim"])
    last = arena.register("Last", "/last/1", ["nim"])
    matches = [arena.match(game="nim", bots=[first["id"], last["id"]], seed=seed) for seed in seeds]
    arena.run_queue()
    return matches


def test_the_replay_download_streams_the_same_json_as_before(arena: Arena) -> None:
    [match] = _played(arena, range(1, 2))
    answer = arena.client.get(f"/api/v1/matches/{match['id']}/replay")
    assert answer.status_code == 200
    assert answer.headers["Content-Disposition"] == f'attachment; filename="{match["id"]}.json"'
    stored = arena.runtime.store.replays.get(match["id"])
    assert stored is not None
    assert answer.data == json.dumps(decompress(stored), separators=(",", ":")).encode()


def test_archived_matches_read_the_same_through_the_api(arena: Arena) -> None:
    matches = _played(arena, range(1, 4))
    urls = [f"/api/v1/matches/{m['id']}" for m in matches]
    before = [arena.get(url) for url in urls], arena.client.get(urls[0] + "/replay").data
    listed = arena.get("/api/v1/matches")
    assert archive_ended(arena.runtime.store, 0, now=LATER).archived == 3
    assert not any(str(k).startswith("test:match:") for k in arena.runtime.store.redis.keys("test:*"))
    after = [arena.get(url) for url in urls], arena.client.get(urls[0] + "/replay").data
    assert after == before
    assert arena.get("/api/v1/matches") == listed
    assert arena.client.get("/matches/" + matches[0]["id"]).status_code == 200  # the web page


def test_a_tournament_of_archived_matches_keeps_its_matches_and_standings(arena: Arena) -> None:
    first = arena.register("First", "/first/1", ["nim"])
    last = arena.register("Last", "/last/1", ["nim"])
    answer = arena.client.post(
        "/api/v1/tournaments",
        json={
            "name": "t",
            "game": "nim",
            "format": "round_robin",
            "bots": [first["id"], last["id"]],
            "seats_per_match": 2,
        },
        headers=arena.admin(),
    )
    assert answer.status_code == 202, answer.get_json()
    url = answer.headers["Location"]
    arena.run_queue()
    before = arena.get(url)
    assert before["status"] == "finished"
    assert archive_ended(arena.runtime.store, 0, now=LATER).archived == len(before["matches"]) > 0
    assert arena.get(url) == before
    assert arena.client.get("/tournaments/" + before["id"]).status_code == 200


# -- the command ---------------------------------------------------------------------------------


def test_the_command_needs_a_redis(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["archive"]) == 2
    assert "REDIS_URL" in capsys.readouterr().err


def test_the_command_checks_its_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["archive", "--older-than", "soon"])
    assert exited.value.code == 2 and "not a number of days" in capsys.readouterr().err


def test_the_command_archives_on_a_redis(
    toy_games: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import fakeredis
    from redis import Redis

    server = fakeredis.FakeServer()
    monkeypatch.setattr(
        Redis, "from_url", classmethod(lambda cls, url, **kw: fakeredis.FakeRedis(server=server, **kw))
    )
    real_connect = Store.connect.__func__  # type: ignore[attr-defined]

    def on_the_fake_server(
        cls: type[Store], url: str, prefix: str = "arena:", files: Any = None, **kw: Any
    ) -> Store:
        text = fakeredis.FakeRedis(server=server, decode_responses=True)
        return cls(text, fakeredis.FakeRedis(server=server), prefix, files)

    assert real_connect is not None
    monkeypatch.setattr(Store, "connect", classmethod(on_the_fake_server))
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("ARENA_REPLAY_DIR", str(tmp_path))
    store = Store.connect("redis://127.0.0.1:1/0", "arena:", MemoryStore())
    _stored_match(store, "m-1")
    _finish(store, "m-1", gzip.compress(b"1"), 1)
    old_end = store.matches.get("m-1")
    assert main(["archive", "--older-than", "0"]) == 0
    assert "archived 1 matches" in capsys.readouterr().out
    assert (tmp_path / record_name("m-1")).is_file()
    assert store.redis.get("arena:match:m-1") is None
    assert store.matches.get("m-1") is None  # this store's files are not the command's
    assert Store(store.redis, store.blobs, "arena:", DirectoryStore(tmp_path)).matches.get("m-1") == old_end


def test_the_sweeper_archives_old_matches_once_an_hour_across_workers(arena: Arena) -> None:
    from dataclasses import replace

    from arena.worker.sweeper import Sweeper

    matches = _played(arena, range(1, 3))
    arena.runtime.settings = replace(arena.runtime.settings, archive_after_days=0)
    first, second = Sweeper(arena.runtime, 30), Sweeper(arena.runtime, 30)
    report = first.archive_once()
    assert report is not None and report.archived == 2
    assert second.archive_once() is None  # another worker archived within the hour
    assert arena.runtime.store.redis.get(f"test:match:{matches[0]['id']}") is None
    assert arena.get(f"/api/v1/matches/{matches[0]['id']}")["status"] == "finished"


def test_a_redis_that_stops_answering_fails_the_command_instead_of_holding_it() -> None:
    # a listener that accepts connections (the kernel does, from its backlog) and never answers:
    # what a worker sees of a Redis cut off by a network partition
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        port = silent.getsockname()[1]
        store = Store.connect(f"redis://127.0.0.1:{port}/0", timeout_s=0.2)
        failures: list[BaseException] = []

        def read() -> None:
            try:
                store.matches.get("m-1")
            except RedisError as error:
                failures.append(error)

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(30)  # a bound for the test only: without a timeout the read never ends
        assert not reader.is_alive(), "the read is still waiting for a Redis that never answers"
    assert len(failures) == 1


def test_the_workers_store_waits_for_redis_as_long_as_the_settings_say() -> None:
    settings = Settings.from_env({"REDIS_URL": "redis://127.0.0.1:1/0", "ARENA_REDIS_TIMEOUT_SECONDS": "3"})
    runtime = redis_runtime(settings)
    for client in (runtime.store.redis, runtime.store.blobs):
        options = client.connection_pool.connection_kwargs
        assert (options["socket_timeout"], options["socket_connect_timeout"]) == (3, 3)


@pytest.mark.parametrize("given_bots", [None, ("b-1", "b-2")], ids=["rows read after the record", "with it"])
def test_ends_at_once_in_one_process_between_the_same_bots_count_each_ladder_update_once(
    store: Store, given_bots: tuple[str, ...] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the ends of many matches between the same two bots, in one worker at once (a tournament of few
    # bots): each end's transaction watches the same ladder rows; taking turns, each update is
    # worked out once, where racing each other they were redone every time another end wrote first
    ends = 8
    facts = get_game("nim").variant("standard")
    store.ladders.put_rows(
        "nim", "standard", {bot: {**new_row(facts), "key": 0.0} for bot in ("b-1", "b-2")}, {}
    )
    for index in range(ends):
        _stored_match(store, f"m-{index}")
    updates: list[str] = []
    start = threading.Barrier(ends)
    count_in_ladder = Finishing._counted

    def count_one_more(end: MatchEnd, rows: dict[str, Any]) -> dict[str, Any]:
        updates.append("worked out")
        time.sleep(0.02)  # long enough for the other ends to write the rows meanwhile, were they not waiting
        return count_in_ladder(end, rows)

    monkeypatch.setattr(Finishing, "_counted", staticmethod(count_one_more))

    def end(match_id: str) -> None:
        start.wait()
        replay = gzip.compress(b"{}")
        ladder = LadderCount("nim", "standard", facts, ("b-1", "b-2"), RESULT, match_id)
        ended = MatchEnd(
            match_id, MatchStatus.FINISHED, replay, 1, result=RESULT, bots=given_bots, ladder=ladder
        )
        assert store.finishing.finish_match(ended)

    threads = [threading.Thread(target=end, args=(f"m-{index}",)) for index in range(ends)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    rows = store.ladders.rows_of("nim", "standard", ["b-1", "b-2"])
    assert [rows[bot]["games"] for bot in ("b-1", "b-2")] == [ends, ends]  # no end lost
    assert len(updates) == ends
