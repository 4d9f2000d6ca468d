"""Ladder rows: how a finished match changes them, and how a ladder is ranked for display.

One row per bot, game and variant, kept in the store as JSON. The rules:

- A match created with ``rated: false`` never reaches this module.
- Every bot of a counted match gets one more game, a win, draw or loss (:mod:`arena.scoring`),
  its mean score over its seats, and, in team variants, one more team game (and team win).
- Variants with ``rated=True`` also move Elo ratings (:mod:`arena.elo`), except: in a team
  variant only games the team won are rated, and a match where one bot holds several seats is
  never rated (a bot's play against itself tells nothing of its strength).
- Variants with ``rated=False`` have no rating; their ladder ranks by win rate (team win rate for
  team variants), then mean score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.elo import START_RATING, rating_changes
from arena.scoring import seat_verdicts
from referee.game import VariantSpec
from referee.replay import MatchResult

Row = dict[str, Any]


def new_row(spec: VariantSpec) -> Row:
    return {
        "rating": START_RATING if spec.rated else None,
        "rated_games": 0,
        "games": 0,
        "wins": 0,
        "draws": 0,
        "losses": 0,
        "score_sum": 0.0,
        "team_games": 0,
        "team_wins": 0,
    }


def is_elo_rated(spec: VariantSpec, seats: Sequence[str], result: MatchResult) -> bool:
    """Whether this match moves ratings (see the module's rules)."""
    if not spec.rated or len(seats) < 2 or len(set(seats)) != len(seats):
        return False
    return not spec.team or result.team_won is True


def apply_result(
    rows: Mapping[str, Row], spec: VariantSpec, seats: Sequence[str], result: MatchResult, match_id: str
) -> dict[str, Row]:
    """The ladder rows of the match's bots after it: a new dict, ``rows`` is left untouched.

    ``seats`` are the bot ids in seat order; ``result`` is the replay's result. A bot holding several
    seats counts once, with its best seat's verdict and the mean of its seats' scores.
    """
    verdicts = seat_verdicts(result, spec.team)
    places = list(result.places)
    scores = list(result.scores)
    updated = {bot: dict(rows.get(bot) or new_row(spec)) for bot in dict.fromkeys(seats)}

    if is_elo_rated(spec, seats, result):
        before = [updated[bot] for bot in seats]
        changes = rating_changes(
            [row["rating"] for row in before], places, [row["rated_games"] for row in before]
        )
        for row, change in zip(before, changes, strict=True):
            row["rating"] += change
            row["rated_games"] += 1

    for bot, row in updated.items():
        own = [seat for seat, holder in enumerate(seats) if holder == bot]
        best = min(own, key=lambda seat: places[seat])
        row["games"] += 1
        row[{"win": "wins", "draw": "draws", "loss": "losses"}[verdicts[best]]] += 1
        row["score_sum"] += sum(scores[seat] for seat in own) / len(own)
        if spec.team:
            row["team_games"] += 1
            row["team_wins"] += 1 if result.team_won is True else 0
        row["last_match"] = match_id
    return updated


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def display_row(bot_id: str, name: str, row: Row, spec: VariantSpec) -> dict[str, Any]:
    games = row["games"]
    return {
        "bot_id": bot_id,
        "name": name,
        "rating": round(row["rating"], 1) if spec.rated and row.get("rating") is not None else None,
        "rated_games": row["rated_games"],
        "games": games,
        "wins": row["wins"],
        "draws": row["draws"],
        "losses": row["losses"],
        "win_rate": _rate(row["wins"], games),
        "team_win_rate": _rate(row["team_wins"], row["team_games"]) if spec.team else None,
        "mean_score": round(row["score_sum"] / games, 4) if games else None,
    }


def _sort_key(entry: dict[str, Any], spec: VariantSpec) -> tuple[float, ...]:
    if spec.rated:
        return (entry["rating"],)
    rate = entry["team_win_rate"] if spec.team else entry["win_rate"]
    return (rate or 0.0, entry["mean_score"] or 0.0)


def ranked(rows: Mapping[str, Row], names: Mapping[str, str], spec: VariantSpec) -> list[dict[str, Any]]:
    """The ladder for display, best first, with competition ranks (equal keys share a rank).

    Rows of bots missing from ``names`` (deleted bots) are left out.
    """
    entries = [display_row(bot, names[bot], row, spec) for bot, row in rows.items() if bot in names]
    entries.sort(
        key=lambda e: (tuple(-part for part in _sort_key(e, spec)), -e["games"], e["name"], e["bot_id"])
    )
    for position, entry in enumerate(entries):
        previous = entries[position - 1] if position else None
        if previous is not None and _sort_key(previous, spec) == _sort_key(entry, spec):
            entry["rank"] = previous["rank"]
        else:
            entry["rank"] = position + 1
    return entries
