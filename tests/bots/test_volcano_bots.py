"""Volcano's reference bots: always legal, and greedy's preferences on explicit positions."""

from __future__ import annotations

import pytest

from bots.registry import bots_for
from bots.volcano import GreedyBot
from bots.volcano_search import SearchBot
from tests.bots.matches import only_bot_moves, play_reference
from tests.referee.volcano.positions import captured, game, step


def _request(state) -> dict:
    seat = state.current_seat
    return {"seat": seat, "observation": state.observation(seat), "legal_moves": state.legal_moves()}


@pytest.mark.parametrize(
    "names",
    [
        ("greedy", "random"),
        ("random", "greedy", "greedy"),
        ("search", "greedy"),
        ("greedy", "random", "search"),
    ],
)
def test_matches_through_the_runner_see_only_legal_moves(names) -> None:
    replay = play_reference("volcano", "fiesta-caldera", names, seed=4, options={"turn_limit": 40})
    assert only_bot_moves(replay)


def test_greedy_takes_the_capture_that_completes_a_trio() -> None:
    # red2 completes seat 0's red trio; blue3 is just a piece. Each leaves the other for seat 1.
    state = game(
        {(0, 0): "red2", (0, 2): "green2", (4, 0): "blue3", (4, 2): "yellow3"},
        {(0, 0): "black", (4, 0): "white"},
        captures=["red1 red3", ""],
    )
    for seed in range(5):
        assert GreedyBot(seed).choose(_request(state)) == step(0, 0, "E")


