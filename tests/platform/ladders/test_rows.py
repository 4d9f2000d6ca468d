"""Ladder rows: who gets which counts and rating changes for each kind of variant."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.ladders import ladder
from arena.ladders.rows import apply_result, new_row, rank_key
from arena.ladders.scoring import seat_points, seat_verdicts
from arena.records import GAME_ENTRANT
from arena.storage import Store
from referee.game import VariantSpec
from referee.replay import MatchResult

_ENDS = {"end_reasons": frozenset({"end"}), "max_moves": 10}

RATED = VariantSpec("duel", seats=(2, 3, 4), description="", **_ENDS)
UNRATED_TEAM = VariantSpec("coop", seats=(1, 2, 3), description="", rated=False, team=True, **_ENDS)
RATED_TEAM = VariantSpec("crew", seats=(4,), description="", rated=True, team=True, **_ENDS)
UNRATED = VariantSpec("practice", seats=(2,), description="", rated=False, **_ENDS)


def result(places, scores=None, team_won=None) -> MatchResult:
    return MatchResult(tuple(places), tuple(scores or [0.0] * len(places)), "end", team_won)


def ranked(rows: dict, names: dict, spec: VariantSpec) -> list[dict]:
    """A whole ladder as its page shows it, its rows stored with their ranking keys."""
    store = Store.in_memory()
    store.ladders.put_rows(
        "g", "v", {bot: {**row, "key": rank_key(row, spec)} for bot, row in rows.items()}, names
    )
    return ladder.page(store, "g", "v", spec, 0, len(rows))["entries"]


def test_a_first_duel_between_newcomers() -> None:
    rows = apply_result({}, RATED, ["a", "b"], result([1, 2], [7, 3]), "m1")
    assert rows["a"]["rating"] == 1520.0 and rows["b"]["rating"] == 1480.0
    assert (rows["a"]["wins"], rows["a"]["losses"], rows["b"]["losses"]) == (1, 0, 1)
    assert rows["a"]["score_sum"] == 7 and rows["a"]["rated_games"] == rows["a"]["games"] == 1
    assert rows["a"]["last_match"] == "m1"


def test_the_given_rows_are_not_changed() -> None:
    before = {"a": new_row(RATED), "b": new_row(RATED)}
    apply_result(before, RATED, ["a", "b"], result([1, 2]), "m1")
    assert before["a"]["rating"] == 1500.0 and before["a"]["games"] == 0


def test_k_drops_to_20_after_30_rated_games() -> None:
    veteran = {**new_row(RATED), "rated_games": 30, "games": 30}
    rows = apply_result({"a": veteran}, RATED, ["a", "b"], result([1, 2]), "m1")
    assert rows["a"]["rating"] == 1510.0  # K 20 * 0.5
    assert rows["b"]["rating"] == 1480.0  # K 40 * -0.5


def test_shared_first_place_is_a_draw() -> None:
    rows = apply_result({}, RATED, ["a", "b", "c"], result([1, 1, 3]), "m1")
    assert [rows[bot]["rating"] for bot in "abc"] == [1510.0, 1510.0, 1480.0]
    assert [(rows[bot]["wins"], rows[bot]["draws"], rows[bot]["losses"]) for bot in "abc"] == [
        (0, 1, 0),
        (0, 1, 0),
        (0, 0, 1),
    ]


def test_unrated_variants_have_no_rating_but_count_games() -> None:
    rows = apply_result({}, UNRATED, ["a", "b"], result([2, 1], [1, 4]), "m1")
    assert rows["a"]["rating"] is None and rows["a"]["rated_games"] == 0
    assert rows["b"]["wins"] == 1 and rows["a"]["losses"] == 1


def test_team_variants_count_team_wins_and_lost_games_are_losses() -> None:
    won = apply_result({}, UNRATED_TEAM, ["a", "b"], result([1, 1], [3, 2], team_won=True), "m1")
    lost = apply_result(won, UNRATED_TEAM, ["a", "b"], result([1, 1], [0, 1], team_won=False), "m2")
    assert (lost["a"]["team_games"], lost["a"]["team_wins"]) == (2, 1)
    assert (lost["a"]["draws"], lost["a"]["losses"]) == (1, 1)  # won together: shared first place
    assert lost["a"]["score_sum"] == 3 and lost["b"]["score_sum"] == 3


def test_a_rated_team_variant_rates_only_won_games() -> None:
    seats = ["a", "b", "c", "d"]
    lost = apply_result({}, RATED_TEAM, seats, result([1, 1, 1, 1], team_won=False), "m1")
    assert all(lost[bot]["rating"] == 1500.0 and lost[bot]["rated_games"] == 0 for bot in seats)
    assert all(lost[bot]["losses"] == 1 and lost[bot]["team_games"] == 1 for bot in seats)
    won = apply_result(lost, RATED_TEAM, seats, result([1, 2, 3, 4], team_won=True), "m2")
    # four seats: K/3 per pair; seat 0 beats three equals: 40/3 * 1.5 = +20
    assert won["a"]["rating"] == pytest.approx(1520.0)
    assert won["d"]["rating"] == pytest.approx(1480.0)
    assert won["a"]["rated_games"] == 1 and won["a"]["team_wins"] == 1


def test_a_bot_in_several_seats_counts_once_and_is_not_rated() -> None:
    rows = apply_result({}, RATED, ["a", "a", "b"], result([1, 3, 2], [5, 1, 3]), "m1")
    assert rows["a"]["games"] == 1 and rows["a"]["wins"] == 1  # its best seat won
    assert rows["a"]["score_sum"] == 3  # mean of 5 and 1
    assert rows["a"]["rating"] == 1500.0 and rows["b"]["rating"] == 1500.0


def test_rated_ladders_rank_by_the_conservative_estimate_with_shared_ranks() -> None:
    # mu - 3 sigma: a 31 - 3*2 = 25; b and c 30 - 3*3 = 21 (tied); d 36 - 3*6 = 18 although its
    # mu and its Elo are the highest: the model is not yet sure of it.
    rows = {
        "a": {**new_row(RATED), "rating": 1600.0, "mu": 31.0, "sigma": 2.0, "games": 3, "wins": 3},
        "b": {**new_row(RATED), "rating": 1450.0, "mu": 30.0, "sigma": 3.0, "games": 3},
        "c": {**new_row(RATED), "rating": 1450.0, "mu": 30.0, "sigma": 3.0, "games": 3},
        "d": {**new_row(RATED), "rating": 1650.0, "mu": 36.0, "sigma": 6.0, "games": 1, "wins": 1},
    }
    table = ranked(rows, {"a": "Ann", "b": "Bob", "c": "Cy", "d": "Di"}, RATED)
    assert [(e["rank"], e["name"], e["rating"], e["conservative"]) for e in table] == [
        (1, "Ann", 1600.0, 25.0),
        (2, "Bob", 1450.0, 21.0),
        (2, "Cy", 1450.0, 21.0),
        (4, "Di", 1650.0, 18.0),
    ]
    assert table[0]["win_rate"] == 1.0 and table[0]["team_win_rate"] is None
    assert (table[0]["mu"], table[0]["sigma"]) == (31.0, 2.0)


def test_unrated_team_ladder_ranks_by_team_win_rate_then_mean_score() -> None:
    rows = {
        "a": {**new_row(UNRATED_TEAM), "games": 4, "team_games": 4, "team_wins": 2, "score_sum": 8.0},
        "b": {**new_row(UNRATED_TEAM), "games": 2, "team_games": 2, "team_wins": 1, "score_sum": 6.0},
        "c": {**new_row(UNRATED_TEAM), "games": 1, "team_games": 1, "team_wins": 1, "score_sum": 0.0},
    }
    table = ranked(rows, {"a": "a", "b": "b", "c": "c"}, UNRATED_TEAM)
    assert [(e["name"], e["team_win_rate"], e["mean_score"], e["rating"]) for e in table] == [
        ("c", 1.0, 0.0, None),
        ("b", 0.5, 3.0, None),
        ("a", 0.5, 2.0, None),
    ]


@pytest.mark.parametrize(
    ("places", "team", "team_won", "verdicts", "points"),
    [
        ([1, 2], False, None, ["win", "loss"], [1.0, 0.0]),
        ([1, 1], False, None, ["draw", "draw"], [0.5, 0.5]),
        ([2, 1, 1, 1], False, None, ["loss", "draw", "draw", "draw"], [0.0, 1 / 3, 1 / 3, 1 / 3]),
        ([1, 2, 3, 4], True, True, ["win", "loss", "loss", "loss"], [1.0, 0.0, 0.0, 0.0]),
        ([1, 1, 1, 1], True, False, ["loss"] * 4, [0.0] * 4),
        ([1], True, True, ["win"], [1.0]),
    ],
)
def test_verdicts_and_points(places, team, team_won, verdicts, points) -> None:
    outcome = result(places, team_won=team_won)
    assert seat_verdicts(outcome, team) == verdicts
    assert seat_points(outcome, team) == pytest.approx(points)


CREW_OF_THREE = VariantSpec("crew3", seats=(3,), description="", team=True, **_ENDS)
outcomes = st.lists(
    st.tuples(
        st.permutations(["a", "b", "c", "d"]).map(lambda bots: bots[:3]),
        st.lists(st.integers(1, 3), min_size=3, max_size=3),
        st.sampled_from([True, False]),
    ),
    min_size=1,
    max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(outcomes, st.sampled_from([RATED, CREW_OF_THREE]))
def test_random_seasons_keep_the_counts_consistent(season, spec) -> None:
    rows: dict = {}
    for index, (seats, places, team_won) in enumerate(season):
        outcome = result(places, [float(p) for p in places], team_won if spec.team else None)
        rows = {**rows, **apply_result(rows, spec, seats, outcome, f"m{index}")}
    rows.pop(GAME_ENTRANT, None)  # the game's own skill in the team variant: not a bot's row
    for row in rows.values():
        assert row["games"] == row["wins"] + row["draws"] + row["losses"]
        assert 0 <= row["rated_games"] <= row["games"]
        assert row["team_wins"] <= row["team_games"] == (row["games"] if spec.team else 0)
    # at most 25 matches: every bot is under 30 rated games, K is 40 for all, so Elo is zero-sum
    assert sum(row["rating"] - 1500.0 for row in rows.values()) == pytest.approx(0.0, abs=1e-6)
