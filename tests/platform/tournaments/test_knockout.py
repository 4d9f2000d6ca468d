"""A knockout pod tied for going on, from worked examples: left to the declared rule (``pod_ties:
"seed"``: score, then seed) or replayed (``"replay"``: same bots, new match, at most
``MAX_POD_REPLAYS`` times, then the declared rule), as the pure result model reads the matches."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from arena.records import MatchRecord, MatchStatus, RoundRecord, TournamentRecord
from arena.tournaments import knockout, results
from arena.tournaments.knockout import PodReplay
from arena.tournaments.rounds import next_round, replays_due
from referee.replay import MatchResult
from tests.platform.tournaments.records import tournament_record

SEEDS = ("s1", "s2", "s3", "s4")

Played = tuple[tuple[int, ...], tuple[float, ...]] | str
"""A match of the pod: its places and scores by seat, or its status when it did not finish."""


def match(match_id: str, bots: Sequence[str], played: Played) -> MatchRecord:
    record = MatchRecord.new(match_id, "g", "v", tuple(bots), tuple(bots), rated=True)
    if isinstance(played, str):
        return replace(record, status=MatchStatus(played))
    places, scores = played
    return replace(record, status=MatchStatus.FINISHED, result=MatchResult(places, scores, "end"))


def chain(bots: Sequence[str], plays: Sequence[Played]) -> list[MatchRecord | None]:
    """The pod's match ``p`` and its replays ``p-r1``, ``p-r2``... as played."""
    ids = ["p", *(f"p-r{n}" for n in range(1, len(plays)))]
    return [match(match_id, bots, played) for match_id, played in zip(ids, plays, strict=True)]


DRAW = ((1, 1), (2.0, 2.0))
"""A duel drawn level on score too: only the seed parts the two."""
DRAW_SECOND_SCORES_MORE = ((1, 1), (2.0, 5.0))
SECOND_WINS = ((2, 1), (0.0, 1.0))
FIRST_WINS = ((1, 2), (1.0, 0.0))


@pytest.mark.parametrize(
    ("pod_ties", "plays", "expected"),
    [
        # "seed": a draw goes by score, then by seed; nothing is replayed
        ("seed", [DRAW], (True, ("s1", "s4"), "p", False)),
        ("seed", [DRAW_SECOND_SCORES_MORE], (True, ("s4", "s1"), "p", False)),
        # "replay": a match that parts them decides at once
        ("replay", [SECOND_WINS], (True, ("s4", "s1"), "p", False)),
        # "replay": a draw owes a replay (whatever the scores say), and the pod waits for it
        ("replay", [DRAW_SECOND_SCORES_MORE], (False, (), None, True)),
        ("replay", [DRAW, "queued"], (False, (), None, False)),
        ("replay", [DRAW, "running"], (False, (), None, False)),
        # the replay decides
        ("replay", [DRAW, SECOND_WINS], (True, ("s4", "s1"), "p-r1", False)),
        # the replay is tied again: a second replay is owed, and it decides
        ("replay", [DRAW, DRAW], (False, (), None, True)),
        ("replay", [DRAW, DRAW, FIRST_WINS], (True, ("s1", "s4"), "p-r2", False)),
        # the limit reached (MAX_POD_REPLAYS, two): the second replay, tied again, goes by score,
        # then seed
        ("replay", [DRAW, DRAW, DRAW_SECOND_SCORES_MORE], (True, ("s4", "s1"), "p-r2", False)),
        ("replay", [DRAW, DRAW, DRAW], (True, ("s1", "s4"), "p-r2", False)),
        # a replay that could not be played: the declared rule on the last match that finished
        ("replay", [DRAW_SECOND_SCORES_MORE, "aborted"], (True, ("s4", "s1"), "p", False)),
        ("replay", [DRAW, "cancelled"], (True, ("s1", "s4"), "p", False)),
        # a first match that could not be played goes by seed, as it always did
        ("replay", ["aborted"], (True, ("s1", "s4"), None, False)),
        ("seed", ["aborted"], (True, ("s1", "s4"), None, False)),
    ],
)
def test_a_tied_duel_goes_by_the_declared_rule_or_is_replayed_up_to_the_limit(
    pod_ties: str, plays: list[Played], expected: tuple[bool, tuple[str, ...], str | None, bool]
) -> None:
    seeds = {bot: index for index, bot in enumerate(SEEDS)}
    outcome = knockout.settle_pod(("s1", "s4"), chain(("s1", "s4"), plays), seeds, 1, pod_ties)
    assert (outcome.decided, outcome.ranking, outcome.decided_by, outcome.replay_due) == expected


POD = ("s1", "s4", "s5", "s8")


