"""The volcano variants, from the seed's own words, as explicit positions move by move.

The centre hex (9) is the volcano in most positions: its corners 1..6 are nodes 18, 24, 30, 35, 29
and 23 (clockwise from the top).
"""

from __future__ import annotations

from collections import Counter

import pytest

from referee.catan_volcano import GAME
from referee.catan_volcano.board import beginner_layout
from referee.catan_volcano.changes import CITIES, SETTLEMENTS
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.geometry import HEX_NEIGHBOURS, HEX_NODES, NODE_HEXES, corner_node
from referee.game import SetupError
from tests.referee.catan_volcano.positions import (
    events,
    give,
    hand,
    of_type,
    refresh,
    rig,
    road,
    roll,
    settlement,
    start_turn,
    table,
)

ROLL = {"type": "roll"}
CORNER = {corner: corner_node(9, corner) for corner in range(1, 7)}


def _volcano_table(variant: str = "gold", number: int = 8, **options):
    """The beginner board with the centre hex a volcano on ``number``; the robber off it.

    Seat 0 holds a wood, so after its roll it has choices (trade offers) and its turn does not end
    by itself: the events of a test stay those of one roll."""
    state = table(variant, 4, volcanoes={9: number}, **options)
    state.robber = 0
    give(state, 0, wood=1)
    return refresh(state)


# -- the boards ---------------------------------------------------------------------------------


def test_lost_desert_puts_the_volcano_on_the_desert_with_4_5_9_or_10_and_the_robber_on_it() -> None:
    numbers = Counter()
    for seed in range(40):
        state = GAME.start("lost-desert", 4, seed=seed, options={"board": "beginner"})
        layout = state.layout
        assert layout.volcanoes == (9,)
        assert "desert" not in layout.terrains
        numbers[layout.numbers[9]] += 1
        assert state.robber == 9
        assert state.tables.production[9] == -1  # it yields nothing
    assert set(numbers) == {4, 5, 9, 10}


def test_gold_replaces_one_random_hex_which_keeps_its_token() -> None:
    replaced = set()
    beginner = beginner_layout()
    for seed in range(60):
        state = GAME.start("gold", 4, seed=seed, options={"board": "beginner"})
        (volcano,) = state.layout.volcanoes
        replaced.add(volcano)
        if beginner.terrains[volcano] == "desert":
            # no desert left: the volcano draws a token and the robber starts on it
            assert state.layout.numbers[volcano] in EDITION.replaced_desert_number_pool
            assert state.robber == volcano
        else:
            assert state.layout.numbers[volcano] == beginner.numbers[volcano]
            assert state.robber == 9
    assert len(replaced) > 12  # any hex may be drawn


@pytest.mark.parametrize("board", ["random", "beginner"])
def test_a_gold_volcano_on_the_deserts_place_draws_no_red_number_next_to_a_red_one(board: str) -> None:
    # the volcano is "mixed with the rest of the tiles": its token obeys the board's 6-and-8 rule
    drawn = Counter()
    for seed in range(400):
        layout = GAME.start("gold", 4, seed=seed, options={"board": board}).layout
        (volcano,) = layout.volcanoes
        if "desert" not in layout.terrains:
            drawn[layout.numbers[volcano]] += 1
        for h, number in enumerate(layout.numbers):
            if number in EDITION.red_numbers:
                assert all(layout.numbers[o] not in EDITION.red_numbers for o in HEX_NEIGHBOURS[h]), seed
    assert len(drawn) >= 5  # the volcano on the desert's place still draws from many numbers


@pytest.mark.parametrize("board", ["random", "beginner"])
def test_vulkan_issimo_has_three_gold_volcanoes_on_4_5_and_6_around_one_intersection(board: str) -> None:
    # "an intersection with two or three bordering volcanic fields": the three meet at one corner
    meeting_points = set()
    for seed in range(30):
        state = GAME.start("vulkan-issimo", 4, seed=seed, options={"board": board})
        layout = state.layout
        assert sorted(layout.numbers[h] for h in layout.volcanoes) == [4, 5, 6]
        assert sorted(n for n in layout.numbers if n is not None) == sorted(EDITION.number_tokens)
        assert all(state.tables.production[h] == 5 for h in layout.volcanoes)
        (meeting,) = [node for node in range(54) if set(NODE_HEXES[node]) == set(layout.volcanoes)]
        meeting_points.add(meeting)
        assert layout.terrains.count("desert") == 1 and state.robber == layout.terrains.index("desert")
        for h, number in enumerate(layout.numbers):  # the tokens moved, and still no 6 and 8 touch
            if number in EDITION.red_numbers:
                assert all(layout.numbers[o] not in EDITION.red_numbers for o in HEX_NEIGHBOURS[h])
        for node in range(54):
            corners = [HEX_NODES[h].index(node) + 1 for h in NODE_HEXES[node] if h in layout.volcanoes]
            assert len(corners) == len(set(corners))
    assert len(meeting_points) > 5  # the place is drawn, not fixed


