"""Catan's reference bots: always legal through the runner, and the heuristic's preferences on
explicit positions."""

from __future__ import annotations

import pytest

from bots.catan_volcano import HeuristicBot
from referee.catan_volcano import GAME
from tests.bots.matches import only_bot_moves, play_reference
from tests.referee.catan_volcano.positions import give, rig, road, settlement, start_turn, table


def _request(state) -> dict:
    seat = state.current_seat
    return {"seat": seat, "observation": state.observation(seat), "legal_moves": state.legal_moves()}


def _choose(state, seed: int = 1) -> dict:
    return HeuristicBot(seed).choose(_request(state))


@pytest.mark.parametrize(
    ("variant", "names"),
    [
        ("gold", ("heuristic", "random", "random")),
        ("vulkan-issimo", ("random", "heuristic", "heuristic", "random")),
    ],
)
def test_matches_through_the_runner_see_only_legal_moves(variant: str, names: tuple[str, ...]) -> None:
    replay = play_reference("catan-volcano", variant, names, seed=6, options={"turn_limit": 150})
    assert only_bot_moves(replay)


def _dots(state, node: int) -> int:
    board = state.observation(0)["board"]
    numbers = [h["number"] if h["resource"] else None for h in board["hexes"]]
    return sum(6 - abs(7 - numbers[h]) for h in board["node_hexes"][node] if numbers[h] is not None)


def test_setup_settlements_go_on_the_most_dots() -> None:
    state = GAME.start("base", 4, seed=1, options={"board": "beginner"})
    # node 31 (forest 3, mountains 8, pasture 5: 2 + 5 + 4 dots) is the first of the beginner
    # board's best spots (eleven dots on three resources)
    assert _choose(state) == {"type": "place_settlement", "node": 31}
    while state.phase in ("place_settlement", "place_road"):
        move = _choose(state)
        if move["type"] == "place_settlement":
            best = max(_dots(state, m["node"]) for m in state.legal_moves())
            assert _dots(state, move["node"]) >= best - 1  # diversity and harbours may outweigh a dot
        state.apply(move)


def test_a_city_comes_before_anything_else() -> None:
    state = table("base", 4)
    settlement(state, 0, 40)
    road(state, 0, 40, 35, 29)
    start_turn(state, 0, "main")
    give(state, 0, wood=2, brick=2, sheep=1, wheat=3, ore=3)
    assert _choose(state) == {"type": "build_city", "node": 40}


def test_bank_trades_use_the_harbour_rate_and_keep_what_the_aim_needs() -> None:
    state = table("base", 4)
    settlement(state, 0, 16)  # the 2:1 wood harbour
    settlement(state, 0, 40)
    start_turn(state, 0, "main")
    give(state, 0, wood=2, wheat=2, ore=2)  # a city lacks one ore
    assert _choose(state) == {"type": "maritime_trade", "give": "wood", "get": "ore"}


def test_the_robber_never_goes_on_the_bots_own_hex_and_robs_the_leader() -> None:
    state = table("base", 4)
    settlement(state, 0, 40)  # on mountains 3, fields 4, fields 6
    settlement(state, 1, 44, city=True)  # on mountains 3, hills 5, fields 6
    settlement(state, 2, 8)
    give(state, 1, ore=1)
    give(state, 2, ore=1)
    rig(state, 3, 4)
    state.apply({"type": "roll"})
    move = _choose(state)
    assert move["hex"] not in (13, 14, 17)
    assert move == {"type": "move_robber", "hex": 16, "victim": 1}
