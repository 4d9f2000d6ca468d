"""The next round of a Swiss or a knockout, from the rounds made and their matches, without a store:
Swiss pods by points, knockout survivors by result then seed, and no round after the last."""

from __future__ import annotations

from arena.records import MatchRecord, RoundRecord, TournamentRecord
from arena.tournaments.rounds import next_round
from tests.platform.tournaments.records import finished, tournament_record

BOTS = ("a", "b", "c", "d")


def tournament(format_name: str, rounds: int, advance: int = 0) -> TournamentRecord:
    return tournament_record(format_name, BOTS, rounds=rounds, advance=advance)


def won(match_id: str, winner: str, loser: str) -> MatchRecord:
    return finished(match_id, (winner, loser), (1, 2), (1.0, 0.0))


def first_round() -> tuple[list[RoundRecord], dict[str, MatchRecord]]:
    matches = {"m1": won("m1", "a", "d"), "m2": won("m2", "c", "b")}
    return [{"matches": ["m1", "m2"], "byes": []}], matches


def test_a_swiss_pairs_the_winners_together_and_the_losers_together() -> None:
    made, matches = first_round()
    planned = next_round(tournament("swiss", rounds=2), made, matches)
    assert planned is not None
    pods, byes = planned
    assert {frozenset(pod) for pod in pods} == {frozenset("ac"), frozenset("bd")}
    assert byes == ()


def test_a_swiss_makes_no_round_after_its_last() -> None:
    made, matches = first_round()
    assert next_round(tournament("swiss", rounds=1), made, matches) is None


def test_a_knockout_keeps_each_pods_winner_in_seed_order_until_the_final_is_played() -> None:
    made, matches = first_round()
    knockout = tournament("knockout", rounds=2, advance=1)
    assert next_round(knockout, made, matches) == ((("a", "c"),), ())
    matches["m3"] = won("m3", "c", "a")
    assert next_round(knockout, [*made, {"matches": ["m3"], "byes": []}], matches) is None