def test_greedy_takes_a_winning_capture_over_a_bigger_one() -> None:
    state = game(
        {(0, 0): "blue2", (0, 2): "green2", (4, 0): "clear1 cyan2 cyan3", (4, 2): "cyan3", (4, 3): "clear2"},
        {(0, 0): "black", (4, 0): "white"},
        captures=["red1 red2 red3 orange1 orange2 orange3 blue1 blue3", ""],
    )
    move = GreedyBot(0).choose(_request(state))
    state.apply(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.details["winner"] == 0


def test_greedy_avoids_the_capture_that_hands_the_next_seat_a_win() -> None:
    # Both eruptions capture a small for seat 0. The purple one also drops a green medium on (0, 3),
    # where seat 1's blue medium would then land and complete seat 1's third single-colour trio.
    state = game(
        {
            (0, 0): "green2 purple1",
            (0, 2): "yellow1",
            (0, 3): "orange3",
            (4, 0): "clear1",
            (4, 2): "cyan1",
            (2, 3): "blue2",
        },
        {(0, 0): "black", (4, 0): "white", (2, 3): "black"},
        captures=["", "red1 red2 red3 orange1 orange2 orange3 blue1 blue3"],
    )
    for seed in range(5):
        assert GreedyBot(seed).choose(_request(state)) == step(4, 0, "E")
    blind = [GreedyBot(seed, reply_penalty="none").choose(_request(state)) for seed in range(8)]
    assert step(0, 0, "E") in blind  # without watching seat 1, both captures look alike


def test_greedy_uses_a_power_play_to_make_a_trio_capture_possible() -> None:
    # the red medium would land on a yellow small; a blue medium put in its way turns that into a capture
    state = game({(0, 0): "red2", (0, 2): "yellow1"}, {(0, 0): "black"}, captures=["red1 red3 blue2", ""])
    bot = GreedyBot(0)

    first = bot.choose(_request(state))
    assert first["type"] == "power_play" and first["piece"] == {"colour": "blue", "size": 2}
    state.apply(first)
    state.apply(bot.choose(_request(state)))

    assert captured(state, 0) == "red1 red2 red3"
    assert state.current_seat == 1


def test_greedy_is_reproducible_from_its_seed() -> None:
    state = game({}, {(0, 0): "black", (4, 4): "white"})  # nothing to capture: every move ties
    picks = [GreedyBot(seed).choose(_request(state)) for seed in (3, 3, 8)]
    assert picks[0] == picks[1]
    assert all(pick in state.legal_moves() for pick in picks)


# ----- the search bot ---------------------------------------------------------------------------


def _winning_position():
    # seat 0 holds two red/orange trios and blue small and large: the black cap's eruption from (4, 0)
    # lands the cyan large on the cyan large (captured) and the cyan medium on the clear medium
    # (captured), the blue medium stays on (0, 0)'s side; the capture of the blue medium wins
    return game(
        {(0, 0): "blue2", (0, 2): "green2", (4, 0): "clear1 cyan2 cyan3", (4, 2): "cyan3", (4, 3): "clear2"},
        {(0, 0): "black", (4, 0): "white"},
        captures=["red1 red2 red3 orange1 orange2 orange3 blue1 blue3", ""],
    )


@pytest.mark.parametrize("seed", range(4))
def test_search_takes_an_immediately_winning_capture(seed: int) -> None:
    state = _winning_position()
    state.apply(SearchBot(seed).choose(_request(state)))
    outcome = state.outcome()
    assert outcome is not None and outcome.details["winner"] == 0


def test_search_takes_the_winning_capture_even_with_no_time_to_search() -> None:
    # the root's own eruptions are always scored, so a clock that leaves nothing still finds the win
    state = _winning_position()
    request = _request(state) | {"time": {"move_ms": 1, "bank_ms": 0}}
    bot = SearchBot(0)
    assert bot.allowance_ms(request) == 0.0
    state.apply(bot.choose(request))
    outcome = state.outcome()
    assert outcome is not None and outcome.details["winner"] == 0


def test_search_does_not_hand_the_next_seat_a_win_when_it_can_avoid_it() -> None:
    # the position of the greedy test above: the purple eruption drops a green medium where seat 1's
    # blue medium would complete its third single-colour trio; the other eruption is as good for seat 0
    state = game(
        {
            (0, 0): "green2 purple1",
            (0, 2): "yellow1",
            (0, 3): "orange3",
            (4, 0): "clear1",
            (4, 2): "cyan1",
            (2, 3): "blue2",
        },
        {(0, 0): "black", (4, 0): "white", (2, 3): "black"},
        captures=["", "red1 red2 red3 orange1 orange2 orange3 blue1 blue3"],
    )
    for seed in range(4):
        move = SearchBot(seed).choose(_request(state))
        after = state.copy()
        after.apply(move)
        while after.current_seat == 0:  # a quiet step: let the bot finish its turn
            after.apply(SearchBot(seed).choose(_request(after)))
        assert after.outcome() is None
        for reply in after.legal_moves():  # no single step of seat 1 wins
            trial = after.copy()
            trial.apply(reply)
            outcome = trial.outcome()
            assert outcome is None or outcome.details["winner"] != 1, (move, reply)


def test_search_plans_a_quiet_step_that_opens_a_capture_two_steps_away() -> None:
    # Erupting the red nest east now captures only the large (on the blue large): the flow stops at
    # the white cap on (0, 3). Stepping that cap east or south-east first erupts nothing (the green
    # medium under it would land off the board), and uncovers the green medium, so the red eruption
    # then captures the medium too: with the red small held, a single-colour trio.
    state = game(
        {(0, 0): "red1 red2 red3", (0, 2): "blue3", (0, 3): "green2"},
        {(0, 0): "black", (0, 3): "white"},
        captures=["red1", ""],
    )
    bot = SearchBot(0)
    first = bot.choose(_request(state))
    assert first["type"] == "step" and first["from"] == [0, 3]  # the white cap moves out of the way
    state.apply(first)
    while state.current_seat == 0:
        state.apply(bot.choose(_request(state)))
    assert "red3" in captured(state, 0).split() and "red2" in captured(state, 0).split()


def test_search_is_registered_and_reproducible_from_its_seed() -> None:
    assert "search" in bots_for("volcano")
    state = game({}, {(0, 0): "black", (4, 4): "white"})  # nothing to capture: every move ties
    picks = [bots_for("volcano")["search"](seed).choose(_request(state)) for seed in (3, 3, 8)]
    assert picks[0] == picks[1]
    assert all(pick in state.legal_moves() for pick in picks)


def test_search_allows_itself_a_share_of_the_clock_and_never_more_than_its_cap() -> None:
    bot = SearchBot(0, budget_ms=60)
    assert bot.allowance_ms({"time": {"move_ms": 1000, "bank_ms": 0}}) == 60  # the cap
    assert bot.allowance_ms({"time": {"move_ms": 200, "bank_ms": 0}}) == pytest.approx(0.25 * 200 - 25)
    assert bot.allowance_ms({"time": {"move_ms": 100, "bank_ms": 100}}) == pytest.approx(0.25 * 200 - 25)
    assert bot.allowance_ms({"time": {"move_ms": 50, "bank_ms": 0}}) == 0
    assert bot.allowance_ms({}) == 60  # no clock given: the cap
