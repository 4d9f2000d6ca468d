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
"""

from __future__ import annotations

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