@pytest.mark.parametrize(
    ("variant", "volcanoes", "field"),
    [
        # Lost Desert: the volcano takes the desert's place with one of the four set-aside tokens
        ("lost-desert", {9: 8}, "setup.board.hexes[9].number"),
        ("lost-desert", {4: 5}, "setup.board.hexes"),  # the desert is still there
        # Vulkan-issimo: three volcanic fields numbered 4, 5 and 6
        ("vulkan-issimo", {4: 6, 5: 4, 9: 8}, "setup.board.hexes"),
        ("vulkan-issimo", {4: 6, 5: 4, 9: 4}, "setup.board.hexes"),
        # ... around one intersection (hexes 5 and 14 share no corner)
        ("vulkan-issimo", {5: 4, 9: 5, 14: 6}, "setup.board.hexes"),
    ],
)
def test_an_explicit_board_keeps_the_variants_volcano_numbers(
    variant: str, volcanoes: dict[int, int], field: str
) -> None:
    with pytest.raises(SetupError) as error:
        table(variant, 4, volcanoes=volcanoes)
    assert error.value.field_name == field


def test_explicit_boards_the_variants_allow() -> None:
    assert table("lost-desert", 4, volcanoes={9: 10}).robber == 9
    assert table("vulkan-issimo", 3, volcanoes={4: 6, 5: 4, 9: 5}).layout.volcanoes == (4, 5, 9)
    # a gold volcano may carry any token, on the desert's place or another hex's
    assert table("gold", 4, volcanoes={4: 2}).robber == 9


def test_no_start_on_volcano_keeps_first_settlements_off_its_corners() -> None:
    state = GAME.start("gold", 4, seed=1, options={"no_start_on_volcano": True})
    (volcano,) = state.layout.volcanoes
    spots = {m["node"] for m in state.legal_moves()}
    assert not spots & set(HEX_NODES[volcano])
    free = GAME.start("gold", 4, seed=1)
    assert set(HEX_NODES[volcano]) <= {m["node"] for m in free.legal_moves()}


# -- gold -------------------------------------------------------------------------------------


def test_gold_pays_a_resource_of_choice_per_settlement_and_two_per_city_then_the_lava_flows() -> None:
    state = _volcano_table("gold", 8)
    settlement(state, 0, CORNER[1])
    settlement(state, 1, CORNER[3], city=True)
    rig(state, roll(4, 4), 2)  # an 8, then the lava die: corner 2 (empty)
    state.apply(ROLL)
    assert state.phase == "gold" and state.current_seat == 0
    assert len(of_type(state, "choose_gold")) == 5
    state.apply({"type": "choose_gold", "resource": "ore"})
    assert state.current_seat == 1
    state.apply({"type": "choose_gold", "resource": "wheat"})
    assert not events(state, "eruption")  # the lava comes after the gold
    state.apply({"type": "choose_gold", "resource": "wheat"})
    assert hand(state, 0) == {"wood": 1, "ore": 1} and hand(state, 1) == {"wheat": 2}
    (eruption,) = events(state, "eruption")
    assert eruption["lava_dice"] == [2] and eruption["corners"] == [2] and eruption["damage"] == []
    assert state.phase == "main" and state.current_seat == 0


def test_gold_offers_only_what_the_bank_has_and_an_empty_bank_pays_none() -> None:
    state = _volcano_table("gold", 8)
    settlement(state, 1, CORNER[1])
    state.bank[:] = [0, 0, 0, 2, 0]
    rig(state, roll(4, 4), 2)
    state.apply(ROLL)
    # wheat is the one choice left, so the engine took it for seat 1
    assert hand(state, 1) == {"wheat": 1}
    empty = _volcano_table("gold", 8)
    settlement(empty, 1, CORNER[1])
    empty.bank[:] = [0, 0, 0, 0, 0]
    rig(empty, roll(4, 4), 2)
    empty.apply(ROLL)
    assert hand(empty, 1) == {} and empty.phase == "main"


