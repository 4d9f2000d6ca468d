"""A round robin's or a gauntlet's result, pure: its rounds, its cross table and its standings.

- **Rounds** are the schedule's seat rotations (:func:`arena.tournaments.formats.schedule`): round
  ``k`` is the ``k``-th game of every pairing, the seats turned ``k - 1`` steps from the first.
- **Cross table**: for each two bots that met, what the row's bot scored against the column's over
  their finished matches (:func:`arena.tournaments.tally.pairwise`: 1 for placing ahead, ½ for the
  same place, 0 behind), and how many matches that was.
- **Standings**: by points, then *head-to-head* (what a bot scored against the bots level with it
  on points, from the cross table), then the sum of scores; bots equal on all three share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from arena.records import MatchRecord
from arena.tournaments.tally import Row, assign_ranks, meetings, rounded, tally

CrossTable = dict[str, dict[str, dict[str, float]]]
"""``table[a][b]``: ``{"points": what a scored against b, "games": matches counted}``."""


def rotation_rounds(match_ids: Sequence[str], games_per_pairing: int) -> dict[str, int]:
    """Each match's round, from its place in the schedule (pairing by pairing, game by game).

    >>> rotation_rounds(["m1", "m2", "m3", "m4"], 2)
    {'m1': 1, 'm2': 2, 'm3': 1, 'm4': 2}
    """
    per_pairing = max(1, games_per_pairing)
    return {match_id: index % per_pairing + 1 for index, match_id in enumerate(match_ids)}


def cross_table(bots: Sequence[str], matches: Iterable[MatchRecord], team: bool) -> CrossTable:
    """The cross table over the finished matches (see the module doc); pairs that never met are absent."""
    table: CrossTable = {bot: {} for bot in bots}
    for bot, other, share in meetings(matches, team):
        cell = table[bot].setdefault(other, {"points": 0.0, "games": 0})
        cell["points"] += share
        cell["games"] += 1
    return table


def standings(
    bots: Sequence[str], names: Mapping[str, str], matches: Sequence[MatchRecord], team: bool
) -> list[Row]:
    """The rows ranked by points, head-to-head, then score sum (see the module doc)."""
    rows = tally(bots, names, matches, team)
    crossed = cross_table(bots, matches, team)
    level: dict[float, list[str]] = defaultdict(list)
    for bot, row in rows.items():
        level[rounded(row["points"])].append(bot)
    for bot, row in rows.items():
        tied = [other for other in level[rounded(row["points"])] if other != bot]
        row["head_to_head"] = sum(crossed[bot].get(other, {}).get("points", 0.0) for other in tied)

    def key(row: Row) -> tuple[float, ...]:
        return (-rounded(row["points"]), -rounded(row["head_to_head"]), -rounded(row["score_sum"]))

    return assign_ranks(rows.values(), key)


def cross_table_json(table: CrossTable) -> dict[str, dict[str, Any]]:
    """The cross table as the API shows it, points rounded."""
    return {
        bot: {
            other: {"points": round(cell["points"], 4), "games": int(cell["games"])}
            for other, cell in row.items()
        }
        for bot, row in table.items()
    }
