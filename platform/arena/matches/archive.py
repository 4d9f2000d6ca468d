"""Moves old ended matches out of Redis RAM, into the replay store's files.

Every match stays in Redis while it may still change (queued, running) and for
``ARENA_ARCHIVE_AFTER_DAYS`` after it ended (default 30), when pages and ladders read it most. Then
:meth:`arena.storage.archive.Archive.archive` writes its record, spec and replay token as one JSON document
(``matches/<id>.json`` beside the replays) and deletes its keys; Redis keeps only its id in the
``matches`` index, by which the store finds it again: the API, the pages and tournaments read an
archived match as before.

A pass walks ``matches`` oldest first from a cursor (``archive:cursor``), so ids archived by earlier
passes are not read again: the cursor moves past every match archived or gone, and stops at the first
one that must stay (not ended yet, or ended too recently), from which the next pass starts.

Run by ``arena archive`` (a deployment's cron, or by hand) and by the workers' sweeper thread about
once an hour (one worker at a time, see :mod:`arena.worker.sweeper`).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime

from arena.records import MatchRecord
from arena.storage import Store

log = logging.getLogger(__name__)
DAY_S = 24 * 3600
PAGE = 500


@dataclass
class ArchiveReport:
    archived: int = 0
    kept: int = 0
    """Matches old enough by creation but not yet ended, or ended too recently."""


def _ended_ts(match: MatchRecord) -> float | None:
    """When the match ended (None while it has not)."""
    if not match.status.ended:
        return None
    if match.finished_at:
        try:
            return datetime.fromisoformat(match.finished_at).timestamp()
        except ValueError:
            pass
    return match.created_ts


def archive_ended(
    store: Store, older_than_days: float, now: float | None = None, limit: int | None = None
) -> ArchiveReport:
    """Archive every match that ended more than ``older_than_days`` ago (at most ``limit``)."""
    cutoff = (time.time() if now is None else now) - older_than_days * DAY_S
    report = ArchiveReport()
    cursor = store.archive.cursor()
    advancing = True  # the cursor follows while everything before it is archived or gone
    reached: float | None = None
    offset = 0
    while limit is None or report.archived < limit:
        page = store.archive.match_ids_created(cursor, cutoff, offset, PAGE)
        if not page:
            break
        records = store.matches.unarchived([match_id for match_id, _ in page])
        for match_id, created_ts in page:
            match = records.get(match_id)
            if match is not None:
                ended = _ended_ts(match)
                done = ended is not None and ended <= cutoff and store.archive.archive(match_id)
                if done:
                    report.archived += 1
                else:
                    report.kept += 1
                    advancing = False
            if advancing:
                reached = created_ts
            if limit is not None and report.archived >= limit:
                break
        if reached is not None:
            store.archive.set_cursor(reached)
            reached = None
        # archived ids stay in ``matches``: the window does not shrink, so the offset moves on
        offset += len(page)
    if report.archived:
        log.info("archived %d ended matches; %d old ones stay in Redis", report.archived, report.kept)
    return report
