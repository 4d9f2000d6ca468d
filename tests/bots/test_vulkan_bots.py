"""Vulkan!'s reference bots: always legal through the runner, and greedy's choices on set positions."""

from __future__ import annotations

from typing import Any

import pytest

from bots.registry import bots_for
from bots.vulkan import GreedyBot, Search, flight_effect
from bots.vulkan_search import DEFAULT_CAP_MS, SearchBot, cheapest_cut, time_budget_s
from referee.protocol import request_base
from referee.vulkan import GAME, VulkanState
from tests.bots.matches import only_bot_moves, play_reference
from tests.referee.vulkan.helpers import tile
from tests.referee.vulkan.test_game_flow import full_classic_table


def request(state: VulkanState) -> dict[str, Any]:
    """The move request a bot gets from the runner for this position."""
    seat = state.current_seat
    assert seat is not None
    message = request_base(
        kind="move",
        match_id="test",
        game="vulkan",
        variant=state.variant,
        seat=seat,
        seats=state.seats,
        turn=state.turn,
        time={"move_ms": 2000, "bank_ms": 0},
        observation=state.observation(seat),
    )
    message["legal_moves"] = state.legal_moves()
    return message


def drops_of(state: VulkanState, move: dict[str, Any]) -> list[list[int]]:
    trial = GAME.load_state(state.to_json())
    trial.apply(move)
    return [event["tile"] for event in trial.last["events"] if event["kind"] == "drop"]


@pytest.mark.parametrize(
    ("variant", "names"),
    [
        ("competitive", ("greedy", "random")),
        ("competitive", ("random", "greedy", "greedy")),
        ("solitaire", ("greedy",)),
        ("cooperative", ("greedy", "random", "greedy", "random")),
        ("competitive", ("search", "greedy")),
        ("competitive", ("random", "search", "greedy")),
        ("solitaire", ("search",)),
        ("cooperative", ("search", "random")),
    ],
)
def test_matches_through_the_runner_see_only_legal_moves(variant: str, names: tuple[str, ...]) -> None:
    assert only_bot_moves(play_reference("vulkan", variant, names, seed=6))


def test_greedy_is_reproducible_from_its_seed() -> None:
    state = GAME.start("competitive", seats=3, seed=2)
    state.apply(state.legal_moves()[4])
    state.apply(state.legal_moves()[100])
    first = [GreedyBot(seed).choose(request(state)) for seed in range(4)]
    again = [GreedyBot(seed).choose(request(state)) for seed in range(4)]
    assert first == again
    assert all(move in state.legal_moves() for move in first)


def test_greedy_takes_the_6_that_is_one_load_from_going_out() -> None:
    # Both "6"s are one load from going out. At (-2, 0) red and green lie: a red load puts it out
    # with red's majority. At (2, 0) two greens lie: a red load there would put it out for green.
    state = GAME.start(
        "competitive",
        seats=4,
        seed=0,
        setup={
            "tiles": [
                tile(0, 0, 1),
                tile(1, 0, 5),
                tile(2, 0, 6, "green", "green"),
                tile(-1, 0, 5),
                tile(-2, 0, 6, "red", "green"),
            ],
            "volcano": [0, 0],
            "to_move": 0,
        },
    )
    for seed in range(6):
        move = GreedyBot(seed).choose(request(state))
        assert [-2, 0] in drops_of(state, move)
        assert [2, 0] not in drops_of(state, move)  # would hand green the other "6"


def test_greedy_does_not_leave_a_tile_ripe_for_the_next_seat() -> None:
    # Seat 0 (red and yellow) must drop somewhere. A load on the "6" at (1, 0) leaves it one load
    # from going out with green's majority, for seat 1 to take; the "5" at (-1, 0) is harmless.
    state = GAME.start(
        "competitive",
        seats=2,
        seed=0,
        setup={
            "tiles": [tile(0, 0, 1), tile(1, 0, 6, "green"), tile(-1, 0, 5), tile(-2, 0, 6)],
            "volcano": [0, 0],
            "to_move": 0,
        },
    )
    takes_the_6 = [move for move in state.legal_moves() if [1, 0] in move["path"]]
    assert takes_the_6  # the bad flights exist, and greedy sees what they give away
    after = GAME.load_state(state.to_json())
    after.apply(takes_the_6[0])
    assert Search(after, budget=100).best_gain(after.board, 1, after.supply[1], enough=99) == 6
    for seed in range(6):
        move = GreedyBot(seed).choose(request(state))
        assert [1, 0] not in drops_of(state, move)


def test_greedy_never_loses_the_solitaire_game_when_it_can_avoid_it() -> None:
    # Filling the "2" alone would isolate the empty "6" behind it and lose; dropping on both tiles
    # puts the "2" out and wins the "6" with the load it got.
    state = GAME.start(
        "solitaire",
        seats=1,
        seed=0,
        setup={"tiles": [tile(0, 0, 1), tile(1, 0, 2), tile(2, 0, 6), tile(-1, 0, 6)], "volcano": [0, 0]},
    )
    filled = Search(state, budget=10).simulate(state.board, (0, (state.board.layout.index[(1, 0)],)), 0)
    assert filled.empty_isolated and filled.gains == [2]
    for seed in range(6):
        move = GreedyBot(seed).choose(request(state))
        assert sorted(drops_of(state, move)) == [[1, 0], [2, 0]]
        state_after = GAME.load_state(state.to_json())
        state_after.apply(move)
        assert state_after.ended is None and state_after.score(0) == 8


