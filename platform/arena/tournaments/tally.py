"""What every format's standings share, pure: each bot's points, wins, draws, losses and score sum
over the finished matches, each match's result between any two of its seats, and ranks.

Points are :mod:`arena.ladders.scoring`'s: one point a match, shared by the seats in first place.

**Between two seats** of one match (:func:`pairwise`), the multiplayer generalisation every
tie-break uses: a seat scores 1 against each seat it placed ahead of, ½ against each seat sharing its
place, 0 against each seat ahead of it; in a team variant a game the team lost scores 0 for every
pair. In a duel this is the match's result itself (1, ½ or 0), so the tie-breaks below are the chess
ones there: head-to-head (round robin), Sonneborn-Berger (Swiss).

Ranks are shared (1, 2, 2, 4) by bots equal on every column the format ranks by
(:func:`assign_ranks`); the rows of a shared rank are listed by name.

>>> pairwise(MatchResult(places=(2, 1, 1), scores=(0, 3, 3), reason="end"), team=False)
[[0.0, 0.0, 0.0], [1.0, 0.0, 0.5], [1.0, 0.5, 0.0]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from arena.ladders.scoring import seat_points, seat_verdicts, team_lost
from arena.records import MatchRecord, MatchStatus
from referee.replay import MatchResult

Row = dict[str, Any]
"""One bot's line of the standings, as the API shows it."""

VERDICT_COLUMN = {"win": "wins", "draw": "draws", "loss": "losses"}


def counts(match: MatchRecord) -> bool:
    """Whether a match counts in the standings: finished with a result (aborted and cancelled do not)."""
    return match.status is MatchStatus.FINISHED and match.result is not None


def pairwise(result: MatchResult, team: bool) -> list[list[float]]:
    """``[i][j]``: what seat ``i`` scored against seat ``j`` in this match (see the module doc)."""
    places = result.places
    lost = team_lost(result, team)
    return [
        [
            0.0
            if i == j or lost
            else 1.0
            if places[i] < places[j]
            else 0.5
            if places[i] == places[j]
            else 0.0
            for j in range(len(places))
        ]
        for i in range(len(places))
    ]


def meetings(matches: Iterable[MatchRecord], team: bool) -> Iterator[tuple[str, str, float]]:
    """Each ordered pair of seats of every counted match: ``(bot, opponent, what bot scored against
    opponent)`` (see :func:`pairwise`): what cross tables and Swiss tie-breaks are summed from."""
    for match in matches:
        if not counts(match) or match.result is None:
            continue
        shares = pairwise(match.result, team)
        for i, bot in enumerate(match.bots):
            for j, other in enumerate(match.bots):
                if i != j:
                    yield bot, other, shares[i][j]


def tally(
    bots: Sequence[str],
    names: Mapping[str, str],
    matches: Iterable[MatchRecord],
    team: bool,
    byes: Mapping[str, int] | None = None,
) -> dict[str, Row]:
    """Each bot's row over the counted matches: played, points, wins, draws, losses, score sum,
    and in a team variant ``team_wins`` (games the team won; ``wins`` stay first places alone).

    ``byes`` (a Swiss's rounds sat out) each add a point, as the pairing counts them.
    """
    table: dict[str, Row] = {
        bot: {
            "bot_id": bot,
            "name": names.get(bot, bot),
            "played": 0,
            "points": float((byes or {}).get(bot, 0)),
            "wins": 0,
            "draws": 0,
            "losses": 0,
            "score_sum": 0.0,
            "team_wins": 0 if team else None,
        }
        for bot in bots
    }
    for match in matches:
        if not counts(match) or match.result is None:
            continue
        verdicts = seat_verdicts(match.result, team)
        points = seat_points(match.result, team)
        for seat, bot in enumerate(match.bots):
            row = table[bot]
            row["played"] += 1
            row["points"] += points[seat]
            row[VERDICT_COLUMN[verdicts[seat]]] += 1
            if team:
                row["team_wins"] += match.result.team_won is True
            row["score_sum"] += match.result.scores[seat]
    return table


def assign_ranks(rows: Iterable[Row], key: Callable[[Row], tuple[float, ...]]) -> list[Row]:
    """The rows best first by ``key`` (smaller is better), each given its ``rank``: equal keys share
    one (competition ranking), and float columns are rounded to 4 places for show."""
    ordered = sorted(rows, key=lambda row: (key(row), row["name"]))
    previous: tuple[float, ...] | None = None
    rank = 0
    for position, row in enumerate(ordered):
        current = key(row)
        if current != previous:
            rank, previous = position + 1, current
        row["rank"] = rank
        for column, value in row.items():
            if isinstance(value, float):
                row[column] = round(value, 4)
    return ordered


def rounded(value: float) -> float:
    """A column value as the ranking compares it: floats summed in another order still tie."""
    return round(value, 6)
