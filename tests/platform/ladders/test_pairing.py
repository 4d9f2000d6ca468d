"""The continuous ladder's pairing, as pure functions: who meets whom, and how many matches a tick
may make (rate over any minute, cap in flight), with hypothesis properties over whole runs."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.ladders.pairing import Candidate, allowance, gap, pair, per_tick


def bot(name: str, mu: float = 25.0, sigma: float = 25 / 3, games: int = 0) -> Candidate:
    return Candidate(name, mu, sigma, games)


def test_the_least_played_bot_meets_the_closest_in_rating() -> None:
    bots = [bot("a", 30, 2, 10), bot("b", 20, 2, 3), bot("c", 21, 2, 9), bot("d", 35, 2, 8)]
    pods = pair(bots, 2, 1, {}, seed=1)
    assert len(pods) == 1 and set(pods[0]) == {"b", "c"}


def test_uncertainty_widens_the_range_a_bot_is_tried_over() -> None:
    # the same gap of 6 to either: the uncertain opponent makes the more open, informative match
    anchor = bot("a", 25, 1, 0)
    sure, unsure = bot("s", 31, 1, 5), bot("u", 19, 8, 5)
    assert gap(anchor, unsure) < gap(anchor, sure)
    assert set(pair([anchor, sure, unsure], 2, 1, {}, seed=0)[0]) == {"a", "u"}


def test_the_last_opponents_are_avoided_while_another_choice_exists() -> None:
    bots = [bot("a", 25, 2, 0), bot("b", 25, 2, 1), bot("c", 40, 2, 1)]
    last = {"a": frozenset({"b"}), "b": frozenset({"a"})}
    assert set(pair(bots, 2, 1, last, seed=3)[0]) == {"a", "c"}
    # only two bots: the repeat cannot be avoided, and it is played rather than nothing
    assert set(pair(bots[:2], 2, 1, last, seed=3)[0]) == {"a", "b"}


@pytest.mark.parametrize(
    ("free", "seats", "count", "pods"),
    [(5, 2, 9, 2), (5, 2, 1, 1), (1, 2, 3, 0), (8, 4, 3, 2), (9, 3, 2, 2), (4, 2, 0, 0)],
)
def test_pods_are_full_and_each_bot_plays_once(free: int, seats: int, count: int, pods: int) -> None:
    made = pair([bot(f"b{i}", games=i) for i in range(free)], seats, count, {}, seed=7)
    assert len(made) == pods
    assert all(len(pod) == len(set(pod)) == seats for pod in made)
    played = [member for pod in made for member in pod]
    assert len(played) == len(set(played))


def test_seats_are_shuffled_so_the_anchor_does_not_always_move_first() -> None:
    bots = [bot("a", games=0), bot("b", games=1)]
    firsts = {pair(bots, 2, 1, {}, seed=seed)[0][0] for seed in range(20)}
    assert firsts == {"a", "b"}


@pytest.mark.parametrize(
    ("rate", "made", "flight", "cap", "tick_s", "expected"),
    [
        (6, 0, 0, 10, 10, 1),  # a tick's share: 6 a minute, one every 10 s
        (60, 0, 0, 100, 10, 10),
        (60, 55, 0, 100, 10, 5),  # the last minute's count bounds it
        (60, 60, 0, 100, 10, 0),
        (60, 0, 98, 100, 10, 2),  # the cap in flight bounds it
        (60, 0, 100, 100, 10, 0),
        (60, 0, 120, 100, 10, 0),  # over the cap (lowered meanwhile): nothing, never negative
        (1, 0, 0, 5, 1, 1),
    ],
)
def test_allowance(rate: int, made: int, flight: int, cap: int, tick_s: int, expected: int) -> None:
    assert allowance(rate, made, flight, cap, tick_s) == expected


def test_per_tick_share_is_at_least_one() -> None:
    assert per_tick(1, 1) == 1 and per_tick(600, 60) == 600


@settings(max_examples=150, deadline=None)
@given(
    bots=st.integers(0, 12),
    seats=st.integers(1, 4),
    rate=st.integers(1, 30),
    cap=st.integers(1, 12),
    tick_s=st.integers(1, 30),
    steps=st.lists(st.tuples(st.floats(0.0, 40.0), st.integers(0, 6), st.integers(0, 2**32)), max_size=40),
)
def test_a_run_of_ticks_never_pairs_a_bot_with_itself_nor_exceeds_rate_or_cap(
    bots: int, seats: int, rate: int, cap: int, tick_s: int, steps: list[tuple[float, int, int]]
) -> None:
    """Simulate ticks at arbitrary moments (two may fall close together, as with two schedulers),
    matches ending in between: at every moment no more than ``rate`` were made in the last 60 s and
    no more than ``cap`` are in flight; no pod holds a bot twice or a busy bot."""
    pool = {f"b{i}": bot(f"b{i}", mu=20 + i, games=0) for i in range(bots)}
    now = 0.0
    made: list[float] = []
    flight: list[tuple[str, ...]] = []
    last: dict[str, frozenset[str]] = {}
    played: Counter[str] = Counter()
    for wait, ending, seed in steps:
        now += wait
        flight = flight[ending:]  # the oldest matches end
        busy = {member for pod in flight for member in pod}
        recent = sum(1 for moment in made if moment > now - 60)
        count = allowance(rate, recent, len(flight), cap, tick_s)
        free = [Candidate(b, c.mu, c.sigma, played[b]) for b, c in pool.items() if b not in busy]
        pods = pair(free, seats, count, last, seed)
        assert len(pods) <= count
        for pod in pods:
            assert len(pod) == len(set(pod)) == seats
            assert not busy & set(pod)
            for member in pod:
                played[member] += 1
                last[member] = frozenset(pod) - {member}
        members = [member for pod in pods for member in pod]
        assert len(members) == len(set(members))
        flight += pods
        made += [now] * len(pods)
        assert sum(1 for moment in made if moment > now - 60) <= rate
        assert len(flight) <= cap


def reference_pair(
    candidates: list[Candidate], seats: int, count: int, last: dict[str, frozenset[str]], seed: int
) -> list[tuple[str, ...]]:
    """The module's rules by brute force: every free bot weighed for every seat."""
    import random

    free = sorted(candidates, key=lambda b: (b.games, -b.sigma, b.bot_id))
    shuffle = random.Random(seed)
    pods: list[tuple[str, ...]] = []
    while len(pods) < count and len(free) >= seats:
        pod = [free.pop(0)]
        while len(pod) < seats:

            def key(other: Candidate, pod: list[Candidate] = pod) -> tuple:
                repeat = any(
                    other.bot_id in last.get(m.bot_id, frozenset())
                    or m.bot_id in last.get(other.bot_id, frozenset())
                    for m in pod
                )
                spread = round(sum(gap(m, other) for m in pod), 9)
                return (repeat, spread, other.games, -other.sigma, other.bot_id)

            chosen = min(free, key=key)
            free.remove(chosen)
            pod.append(chosen)
        order = [m.bot_id for m in pod]
        shuffle.shuffle(order)
        pods.append(tuple(order))
    return pods


@settings(max_examples=200, deadline=None)
@given(
    field=st.lists(
        st.tuples(
            st.sampled_from([20.0, 25.0, 30.0]) | st.floats(0, 50), st.floats(0.5, 8.5), st.integers(0, 5)
        ),
        max_size=40,
    ),
    seats=st.integers(1, 4),
    count=st.integers(0, 12),
    repeats=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=20),
    seed=st.integers(0, 1000),
)
def test_the_walk_outward_in_rating_finds_what_weighing_every_bot_finds(
    field: list[tuple[float, float, int]],
    seats: int,
    count: int,
    repeats: list[tuple[int, int]],
    seed: int,
) -> None:
    bots = [Candidate(f"b{i}", mu, sigma, games) for i, (mu, sigma, games) in enumerate(field)]
    last: dict[str, frozenset[str]] = {}
    for a, b in repeats:
        if a != b and a < len(bots) and b < len(bots):
            last[f"b{a}"] = frozenset({f"b{b}"})
    assert pair(bots, seats, count, last, seed) == reference_pair(bots, seats, count, last, seed)
