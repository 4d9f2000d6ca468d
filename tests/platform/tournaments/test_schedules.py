"""Tournament schedules (seat rotation, formats, seeds)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournaments.formats import games_per_pairing, match_count, pairings, schedule


def seat_counts(matches) -> Counter:
    return Counter((bot, seat) for match in matches for seat, bot in enumerate(match.bots))


def test_round_robin_duels_rotate_seats() -> None:
    matches = schedule("round_robin", ["a", "b", "c"], 2, 2, seed=5)
    assert [m.bots for m in matches] == [
        ("a", "b"),
        ("b", "a"),
        ("a", "c"),
        ("c", "a"),
        ("b", "c"),
        ("c", "b"),
    ]
    assert set(seat_counts(matches).values()) == {2}


def test_games_per_pairing_round_up_to_a_multiple_of_seats() -> None:
    assert [games_per_pairing(n, 3) for n in (1, 2, 3, 4, 7)] == [3, 3, 3, 6, 9]
    matches = schedule("round_robin", ["a", "b", "c"], 3, 2, seed=1)
    assert [m.bots for m in matches] == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]


def test_one_rotation_cycle_shares_its_seed_and_cycles_differ() -> None:
    matches = schedule("round_robin", ["a", "b"], 2, 4, seed=9)
    seeds = [m.seed for m in matches]
    assert seeds[0] == seeds[1] != seeds[2] == seeds[3]
    assert schedule("round_robin", ["a", "b"], 2, 4, seed=9) == matches
    assert schedule("round_robin", ["a", "b"], 2, 4, seed=10)[0].seed != seeds[0]


def test_gauntlet_puts_the_first_bot_against_each_other() -> None:
    assert pairings("gauntlet", ["champ", "x", "y", "z"], 2) == [
        ("champ", "x"),
        ("champ", "y"),
        ("champ", "z"),
    ]
    assert pairings("gauntlet", ["champ", "x", "y", "z"], 3) == [
        ("champ", "x", "y"),
        ("champ", "x", "z"),
        ("champ", "y", "z"),
    ]
    with pytest.raises(ValueError):
        pairings("swiss", ["a", "b"], 2)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["round_robin", "gauntlet"]),
    st.integers(2, 6),
    st.integers(1, 4),
    st.integers(1, 5),
)
def test_every_bot_sits_in_every_seat_equally_often(format_name, bots_count, seats, games) -> None:
    seats = min(seats, bots_count)
    bots = [f"bot{i}" for i in range(bots_count)]
    matches = schedule(format_name, bots, seats, games, seed=3)
    assert len(matches) == match_count(format_name, bots_count, seats, games)
    counts = seat_counts(matches)
    for bot in {b for m in matches for b in m.bots}:
        assert len({counts[(bot, seat)] for seat in range(seats)}) == 1
    assert all(len(set(m.bots)) == seats for m in matches)
