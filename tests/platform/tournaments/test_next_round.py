"""The next round of a Swiss or a knockout, from the rounds made and their matches, without a store:
Swiss pods by points, knockout survivors by result then seed, and no round after the last."""

from __future__ import annotations

from dataclasses import replace

from arena.records import MatchRecord, MatchStatus, RoundRecord, TournamentRecord
from arena.tournaments.rounds import next_round
from referee.replay import MatchResult

BOTS = ("a", "b", "c", "d")


def tournament(format_name: str, rounds: int, advance: int = 0) -> TournamentRecord:
    return TournamentRecord(
        id="t",
        name="t",
        game="g",
        variant="v",
        format=format_name,
        bots=BOTS,
        names={bot: bot for bot in BOTS},
        seats_per_match=2,
        games_per_pairing_requested=1,
        games_per_pairing=1,
        seed=1,
        options={},
        time={"move_ms": 2000, "bank_ms": 0},
        rated=True,
        max_faults=3,
        match_count=0,
        created_at="2026-01-01T00:00:00Z",
        created_ts=0.0,
        rounds=rounds,
        advance=advance,
    )


def won(match_id: str, winner: str, loser: str) -> MatchRecord:
    record = MatchRecord.new(match_id, "g", "v", (winner, loser), (winner, loser), rated=True)
    return replace(record, status=MatchStatus.FINISHED, result=MatchResult((1, 2), (1.0, 0.0), "end", None))


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
