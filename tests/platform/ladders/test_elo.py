"""Elo: worked examples computed by hand (shown in each test), and invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.ladders.elo import expected_score, k_factor, pair_score, rating_changes


def test_equal_newcomers_duel() -> None:
    # E = 1 / (1 + 10^0) = 0.5; K = 40: winner 40 * (1 - 0.5) = +20, loser 40 * (0 - 0.5) = -20
    assert rating_changes([1500, 1500], [1, 2], [0, 0]) == [20.0, -20.0]


def test_a_draw_between_equals_changes_nothing() -> None:
    assert rating_changes([1500, 1500], [1, 1], [5, 50]) == [0.0, 0.0]


def test_favourite_wins_against_a_newcomer() -> None:
    # E(1600 vs 1400) = 1 / (1 + 10^(-200/400)) = 1 / (1 + 0.316228) = 0.759747
    # settled favourite (K 20): 20 * (1 - 0.759747) = +4.80506
    # newcomer (K 40): 40 * (0 - 0.240253) = -9.61012
    changes = rating_changes([1600, 1400], [1, 2], [30, 0])
    assert changes == pytest.approx([4.80506, -9.61012], abs=1e-4)


def test_underdog_wins() -> None:
    # E(1400 vs 1600) = 0.240253; both settled (K 20): underdog 20 * 0.759747 = +15.19494
    changes = rating_changes([1400, 1600], [1, 2], [40, 40])
    assert changes == pytest.approx([15.19494, -15.19494], abs=1e-4)


def test_three_seats_are_three_duels_with_k_halved() -> None:
    # K / (seats - 1) = 40 / 2 = 20 per pair, all at 1500 (E = 0.5 each pair)
    # seat 0 beats both: 20 * (0.5 + 0.5) = +20; seat 1 loses one, wins one: 0; seat 2: -20
    assert rating_changes([1500, 1500, 1500], [1, 2, 3], [0, 0, 0]) == [20.0, 0.0, -20.0]


def test_a_shared_place_is_a_draw_between_those_seats() -> None:
    # (1, 1, 3): seats 0 and 1 draw each other (0) and beat seat 2 (+0.5): 20 * 0.5 = +10 each
    assert rating_changes([1500, 1500, 1500], [1, 1, 3], [0, 0, 0]) == [10.0, 10.0, -20.0]


def test_four_seats_use_the_ratings_before_the_match() -> None:
    # K / 3 = 40/3 for each seat (all new). Seat 0 at 1700 wins against three at 1500:
    # E(1700 vs 1500) = 1 / (1 + 10^(-0.5)) = 0.759747; surprise 3 * 0.240253 = 0.720760
    # change = 40/3 * 0.720760 = +9.61013; each other seat: E(1500 vs 1700) = 0.240253 against
    # seat 0 (lost: -0.240253) and 0.5 against each other; places 2, 3, 4.
    changes = rating_changes([1700, 1500, 1500, 1500], [1, 2, 3, 4], [0, 0, 0, 0])
    assert changes[0] == pytest.approx(9.61013, abs=1e-4)
    # seat 1: -0.240253 + 0.5 + 0.5 = 0.759747 -> 40/3 * 0.759747 = 10.12996
    assert changes[1] == pytest.approx(10.12996, abs=1e-4)
    # seat 3: -0.240253 - 0.5 - 0.5 = -1.240253 -> -16.53671
    assert changes[3] == pytest.approx(-16.53671, abs=1e-4)


def test_k_is_40_for_the_first_30_rated_games_then_20() -> None:
    assert [k_factor(n) for n in (0, 1, 29, 30, 31, 500)] == [40, 40, 40, 20, 20, 20]


def test_pair_scores_and_expectations() -> None:
    assert [pair_score(1, 2), pair_score(2, 2), pair_score(3, 1)] == [1.0, 0.5, 0.0]
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(1 / 1.1, abs=1e-9)  # 10^(-1) = 0.1


def test_a_single_seat_changes_nothing_and_lengths_must_match() -> None:
    assert rating_changes([1500], [1], [0]) == [0.0]
    with pytest.raises(ValueError):
        rating_changes([1500, 1500], [1], [0, 0])


ratings = st.floats(min_value=800, max_value=2400, allow_nan=False)


@settings(max_examples=60)
@given(st.lists(st.tuples(ratings, st.integers(1, 4)), min_size=2, max_size=4))
def test_with_equal_k_the_ratings_sum_is_kept(seats: list[tuple[float, int]]) -> None:
    changes = rating_changes([r for r, _ in seats], [p for _, p in seats], [10] * len(seats))
    assert sum(changes) == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=60)
@given(ratings, ratings)
def test_the_winner_never_loses_points(winner: float, loser: float) -> None:
    gain, loss = rating_changes([winner, loser], [1, 2], [0, 0])
    assert gain > 0 > loss
