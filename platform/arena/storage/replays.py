"""Replays: kept in the store's files, not in Redis; Redis keeps the token of the run whose replay counts.

The files are a directory or an S3 bucket (:mod:`arena.storage.files`); each run writes its replay under
a name of its own, and the transaction that stores a match's end records which run's replay counts
(``match:<id>:replay`` holds that run's token; a replay stored whole there by an older version is
still read). An archived match's token is in its archived document.
"""

from __future__ import annotations

import io
import logging
import uuid
from typing import IO

from arena.storage import files as file_stores
from arena.storage.archive import Archive
from arena.storage.base import GZIP_MAGIC, Part, Shared, blob

log = logging.getLogger(__name__)


class Replays(Part):
    def __init__(self, shared: Shared, archive: Archive) -> None:
        super().__init__(shared)
        self.archive = archive

    def get(self, match_id: str) -> bytes | None:
        """The match's replay (gzip of its JSON), or None when it has none (not finished)."""
        handle = self.open(match_id)
        if handle is None:
            return None
        with handle:
            return handle.read()

    def open(self, match_id: str) -> IO[bytes] | None:
        """The match's replay as a file of gzip bytes to read and close (streamed from the files)."""
        value = self.blobs.get(self.key("match", match_id, "replay"))
        if value is not None:
            data = blob(value)
            if data.startswith(GZIP_MAGIC):  # kept whole in Redis by an older version
                return io.BytesIO(data)
            return self.files.open(file_stores.replay_name(match_id, data.decode()))
        archived = self.archive.documents([match_id]).get(match_id)
        if archived is None or not archived.get("replay"):
            return None
        return self.files.open(file_stores.replay_name(match_id, archived["replay"]))

    def stage(self, match_id: str, replay: bytes) -> str:
        """Write a run's replay under a name of its own before its end is stored (why: see
        :mod:`arena.storage.files`); its token. Written without asking first whether the end is stored
        already: a second run of a match is rare, and the end's transaction finds it out and
        removes the file, where asking cost every match a round trip."""
        run = uuid.uuid4().hex[:16]
        self.files.put(file_stores.replay_name(match_id, run), replay)
        return run

    def drop_staged(self, match_id: str, run: str) -> None:
        """Another run's end was stored: this run's replay is no one's."""
        try:
            self.files.delete(file_stores.replay_name(match_id, run))
        except Exception as error:  # an orphan file harms nothing
            log.warning("match %s: could not remove the replay of a losing run: %s", match_id, error)
