"""Catan's reference bots: always legal through the runner, and the heuristic's preferences on
explicit positions."""

from __future__ import annotations

import pytest

from bots.catan_search import SearchBot
from bots.catan_volcano import HeuristicBot
from referee.catan_volcano import GAME
from referee.catan_volcano.determinize import from_observation
from referee.rng import Rng
from tests.bots.matches import only_bot_moves, play_reference
from tests.referee.catan_volcano.positions import give, rig, road, roll, settlement, start_turn, table


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
    rig(state, roll(3, 4))
    state.apply({"type": "roll"})
    move = _choose(state)
    assert move["hex"] not in (13, 14, 17)
    assert move == {"type": "move_robber", "hex": 16, "victim": 1}


# -- the search bot ----------------------------------------------------------------------------


UNHURRIED_MS = 600_000.0
"""A time cap that never binds: the node budget alone bounds the search, so the tests do not depend
on the machine's speed."""


def _search(state, seed: int = 1) -> dict:
    return SearchBot(seed, cap_ms=UNHURRIED_MS).choose(_request(state))


def _nine_points_a_wheat_short() -> object:
    """Seat 0 on nine points (four cities, a settlement), its road reaching a free spot at node 8;
    it holds wood, brick, sheep and four ore: no wheat for the settlement, but four ore trade with
    the bank for one."""
    state = table("base", 4)
    for node in (0, 10, 40, 45):
        settlement(state, 0, node, city=True)
    settlement(state, 0, 18)
    road(state, 0, 18, 13, 8)
    settlement(state, 1, 31)
    give(state, 0, wood=1, brick=1, sheep=1, ore=4)
    return start_turn(state, 0, "main")


def test_the_search_bot_trades_for_the_winning_settlement_and_builds_it() -> None:
    state = _nine_points_a_wheat_short()
    assert _search(state) == {"type": "maritime_trade", "give": "ore", "get": "wheat"}
    state.apply({"type": "maritime_trade", "give": "ore", "get": "wheat"})
    assert _search(state) == {"type": "build_settlement", "node": 8}
    state.apply({"type": "build_settlement", "node": 8})
    outcome = state.outcome()
    assert outcome is not None and outcome.details["winner"] == 0


def test_the_search_bot_builds_the_winning_settlement_at_once() -> None:
    state = _nine_points_a_wheat_short()
    give(state, 0, wood=1, brick=1, sheep=1, wheat=1, ore=4)
    assert _search(state) == {"type": "build_settlement", "node": 8}


def test_the_search_bot_never_reads_the_other_seats_cards() -> None:
    """Two tables that differ only in cards seat 0 cannot see give it the same request, and so the
    same move: it plans on worlds drawn from its own observation only."""
    first, second = {"ore": 3, "wheat": 1}, {"sheep": 2, "brick": 2}
    states = []
    for two, three in ((first, second), (second, first)):
        state = _nine_points_a_wheat_short()
        give(state, 2, **two)
        give(state, 3, **three)
        states.append(state)
    assert states[0].hands != states[1].hands
    assert states[0].observation(0) == states[1].observation(0)
    from_observation(states[0].observation(0), Rng(1))  # a consistent table: the bot does search
    for seed in range(5):
        assert _search(states[0], seed) == _search(states[1], seed)


def test_a_single_legal_move_is_played_without_search(monkeypatch: pytest.MonkeyPatch) -> None:
    import bots.catan_search as search

    def no_worlds(*args, **kwargs):
        raise AssertionError("a forced move needs no world")

    monkeypatch.setattr(search, "from_observation", no_worlds)
    state = table("base", 4)
    start_turn(state, 0, "main")  # nothing in hand: only the end of the turn
    assert state.legal_moves() == [{"type": "end_turn"}]
    assert _search(state) == {"type": "end_turn"}


def test_the_time_allowed_is_a_fraction_of_the_move_time_and_capped() -> None:
    from bots.catan_search import DEFAULT_CAP_MS, TIME_FRACTION, time_budget_s

    assert time_budget_s({"time": {"move_ms": 100, "bank_ms": 0}}, DEFAULT_CAP_MS) == TIME_FRACTION * 0.1
    assert time_budget_s({"time": {"move_ms": 60_000, "bank_ms": 0}}, DEFAULT_CAP_MS) == DEFAULT_CAP_MS / 1000
    assert time_budget_s({}, DEFAULT_CAP_MS) == DEFAULT_CAP_MS / 1000


def test_the_search_bot_plays_legal_matches_through_the_runner() -> None:
    replay = play_reference(
        "catan-volcano", "gold", ("search", "heuristic", "random"), seed=3, options={"turn_limit": 120}
    )
    assert only_bot_moves(replay)
