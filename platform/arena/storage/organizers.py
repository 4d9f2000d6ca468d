"""Organizers: who the admin lets run tournaments, each found by the hash of its token.

Keys (after the prefix)::

    organizer:<id>              JSON OrganizerRecord
    organizers                  zset of organizer ids by creation time
    organizer-token:<hash>      the id of the organizer whose token hashes so (gone once revoked)
"""

from __future__ import annotations

import json

from arena.records import OrganizerRecord
from arena.storage.base import Part, dumps


class Organizers(Part):
    def add(self, organizer: OrganizerRecord) -> None:
        with self.redis.pipeline() as pipe:
            pipe.set(self.key("organizer", organizer.id), dumps(organizer.to_json()))
            pipe.zadd(self.key("organizers"), {organizer.id: organizer.created_ts})
            pipe.set(self.key("organizer-token", organizer.token_hash), organizer.id)
            pipe.execute()

    def get(self, organizer_id: str) -> OrganizerRecord | None:
        raw = self.redis.get(self.key("organizer", organizer_id))
        return None if raw is None else OrganizerRecord.from_json(json.loads(raw))

    def by_token_hash(self, token_hash: str) -> OrganizerRecord | None:
        found = self.redis.get(self.key("organizer-token", token_hash))
        return None if found is None else self.get(str(found))

    def list_all(self) -> list[OrganizerRecord]:
        ids = [str(i) for i in self.redis.zrange(self.key("organizers"), 0, -1)]
        raws = self.redis.mget([self.key("organizer", i) for i in ids]) if ids else []
        return [OrganizerRecord.from_json(json.loads(raw)) for raw in raws if raw is not None]

    def remove(self, organizer: OrganizerRecord) -> None:
        """Revoke the organizer: its token no longer works; its tournaments keep its name."""
        with self.redis.pipeline() as pipe:
            pipe.delete(self.key("organizer", organizer.id))
            pipe.zrem(self.key("organizers"), organizer.id)
            pipe.delete(self.key("organizer-token", organizer.token_hash))
            pipe.execute()
