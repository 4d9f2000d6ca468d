"""The online skill model: openskill's Plackett-Luce against its published example, and which
results move skills (the ladder's rules)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.ladders.skill import Skill, match_evidence, rate, start
from arena.records import GAME_ENTRANT
from referee.game import VariantSpec

_ENDS = {"end_reasons": frozenset({"end"}), "max_moves": 10}
RATED = VariantSpec("duel", seats=(1, 2, 3, 4), description="", **_ENDS)
CREW = VariantSpec("crew", seats=(1, 2, 3, 4), description="", team=True, **_ENDS)
COOP = VariantSpec("coop", seats=(1, 2, 3), description="", rated=False, team=True, **_ENDS)


def test_openskill_published_two_against_two_example() -> None:
    # openskill's README (3.x, Plackett-Luce, before its default drift tau): a1 (25, 8.333) and
    # a2 (32.444, 5.123) beat b1 (43.381, 2.421) and b2 (25.188, 6.211); published results:
    # a1 28.669648436582808 / 8.071520788025197, a2 33.83086971107981 / 5.062772998705765,
    # b1 43.071274808241974 / 2.4166900452721256, b2 23.149503312339064 / 6.1378606973362135.
    before = {
        "a1": Skill(25.0, 25.0 / 3.0),
        "a2": Skill(32.444, 5.123),
        "b1": Skill(43.381, 2.421),
        "b2": Skill(25.188, 6.211),
    }
    after = rate(before, [["a1", "a2"], ["b1", "b2"]], [1, 2], tau=0.0)
    published = {
        "a1": (28.669648436582808, 8.071520788025197),
        "a2": (33.83086971107981, 5.062772998705765),
        "b1": (43.071274808241974, 2.4166900452721256),
        "b2": (23.149503312339064, 6.1378606973362135),
    }
    for player, (mu, sigma) in published.items():
        assert after[player].mu == pytest.approx(mu, abs=1e-9)
        assert after[player].sigma == pytest.approx(sigma, abs=1e-9)


def test_a_newcomer_starts_at_25_and_a_third_with_a_conservative_zero() -> None:
    fresh = start()
    assert (fresh.mu, fresh.sigma) == pytest.approx((25.0, 25.0 / 3.0))
    assert fresh.conservative == pytest.approx(0.0)
    assert Skill(30.0, 2.0).conservative == 24.0


def test_equal_newcomers_move_symmetrically_and_grow_surer() -> None:
    after = rate({}, [["a"], ["b"]], [1, 2], tau=0.0)
    assert after["a"].mu - 25.0 == pytest.approx(25.0 - after["b"].mu)
    assert after["a"].mu > 25.0 and after["a"].sigma < 25.0 / 3.0
    drawn = rate({}, [["a"], ["b"]], [1, 1], tau=0.0)
    assert drawn["a"].mu == pytest.approx(25.0) and drawn["b"].mu == pytest.approx(25.0)


def test_which_results_move_skills() -> None:
    assert match_evidence(RATED, ["a", "b", "c"], [2, 1, 1], None) == [([["a"], ["b"], ["c"]], [2, 1, 1])]
    assert match_evidence(RATED, ["a"], [1], None) == []  # one seat tells nothing
    assert match_evidence(RATED, ["a", "a", "b"], [1, 2, 3], None) == []  # a bot in several seats
    assert match_evidence(COOP, ["a", "b"], [1, 1], True) == []  # unrated variant
    # a team variant: the seats are one team against the game, first when the team won; a won game
    # that ranks its seats is also a free-for-all by those places (what each contributed)
    assert match_evidence(CREW, ["a", "b"], [2, 1], True) == [
        ([["a", "b"], [GAME_ENTRANT]], [1, 2]),
        ([["a"], ["b"]], [2, 1]),
    ]
    assert match_evidence(CREW, ["a", "b"], [1, 1], True) == [([["a", "b"], [GAME_ENTRANT]], [1, 2])]
    assert match_evidence(CREW, ["a", "b"], [2, 1], False) == [([["a", "b"], [GAME_ENTRANT]], [2, 1])]
    assert match_evidence(CREW, ["a"], [1], True) == [([["a"], [GAME_ENTRANT]], [1, 2])]


def test_a_team_that_beats_the_game_rises_together() -> None:
    [(teams, ranks)] = match_evidence(CREW, ["a", "b"], [1, 1], True)
    after = rate({"a": Skill(25.0, 8.0), "b": Skill(25.0, 2.0)}, teams, ranks, tau=0.0)
    assert after["a"].mu > 25.0 and after["b"].mu > 25.0 and after[GAME_ENTRANT].mu < 25.0
    # the surprise is shared by uncertainty: the less certain member moves further
    assert after["a"].mu - 25.0 > after["b"].mu - 25.0


places = st.lists(st.integers(1, 4), min_size=2, max_size=4)


@settings(max_examples=60, deadline=None)
@given(places)
def test_a_better_place_never_ends_with_a_lower_skill_among_equals(seat_places: list[int]) -> None:
    bots = [f"b{seat}" for seat in range(len(seat_places))]
    after = rate({}, [[bot] for bot in bots], seat_places, tau=0.0)
    for i, j in ((i, j) for i in range(len(bots)) for j in range(len(bots))):
        if seat_places[i] < seat_places[j]:
            assert after[bots[i]].mu >= after[bots[j]].mu - 1e-9
        if seat_places[i] == seat_places[j]:
            assert after[bots[i]].mu == pytest.approx(after[bots[j]].mu)
    assert all(math.isfinite(s.sigma) and 0 < s.sigma <= 25.0 / 3.0 for s in after.values())
