"""Scheduling (:mod:`arena.scheduling`): the one way API requests, tournaments and matchmaking store
and queue their matches, and what a queue that fails leaves behind."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from arena import scheduling
from arena.errors import QueueUnavailable
from arena.records import MatchRecord, MatchStatus
from referee.match import MatchSpec
from tests.platform.conftest import ListQueue, make_runtime


@dataclass
class RefusingQueue(ListQueue):
    """Takes ``takes`` matches, then fails as a broker that went away."""

    takes: int = 0
    refused: list[str] = field(default_factory=list)

    def enqueue(self, match_id: str) -> None:
        if len(self.ids) >= self.takes:
            self.refused.append(match_id)
            raise ConnectionError("broker down")
        super().enqueue(match_id)


def _matches(count: int) -> list[tuple[MatchRecord, MatchSpec]]:
    made = []
    for _ in range(count):
        spec = MatchSpec.build(game="nim", bots=["b-1", "b-2"], seed=scheduling.new_seed())
        names = ("One", "Two")
        record = MatchRecord.new(scheduling.new_match_id(), "nim", "standard", spec.bots, names, rated=False)
        made.append((record, spec))
    return made


def test_matches_are_stored_then_queued_in_order(toy_games: None) -> None:
    runtime = make_runtime(ListQueue())
    matches = _matches(3)
    ids = scheduling.schedule(runtime, matches)
    assert ids == [match.id for match, _ in matches] == runtime.queue.ids  # type: ignore[attr-defined]
    stored = runtime.store.matches.get_many(ids)
    assert [match.status for match in stored] == [MatchStatus.QUEUED] * 3


def test_a_writer_that_stores_nothing_queues_nothing(toy_games: None) -> None:
    runtime = make_runtime(ListQueue())
    assert scheduling.schedule(runtime, _matches(2), lambda matches: False) == []
    assert runtime.queue.ids == []  # type: ignore[attr-defined]


def test_a_writer_stores_the_matches_its_own_way(toy_games: None) -> None:
    runtime = make_runtime(ListQueue())
    written: list[str] = []
    matches = _matches(2)

    def write(made: scheduling.Scheduled) -> None:
        written.extend(match.id for match, _ in made)
        runtime.store.matches.add(made)

    assert scheduling.schedule(runtime, matches, write) == written == runtime.queue.ids  # type: ignore[attr-defined]


def test_when_the_queue_fails_the_matches_not_queued_are_aborted(toy_games: None) -> None:
    queue = RefusingQueue(takes=1)
    runtime = make_runtime(queue)
    matches = _matches(3)
    with pytest.raises(scheduling.NotQueued) as failure:
        scheduling.schedule(runtime, matches)
    first, *rest = [match.id for match, _ in matches]
    assert failure.value.queued == [first] == queue.ids
    assert isinstance(failure.value, QueueUnavailable)  # an API request answers it 503
    stored = {match.id: match for match in runtime.store.matches.get_many([first, *rest])}
    assert stored[first].status is MatchStatus.QUEUED
    for match_id in rest:
        assert stored[match_id].status is MatchStatus.ABORTED
        assert stored[match_id].error == "could not be queued: ConnectionError"


def test_matches_not_to_abort_stay_queued_for_the_sweeper(toy_games: None) -> None:
    queue = RefusingQueue(takes=0)
    runtime = make_runtime(queue)
    matches = _matches(2)
    with pytest.raises(scheduling.NotQueued) as failure:
        scheduling.schedule(runtime, matches, abort_refused=False)
    assert failure.value.queued == []
    stored = runtime.store.matches.get_many([match.id for match, _ in matches])
    assert [match.status for match in stored] == [MatchStatus.QUEUED] * 2
    assert sorted(runtime.store.queue.queued_before(float("inf"))) == sorted(match.id for match in stored)
