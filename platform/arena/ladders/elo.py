"""Elo ratings, pure functions: expected scores, K factors and the change a match brings.

Every bot starts at :data:`START_RATING` in each game and variant. A bot's K factor is
:data:`K_NEW` for its first :data:`NEW_GAMES` rated games, then :data:`K_SETTLED`, so a new bot
finds its level quickly and a settled one moves slowly.

A match of more than two seats counts as every pair of seats playing each other once, judged by
their places (a better place wins, a shared place is a draw), all from the ratings before the
match, with K divided by ``seats - 1`` so a match moves a rating about as far as a duel does.

Two newcomers at 1500, the first one wins: each expected 0.5, so +20 and -20::

    >>> rating_changes([1500, 1500], [1, 2], [0, 0])
    [20.0, -20.0]
"""

from __future__ import annotations

from collections.abc import Sequence

START_RATING = 1500.0
K_NEW = 40.0
K_SETTLED = 20.0
NEW_GAMES = 30


def expected_score(rating: float, opponent: float) -> float:
    """The score ``rating`` is expected to make against ``opponent`` (1 win, 0.5 draw, 0 loss).

    >>> round(expected_score(1600, 1400), 4)
    0.7597
    """
    # typeshed types float ** float as Any (a negative base makes it complex); this base is 10
    odds_against: float = 10.0 ** ((opponent - rating) / 400.0)
    return 1.0 / (1.0 + odds_against)


def k_factor(rated_games: int) -> float:
    """K for a bot that has played ``rated_games`` rated games before this one.

    >>> k_factor(0), k_factor(29), k_factor(30)
    (40.0, 40.0, 20.0)
    """
    return K_NEW if rated_games < NEW_GAMES else K_SETTLED


def pair_score(place: int, opponent_place: int) -> float:
    """The score one seat makes against another from their places: 1, 0.5 (shared) or 0."""
    if place < opponent_place:
        return 1.0
    if place == opponent_place:
        return 0.5
    return 0.0


def rating_changes(
    ratings: Sequence[float], places: Sequence[int], rated_games: Sequence[int]
) -> list[float]:
    """The change of each seat's rating after one match.

    ``ratings`` are the seats' ratings before the match, ``places`` their places (1 is best, ties
    share), ``rated_games`` how many rated games each seat's bot had played before it.

    >>> rating_changes([1500, 1500, 1500], [1, 1, 3], [0, 0, 0])
    [10.0, 10.0, -20.0]
    """
    seats = len(ratings)
    if not seats == len(places) == len(rated_games):
        raise ValueError("ratings, places and rated_games must have one entry per seat")
    if seats < 2:
        return [0.0] * seats
    changes = []
    for seat in range(seats):
        k = k_factor(rated_games[seat]) / (seats - 1)
        surprise = sum(
            pair_score(places[seat], places[other]) - expected_score(ratings[seat], ratings[other])
            for other in range(seats)
            if other != seat
        )
        changes.append(k * surprise)
    return changes
