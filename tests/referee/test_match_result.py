"""MatchResult: an engine Outcome with forfeited seats ranked last, and its JSON."""

from referee.game import Outcome
from referee.replay import MatchResult


def test_forfeited_seats_share_the_last_place_and_the_rest_keep_their_order() -> None:
    outcome = Outcome((2, 1, 3, 4), (5.0, 9.0, 1.0, 0.0), "end", details={"tie_break": "cards"})
    result = MatchResult.from_outcome(outcome, [1, 3])
    assert result.places == (1, 3, 2, 3)
    assert result.forfeited == (1, 3)
    assert result.scores == outcome.scores and result.details == outcome.details


def test_json_is_the_outcome_json_plus_the_forfeited_seats() -> None:
    result = MatchResult((1, 2), (3.0, 1.0), "end", None, {"rounds": 4}, (1,))
    data = result.to_json()
    assert list(data) == ["places", "scores", "reason", "team_won", "details", "forfeited"]
    assert data == {**Outcome((1, 2), (3.0, 1.0), "end", None, {"rounds": 4}).to_json(), "forfeited": [1]}
    assert MatchResult.from_json(data) == result
    data["details"]["rounds"] = 5  # the JSON is a copy: changing it leaves the result as it was
    assert result.details == {"rounds": 4}


def test_json_of_an_outcome_reads_back_with_no_seat_forfeited() -> None:
    data = Outcome((1, 1), (2.0, 2.0), "draw").to_json()
    assert MatchResult.from_json(data) == MatchResult((1, 1), (2.0, 2.0), "draw")
    assert hash(MatchResult.from_json(data)) == hash(MatchResult((1, 1), (2.0, 2.0), "draw"))
