"""The island: geometry with stable ids, the rulebook's beginner board, seeded and explicit boards."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catan_volcano import GAME
from referee.catan_volcano.board import (
    HARBOUR_KINDS,
    Layout,
    _reds_apart,
    beginner_layout,
    deal_tokens,
    random_layout,
    red_spots,
)
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.geometry import (
    EDGE_NODES,
    HEX_COUNT,
    HEX_NEIGHBOURS,
    HEX_NODES,
    NODE_EDGES,
    NODE_HEXES,
    NODE_NODES,
    corner_node,
    edge_between,
)
from referee.game import SetupError
from referee.rng import Rng
from tests.referee.catan_volcano.positions import beginner_board


def test_the_island_has_19_hexes_54_intersections_and_72_edges() -> None:
    assert len(HEX_NODES) == 19
    assert len(NODE_HEXES) == 54
    assert len(EDGE_NODES) == 72
    assert all(len(set(nodes)) == 6 for nodes in HEX_NODES)
    # 18 coast corners touch one hex, 12 touch two (coast between two hexes), 24 inland touch three
    assert Counter(len(hexes) for hexes in NODE_HEXES) == {1: 18, 2: 12, 3: 24}
    assert all(len(NODE_EDGES[n]) == len(NODE_NODES[n]) in (2, 3) for n in range(54))


def test_ids_are_stable_and_ordered_as_documented() -> None:
    assert list(EDGE_NODES) == sorted(EDGE_NODES)
    assert all(a < b for a, b in EDGE_NODES)
    # hexes row by row: the top row is 0, 1, 2 and its left hex touches the two top-left nodes
    assert HEX_NODES[0] == (0, 4, 8, 12, 7, 3)
    assert HEX_NODES[9] == (18, 24, 30, 35, 29, 23)
    assert corner_node(9, 1) == 18 and corner_node(9, 4) == 35
    assert edge_between(18, 24) == edge_between(24, 18)
    with pytest.raises(KeyError):
        edge_between(18, 35)


def test_every_hex_side_is_an_edge_and_neighbours_share_two_corners() -> None:
    for nodes in HEX_NODES:
        for i in range(6):
            edge_between(nodes[i], nodes[(i + 1) % 6])
    assert len(HEX_NEIGHBOURS[9]) == 6  # the centre
    assert len(HEX_NEIGHBOURS[0]) == 3  # a corner of the island


def test_the_beginner_board_is_the_rulebooks() -> None:
    layout = beginner_layout()
    rows = [layout.terrains[0:3], layout.terrains[3:7], layout.terrains[7:12], layout.terrains[12:16]]
    assert rows[0] == ("mountains", "pasture", "forest")
    assert rows[2] == ("fields", "forest", "desert", "forest", "mountains")
    assert layout.numbers[:3] == (10, 2, 9)
    assert Counter(layout.terrains) == {**EDITION.tiles}
    assert sorted(n for n in layout.numbers if n is not None) == sorted(EDITION.number_tokens)
    assert Counter(layout.harbours) == Counter(EDITION.harbours)
    assert layout.robber_start() == 9


def test_harbours_lie_on_coast_edges() -> None:
    tables = beginner_layout().tables(gold=False)
    harbour_nodes = [n for n, kind in enumerate(tables.node_harbour) if kind >= 0]
    assert len(harbour_nodes) == 18
    for hex_id, first, second in EDITION.harbour_slots:
        a, b = corner_node(hex_id, first), corner_node(hex_id, second)
        edge_between(a, b)  # the two harbour nodes are one edge
        assert len(NODE_HEXES[a]) < 3 and len(NODE_HEXES[b]) < 3  # and on the coast
    # the beginner board's 2:1 wood harbour is at the left of the second row
    assert HARBOUR_KINDS[tables.node_harbour[corner_node(3, 5)]] == "wood"


def test_a_random_board_has_the_base_sets_and_no_touching_red_numbers() -> None:
    for seed in range(30):
        layout = random_layout(Rng(seed))
        assert Counter(layout.terrains) == {**EDITION.tiles}
        assert sorted(n for n in layout.numbers if n is not None) == sorted(EDITION.number_tokens)
        assert layout.numbers[layout.terrains.index("desert")] is None
        for h, number in enumerate(layout.numbers):
            if number in (6, 8):
                assert all(layout.numbers[o] not in (6, 8) for o in HEX_NEIGHBOURS[h])


def test_the_red_spots_are_every_set_of_numbered_hexes_the_rule_allows() -> None:
    """Checked against the rule itself: a set of four numbered hexes is listed exactly when the
    red tokens put there would keep the rule (whatever the other tokens)."""
    numbered = tuple(h for h in range(HEX_COUNT) if h != 7)
    allowed = set(red_spots(numbered))
    for spots in combinations(numbered, 4):
        numbers: list[int | None] = [None] * HEX_COUNT
        for h, token in zip(spots, (6, 6, 8, 8), strict=True):
            numbers[h] = token
        assert (spots in allowed) == _reds_apart(numbers), spots
    assert 0 < len(allowed) < comb(len(numbered), 4)


def test_deals_keep_the_rule_and_are_spread_evenly() -> None:
    """Every deal keeping the rule is meant to be as likely as any other (as when a full shuffle
    is dealt again until the rule holds): over 40,000 deals on one set of hexes, every allowed
    set of red hexes turns up (about 95 times each here: within 50 to 150, seed fixed), each of
    the six orders of 6, 6, 8, 8 about a sixth of the time, and each hex carries the 2 about
    one deal in eighteen."""
    numbered = tuple(h for h in range(HEX_COUNT) if h != 0)
    spots = red_spots(numbered)
    rng = Rng(2026)
    sets: Counter[tuple[int, ...]] = Counter()
    orders: Counter[tuple[int | None, ...]] = Counter()
    twos: Counter[int] = Counter()
    deals = 40_000
    for _ in range(deals):
        numbers = deal_tokens(rng, numbered)
        assert sorted(n for n in numbers if n is not None) == sorted(EDITION.number_tokens)
        assert numbers[0] is None
        reds = tuple(h for h in numbered if numbers[h] in (6, 8))
        sets[reds] += 1
        orders[tuple(numbers[h] for h in reds)] += 1
        twos[numbers.index(2)] += 1
    assert set(sets) == set(spots)
    assert all(50 <= count <= 150 for count in sets.values())
    assert len(orders) == 6 and all(abs(count - deals / 6) < 0.05 * deals / 6 for count in orders.values())
    assert set(twos) == set(numbered)
    others = sum(token not in (6, 8) for token in EDITION.number_tokens)
    for h in numbered:
        left_to_others = 1 - sum(h in red for red in spots) / len(spots)
        expected = deals * left_to_others / others
        assert abs(twos[h] - expected) < 0.1 * expected, (h, twos[h], expected)


def test_the_board_option_and_the_seed_decide_the_board() -> None:
    first = GAME.start("base", 4, seed=11).layout
    assert GAME.start("base", 4, seed=11).layout == first
    assert GAME.start("base", 4, seed=12).layout != first
    beginner = GAME.start("base", 3, seed=11, options={"board": "beginner"}).layout
    assert beginner == beginner_layout()


def test_an_explicit_board_is_used_as_given() -> None:
    board = beginner_board()
    board["hexes"][0] = {"terrain": "hills", "number": 10}
    board["hexes"][3] = {"terrain": "mountains", "number": 12}
    state = GAME.start("base", 4, seed=1, setup={"board": board})
    assert state.layout.terrains[0] == "hills" and state.layout.terrains[3] == "mountains"
    assert state.layout == Layout.from_json(board)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda b: b["hexes"].pop(), "setup.board.hexes"),
        (lambda b: b["hexes"][4].update(terrain="swamp"), "setup.board.hexes[4].terrain"),
        (lambda b: b["hexes"][4].update(number=7), "setup.board.hexes[4].number"),
        (lambda b: b["hexes"][9].update(number=5), "setup.board.hexes[9].number"),
        (lambda b: b["harbours"].__setitem__(2, "gold"), "setup.board.harbours"),
        (lambda b: b["hexes"][4].update(terrain="volcano"), "setup.board.hexes"),
        # JSON of the wrong kind: a list or an object is no terrain, 5.0 is no token
        (lambda b: b["hexes"][4].update(terrain=["hills"]), "setup.board.hexes[4].terrain"),
        (lambda b: b["hexes"][4].update(terrain={"hills": 6}), "setup.board.hexes[4].terrain"),
        (lambda b: b["hexes"][4].update(number=6.0), "setup.board.hexes[4].number"),
        (lambda b: b["hexes"][4].update(number=[6]), "setup.board.hexes[4].number"),
        (lambda b: b["hexes"][4].update(robber=True), "setup.board.hexes[4]"),
        (lambda b: b.update(robber=4), "setup.board"),
        # without a desert (or a volcano) the robber would have nowhere to start
        (lambda b: b["hexes"][9].update(terrain="hills", number=5), "setup.board.hexes"),
    ],
)
def test_a_bad_explicit_board_names_the_field(change, field: str) -> None:
    board = beginner_board()
    change(board)
    with pytest.raises(SetupError) as error:
        GAME.start("base", 4, seed=1, setup={"board": board})
    assert error.value.field_name == field


def test_setup_errors_for_seats_and_options() -> None:
    with pytest.raises(SetupError) as error:
        GAME.start("base", 2, seed=1)
    assert error.value.field_name == "bots"
    with pytest.raises(SetupError) as error:
        GAME.start("base", 4, seed=1, options={"board": "hexagonal"})
    assert error.value.field_name == "options.board"
    with pytest.raises(SetupError) as error:
        GAME.start("base", 4, seed=1, options={"robber_stops_eruption": False})
    assert error.value.field_name == "options"
    with pytest.raises(SetupError) as error:
        GAME.start("base", 4, seed=1, setup={"pieces": []})
    assert error.value.field_name == "setup"
    with pytest.raises(SetupError) as error:
        GAME.start("base", 4.0, seed=1)  # four seats, but not as an integer
    assert error.value.field_name == "bots"


_garbage = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=True),
        st.text(max_size=6),
        st.sampled_from(["desert", "volcano", "hills", "3:1", "wood"]),
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=5,
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(sorted(GAME.variants)),
    st.integers(0, 18),
    st.sampled_from(["terrain", "number", "harbour", "hex", "hexes", "harbours", "board"]),
    _garbage,
)
def test_a_board_with_any_json_in_any_place_starts_or_names_a_field(
    variant: str, index: int, place: str, value
) -> None:
    board = beginner_board({9: 5} if variant == "lost-desert" else {})
    targets = {
        "terrain": lambda: board["hexes"][index].__setitem__("terrain", value),
        "number": lambda: board["hexes"][index].__setitem__("number", value),
        "harbour": lambda: board["harbours"].__setitem__(index % 9, value),
        "hex": lambda: board["hexes"].__setitem__(index, value),
        "hexes": lambda: board.__setitem__("hexes", value),
        "harbours": lambda: board.__setitem__("harbours", value),
        "board": lambda: None,
    }
    targets[place]()
    setup = {"board": value if place == "board" else board}
    try:
        GAME.start(variant, 4, seed=1, setup=setup)
    except SetupError as error:
        assert error.field_name.startswith("setup")
