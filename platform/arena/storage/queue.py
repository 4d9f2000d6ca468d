"""The queue as the store sees it: the matches waiting for a worker and since when, those running, and
putting back those whose worker went away (for the sweeper, :mod:`arena.worker.sweeper`)."""

from __future__ import annotations

import json
from dataclasses import replace

from redis.client import Pipeline

from arena.records import MatchRecord, MatchStatus
from arena.storage.base import Part, Shared, dumps
from arena.storage.matches import Matches
from arena.storage.status_index import StatusIndexes
from arena.storage.transaction import optimistic


class Queue(Part):
    def __init__(self, shared: Shared, matches: Matches, indexes: StatusIndexes) -> None:
        super().__init__(shared)
        self.matches = matches
        self.indexes = indexes

    def running_ids(self) -> list[str]:
        return sorted(str(match_id) for match_id in self.redis.smembers(self.key("running")))

    def requeue_if_stranded(self, match_id: str) -> bool:
        """Put a ``running`` match whose lease lapsed (its worker died, or the store went away under
        it) back to ``queued``; True when it did, and the caller must then queue it again."""
        key = self.key("match", match_id)
        lease = self.key("match", match_id, "lease")

        def requeue(pipe: Pipeline) -> bool:
            raw = pipe.get(key)
            match = None if raw is None else MatchRecord.from_json(json.loads(raw))
            if match is None or match.status is not MatchStatus.RUNNING or pipe.exists(lease):
                if match is None or match.status.ended:
                    self.indexes.not_running(match_id)
                return False
            queued = replace(match, status=MatchStatus.QUEUED)
            pipe.multi()
            pipe.set(key, dumps(queued.to_json()))
            self.indexes.move(pipe, match_id, queued.status, queued.created_ts)
            pipe.execute()
            return True

        return optimistic(self.redis, [key, lease], requeue)

    def back_to_running(self, match_id: str) -> None:
        """Undo :meth:`requeue_if_stranded` when the match could not be queued: the next sweep
        finds it running without a lease again."""
        self.matches.update(
            match_id,
            lambda match: (
                replace(match, status=MatchStatus.RUNNING) if match.status is MatchStatus.QUEUED else None
            ),
        )

    def queued_before(self, moment: float) -> list[str]:
        """The matches still waiting for a worker that were queued before ``moment`` (a timestamp)."""
        return [str(match_id) for match_id in self.redis.zrangebyscore(self.key("queued"), "-inf", moment)]

    def requeued_now(self, match_id: str) -> None:
        """Note that a waiting match was just queued again (its wait starts over)."""
        self.indexes.queued_again(match_id)

    def take_sweeper_lock(self, owner: str, seconds: float) -> bool:
        """One sweeper at a time across the workers: True when ``owner`` may sweep now."""
        return bool(self.redis.set(self.key("sweeper"), owner, nx=True, px=int(seconds * 1000)))
