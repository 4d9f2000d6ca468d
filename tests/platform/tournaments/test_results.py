"""Each format's result from worked examples: a knockout's bracket, byes, winner and ranks (played
through the scheduler, so the bracket shown is the one played), a Swiss's Buchholz and
Sonneborn-Berger computed by hand, a round robin's cross table and head-to-head."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from arena.records import MatchRecord, RoundRecord, TournamentRecord
from arena.tournaments import knockout, results, round_robin, swiss
from arena.tournaments.rounds import next_round
from tests.platform.tournaments.records import finished, tournament_record

played = finished


def won(match_id: str, winner: str, loser: str, scores: tuple[float, float] = (1.0, 0.0)) -> MatchRecord:
    return played(match_id, (winner, loser), (1, 2), scores)


def drawn(match_id: str, first: str, second: str) -> MatchRecord:
    return played(match_id, (first, second), (1, 1), (1.0, 1.0))


tournament = tournament_record


Decide = Callable[[tuple[str, ...]], tuple[str, ...]]


def play_knockout(
    record: TournamentRecord, decide: Decide
) -> tuple[list[RoundRecord], dict[str, MatchRecord], list[list[tuple[str, ...]]]]:
    """Play a knockout through the scheduler: round 1 from the seeds, then :func:`next_round` until it
    says the final was played; ``decide`` gives each pod's bots best first."""
    first = knockout.knockout_round(record.seeds, record.seats_per_match, record.advance)
    pods, byes = first.pods, first.byes
    made: list[RoundRecord] = []
    matches: dict[str, MatchRecord] = {}
    drawn_pods: list[list[tuple[str, ...]]] = []
    while True:
        ids = []
        for pod in pods:
            match_id = f"r{len(made) + 1}-{len(ids) + 1}"
            order = decide(pod)
            matches[match_id] = played(match_id, pod, [order.index(bot) + 1 for bot in pod])
            ids.append(match_id)
        made.append({"matches": ids, "byes": list(byes)})
        drawn_pods.append(list(pods))
        following = next_round(record, made, matches)
        if following is None:
            return made, matches, drawn_pods
        pods, byes = following


def seed_wins_but(upsets: set[str]) -> Decide:
    """The better seed (lower number) wins each pod, but a bot in ``upsets`` beats anyone."""
    return lambda pod: tuple(sorted(pod, key=lambda bot: (bot not in upsets, int(bot[1:]))))


@pytest.mark.parametrize(
    ("count", "upsets", "expected_pods", "expected_ranks", "out_in"),
    [
        (
            6,
            {"s4"},
            [
                [("s3", "s6"), ("s4", "s5")],  # s1, s2 have byes
                [("s1", "s4"), ("s2", "s3")],
                [("s2", "s4")],
            ],
            ["s4", "s2", "s1", "s3", "s5", "s6"],
            {"s4": None, "s2": 3, "s1": 2, "s3": 2, "s5": 1, "s6": 1},
        ),
        (
            9,
            {"s2"},
            [
                [("s8", "s9")],  # seven byes bring nine down to eight
                [("s1", "s8"), ("s2", "s7"), ("s3", "s6"), ("s4", "s5")],
                [("s1", "s4"), ("s2", "s3")],
                [("s1", "s2")],
            ],
            ["s2", "s1", "s3", "s4", "s5", "s6", "s7", "s8", "s9"],
            {"s2": None, "s1": 4, "s3": 3, "s4": 3, "s5": 2, "s6": 2, "s7": 2, "s8": 2, "s9": 1},
        ),
    ],
)
def test_a_knockout_with_byes_is_won_by_its_finals_winner_the_rest_ranked_by_round_then_seed(
    count: int,
    upsets: set[str],
    expected_pods: list[list[tuple[str, ...]]],
    expected_ranks: list[str],
    out_in: dict[str, int | None],
) -> None:
    seeds = tuple(f"s{i}" for i in range(1, count + 1))
    record = tournament("knockout", seeds, advance=1, seeds=seeds, rounds=len(expected_pods))
    made, matches, pods = play_knockout(record, seed_wins_but(upsets))
    assert pods == expected_pods
    outcome = results.result(record, made, list(matches.values()), team=False, finished=True)
    assert outcome.winners == [expected_ranks[0]]
    assert [(row["bot_id"], row["rank"]) for row in outcome.standings] == [
        (bot, rank) for rank, bot in enumerate(expected_ranks, 1)
    ]
    assert {row["bot_id"]: row["out_in"] for row in outcome.standings} == out_in
    assert outcome.bracket is not None and outcome.bracket["planned_rounds"] == len(expected_pods)
    assert [len(round_["byes"]) for round_ in outcome.bracket["rounds"]] == [
        count - 2 * len(expected_pods[0])
    ] + [0] * (len(expected_pods) - 1)
    path = [
        pod["bots"] for round_ in outcome.bracket["rounds"] for pod in round_["pods"] if pod["winner_path"]
    ]
    assert all(expected_ranks[0] in bots for bots in path) and len(path) == sum(
        expected_ranks[0] in pod for round_pods in expected_pods for pod in round_pods
    )
    assert {match_id: outcome.rounds_of[match_id] for match_id in matches} == {
        match_id: int(match_id[1 : match_id.index("-")]) for match_id in matches
    }