@pytest.mark.parametrize(
    ("places", "going_on", "tied"),
    [
        ((1, 1, 3, 4), 2, False),  # level for first: both go on all the same
        ((1, 2, 2, 4), 2, True),  # level for second, the last place going on
        ((1, 2, 3, 3), 2, False),  # level for third: both go out
        ((1, 1, 1, 4), 2, True),  # three level: one of them goes out
        ((1, 2, 2, 4), 1, False),  # the final (one goes on, its winner): level for second
        ((1, 1, 3, 4), 1, True),  # the final, level for first
    ],
)
def test_only_a_tie_across_the_last_place_going_on_is_replayed_in_a_pod_of_four(
    places: tuple[int, ...], going_on: int, tied: bool
) -> None:
    seeds = {bot: index for index, bot in enumerate(POD)}
    played = match("p", POD, (places, (4.0, 3.0, 2.0, 1.0)))
    assert knockout.tied_for_going_on(POD, played, seeds, going_on) is tied
    outcome = knockout.settle_pod(POD, [played], seeds, going_on, "replay")
    assert (outcome.decided, outcome.replay_due) == (not tied, tied)


def tournament(
    pod_ties: str, seeds: Sequence[str] = SEEDS, seats: int = 2, advance: int = 1
) -> TournamentRecord:
    return tournament_record(
        "knockout", seeds, seats, rounds=2, advance=advance, seeds=tuple(seeds), pod_ties=pod_ties
    )


def test_a_tied_semi_final_is_replayed_before_the_final_is_made_and_the_replays_are_shown() -> None:
    # round 1: s1-s4 drawn twice, then s4 wins the second replay; s2 beats s3
    record = tournament("replay")
    matches = {
        "a": match("a", ("s1", "s4"), DRAW),
        "b": match("b", ("s2", "s3"), FIRST_WINS),
    }
    made: list[RoundRecord] = [{"matches": ["a", "b"], "byes": []}]
    assert replays_due(record, made, matches) == [PodReplay(1, 0, "a", 1, ("s1", "s4"), ())]
    assert next_round(record, made, matches) is None, "no final while a semi-final is tied"
    assert replays_due(tournament("seed"), made, matches) == []
    assert next_round(tournament("seed"), made, matches) == ((("s1", "s2"),), ())

    matches["a1"] = match("a1", ("s1", "s4"), DRAW)
    made = [{"matches": ["a", "b"], "byes": [], "replays": {"a": ["a1"]}}]
    assert replays_due(record, made, matches) == [PodReplay(1, 0, "a", 2, ("s1", "s4"), ("a1",))]
    matches["a2"] = match("a2", ("s1", "s4"), SECOND_WINS)
    made = [{"matches": ["a", "b"], "byes": [], "replays": {"a": ["a1", "a2"]}}]
    assert replays_due(record, made, matches) == []
    assert next_round(record, made, matches) == ((("s2", "s4"),), ())

    matches["final"] = match("final", ("s2", "s4"), SECOND_WINS)
    made.append({"matches": ["final"], "byes": []})
    outcome = results.result(record, made, list(matches.values()), team=False, finished=True)
    assert outcome.winners == ["s4"]
    assert [row["bot_id"] for row in outcome.standings] == ["s4", "s2", "s1", "s3"]
    assert outcome.rounds_of == {"a": 1, "b": 1, "a1": 1, "a2": 1, "final": 2}
    assert outcome.replay_of == {"a1": "a", "a2": "a"}
    s4 = next(row for row in outcome.standings if row["bot_id"] == "s4")
    assert (s4["played"], s4["wins"], s4["draws"]) == (4, 2, 2), "replays are matches played"
    assert outcome.bracket is not None
    semi = outcome.bracket["rounds"][0]["pods"][0]
    assert (semi["match"], semi["replays"], semi["decided_by"], semi["advanced"]) == (
        "a",
        ["a1", "a2"],
        "a2",
        ["s4"],
    )
    assert semi["replay_due"] is False and semi["winner_path"] is True


def test_a_tied_final_is_replayed_and_the_tournament_has_no_winner_until_it_is_decided() -> None:
    record = tournament("replay", seeds=("s1", "s2"))
    made: list[RoundRecord] = [{"matches": ["final"], "byes": []}]
    matches = {"final": match("final", ("s1", "s2"), DRAW)}
    assert replays_due(record, made, matches) == [PodReplay(1, 0, "final", 1, ("s1", "s2"), ())]
    drawn = knockout.bracket(("s1", "s2"), 2, 1, made, matches, "replay")
    assert not drawn.finished and drawn.winner is None
    assert results.result(record, made, list(matches.values()), team=False, finished=False).winners == []
    matches["final-r1"] = match("final-r1", ("s1", "s2"), SECOND_WINS)
    made = [{"matches": ["final"], "byes": [], "replays": {"final": ["final-r1"]}}]
    assert knockout.bracket(("s1", "s2"), 2, 1, made, matches, "replay").winner == "s2"
    assert next_round(record, made, matches) is None and replays_due(record, made, matches) == []
    # the same final with the declared rule: the draw goes to the better seed at once
    first_only: list[RoundRecord] = [{"matches": ["final"], "byes": []}]
    assert knockout.bracket(("s1", "s2"), 2, 1, first_only, matches, "seed").winner == "s1"
