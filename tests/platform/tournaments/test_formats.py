"""Swiss pairing (no repeat meetings while avoidable, byes spread, seats balanced, pods) and
knockout brackets (byes to the top seeds, full pods)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from arena.tournaments.knockout import (
    knockout_field_error,
    knockout_round,
    knockout_round_count,
    seed_by_rating,
)
from arena.tournaments.swiss import swiss_pairing, swiss_rounds_default


def play(bots: list[str], size: int, rounds: int) -> tuple[list[tuple[str, ...]], Counter]:
    """Play ``rounds`` rounds where the first seat of every pod wins (a deterministic result)."""
    points: Counter = Counter()
    byes: Counter = Counter()
    history: list[tuple[str, ...]] = []
    for _ in range(rounds):
        made = swiss_pairing(bots, size, points, history, byes)
        for bot in made.byes:
            byes[bot] += 1
            points[bot] += 1
        for pod in made.pods:
            assert len(pod) == size
            points[pod[0]] += 1
            history.append(pod)
        seen = [bot for pod in made.pods for bot in pod] + list(made.byes)
        assert sorted(seen) == sorted(bots), "every bot plays or has a bye, once"
    return history, byes


@pytest.mark.parametrize(
    ("count", "size", "rounds"),
    [(4, 2, 3), (6, 2, 3), (8, 2, 3), (5, 2, 3), (7, 2, 4), (16, 4, 2), (9, 3, 2), (12, 3, 2), (18, 4, 2)],
)
def test_no_pair_meets_twice_while_a_fresh_pairing_exists(count: int, size: int, rounds: int) -> None:
    bots = [f"b{i}" for i in range(count)]
    history, _ = play(bots, size, rounds)
    meetings = Counter(frozenset(pair) for pod in history for pair in combinations(pod, 2))
    assert max(meetings.values()) == 1


@pytest.mark.parametrize(
    ("count", "size", "rounds"), [(5, 2, 5), (7, 2, 7), (9, 2, 4), (10, 4, 5), (7, 3, 3)]
)
def test_byes_are_spread_nobody_gets_two_before_everyone_has_one(count: int, size: int, rounds: int) -> None:
    bots = [f"b{i}" for i in range(count)]
    _, byes = play(bots, size, rounds)
    given = [byes[bot] for bot in bots]
    assert sum(given) == rounds * (count % size)
    assert max(given) - min(given) <= 1


@pytest.mark.parametrize(("count", "size", "rounds"), [(4, 2, 2), (6, 2, 4), (8, 2, 2), (8, 4, 4), (6, 3, 3)])
def test_seats_are_balanced(count: int, size: int, rounds: int) -> None:
    bots = [f"b{i}" for i in range(count)]
    history, _ = play(bots, size, rounds)
    firsts = Counter(pod[0] for pod in history)
    played = Counter(bot for pod in history for bot in pod)
    for bot in bots:
        share = firsts[bot] / played[bot]
        assert abs(share - 1 / size) <= 1 / played[bot] + 1e-9, (bot, firsts[bot], played[bot])


def test_pods_group_by_points_from_the_top() -> None:
    bots = ["a", "b", "c", "d", "e", "f", "g", "h"]
    points = {"e": 2, "f": 2, "g": 2, "h": 2}
    made = swiss_pairing(bots, 4, points, [], {})
    assert [set(pod) for pod in made.pods] == [{"e", "f", "g", "h"}, {"a", "b", "c", "d"}]
    assert made.byes == ()


def test_bye_goes_to_the_lowest_without_a_bye() -> None:
    bots = ["a", "b", "c"]
    assert swiss_pairing(bots, 2, {"a": 1, "b": 1, "c": 0}, [], {}).byes == ("c",)
    assert swiss_pairing(bots, 2, {"a": 1, "b": 1, "c": 0}, [], {"c": 1}).byes == ("b",)


def test_default_rounds_is_ceil_log2() -> None:
    assert [swiss_rounds_default(n) for n in (2, 3, 4, 5, 16, 17)] == [1, 2, 2, 3, 4, 5]


# -- knockout brackets ---------------------------------------------------------------------------


def run_bracket(count: int, seats: int, advance: int) -> list[int]:
    """Play a bracket where the best seed of every pod goes on; the entrants of each round."""
    entrants = [f"s{i:02d}" for i in range(count)]
    sizes = []
    while True:
        sizes.append(len(entrants))
        made = knockout_round(entrants, seats, advance)
        assert all(len(pod) == seats for pod in made.pods), "every pod is full"
        assert set(made.byes).isdisjoint(bot for pod in made.pods for bot in pod)
        if not made.byes and len(made.pods) == 1 and len(entrants) == seats:
            return sizes
        winners = [bot for pod in made.pods for bot in sorted(pod)[:advance]]
        entrants = sorted([*made.byes, *winners])


@pytest.mark.parametrize(
    ("count", "seats", "advance", "sizes"),
    [
        (8, 2, 1, [8, 4, 2]),
        (5, 2, 1, [5, 4, 2]),  # 3 byes to the top seeds, then a full bracket of 4
        (6, 2, 1, [6, 4, 2]),
        (16, 4, 1, [16, 4]),
        (7, 4, 1, [7, 4]),
        (6, 4, 2, [6, 4]),
        (10, 4, 2, [10, 8, 4]),
        (9, 3, 1, [9, 3]),
        (5, 3, 1, [5, 3]),
    ],
)
def test_byes_bring_the_field_to_a_full_bracket(
    count: int, seats: int, advance: int, sizes: list[int]
) -> None:
    assert knockout_field_error(count, seats, advance) is None
    assert run_bracket(count, seats, advance) == sizes
    assert knockout_round_count(count, seats, advance) == len(sizes)


def test_byes_go_to_the_top_seeds_and_duels_pit_best_against_worst() -> None:
    made = knockout_round(["1", "2", "3", "4", "5", "6"], 2, 1)
    assert made.byes == ("1", "2")
    assert made.pods == (("3", "6"), ("4", "5"))


@pytest.mark.parametrize(
    ("count", "seats", "advance"), [(5, 4, 2), (3, 4, 2), (4, 3, 1), (6, 4, 1), (4, 4, 3)]
)
def test_fields_that_cannot_come_down_to_one_full_pod_are_refused(
    count: int, seats: int, advance: int
) -> None:
    assert knockout_field_error(count, seats, advance) is not None


@pytest.mark.parametrize(
    ("ratings", "seeds"),
    [
        ({"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0}, ["d", "c", "b", "a"]),
        ({"a": None, "b": 2.0, "c": None, "d": -4.0}, ["b", "d", "a", "c"]),  # unrated last, entry order
        ({}, ["a", "b", "c", "d"]),  # nobody rated (an unrated variant): entry order
        ({"a": 5.0, "b": 5.0, "c": 6.0}, ["c", "a", "b", "d"]),  # a tie keeps entry order
        ({"a": -0.0, "b": 0.0, "c": 0.0, "d": None}, ["a", "b", "c", "d"]),
    ],
)
def test_knockout_seeds_follow_the_rating_unrated_last(ratings: dict, seeds: list[str]) -> None:
    assert seed_by_rating(["a", "b", "c", "d"], ratings) == seeds


@pytest.mark.parametrize(
    ("field", "rounds"),
    [
        (8, [[(1, 8), (2, 7), (3, 6), (4, 5)], [(1, 4), (2, 3)], [(1, 2)]]),
        (6, [[(3, 6), (4, 5)], [(1, 4), (2, 3)], [(1, 2)]]),  # byes to seeds 1 and 2
        (5, [[(4, 5)], [(1, 4), (2, 3)], [(1, 2)]]),
    ],
)
def test_when_the_better_seed_always_wins_seed_1_meets_seed_2_only_in_the_final(
    field: int, rounds: list[list[tuple[int, int]]]
) -> None:
    entrants = list(range(1, field + 1))  # seed numbers, best first
    played = []
    while len(entrants) > 1:
        made = knockout_round(entrants, 2, 1)
        played.append(list(made.pods))
        entrants = sorted([*made.byes, *(min(pod) for pod in made.pods)])
    assert played == rounds
