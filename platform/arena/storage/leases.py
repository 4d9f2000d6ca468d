"""Leases: which worker runs a match right now.

A lease (like the locks of the sweeper, the archiver and matchmaking) is a key holding its owner,
with a TTL (``SET NX PX``): it lapses by itself when its owner dies, and only its owner deletes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress

from arena.storage.base import Part
from arena.storage.transaction import delete_if_owner


class Leases(Part):
    def acquire(self, match_id: str, owner: str, seconds: float) -> bool:
        """Take the match's lease unless another worker holds a live one."""
        key = self.key("match", match_id, "lease")
        return bool(self.redis.set(key, owner, nx=True, px=int(seconds * 1000)))

    def renew(self, held: Mapping[str, str], seconds: float) -> list[str]:
        """Extend every lease of ``held`` (match id -> owner) still held by its owner, in two round
        trips whatever their number; the match ids whose lease lapsed or is another's.

        A worker renews all its matches' leases together (:class:`arena.upkeep.LeaseKeeper`):
        a watched check-and-set per lease cost three round trips each, one after the other, so a
        slow answer delayed every renewal behind it. Here the leases are read at once, and those
        still ours extended at once. A lease that lapsed and was taken by another
        run in the moment between the two (it had a third of its life left when read) would be
        extended for that run, which holds it anyway.
        """
        ids = list(held)
        if not ids:
            return []
        keys = [self.key("match", match_id, "lease") for match_id in ids]
        holders = self.redis.mget(keys)
        still = [holder == held[match_id] for match_id, holder in zip(ids, holders, strict=True)]
        if any(still):
            with self.redis.pipeline(transaction=False) as pipe:
                for key in compress(keys, still):
                    pipe.pexpire(key, int(seconds * 1000))
                pipe.execute()
        return [match_id for match_id, ours in zip(ids, still, strict=True) if not ours]

    def release(self, match_id: str, owner: str) -> None:
        delete_if_owner(self.redis, self.key("match", match_id, "lease"), owner)
