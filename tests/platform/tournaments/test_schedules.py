"""Tournament schedules (seat rotation, formats, seeds) and standings."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.records import MatchRecord, MatchStatus
from arena.tournaments.formats import games_per_pairing, match_count, pairings, schedule, standings
from referee.replay import MatchResult


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


def match(status: MatchStatus, bots: list[str], result: MatchResult | None = None) -> MatchRecord:
    record = MatchRecord.new("m", "g", "v", tuple(bots), tuple(bots), rated=True)
    return replace(record, status=status, result=result)


def finished(bots, places, scores, team_won=None) -> MatchRecord:
    return match(MatchStatus.FINISHED, bots, MatchResult(tuple(places), tuple(scores), "end", team_won))


def test_standings_add_points_wins_draws_losses_and_scores() -> None:
    matches = [
        finished(["a", "b"], [1, 2], [10, 4]),
        finished(["b", "a"], [1, 1], [6, 6]),
        finished(["a", "c"], [2, 1], [1, 9]),
        match(MatchStatus.ABORTED, ["b", "c"]),
        match(MatchStatus.QUEUED, ["c", "b"]),
    ]
    table = standings(["a", "b", "c"], {"a": "Ann", "b": "Bob", "c": "Cy"}, matches, team=False)
    by_bot = {row["bot_id"]: row for row in table}
    assert by_bot["a"] == {
        "bot_id": "a",
        "name": "Ann",
        "played": 3,
        "points": 1.5,
        "wins": 1,
        "draws": 1,
        "losses": 1,
        "score_sum": 17.0,
        "byes": 0,
        "buchholz": 2.0,  # its opponents' points: b twice (0.5 each) and c once (1.0)
        "rank": 1,
    }
    assert (by_bot["c"]["points"], by_bot["c"]["rank"]) == (1.0, 2)
    assert (by_bot["b"]["points"], by_bot["b"]["played"], by_bot["b"]["rank"]) == (0.5, 2, 3)


def test_team_standings_give_nothing_for_a_lost_game() -> None:
    matches = [
        finished(["a", "b"], [1, 1], [1, 1], team_won=False),
        finished(["b", "a"], [1, 2], [2, 1], True),
    ]
    table = standings(["a", "b"], {}, matches, team=True)
    assert [(r["bot_id"], r["points"], r["wins"], r["losses"]) for r in table] == [
        ("b", 1.0, 1, 1),
        ("a", 0.0, 0, 2),
    ]


@pytest.mark.parametrize(
    ("buchholz_first", "order"),
    [
        (True, ["a", "d", "b", "e", "c"]),  # a's opponent scored more than d's; b's more than e's
        (False, ["d", "a", "b", "e", "c"]),  # without it: wins, then score sums (d 5 > a 1), then names
    ],
)
def test_a_swiss_breaks_ties_on_points_by_buchholz(buchholz_first: bool, order: list[str]) -> None:
    matches = [
        finished(["a", "b"], [1, 2], [1, 0]),
        finished(["d", "c"], [1, 2], [5, 0]),
        finished(["b", "e"], [1, 1], [0, 0]),
    ]
    table = standings(["a", "b", "c", "d", "e"], {}, matches, team=False, buchholz_first=buchholz_first)
    assert [row["bot_id"] for row in table] == order
    # points: a 1, d 1, b 0.5, e 0.5, c 0; Buchholz sums the points of each bot's opponents
    assert {row["bot_id"]: row["buchholz"] for row in table} == {
        "a": 0.5,
        "d": 0.0,
        "b": 1.5,
        "e": 0.5,
        "c": 1.0,
    }


def test_a_swiss_bye_scores_a_point_in_the_standings_as_in_the_pairing_but_adds_no_buchholz() -> None:
    # round 1: a beat b, c sat out; round 2: c beat a, b sat out
    matches = [finished(["a", "b"], [1, 2], [1, 0]), finished(["c", "a"], [1, 2], [1, 0])]
    table = standings(["a", "b", "c"], {}, matches, team=False, buchholz_first=True, byes={"c": 1, "b": 1})
    rows = {row["bot_id"]: (row["points"], row["played"], row["byes"], row["buchholz"]) for row in table}
    # c: a bye and a win; a: one win; b: a bye. Buchholz sums the opponents met: c met a (1),
    # a met b (1) and c (2), b met a (1)
    assert rows == {"c": (2.0, 1, 1, 1.0), "a": (1.0, 2, 0, 3.0), "b": (1.0, 1, 1, 1.0)}
    assert [row["bot_id"] for row in table] == ["c", "a", "b"], "a, b tie on points; a has more Buchholz"
