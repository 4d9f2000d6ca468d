"""How a finished match counts in its ladder, as one value the worker makes before storing the end.

The store's end transaction (:mod:`arena.storage.finishing`) reads the match's ladder rows and
must work out the new rows from what it read, again on fresh reads whenever it is retried. It gets
this value, which holds everything that computation needs (the ladder, its variant's declared
facts, the bots in seat order, the result), and asks it for the rows after the match and each bot's
rating point: pure functions of the value and the rows (:mod:`arena.ladders.rows`), nothing of the
worker's state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from arena.ladders import rows
from arena.records import MatchRecord
from referee.game import VariantSpec
from referee.replay import MatchResult


@dataclass(frozen=True)
class LadderCount:
    """A finished match in its ladder: ``facts`` are its variant's (rated, team), ``seats`` the
    bot ids in seat order."""

    game: str
    variant: str
    facts: VariantSpec
    seats: tuple[str, ...]
    result: MatchResult
    match_id: str

    @property
    def ladder(self) -> tuple[str, str]:
        return (self.game, self.variant)

    def rows_after(self, before: Mapping[str, rows.Row]) -> dict[str, rows.Row]:
        """The rows of the match's bots after it (:func:`arena.ladders.rows.apply_result`)."""
        return rows.apply_result(before, self.facts, self.seats, self.result, self.match_id)

    def point(self, row: Mapping[str, Any], record: MatchRecord) -> dict[str, Any] | None:
        """A bot's rating point after the match, from its new row and the finished record."""
        return rows.history_point(row, self.facts, record.id, record.finished_at)
