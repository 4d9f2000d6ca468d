"""The lists of matches by status: the one place they are written.

``queued`` (a sorted set by when each match was queued, which the sweeper reads to queue again the
matches a queue lost), ``running`` (a set: the sweeper looks there for matches whose worker died)
and ``matches:status:<finished|aborted|cancelled>`` (sorted sets by creation time, for lists by
filter). A match is in the list of its status and in no other: every change of status (a new match,
a run's start, an abort, a cancel, an end, a requeue) moves it with :meth:`StatusIndexes.move`,
inside the transaction that writes its record.
"""

from __future__ import annotations

from redis import Redis
from redis.client import Pipeline

from arena.records import MatchStatus
from arena.storage.base import Part


class StatusIndexes(Part):
    def key_of(self, status: MatchStatus) -> str:
        """The list of the matches of ``status``."""
        if status is MatchStatus.QUEUED:
            return self.key("queued")
        if status is MatchStatus.RUNNING:
            return self.key("running")
        return self.key("matches", "status", status.value)

    def move(
        self,
        pipe: Pipeline | Redis,
        match_id: str,
        status: MatchStatus,
        created_ts: float,
        *,
        queued_at: float | None = None,
        new: bool = False,
    ) -> None:
        """Queue the writes that list the match under ``status`` and take it out of the lists of
        the statuses it left: a queued match is listed by ``queued_at`` (by default now, by the
        store's clock), an ended one by its creation time, and an ended match's live moves go.
        A ``new`` match is in no list yet, so nothing is taken out."""
        if status is MatchStatus.RUNNING:
            pipe.sadd(self.key("running"), match_id)
        elif not new:
            pipe.srem(self.key("running"), match_id)
        if status is MatchStatus.QUEUED:
            at = self.clock.time() if queued_at is None else queued_at
            pipe.zadd(self.key("queued"), {match_id: at})
        elif not new:
            pipe.zrem(self.key("queued"), match_id)
        if status.ended:
            pipe.delete(self.key("match", match_id, "live"))
            pipe.zadd(self.key_of(status), {match_id: created_ts})

    def queued_again(self, match_id: str) -> None:
        """A waiting match was just handed to the queue again: its wait starts over (now)."""
        self.redis.zadd(self.key("queued"), {match_id: self.clock.time()}, xx=True)

    def not_running(self, match_id: str) -> None:
        """Take out of ``running`` a match found there that is gone or has ended (a stale entry)."""
        self.redis.srem(self.key("running"), match_id)
