"""What one match result means for each seat: win, draw or loss, and tournament points.

One definition serves the ladders and the tournament standings:

- **win**: first place, alone; **draw**: first place, shared; **loss**: any other place.
- **points**: each match is worth one point, shared equally by the seats in first place
  (a two-seat match gives 1 to the winner, or 0.5 each for a draw; three seats sharing first
  place get 1/3 each).
- In a team variant (``VariantSpec.team``) a game the team lost (``team_won`` false) is a loss for
  every seat and gives nobody a point, whatever the places say.

>>> result = MatchResult(places=(2, 1, 1), scores=(0, 3, 3), reason="end")
>>> seat_verdicts(result, team=False)
['loss', 'draw', 'draw']
>>> seat_points(result, team=False)
[0.0, 0.5, 0.5]

A bot's **head-to-head** record against another counts, in every match they both played, a win when
its best place was better than the other's, a draw when equal, a loss when worse (a team variant's
seats play together against the game: they have no head-to-head).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.replay import MatchResult


def team_lost(result: MatchResult, team: bool) -> bool:
    return team and result.team_won is not True


def seat_verdicts(result: MatchResult, team: bool) -> list[str]:
    """``"win"``, ``"draw"`` or ``"loss"`` for each seat, as defined above."""
    places = list(result.places)
    if team_lost(result, team):
        return ["loss"] * len(places)
    sharing_first = places.count(1)
    return ["loss" if place != 1 else "win" if sharing_first == 1 else "draw" for place in places]


def seat_points(result: MatchResult, team: bool) -> list[float]:
    """Each seat's share of the match's one point, as defined above."""
    places = list(result.places)
    if team_lost(result, team):
        return [0.0] * len(places)
    sharing_first = places.count(1)
    return [1.0 / sharing_first if place == 1 else 0.0 for place in places]


def head_to_head(bots: Sequence[str], result: MatchResult, team: bool) -> dict[tuple[str, str], str]:
    """``(bot, opponent) -> "win" | "draw" | "loss"`` for every two distinct bots of a match, as
    defined above; ``bots`` are the seats' bot ids in seat order.

    >>> head_to_head(["a", "b", "a"], MatchResult(places=(3, 1, 2), scores=(0, 5, 3), reason="end"), False)
    {('a', 'b'): 'loss', ('b', 'a'): 'win'}
    """
    if team:
        return {}
    best: dict[str, int] = {}
    for bot, place in zip(bots, result.places, strict=True):
        best[bot] = min(place, best.get(bot, place))
    return {
        (bot, other): "win" if best[bot] < best[other] else "draw" if best[bot] == best[other] else "loss"
        for bot in best
        for other in best
        if other != bot
    }