def test_the_finals_winner_wins_though_the_bye_left_it_fewer_points_and_a_lower_score() -> None:
    # the case: greedy had a bye, then beat search 66-31 in the final; search won two
    # matches by large scores, so "points, then score sum" ranked search first
    seeds = ("greedy", "x1", "search", "x2", "x3", "x4")
    made: list[RoundRecord] = [
        {"matches": ["a", "b"], "byes": ["greedy", "x1"]},
        {"matches": ["c", "d"], "byes": []},
        {"matches": ["final"], "byes": []},
    ]
    matches = [
        won("a", "search", "x4", (90.0, 0.0)),
        won("b", "x2", "x3"),
        won("c", "greedy", "x2", (40.0, 39.0)),
        won("d", "search", "x1", (95.0, 1.0)),
        won("final", "greedy", "search", (66.0, 31.0)),
    ]
    record = tournament("knockout", seeds, advance=1, seeds=seeds, rounds=3)
    outcome = results.result(record, made, matches, team=False, finished=True)
    top = outcome.standings[:2]
    assert [(row["bot_id"], row["rank"], row["points"]) for row in top] == [
        ("greedy", 1, 2.0),
        ("search", 2, 2.0),
    ]
    assert top[1]["score_sum"] > top[0]["score_sum"]
    assert outcome.winners == ["greedy"]


def test_an_unfinished_knockout_has_no_winner_and_ranks_the_bots_still_in_first() -> None:
    seeds = ("s1", "s2", "s3", "s4")
    made: list[RoundRecord] = [{"matches": ["a", "b"], "byes": []}]
    queued = replace(MatchRecord.new("b", "g", "v", ("s2", "s3"), ("s2", "s3"), rated=True))
    record = tournament("knockout", seeds, advance=1, seeds=seeds, rounds=2)
    outcome = results.result(record, made, [won("a", "s4", "s1"), queued], team=False, finished=False)
    assert outcome.winners == []
    assert [row["bot_id"] for row in outcome.standings] == ["s2", "s3", "s4", "s1"]


def test_a_pod_of_four_sends_two_on_by_place_then_score_then_seed() -> None:
    seeds = tuple(f"s{i}" for i in range(1, 9))
    record = tournament("knockout", seeds, seats=4, advance=2, seeds=seeds, rounds=2)
    made: list[RoundRecord] = [{"matches": ["a", "b"], "byes": []}, {"matches": ["final"], "byes": []}]
    matches = [
        played("a", ("s1", "s4", "s5", "s8"), (1, 2, 2, 4), (9, 5, 5, 0)),  # s4, s5 level: s4 the better seed
        played("b", ("s2", "s3", "s6", "s7"), (3, 1, 2, 4), (4, 9, 5, 0)),
        played("final", ("s1", "s3", "s4", "s6"), (2, 1, 3, 4)),
    ]
    assert next_round(record, made[:1], {match.id: match for match in matches}) == (
        (("s1", "s3", "s4", "s6"),),
        (),
    )
    outcome = results.result(record, made, matches, team=False, finished=True)
    assert [row["bot_id"] for row in outcome.standings] == ["s3", "s1", "s4", "s6", "s2", "s5", "s7", "s8"]
    assert outcome.winners == ["s3"]


def test_swiss_ranks_by_points_then_buchholz_by_hand() -> None:
    # R1: a beat b, c drew d, e bye; R2: a beat c, e beat d, b bye; R3: e beat a, b beat d, c bye
    made: list[RoundRecord] = [
        {"matches": ["1a", "1b"], "byes": ["e"]},
        {"matches": ["2a", "2b"], "byes": ["b"]},
        {"matches": ["3a", "3b"], "byes": ["c"]},
    ]
    matches = [
        won("1a", "a", "b"),
        drawn("1b", "c", "d"),
        won("2a", "a", "c"),
        won("2b", "e", "d"),
        won("3a", "e", "a"),
        won("3b", "b", "d"),
    ]
    record = tournament("swiss", "abcde", rounds=3)
    outcome = results.result(record, made, matches, team=False, finished=True)
    table = {
        row["bot_id"]: (row["rank"], row["points"], row["buchholz"], row["sonneborn_berger"], row["byes"])
        for row in outcome.standings
    }
    # points: a 1+1+0, b 0+bye+1, c ½+0+bye, d ½+0+0, e bye+1+1
    # Buchholz: a met b (2), c (1.5), e (3); b met a (2), d (½); c met d (½), a (2);
    # d met c (1.5), e (3), b (2); e met d (½), a (2)
    # Sonneborn-Berger: a beat b and c (2 + 1.5); b beat d (½); c drew d (½ × ½);
    # d drew c (½ × 1.5); e beat d and a (½ + 2)
    assert table == {
        "e": (1, 3.0, 2.5, 2.5, 1),
        "a": (2, 2.0, 6.5, 3.5, 0),
        "b": (3, 2.0, 2.5, 0.5, 1),
        "c": (4, 1.5, 2.5, 0.25, 1),
        "d": (5, 0.5, 6.5, 0.75, 0),
    }
    assert [row["bot_id"] for row in outcome.standings] == ["e", "a", "b", "c", "d"]
    assert outcome.winners == ["e"]
    assert swiss.points_so_far(record.bots, made, {m.id: m for m in matches}, False) == {
        "a": 2.0,
        "b": 2.0,
        "c": 1.5,
        "d": 0.5,
        "e": 3.0,
    }, "the pairing reads the points the standings show"


