"""Live progress of running matches, for spectators: the moves so far and how many were played.

Both expire a week after the last move (a run that dies leaves nothing behind for long); a match's
start clears an earlier run's, and its end drops its moves (:mod:`arena.storage.matches`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from arena.storage.base import Part, dumps

LIVE_TTL_S = 7 * 24 * 3600


class Progress(Part):
    def played(self, match_ids: Sequence[str]) -> dict[str, int]:
        if not match_ids:
            return {}
        raws = self.redis.mget([self.key("match", match_id, "progress") for match_id in match_ids])
        return {match_id: int(raw) for match_id, raw in zip(match_ids, raws, strict=True) if raw is not None}

    def append_live(self, progress: Mapping[str, tuple[Sequence[Mapping[str, Any]], int]]) -> None:
        """Add moves of running matches (for spectators) and the count each has played so far, match
        id -> (moves, played), in one round trip: a worker playing hundreds of matches reports them
        all together rather than taking a connection for each."""
        if not progress:
            return
        with self.redis.pipeline(transaction=False) as pipe:
            for match_id, (moves, played) in progress.items():
                key = self.key("match", match_id, "live")
                if moves:
                    pipe.rpush(key, *[dumps(move) for move in moves])
                    pipe.expire(key, LIVE_TTL_S)
                pipe.set(self.key("match", match_id, "progress"), played, ex=LIVE_TTL_S)
            pipe.execute()

    def live_moves(self, match_id: str, start: int = 0) -> list[dict[str, Any]]:
        """The moves of a running match from index ``start`` on (empty once it has ended)."""
        return [json.loads(raw) for raw in self.redis.lrange(self.key("match", match_id, "live"), start, -1)]
