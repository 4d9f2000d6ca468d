"""The batch refit: Bradley-Terry / Plackett-Luce maximum likelihood by Hunter's MM algorithm,
checked against fits derived by hand and against the likelihood itself, and its bootstrap."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.ladders.refit import Ranking, bootstrap, fit, rating_of


def duel(winner: str, loser: str, tie: bool = False) -> Ranking:
    return Ranking(((winner,), (loser,)), (1, 1) if tie else (1, 2))


def test_bradley_terry_two_players_three_wins_in_four() -> None:
    # L = p^3 (1 - p) with p = ga / (ga + gb): maximal at p = 3/4, so ga / gb = 3
    games = [duel("a", "b")] * 3 + [duel("b", "a")]
    strengths = fit(games, prior=0.0)
    assert strengths["a"] / strengths["b"] == pytest.approx(3.0, rel=1e-9)
    assert strengths["a"] / (strengths["a"] + strengths["b"]) == pytest.approx(0.75, rel=1e-9)
    # prior 0: scaled so the geometric mean is 1, i.e. ga = sqrt(3), gb = 1 / sqrt(3)
    assert strengths["a"] == pytest.approx(math.sqrt(3.0), rel=1e-9)
    # on the Elo scale a ratio of 3 is 400 log10(3) = 190.85 points
    assert rating_of(strengths["a"]) - rating_of(strengths["b"]) == pytest.approx(190.849, abs=1e-3)


def test_a_shared_place_is_half_a_win_each() -> None:
    # a beats b once and they draw once: 1.5 wins in 2 for a, p = 3/4 again
    strengths = fit([duel("a", "b"), duel("a", "b", tie=True)], prior=0.0)
    assert strengths["a"] / strengths["b"] == pytest.approx(3.0, rel=1e-9)


def test_three_players_in_a_cycle_are_equal() -> None:
    # a > b, b > c, c > a once each: by symmetry every strength is the same
    strengths = fit([duel("a", "b"), duel("b", "c"), duel("c", "a")], prior=0.0)
    assert strengths["a"] == pytest.approx(1.0) and strengths["c"] == pytest.approx(1.0)


def test_plackett_luce_one_order_of_three_against_a_fixed_pair() -> None:
    # Orders (a, b, c) and (b, a, c) once each, and c beats a and b once each in duels.
    # By symmetry ga = gb = g, gc = 1 (prior 0 fixes only the scale: we compare ratios).
    # log L = 2 [log g - log(2g + 1)] + 2 [log g - log(g + 1)]   (the two orders)
    #       + 2 [log 1 - log(g + 1)]                             (the two duels)
    # d/dg: 4/g - 4/(2g + 1) - 4/(g + 1) = 0  ->  (2g + 1)(g + 1) = g(g + 1) + g(2g + 1)
    # -> 2g^2 + 3g + 1 = 3g^2 + 2g  ->  g^2 - g - 1 = 0  ->  g = (1 + sqrt 5) / 2
    rankings = [
        Ranking((("a",), ("b",), ("c",)), (1, 2, 3)),
        Ranking((("b",), ("a",), ("c",)), (1, 2, 3)),
        duel("c", "a"),
        duel("c", "b"),
    ]
    strengths = fit(rankings, prior=0.0)
    golden = (1 + math.sqrt(5.0)) / 2
    assert strengths["a"] / strengths["c"] == pytest.approx(golden, rel=1e-8)
    assert strengths["b"] / strengths["c"] == pytest.approx(golden, rel=1e-8)


def test_the_prior_keeps_an_unbeaten_player_finite_and_anchors_the_scale() -> None:
    # a beat b once; plus one virtual win and one virtual loss each against the reference
    # (strength 1): by symmetry ga * gb = 1, and a's score equation (wins = expected wins) is
    # 1 + 1 = ga/(ga+gb) + 2 ga/(ga+1)
    strengths = fit([duel("a", "b")], prior=1.0, tolerance=1e-13)
    ga, gb = strengths["a"], strengths["b"]
    assert ga * gb == pytest.approx(1.0, rel=1e-9)
    assert ga / (ga + gb) + 2 * ga / (ga + 1) == pytest.approx(2.0, rel=1e-9)
    assert math.isfinite(ga) and ga > 1


def test_team_strength_is_the_sum_of_its_members() -> None:
    # (a, b) beat g three times in four; a and b never appear apart, so only ga + gb is fixed:
    # with the prior, a and b are symmetric; (ga + gb) / gg comes from the score equations.
    rankings = [Ranking((("a", "b"), ("g",)), (1, 2))] * 3 + [Ranking((("a", "b"), ("g",)), (2, 1))]
    strengths = fit(rankings, prior=0.0)
    team = strengths["a"] + strengths["b"]
    assert team / (team + strengths["g"]) == pytest.approx(0.75, rel=1e-8)


def _log_posterior(strengths: dict[str, float], rankings: list[Ranking], prior: float) -> float:
    total = 0.0
    for ranking in rankings:  # no ties in these
        order = [team for _, team in sorted(zip(ranking.places, ranking.teams, strict=True))]
        for stage in range(len(order) - 1):
            left = sum(strengths[m] for team in order[stage:] for m in team)
            total += math.log(sum(strengths[m] for m in order[stage]) / left)
    for g in strengths.values():  # one virtual win and one virtual loss against strength 1
        total += prior * (math.log(g / (g + 1)) + math.log(1 / (g + 1)))
    return total


orders = st.lists(
    st.permutations(["a", "b", "c", "d"]).flatmap(
        lambda bots: st.integers(2, 4).map(
            lambda n: Ranking(tuple((b,) for b in bots[:n]), tuple(range(1, n + 1)))
        )
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(orders, st.lists(st.floats(0.2, 5.0), min_size=4, max_size=4))
def test_the_fit_is_at_least_as_likely_as_any_other_strengths(rankings, others) -> None:
    best = fit(rankings, prior=1.0)
    elsewhere = dict(zip(sorted(best), others, strict=False))
    assert _log_posterior(best, rankings, 1.0) >= _log_posterior(elsewhere, rankings, 1.0) - 1e-9


def test_bootstrap_intervals_hold_the_estimate_are_seeded_and_narrow_with_data() -> None:
    few = [duel("a", "b")] * 3 + [duel("b", "a")]
    many = few * 10
    first = bootstrap(few, samples=100, seed=7)
    assert first == bootstrap(few, samples=100, seed=7)
    for interval in first.values():
        assert interval.low <= interval.rating <= interval.high
    wide = first["a"].high - first["a"].low
    narrow = bootstrap(many, samples=100, seed=7)["a"]
    assert narrow.high - narrow.low < wide
    assert bootstrap([], samples=10) == {}