def test_lost_desert_volcano_yields_nothing_but_erupts() -> None:
    state = _volcano_table("lost-desert", 5)
    settlement(state, 1, CORNER[4])
    rig(state, roll(2, 3), 4)
    state.apply(ROLL)
    assert hand(state, 1) == {}
    assert state.node_owner[CORNER[4]] == -1
    assert events(state, "eruption")[-1]["damage"] == [
        {"node": CORNER[4], "seat": 1, "was": "settlement", "now": None}
    ]


# -- lava -------------------------------------------------------------------------------------


def test_lava_removes_a_settlement_and_reduces_a_city() -> None:
    state = _volcano_table("gold", 8)
    settlement(state, 0, CORNER[1], city=True)
    settlement(state, 1, CORNER[3])
    rig(state, roll(4, 4), 1)
    state.apply(ROLL)
    for _ in range(3):  # the city's two golds and the settlement's one
        state.apply({"type": "choose_gold", "resource": "ore"})
    assert state.node_owner[CORNER[1]] == 0 and state.node_level[CORNER[1]] == 1
    assert state.pieces[0][CITIES] == 4 and state.pieces[0][SETTLEMENTS] == 4
    rig(state, roll(4, 4), 3)
    start_turn(state, 0, "roll")
    state.apply(ROLL)
    for _ in range(2):
        state.apply({"type": "choose_gold", "resource": "ore"})
    assert state.node_owner[CORNER[3]] == -1 and state.pieces[1][SETTLEMENTS] == 5


def test_a_city_hit_without_a_settlement_piece_left_is_removed() -> None:
    state = _volcano_table("gold", 8)
    settlement(state, 0, CORNER[1], city=True)
    state.pieces[0][SETTLEMENTS] = 0
    rig(state, roll(4, 4), 1)
    state.apply(ROLL)
    state.apply({"type": "choose_gold", "resource": "ore"})
    state.apply({"type": "choose_gold", "resource": "ore"})
    assert state.node_owner[CORNER[1]] == -1
    assert state.pieces[0][CITIES] == 4 and state.pieces[0][SETTLEMENTS] == 0


def test_the_robber_on_the_volcano_stops_the_eruption_and_its_gold() -> None:
    state = _volcano_table("gold", 8)
    settlement(state, 1, CORNER[1])
    state.robber = 9
    rig(state, roll(4, 4), 1)
    state.apply(ROLL)
    assert not events(state, "eruption")
    assert events(state, "eruption_stopped") == [{"type": "eruption_stopped", "hex": 9, "turn": 0}]
    assert state.node_owner[CORNER[1]] == 1 and hand(state, 1) == {}


def test_with_robber_stops_eruption_off_the_volcano_erupts_under_the_robber() -> None:
    state = _volcano_table("gold", 8, robber_stops_eruption=False)
    settlement(state, 1, CORNER[1])
    state.robber = 9
    rig(state, roll(4, 4), 1)
    state.apply(ROLL)
    assert state.node_owner[CORNER[1]] == -1
    assert hand(state, 1) == {}  # the robber still blocks the gold


def test_lava_that_removes_a_settlement_rejoins_the_road_it_cut() -> None:
    state = _volcano_table("gold", 8)
    road(state, 0, 13, 18, 24, 19, 14, 9)  # five roads through corner 1 (node 18)
    assert state.longest_road == 0
    settlement(state, 1, CORNER[1])
    road(state, 0)  # recount after the cut
    assert state.road_length[0] == 4 and state.longest_road == -1
    rig(state, roll(4, 4), 1)
    start_turn(state, 2, "roll")
    state.apply(ROLL)
    state.apply({"type": "choose_gold", "resource": "ore"})
    assert state.node_owner[CORNER[1]] == -1
    assert state.road_length[0] == 5 and state.longest_road == 0


# -- the variable risk table, row by row ------------------------------------------------------


def _ring(state) -> None:
    """A building on every corner of the volcano: seat c % 4 on corner c."""
    for corner in (1, 3, 5):
        settlement(state, corner % 4, CORNER[corner], city=True)
    # corners 2, 4, 6 are next to 1, 3, 5; place them anyway, the distance rule is not the point here
    for corner in (2, 4, 6):
        state.node_owner[CORNER[corner]] = corner % 4
        state.node_level[CORNER[corner]] = 1
        state.pieces[corner % 4][SETTLEMENTS] -= 1
    refresh(state)


