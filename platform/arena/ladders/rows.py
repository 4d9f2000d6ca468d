"""Ladder rows, pure functions: how a finished match changes them, and how a ladder is ranked.

One row per bot, game and variant (the store keeps each as a small hash, and each ladder's ranking
keys in a sorted set: see :mod:`arena.storage`; one page of it for display is
:func:`arena.ladders.ladder.page`). The rules:

- A match created with ``rated: false`` never reaches this module.
- Every bot of a counted match gets one more game, a win, draw or loss (:mod:`arena.ladders.scoring`),
  its mean score over its seats, and, in team variants, one more team game (and team win).
- Variants with ``rated=True`` also move Elo ratings (:mod:`arena.ladders.elo`), except: in a team
  variant only games the team won are rated, and a match where one bot holds several seats is
  never rated (a bot's play against itself tells nothing of its strength).
- Rated variants also keep a skill with uncertainty (``mu``, ``sigma``: :mod:`arena.ladders.skill`), moved
  by the same matches, except that in a team variant lost games count too (the team against the
  game), and a won one also ranks its seats by their places (what each contributed). Their
  ladder ranks by the conservative estimate ``mu - 3 sigma`` (shown as
  ``conservative``), so a bot with few games ranks low until its results make the model sure.
- Variants with ``rated=False`` have no rating of either kind; their ladder ranks by win rate (team
  win rate for team variants), then mean score.
- Equal ranking keys share a rank (competition ranking: 1, 2, 2, 4); within a tie, rows are in bot
  id order. Each row carries its ranking key (``key``, :func:`rank_key`), which the store sorts by.
- A batch refit (:mod:`arena.ladders.refit`, ``arena ratings refit``) adds fitted ratings with 95%
  intervals beside the online ones; it does not change the ranking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.ladders import skill
from arena.ladders.elo import START_RATING, rating_changes
from arena.ladders.scoring import seat_verdicts
from arena.records import GAME_ENTRANT
from referee.game import VariantSpec
from referee.replay import MatchResult

Row = dict[str, Any]


"""In a rated team variant, :func:`apply_result` also returns the game's own skill under this id:
the store keeps it beside the ladder, never as a row of it."""

_RATE_STEPS = 10_000
"""Win rates and mean scores are shown, and compared, to four decimals."""
_MEAN_LIMIT = 5 * 10**10
"""Mean scores (in steps of 1/10,000) are clamped to +-this so the unrated key stays an exact float."""


def new_row(spec: VariantSpec) -> Row:
    start = skill.start()
    return {
        "rating": START_RATING if spec.rated else None,
        "rated_games": 0,
        "mu": start.mu if spec.rated else None,
        "sigma": start.sigma if spec.rated else None,
        "games": 0,
        "wins": 0,
        "draws": 0,
        "losses": 0,
        "score_sum": 0.0,
        "team_games": 0,
        "team_wins": 0,
        "forfeits_in_a_row": 0,
    }


def is_elo_rated(spec: VariantSpec, seats: Sequence[str], result: MatchResult) -> bool:
    """Whether this match moves Elo ratings (see the module's rules)."""
    if not spec.rated or len(seats) < 2 or len(set(seats)) != len(seats):
        return False
    return not spec.team or result.team_won is True


def _skill_of(row: Mapping[str, Any]) -> skill.Skill:
    mu, sigma = row.get("mu"), row.get("sigma")
    if mu is not None and sigma is not None:  # every rated row once it exists: no model needed
        return skill.Skill(mu, sigma)
    start = skill.start()
    return skill.Skill(start.mu if mu is None else mu, start.sigma if sigma is None else sigma)


def _move_skills(
    rows: Mapping[str, Row],
    updated: dict[str, Row],
    spec: VariantSpec,
    seats: Sequence[str],
    result: MatchResult,
) -> None:
    evidence = skill.match_evidence(spec, seats, result.places, result.team_won)
    if not evidence:
        return
    current = {bot: _skill_of(updated[bot]) for bot in seats}
    if spec.team:
        updated[GAME_ENTRANT] = dict(rows.get(GAME_ENTRANT) or {})
        current[GAME_ENTRANT] = _skill_of(updated[GAME_ENTRANT])
    for members, ranks in evidence:
        current.update(skill.rate(current, members, ranks))
    for member, after in current.items():
        updated[member]["mu"] = after.mu
        updated[member]["sigma"] = after.sigma


def apply_result(
    rows: Mapping[str, Row], spec: VariantSpec, seats: Sequence[str], result: MatchResult, match_id: str
) -> dict[str, Row]:
    """The ladder rows of the match's bots after it: a new dict, ``rows`` is left untouched.

    ``seats`` are the bot ids in seat order; ``result`` is the replay's result. A bot holding several
    seats counts once, with its best seat's verdict and the mean of its seats' scores. ``rows`` need
    only hold the match's bots (and, for a rated team variant, :data:`GAME_ENTRANT`); in a rated
    team variant the answer holds the game's skill under :data:`GAME_ENTRANT` too.
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
    _move_skills(rows, updated, spec, seats, result)

    for bot in dict.fromkeys(seats):
        row = updated[bot]
        own = [seat for seat, holder in enumerate(seats) if holder == bot]
        best = min(own, key=lambda seat: places[seat])
        row["games"] += 1
        row[{"win": "wins", "draw": "draws", "loss": "losses"}[verdicts[best]]] += 1
        row["score_sum"] += sum(scores[seat] for seat in own) / len(own)
        if spec.team:
            row["team_games"] += 1
            row["team_wins"] += 1 if result.team_won is True else 0
        row["last_match"] = match_id
        forfeited_all = all(seat in result.forfeited for seat in own)
        row["forfeits_in_a_row"] = row.get("forfeits_in_a_row", 0) + 1 if forfeited_all else 0
        row["key"] = rank_key(row, spec)
    return updated


def history_point(row: Mapping[str, Any], spec: VariantSpec, match_id: str, at: str | None) -> Row | None:
    """The bot's rating after ``match_id`` (ended at ``at``), as its rating history keeps it: Elo,
    ``mu``, ``sigma`` and ``conservative`` as :func:`display_row` rounds them. None in an unrated
    variant, which has no rating to follow."""
    if not spec.rated:
        return None
    estimate = _skill_of(row)
    rating = row.get("rating")
    return {
        "match": match_id,
        "at": at,
        "rating": None if rating is None else round(rating, 1),
        "mu": round(estimate.mu, 3),
        "sigma": round(estimate.sigma, 3),
        "conservative": round(estimate.conservative, 3),
    }


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def rank_key(row: Mapping[str, Any], spec: VariantSpec) -> float:
    """The number a ladder sorts by, higher first; rows with equal keys share a rank.

    Rated variants: the conservative skill estimate, to three decimals (as shown). Unrated: the
    (team) win rate and then the mean score, both to four decimals (as shown), packed into one
    integer, exact as a float: ``rate * 10^4 * 10^11 + mean * 10^4 + 5 * 10^10``.
    """
    if spec.rated:
        return round(_skill_of(row).conservative, 3)
    games = row["games"]
    wins, played = (row["team_wins"], row["team_games"]) if spec.team else (row["wins"], games)
    rate = round(_RATE_STEPS * wins / played) if played else 0
    mean = round(_RATE_STEPS * row["score_sum"] / games) if games else 0
    mean = max(-_MEAN_LIMIT, min(_MEAN_LIMIT - 1, mean))
    return float(rate * 2 * _MEAN_LIMIT + mean + _MEAN_LIMIT)


def ranked_by(spec: VariantSpec) -> str:
    """What a ladder of this variant is ranked by, as the API says it."""
    if spec.rated:
        return "conservative"
    return "team_win_rate, mean_score" if spec.team else "win_rate, mean_score"


def display_row(
    bot_id: str, name: str, row: Mapping[str, Any], spec: VariantSpec, refit: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A row as the API and the pages show it (``rank`` is added by whoever ranks)."""
    games = row["games"]
    rated = spec.rated and row.get("rating") is not None
    estimate = _skill_of(row) if spec.rated else None
    return {
        "bot_id": bot_id,
        "name": name,
        "rating": round(row["rating"], 1) if rated else None,
        "rated_games": row["rated_games"],
        "mu": round(estimate.mu, 3) if estimate else None,
        "sigma": round(estimate.sigma, 3) if estimate else None,
        "conservative": round(estimate.conservative, 3) if estimate else None,
        "refit": dict(refit) if refit and spec.rated else None,
        "games": games,
        "wins": row["wins"],
        "draws": row["draws"],
        "losses": row["losses"],
        "win_rate": _rate(row["wins"], games),
        "team_wins": row["team_wins"] if spec.team else None,
        "team_win_rate": _rate(row["team_wins"], row["team_games"]) if spec.team else None,
        "mean_score": round(row["score_sum"] / games, 4) if games else None,
    }


def competition_ranks(keys: Sequence[float], first_rank: int = 1, offset: int = 0) -> list[int]:
    """Ranks of rows sorted best first with these keys: equal keys share a rank, the next distinct
    key ranks by its position (1, 2, 2, 4). A page starting at ``offset`` whose first row ranks
    ``first_rank`` (which the store counts: 1 + rows with a better key) goes on from there.

    >>> competition_ranks([9.0, 7.0, 7.0, 5.0])
    [1, 2, 2, 4]
    >>> competition_ranks([7.0, 7.0, 5.0], first_rank=2, offset=3)
    [2, 2, 6]
    """
    ranks: list[int] = []
    for position, key in enumerate(keys):
        if position and key == keys[position - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(first_rank if position == 0 else offset + position + 1)
    return ranks
