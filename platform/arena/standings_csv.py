"""Standings as CSV, to take away: a tournament's and a ladder's, pure functions of what the API shows.

Each has the same columns first and last (``rank``, ``bot``, ``name`` ... ``games``, ``wins``,
``draws``, ``losses``) and between them the columns its ranking goes by, in the order it goes by
them, so a spreadsheet sorted by them gives the ranks.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

RANKED_BY: Mapping[str, tuple[str, ...]] = {
    "round_robin": ("points", "head_to_head", "score_sum"),
    "gauntlet": ("points", "head_to_head", "score_sum"),
    "swiss": ("points", "buchholz", "sonneborn_berger", "byes"),
    "knockout": ("out_in", "seed", "points"),
}
"""A tournament format's ranking columns (a knockout: the round a bot went out in, empty for the
winner and those still in, then its seed)."""
RATED_LADDER = ("conservative", "mu", "sigma", "rating")
UNRATED_LADDER = ("win_rate", "mean_score")


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if value is None else value for value in row])
    return out.getvalue()


def tournament_csv(format_name: str, standings: Sequence[Mapping[str, Any]]) -> str:
    """A tournament's standings (``view().result.standings``) as CSV.

    >>> print(tournament_csv("round_robin", [{"rank": 1, "bot_id": "b-1", "name": "A", "points": 2.0,
    ...     "head_to_head": 0.0, "score_sum": 3.0, "played": 2, "wins": 2, "draws": 0, "losses": 0}]), end="")
    rank,bot,name,points,head_to_head,score_sum,games,wins,draws,losses\r
    1,b-1,A,2.0,0.0,3.0,2,2,0,0\r
    """
    middle = RANKED_BY.get(format_name, ("points",))
    header = ("rank", "bot", "name", *middle, "games", "wins", "draws", "losses")
    return _table(
        header,
        (
            [row["rank"], row["bot_id"], row["name"], *(row.get(c) for c in middle), row["played"]]
            + [row["wins"], row["draws"], row["losses"]]
            for row in standings
        ),
    )


def ladder_csv(rated: bool, team: bool, entries: Sequence[Mapping[str, Any]]) -> str:
    """A ladder's rows (:func:`arena.ladders.ladder.page`'s ``entries``) as CSV."""
    middle = RATED_LADDER if rated else ("team_win_rate", "mean_score") if team else UNRATED_LADDER
    header = ("rank", "bot", "name", *middle, "games", "wins", "draws", "losses")
    return _table(
        header,
        (
            [row["rank"], row["bot_id"], row["name"], *(row.get(c) for c in middle), row["games"]]
            + [row["wins"], row["draws"], row["losses"]]
            for row in entries
        ),
    )