def _erupt(number: int, dice: tuple[int, int], lava: tuple[int, ...]):
    state = _volcano_table("variable-risk-gold", number)
    _ring(state)
    state.bank[:] = [0, 0, 0, 0, 0]  # no gold to pick: the eruption follows the roll at once
    rig(state, roll(*dice), *lava)
    state.apply(ROLL)
    (eruption,) = events(state, "eruption") or [None]
    return state, eruption


@pytest.mark.parametrize(
    ("number", "dice", "lava", "hit"),
    [
        (6, (3, 3), (1, 4, 6), [1, 4, 6]),  # 6 or 8: three lava dice
        (8, (4, 4), (2, 2, 5), [2, 5]),  # a corner rolled twice is hit once
        (5, (2, 3), (3, 6), [3, 6]),  # 5 or 9: two dice
        (9, (4, 5), (1, 1), [1]),
        (4, (1, 3), (5,), [5]),  # 4 or 10: one die
        (10, (4, 6), (2,), [2]),
    ],
)
def test_variable_risk_rolls_lava_dice_by_the_volcanos_number(
    number: int, dice: tuple[int, int], lava: tuple[int, ...], hit: list[int]
) -> None:
    state, eruption = _erupt(number, dice, lava)
    assert eruption["lava_dice"] == list(lava)
    assert eruption["corners"] == hit
    assert [d["node"] for d in eruption["damage"]] == [CORNER[c] for c in hit]
    for corner in hit:
        level = 1 if corner % 2 else 0  # cities (odd corners) drop to settlements, settlements go
        assert state.node_level[CORNER[corner]] == level


@pytest.mark.parametrize(
    ("number", "dice", "parity", "direction", "hit"),
    [
        (3, (1, 2), 2, 4, [4]),  # even parity die: an even corner can be hit
        (3, (1, 2), 2, 3, []),  # even parity die, odd direction: nothing
        (11, (5, 6), 5, 1, [1]),  # odd parity die: an odd corner can be hit
        (11, (5, 6), 3, 6, []),
    ],
)
def test_variable_risk_on_3_or_11_a_parity_die_decides_which_corners_are_at_risk(
    number: int, dice: tuple[int, int], parity: int, direction: int, hit: list[int]
) -> None:
    _, eruption = _erupt(number, dice, (parity, direction))
    assert eruption["parity_die"] == parity and eruption["lava_dice"] == [direction]
    assert eruption["corners"] == hit


@pytest.mark.parametrize(
    ("number", "dice", "gate", "direction", "hit"),
    [
        (2, (1, 1), 4, None, []),  # even: no eruption after all, no direction die
        (2, (1, 1), 3, 6, [6]),  # odd: one die for the direction
        (12, (6, 6), 6, None, []),
        (12, (6, 6), 1, 2, [2]),
    ],
)
def test_variable_risk_on_2_or_12_an_even_die_means_no_eruption(
    number: int, dice: tuple[int, int], gate: int, direction: int | None, hit: list[int]
) -> None:
    lava = (gate,) if direction is None else (gate, direction)
    _, eruption = _erupt(number, dice, lava)
    assert eruption["gate_die"] == gate
    assert eruption["lava_dice"] == ([] if direction is None else [direction])
    assert eruption["corners"] == hit


def test_basic_volcanoes_roll_a_single_lava_die_whatever_their_number() -> None:
    state = _volcano_table("gold", 6)
    _ring(state)
    state.bank[:] = [0, 0, 0, 0, 0]
    rig(state, roll(3, 3), 5)
    state.apply(ROLL)
    (eruption,) = events(state, "eruption")
    assert eruption["lava_dice"] == [5] and eruption["corners"] == [5]


def test_vulkan_issimo_volcanoes_erupt_each_on_its_own_number() -> None:
    state = table("vulkan-issimo", 4, volcanoes={4: 6, 5: 4, 9: 5})
    state.robber = 0
    settlement(state, 1, 18)  # where the three meet: corner 3 of hex 4, 5 of hex 5, 1 of hex 9
    give(state, 0, wood=1)
    rig(state, roll(2, 3), 1)  # a 5: only the centre erupts; lava die 1 reaches node 18
    refresh(state)
    state.apply(ROLL)
    state.apply({"type": "choose_gold", "resource": "brick"})
    assert [e["hex"] for e in events(state, "eruption")] == [9]
    assert state.node_owner[18] == -1
