"""The look for matches whose message the broker lost: a match ``queued`` in the store whose message
is neither in the queue nor among the unacknowledged, on two looks in a row, is queued again."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any

import fakeredis

from arena.clock import SYSTEM_CLOCK, Clock
from arena.worker.lost_messages import requeue_lost
from tests.platform.conftest import ListQueue

TASK = "arena.run_match"
QUEUE = "matches"


def _message(match_id: str) -> str:
    body = base64.b64encode(json.dumps([[match_id], {}, {}]).encode()).decode()
    return json.dumps({"body": body, "headers": {"task": TASK}, "properties": {"body_encoding": "base64"}})


@dataclass
class _Store:
    """The store's part the look reads: the matches waiting for a worker, and when one was queued again."""

    queued: list[str]
    requeued: list[str] = field(default_factory=list)

    def queued_before(self, moment: float) -> list[str]:
        return list(self.queued)

    def requeued_now(self, match_id: str) -> None:
        self.requeued.append(match_id)

    @property
    def queue(self) -> _Store:
        """The store's queue part, which these two methods belong to."""
        return self


@dataclass
class _Runtime:
    store: _Store
    queue: ListQueue
    clock: Clock = SYSTEM_CLOCK


def _look(runtime: Any, broker: fakeredis.FakeRedis) -> list[str]:
    broker.delete(f"{QUEUE}.arena-lost-look")  # the period between two looks has passed
    return requeue_lost(runtime, broker, [QUEUE], "unacked", TASK, 15)


def test_a_match_whose_message_is_nowhere_on_two_looks_is_queued_again() -> None:
    broker = fakeredis.FakeRedis()
    broker.lpush(QUEUE, _message("m-waiting"))
    broker.hset("unacked", "tag-1", json.dumps([json.loads(_message("m-taken")), "", QUEUE]))
    runtime = _Runtime(_Store(["m-waiting", "m-taken", "m-lost"]), ListQueue())
    assert _look(runtime, broker) == [], "missing once: maybe a live worker between its two commands"
    assert requeue_lost(runtime, broker, [QUEUE], "unacked", TASK, 15) == [], "one look a period"
    assert _look(runtime, broker) == ["m-lost"]
    assert runtime.queue.ids == ["m-lost"] and runtime.store.requeued == ["m-lost"]
    assert _look(runtime, broker) == [], "missing again: it starts over from one look"


def test_a_message_found_again_between_two_looks_is_not_queued_twice() -> None:
    broker = fakeredis.FakeRedis()
    runtime = _Runtime(_Store(["m-slow"]), ListQueue())
    assert _look(runtime, broker) == []
    broker.hset("unacked", "tag-2", json.dumps([json.loads(_message("m-slow")), "", QUEUE]))
    assert _look(runtime, broker) == [] and runtime.queue.ids == []


def test_a_backlog_longer_than_it_reads_is_left_to_the_sweeper(monkeypatch: Any) -> None:
    monkeypatch.setattr("arena.worker.lost_messages.MOST_READ", 2)
    broker = fakeredis.FakeRedis()
    broker.lpush(QUEUE, *[_message(f"m-{n}") for n in range(3)])
    runtime = _Runtime(_Store(["m-lost"]), ListQueue())
    assert _look(runtime, broker) == [] and _look(runtime, broker) == [] and runtime.queue.ids == []