def test_swiss_breaks_a_tie_on_points_and_buchholz_by_sonneborn_berger() -> None:
    # R1: a beat b, c drew d; R2: a drew c, b beat d. b and c: 1 point, Buchholz 2 each;
    # Sonneborn-Berger: b beat d (½) = ½; c drew d (½ × ½) and a (½ × 1½) = 1
    made: list[RoundRecord] = [{"matches": ["1a", "1b"], "byes": []}, {"matches": ["2a", "2b"], "byes": []}]
    matches = [won("1a", "a", "b"), drawn("1b", "c", "d"), drawn("2a", "a", "c"), won("2b", "b", "d")]
    outcome = results.result(tournament("swiss", "abcd", rounds=2), made, matches, team=False, finished=True)
    assert [(row["bot_id"], row["buchholz"], row["sonneborn_berger"]) for row in outcome.standings] == [
        ("a", 2.0, 1.5),
        ("c", 2.0, 1.0),
        ("b", 2.0, 0.5),
        ("d", 2.0, 0.5),
    ]


def test_a_three_seat_swiss_generalises_sonneborn_berger_pairwise() -> None:
    # one pod: a 1st, b and c level 2nd; b then beats a pod of d, e, f... kept to one round:
    # pairwise a scores 1 against b and c, b and c ½ against each other
    made: list[RoundRecord] = [{"matches": ["p"], "byes": []}]
    matches = [played("p", ("a", "b", "c"), (1, 2, 2))]
    outcome = results.result(
        tournament("swiss", "abc", seats=3, rounds=1), made, matches, team=False, finished=True
    )
    assert [
        (row["bot_id"], row["points"], row["buchholz"], row["sonneborn_berger"]) for row in outcome.standings
    ] == [
        ("a", 1.0, 0.0, 0.0),
        ("b", 0.0, 1.0, 0.0),
        ("c", 0.0, 1.0, 0.0),
    ]
    assert [row["rank"] for row in outcome.standings] == [1, 2, 2]


@pytest.mark.parametrize(
    ("max_bots", "seats", "most"), [(8, 2, 7), (7, 2, 7), (5, 2, 5), (8, 4, 2), (16, 4, 5), (9, 3, 4)]
)
def test_swiss_max_rounds_is_the_most_without_a_rematch_bound(max_bots: int, seats: int, most: int) -> None:
    assert swiss.max_rounds(max_bots, seats) == most


def test_a_round_robin_breaks_a_tie_on_points_head_to_head_before_scores() -> None:
    matches = [
        won("ab", "a", "b", (1.0, 0.0)),
        won("bc", "b", "c", (50.0, 0.0)),
        won("ca", "c", "a", (1.0, 0.0)),
        won("ad", "a", "d", (1.0, 0.0)),
        won("bd", "b", "d", (50.0, 0.0)),
        won("dc", "d", "c", (1.0, 0.0)),
    ]
    outcome = results.result(tournament("round_robin", "abcd"), [], matches, team=False, finished=True)
    assert [(r["bot_id"], r["rank"], r["points"], r["head_to_head"]) for r in outcome.standings] == [
        ("a", 1, 2.0, 1.0),  # level with b on points, beat b
        ("b", 2, 2.0, 0.0),  # more score than a, but lost to a
        ("d", 3, 1.0, 1.0),
        ("c", 4, 1.0, 0.0),
    ]
    assert outcome.winners == ["a"]
    assert outcome.cross_table is not None
    assert outcome.cross_table["a"] == {
        "b": {"points": 1.0, "games": 1},
        "c": {"points": 0.0, "games": 1},
        "d": {"points": 1.0, "games": 1},
    }


def test_a_round_robin_level_on_every_column_shares_first_place() -> None:
    matches = [won("ab", "a", "b"), won("bc", "b", "c"), won("ca", "c", "a")]
    outcome = results.result(tournament("round_robin", "abc"), [], matches, team=False, finished=True)
    assert [row["rank"] for row in outcome.standings] == [1, 1, 1]
    assert outcome.winners == ["a", "b", "c"]
    assert (
        results.result(tournament("round_robin", "abc"), [], matches, team=False, finished=False).winners
        == []
    )


def test_a_round_robins_rounds_are_its_seat_rotations() -> None:
    assert round_robin.rotation_rounds(["m1", "m2", "m3", "m4", "m5", "m6"], 2) == {
        "m1": 1,
        "m2": 2,
        "m3": 1,
        "m4": 2,
        "m5": 1,
        "m6": 2,
    }