def test_greedy_keeps_its_reply_searches_within_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    state = GAME.start("competitive", seats=3, seed=2)
    state.apply(state.legal_moves()[4])
    effects = {flight_effect(state, key) for key in state.legal_keys()}
    simulated: list[int] = []
    original = Search.simulate

    def counting(self, board, effect, flyer):
        simulated[-1] += 1
        return original(self, board, effect, flyer)

    monkeypatch.setattr(Search, "simulate", counting)

    def simulations(budget: int) -> int:
        simulated.append(0)
        assert GreedyBot(0, budget=budget).choose(request(state)) in state.legal_moves()
        return simulated[-1]

    own = simulations(1)
    assert own == len(effects)  # every candidate's own flight, and no reply at all
    assert own < simulations(own + 40) <= own + 40 < simulations(100_000)


def test_greedy_answers_the_volcano_request_with_a_legal_choice() -> None:
    state = GAME.start("competitive", seats=2, seed=8)
    move = GreedyBot(3).choose(request(state))
    assert move["type"] == "volcano" and move in state.legal_moves()


# ---------------------------------------------------------------------- the search bot


def play_out(state: VulkanState, bot: Any) -> None:
    while state.current_seat is not None:
        state.apply(bot.choose(request(state)))


def test_the_search_bot_is_one_of_the_games_reference_bots() -> None:
    assert isinstance(bots_for("vulkan")["search"](3), SearchBot)


def test_the_search_bot_cuts_off_the_6_behind_a_tile_one_load_puts_out() -> None:
    # Red (seat 0) to fly. The "2" at (1, 0) has one space and two adjacent free edges: a red load
    # puts it out for red, and the "6" behind it, which carries red's load, loses its only link to
    # the volcano: isolated, it goes to its majority, red. Nothing else takes anything at once.
    state = GAME.start(
        "competitive",
        seats=2,
        seed=0,
        setup={
            "tiles": [
                tile(0, 0, 1),
                tile(1, 0, 2),
                tile(2, 0, 6, "red"),
                tile(-1, 0, 5),
                tile(0, 1, 4),
                tile(0, -1, 3),
                tile(-1, 1, 5),
            ],
            "volcano": [0, 0],
            "to_move": 0,
        },
    )
    for seed in range(3):
        move = SearchBot(seed, playouts=4).choose(request(state))
        after = GAME.load_state(state.to_json())
        after.apply(move)
        assert sorted(value for _, value in after.awarded[0]) == [2, 6]


def test_the_search_bot_is_reproducible_for_a_fixed_number_of_playouts() -> None:
    state = GAME.start("competitive", seats=3, seed=2)
    state.apply(state.legal_moves()[4])
    first = [SearchBot(seed, playouts=3).choose(request(state)) for seed in range(3)]
    assert first == [SearchBot(seed, playouts=3).choose(request(state)) for seed in range(3)]
    assert all(move in state.legal_moves() for move in first)


def test_the_search_bot_wins_the_full_classic_table_the_rule_test_wins() -> None:
    # The rule test wins this table by hand; the bot chooses its own volcano and cut.
    state = GAME.start("solitaire", seats=1, seed=0, setup=full_classic_table())
    play_out(state, SearchBot(0))
    outcome = state.outcome()
    assert outcome is not None and outcome.team_won is True and outcome.reason == "all_tiles_gathered"


def test_the_search_bot_covers_the_tile_a_fill_would_isolate_before_filling() -> None:
    # Filling the "2" first would isolate the empty "6" behind it and lose at once; the plan puts a
    # load on every tile, farthest from the volcano first, before anything goes out.
    state = GAME.start(
        "solitaire",
        seats=1,
        seed=0,
        setup={"tiles": [tile(0, 0, 1), tile(1, 0, 2), tile(2, 0, 6), tile(-1, 0, 6)], "volcano": [0, 0]},
    )
    move = SearchBot(0).choose(request(state))
    assert drops_of(state, move) == [[2, 0]]
    play_out(state, SearchBot(0))
    assert state.outcome().team_won is True


def test_the_cut_includes_every_neighbour_of_the_volcano_in_an_order_that_can_go_out() -> None:
    state = GAME.start("solitaire", seats=1, seed=0, setup=full_classic_table())
    state.apply({"type": "volcano", "tile": [2, 0]})
    cut = cheapest_cut(state)
    assert cut is not None
    board = state.board
    around = {cell for cell in board.layout.neighbours[board.volcano] if cell >= 0}
    assert around <= set(cut.order)
    for cell in cut.order:  # each in turn has two adjacent free edges once those before are gone
        assert board.has_adjacent_free_edges(cell)
        board.present[cell] = False


@pytest.mark.parametrize(
    ("move_ms", "bank_ms"), [(2000, 0), (1000, 0), (400, 0), (200, 0), (100, 5000), (0, 0), (150, 60)]
)
def test_the_search_bot_thinks_within_a_share_of_its_time_less_a_margin(move_ms: int, bank_ms: int) -> None:
    budget_ms = time_budget_s({"time": {"move_ms": move_ms, "bank_ms": bank_ms}}, DEFAULT_CAP_MS) * 1000
    assert 0 <= budget_ms <= DEFAULT_CAP_MS
    assert budget_ms <= max(0.0, (move_ms + bank_ms) / 2 - 100)
