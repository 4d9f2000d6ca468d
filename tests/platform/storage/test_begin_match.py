"""A run's start (:meth:`arena.storage.matches.Matches.begin`): the lease, the running mark, the spec and
the bots in one transaction, nothing written when the match cannot start, and few round trips."""

from __future__ import annotations

import time

import pytest

from arena.matches import archive
from arena.matches.archive import archive_ended
from arena.records import BotRecord, MatchRecord, MatchStatus
from arena.storage import Begun, Store
from arena.storage.files import MemoryStore
from referee.match import MatchSpec
from tests.platform.round_trips import counting_round_trips

BOTS = ("b-1", "b-2")


@pytest.fixture
def store(toy_games: None) -> Store:
    store = Store.in_memory("t:", MemoryStore())
    for number, bot_id in enumerate(BOTS, start=1):
        store.bots.put(
            BotRecord(
                id=bot_id,
                name=f"Bot {number}",
                endpoint="http://bot.invalid/",
                games=("nim",),
                token_hash="-",
                secret="s" * 32,
                created_at="2026-11-26T00:00:00+00:00",
                created_ts=0.0,
                updated_at="2026-11-26T00:00:00+00:00",
            )
        )
    return store


def _stored_match(store: Store, match_id: str = "m-1") -> MatchRecord:
    match = MatchRecord.new(match_id, "nim", "standard", BOTS, ("Bot 1", "Bot 2"), rated=False)
    store.matches.add([(match, MatchSpec.build(game="nim", bots=list(BOTS), seed=3))])
    return match


def test_a_started_match_holds_the_lease_is_running_and_comes_with_its_spec_and_bots(store: Store) -> None:
    _stored_match(store)
    store.redis.rpush("t:match:m-1:live", '{"turn":0}')  # moves of an earlier, interrupted run
    store.redis.set("t:match:m-1:progress", 1)
    start = store.matches.begin("m-1", "me", 30)
    assert start.outcome is Begun.STARTED
    assert start.match is not None and start.match.status is MatchStatus.RUNNING and start.match.attempts == 1
    assert start.spec == MatchSpec.build(game="nim", bots=list(BOTS), seed=3)
    assert sorted(start.bots) == list(BOTS) and start.bots["b-2"].name == "Bot 2"
    assert store.redis.get("t:match:m-1:lease") == "me"
    assert 0 < store.redis.pttl("t:match:m-1:lease") <= 30_000
    assert store.matches.get("m-1") == start.match
    assert store.queue.running_ids() == ["m-1"] and store.queue.queued_before(time.time() + 1) == []
    assert store.progress.live_moves("m-1") == [] and store.progress.played(["m-1"]) == {}


def test_a_match_leased_to_another_run_is_busy_and_left_as_it_was(store: Store) -> None:
    _stored_match(store)
    assert store.leases.acquire("m-1", "another run", 30)
    before = store.matches.get("m-1")
    start = store.matches.begin("m-1", "me", 30)
    assert start.outcome is Begun.BUSY
    assert store.matches.get("m-1") == before and store.redis.get("t:match:m-1:lease") == "another run"


def test_an_ended_match_takes_no_lease(store: Store) -> None:
    _stored_match(store)
    store.matches.abort("m-1", "cancelled")
    assert store.matches.begin("m-1", "me", 30).outcome is Begun.ENDED
    assert store.redis.get("t:match:m-1:lease") is None
    assert store.matches.get("m-1").attempts == 0  # type: ignore[union-attr]


def test_an_archived_match_has_ended_and_an_unknown_one_is_missing(store: Store) -> None:
    _stored_match(store)
    store.matches.abort("m-1", "cancelled")
    archive_ended(store, 0, now=time.time() + 3650 * archive.DAY_S)
    assert store.redis.get("t:match:m-1") is None  # only in the files now
    assert store.matches.begin("m-1", "me", 30).outcome is Begun.ENDED
    assert store.matches.begin("m-404", "me", 30).outcome is Begun.MISSING
    assert store.redis.get("t:match:m-404:lease") is None


def test_an_abort_landing_between_the_read_and_the_start_wins(store: Store, monkeypatch) -> None:
    _stored_match(store)
    real_started = MatchRecord.started
    calls = []

    def started_while_aborted(record: MatchRecord) -> MatchRecord:
        if not calls:  # the first try: another client aborts the match under the transaction's watch
            other = Store(store.redis, store.blobs, "t:", store.files)
            other.matches.abort("m-1", "cancelled by an organizer")
        calls.append(record.status)
        return real_started(record)

    monkeypatch.setattr(MatchRecord, "started", started_while_aborted)
    start = store.matches.begin("m-1", "me", 30)
    assert start.outcome is Begun.ENDED and calls == [MatchStatus.QUEUED]
    ended = store.matches.get("m-1")
    assert ended is not None and ended.status is MatchStatus.ABORTED and ended.attempts == 0
    assert store.redis.get("t:match:m-1:lease") is None and store.queue.running_ids() == []


def test_a_start_costs_three_round_trips(store: Store, monkeypatch) -> None:
    """Watch; read the record, spec and lease; one transaction (which reads the bots too)."""
    _stored_match(store)
    with counting_round_trips(store, monkeypatch) as trips:
        assert store.matches.begin("m-1", "me", 30).outcome is Begun.STARTED
    assert len(trips) == 3
