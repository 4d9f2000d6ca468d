"""A gauntlet's result is the challenger's: its record against each bot of the field, and the
gauntlet's winner only when it beat the field (more than half the points against every bot of it),
never a bot of the field."""

from __future__ import annotations

from dataclasses import replace

from arena.records import MatchRecord
from arena.tournaments import results
from tests.platform.tournaments.records import finished, tournament_record


def won(match_id: str, winner: str, loser: str) -> MatchRecord:
    return finished(match_id, (winner, loser), (1, 2))


def gauntlet(
    matches: list[MatchRecord], bots: str = "cab", seats: int = 2, team: bool = False
) -> results.Result:
    record = tournament_record("gauntlet", bots, seats=seats)
    return results.result(record, [], matches, team=team, finished=True)


def test_a_challenger_beating_every_bot_of_the_field_wins_with_its_record_per_opponent() -> None:
    outcome = gauntlet(
        [won("1", "c", "a"), won("2", "c", "a"), won("3", "c", "b"), finished("4", ("b", "c"), (1, 1))]
    )
    assert outcome.winners == ["c"]
    challenger = outcome.challenger
    assert challenger is not None
    assert (challenger["played"], challenger["wins"], challenger["draws"], challenger["losses"]) == (
        4,
        3,
        1,
        0,
    )
    assert challenger["points"] == 3.5 and challenger["beat_the_field"]
    assert [
        (o["bot_id"], o["games"], o["wins"], o["draws"], o["losses"], o["points"], o["beaten"])
        for o in challenger["opponents"]
    ] == [
        ("a", 2, 2, 0, 0, 2.0, True),
        ("b", 2, 1, 1, 0, 1.5, True),
    ]


def test_a_bot_of_the_field_is_never_the_winner_even_with_the_most_points() -> None:
    outcome = gauntlet([won("1", "c", "a"), won("2", "c", "a"), won("3", "b", "c"), won("4", "b", "c")])
    assert outcome.standings[0]["bot_id"] in {"b", "c"}
    assert outcome.winners == []
    assert outcome.challenger is not None and not outcome.challenger["beat_the_field"]
    assert [o["beaten"] for o in outcome.challenger["opponents"]] == [True, False]


def test_half_the_points_against_one_bot_is_not_beating_it() -> None:
    outcome = gauntlet([won("1", "c", "a"), won("2", "c", "a"), won("3", "c", "b"), won("4", "b", "c")])
    assert outcome.winners == []


def test_in_pods_each_opponent_counts_what_the_challenger_scored_against_it() -> None:
    outcome = gauntlet(
        [finished("1", ("c", "a", "b"), (2, 1, 3)), finished("2", ("a", "b", "c"), (3, 2, 1))], seats=3
    )
    assert outcome.challenger is not None
    opponents = {
        o["bot_id"]: (o["wins"], o["draws"], o["losses"], o["points"])
        for o in outcome.challenger["opponents"]
    }
    assert opponents == {"a": (1, 0, 1, 1.0), "b": (2, 0, 0, 2.0)}
    assert outcome.winners == []  # 1 of 2 against a is not more than half
    assert (outcome.challenger["wins"], outcome.challenger["losses"]) == (1, 1)


def test_a_team_game_lost_is_a_loss_against_every_bot_of_the_field() -> None:
    lost = finished("1", ("c", "a", "b", "d"), (1, 1, 1, 1), (0.0, 0.0, 0.0, 0.0))
    outcome = gauntlet([lost], bots="cabd", seats=4, team=True)
    assert outcome.challenger is not None
    assert [o["losses"] for o in outcome.challenger["opponents"]] == [1, 1, 1]
    assert outcome.challenger["losses"] == 1 and outcome.winners == []


def test_other_formats_have_no_challenger() -> None:
    record = tournament_record("round_robin", "cab")
    assert results.result(record, [], [won("1", "c", "a")], team=False, finished=True).challenger is None


def test_team_standings_count_team_wins_apart_from_first_places() -> None:
    won = finished("1", ("a", "b", "c"), (2, 1, 3), (1.0, 5.0, 0.0))
    won = replace(won, result=replace(won.result, team_won=True))
    lost = finished("2", ("a", "b", "c"), (1, 1, 1), (0.0, 0.0, 0.0))
    lost = replace(lost, result=replace(lost.result, team_won=False))
    record = tournament_record("round_robin", "abc", seats=3)
    rows = {
        row["bot_id"]: row
        for row in results.result(record, [], [won, lost], team=True, finished=True).standings
    }
    assert {bot: (row["team_wins"], row["wins"], row["losses"]) for bot, row in rows.items()} == {
        "a": (1, 0, 2),
        "b": (1, 1, 1),
        "c": (1, 0, 2),
    }
    solo = results.result(record, [], [finished("3", ("a", "b", "c"), (1, 2, 3))], team=False, finished=True)
    assert all(row["team_wins"] is None for row in solo.standings)
