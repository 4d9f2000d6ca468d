"""The store's optimistic transaction: a write by another client between the reads and the EXEC
makes the attempt run again on fresh reads, or, given a value to give up with, ends it there."""

from __future__ import annotations

import fakeredis
import pytest
from redis.client import Pipeline

from arena.storage.transaction import optimistic, watch


@pytest.fixture
def server() -> fakeredis.FakeServer:
    return fakeredis.FakeServer()


def _client(server: fakeredis.FakeServer) -> fakeredis.FakeRedis:
    return fakeredis.FakeRedis(server=server, decode_responses=True)


class Increment:
    """An attempt adding one to ``count``, while another client adds ten between its read and its
    EXEC on its first ``conflicts`` tries."""

    def __init__(self, other: fakeredis.FakeRedis, conflicts: int) -> None:
        self.other = other
        self.conflicts = conflicts
        self.reads: list[int] = []

    def __call__(self, pipe: Pipeline) -> int:
        seen = int(pipe.get("count") or 0)
        self.reads.append(seen)
        if len(self.reads) <= self.conflicts:
            self.other.incrby("count", 10)
        pipe.multi()
        pipe.set("count", seen + 1)
        pipe.execute()
        return seen + 1


def test_a_conflicting_write_makes_the_attempt_run_again_on_what_was_written(
    server: fakeredis.FakeServer,
) -> None:
    redis = _client(server)
    attempt = Increment(_client(server), conflicts=2)
    assert optimistic(redis, ["count"], attempt) == 21
    assert attempt.reads == [0, 10, 20]
    assert redis.get("count") == "21"  # both of the other client's writes kept, and this one


def test_given_a_value_to_give_up_with_the_first_conflict_ends_it_writing_nothing(
    server: fakeredis.FakeServer,
) -> None:
    redis = _client(server)
    attempt = Increment(_client(server), conflicts=1)
    assert optimistic(redis, ["count"], attempt, on_conflict=None) is None
    assert attempt.reads == [0]
    assert redis.get("count") == "10"  # only the other client's write


def test_without_a_conflict_the_attempts_answer_comes_back_at_once(server: fakeredis.FakeServer) -> None:
    redis = _client(server)
    attempt = Increment(_client(server), conflicts=0)
    assert optimistic(redis, ["count"], attempt, on_conflict=None) == 1
    assert attempt.reads == [0] and redis.get("count") == "1"


def test_keys_an_attempt_watches_itself_count_as_conflicts_too(server: fakeredis.FakeServer) -> None:
    redis, other = _client(server), _client(server)
    redis.set("pointer", "row")
    reads: list[str | bytes | None] = []

    def follow(pipe: Pipeline) -> None:
        key = str(pipe.get("pointer"))
        watch(pipe, key)  # known only once the pointer is read
        reads.append(pipe.get(key))
        if len(reads) == 1:
            other.set(key, "changed")
        pipe.multi()
        pipe.set(key, f"written after {len(reads)} reads")
        pipe.execute()

    optimistic(redis, ["pointer"], follow)
    assert reads == [None, "changed"] and redis.get("row") == "written after 2 reads"
