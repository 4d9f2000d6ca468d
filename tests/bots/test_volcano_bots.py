"""Volcano's reference bots: always legal, and greedy's preferences on explicit positions."""

from __future__ import annotations

import pytest

from bots.volcano import GreedyBot
from tests.bots.matches import only_bot_moves, play_reference
from tests.referee.volcano.positions import captured, game, step


def _request(state) -> dict:
    seat = state.current_seat
    return {"seat": seat, "observation": state.observation(seat), "legal_moves": state.legal_moves()}


@pytest.mark.parametrize("names", [("greedy", "random"), ("random", "greedy", "greedy")])
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
