"""Every value the engine keeps between moves against the same value worked out from scratch, from
the rules as the doc page states them, over random games of every variant, seat count and layout.

The state keeps derived values so that a move costs little (``VulkanState._reset_caches`` lists
them; docs/games/vulkan.md, *Caches*, says which mutator updates each). :func:`check_caches` works
each out again from the position alone (the board's tiles, loads and spaces, the supplies, the
awards), cell by cell and run by run, without the engine's masks or counters, and compares. The
games are played as the match runner and the bots play them: listed moves and moves sent back as
plain JSON, observations of some seats, canonical keys, copies played on, states loaded from their
JSON and rebuilt from an observation. The other shortcuts follow: the shared read-only moves and
observation, the field-by-field ``copy()``.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.game import IllegalMove, canonical_json
from referee.rng import Rng
from referee.vulkan import GAME, VulkanState, state_from_observation
from referee.vulkan import rebuild as rebuild_module
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import NO_CELL, Coord, Layout, step
from referee.vulkan.moves import refusal
from referee.vulkan.paths import FlightMove, PathTable, path_table
from referee.vulkan.rules import flight_paths
from referee.vulkan.variants import VARIANTS

COLOURS = EDITION.colours
MODES = [(variant, seats) for variant, spec in VARIANTS.items() for seats in spec.seats]
"""Every variant with every seat count it is played by."""
LAYOUTS = ["classic", "random"]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------- the rules, from scratch


def straight_runs(layout: Layout) -> list[tuple[int, ...]]:
    """Every straight run of the layout's cells in the documented order: start cell, the one-tile
    run, then direction (round the hexagon from east), then length; walked step by step."""
    return _straight_runs(layout.coords)


@cache
def _straight_runs(coords: tuple[Coord, ...]) -> list[tuple[int, ...]]:
    index = {cell: i for i, cell in enumerate(coords)}
    runs: list[tuple[int, ...]] = []
    for start, cell in enumerate(coords):
        runs.append((start,))
        for direction in range(6):
            run, here = [start], step(cell, direction)
            while here in index:
                run.append(index[here])
                runs.append(tuple(run))
                here = step(here, direction)
    return runs


def mask(flags: list[bool]) -> int:
    return sum(1 << cell for cell, flag in enumerate(flags) if flag)


def forest(state: VulkanState) -> list[bool]:
    """Per cell: a forest tile lies there (a tile on the table, not the volcano)."""
    board = state.board
    return [board.present[cell] and cell != board.volcano for cell in range(len(board.present))]


def with_room(state: VulkanState) -> list[bool]:
    """Per cell: a forest tile with a free space lies there."""
    board = state.board
    return [tile and len(board.loads[cell]) < board.spaces[cell] for cell, tile in enumerate(forest(state))]


def flight_path_runs(state: VulkanState) -> list[bool]:
    """Per straight run: a flight path now (forest tiles only, one of them with a free space)."""
    tiles, room = forest(state), with_room(state)
    return [
        all(tiles[cell] for cell in run) and any(room[cell] for cell in run)
        for run in straight_runs(state.board.layout)
    ]


def flight_json(layout: Layout, colour: int, run: tuple[int, ...]) -> dict[str, Any]:
    return {"type": "flight", "path": [list(layout.coords[cell]) for cell in run], "colour": COLOURS[colour]}


def legal_keys(state: VulkanState) -> list[tuple[Any, ...]]:
    """The legal moves in canonical form: the enclosed tiles for the volcano, then every flight
    path once per colour the seat holds a load of."""
    seat, board = state.current_seat, state.board
    if seat is None:
        return []
    if board.volcano is None:
        neighbours = board.layout.neighbours
        return [
            ("volcano", cell)
            for cell in range(len(board.present))
            if board.present[cell] and all(n != NO_CELL and board.present[n] for n in neighbours[cell])
        ]
    runs = [
        run for run, legal in zip(straight_runs(board.layout), flight_path_runs(state), strict=True) if legal
    ]
    colours = [colour for colour in state.seat_colours[seat] if state.supply[seat][colour]]
    return [("flight", colour, run) for colour in colours for run in runs]


def tile_entry(state: VulkanState, cell: int) -> dict[str, Any]:
    board = state.board
    return {
        "at": list(board.layout.coords[cell]),
        "value": board.values[cell],
        "spaces": board.spaces[cell],
        "loads": [COLOURS[colour] for colour in board.loads[cell]],
    }


def awarded_entries(state: VulkanState, seat: int) -> list[dict[str, Any]]:
    return [{"at": None if at is None else list(at), "value": value} for at, value in state.awarded[seat]]


def seat_entry(state: VulkanState, seat: int) -> dict[str, Any]:
    """A seat's observation entry: its colours and supply, its tiles and their sum, and its own
    loads on the table (colours only it holds: the shared colour of three seats counts for nobody)."""
    holders = [[s for s in range(state.seats) if c in state.seat_colours[s]] for c in range(len(COLOURS))]
    own = [c for c in state.seat_colours[seat] if holders[c] == [seat]]
    return {
        "colours": [COLOURS[c] for c in state.seat_colours[seat]],
        "supply": {COLOURS[c]: state.supply[seat][c] for c in state.seat_colours[seat]},
        "awarded": awarded_entries(state, seat),
        "score": sum(value for _, value in state.awarded[seat]),
        "loads_on_table": sum(pile.count(c) for pile in state.board.loads for c in own),
    }


def observation(state: VulkanState, seat: int | None) -> dict[str, Any]:
    board = state.board
    return {
        "variant": state.variant,
        "seat": seat,
        "phase": "over" if state.to_move is None else "volcano" if board.volcano is None else "flight",
        "turn": state.turn,
        "to_move": state.to_move,
        "tiles": [tile_entry(state, cell) for cell in range(len(board.present)) if board.present[cell]],
        "volcano": None if board.volcano is None else list(board.layout.coords[board.volcano]),
        "seats": [seat_entry(state, s) for s in range(state.seats)],
        "removed": [list(cell) for cell in state.removed],
        "loads_out": {name: state.loads_out[c] for c, name in enumerate(COLOURS)},
        "last": state.last,
    }


# ---------------------------------------------------------------------- the check


def check_caches(state: VulkanState) -> None:
    """Every value the state keeps, as far as it is kept now, against the rules from scratch."""
    board = state.board
    layout = board.layout
    tiles, room = forest(state), with_room(state)
    assert state._blocked == ((1 << len(layout)) - 1) & ~mask(tiles)
    assert state._room == mask(room)
    assert state._present == mask(board.present)
    assert state._on_table == [sum(pile.count(c) for pile in board.loads) for c in range(len(COLOURS))]
    assert state._scores == [sum(value for _, value in awards) for awards in state.awarded]
    assert state._at == [list(cell) for cell in layout.coords]
    check_runs(state, tiles, room)
    if state._keys is not None:
        assert state._keys == legal_keys(state)
    check_observation_parts(state)


def check_runs(state: VulkanState, tiles: list[bool], room: list[bool]) -> None:
    """The path table, the byte-lane counters, the live runs and the flights kept from them."""
    table = state._table
    if table is None:
        assert state._runs is None
        return
    assert table is path_table(state.board.layout)
    runs = state._runs
    if runs is None:
        return
    assert runs.table is table
    legal = flight_path_runs(state)
    for i, run in enumerate(table.paths):
        assert runs.room_lanes >> 8 * i & 0xFF == sum(room[cell] for cell in run)
        assert runs.dead_lanes >> 8 * i & 0xFF == (0 if all(tiles[cell] for cell in run) else 0xFF)
    assert runs.room_lanes >> 8 * table.size == 0 and runs.dead_lanes >> 8 * table.size == 0
    if runs.live is not None:
        assert [byte != 0 for byte in runs.live] == legal
    for colour, kept in enumerate(runs.flights):
        if kept is not None:
            assert kept == [
                flight_json(table.layout, colour, run)
                for run, ok in zip(table.paths, legal, strict=True)
                if ok
            ]


def check_observation_parts(state: VulkanState) -> None:
    """The observation's parts, each as far as it is kept (a tile's entry only once built again)."""
    board = state.board
    for cell, entry in enumerate(state._tile_json):
        if not board.present[cell]:
            assert entry is None
        elif cell not in state._stale_tiles:
            assert entry == tile_entry(state, cell)
    for seat in range(state.seats):
        if state._seat_json[seat] is not None:
            assert state._seat_json[seat] == seat_entry(state, seat)
        if state._awarded_json[seat] is not None:
            assert state._awarded_json[seat] == awarded_entries(state, seat)
    if state._removed_json is not None:
        assert state._removed_json == [list(cell) for cell in state.removed]
    if state._loads_out_json is not None:
        assert state._loads_out_json == {name: state.loads_out[c] for c, name in enumerate(COLOURS)}
    if state._observation is not None:
        assert state._observation == observation(state, None)


def check_legal_moves(state: VulkanState) -> None:
    """The listed moves are the legal ones: the same as from scratch, each one allowed by the
    rule (:func:`referee.vulkan.moves.refusal`), and every other flight refused by it."""
    keys = legal_keys(state)
    listed = state.legal_moves()
    assert listed == [state.move_of(key) for key in keys]
    assert state.legal_keys() == keys
    if state.board.volcano is None or state.current_seat is None:
        return
    assert listed == [flight_json(state.board.layout, key[1], key[2]) for key in keys]
    allowed = set(keys)
    for colour in range(len(COLOURS)):
        for run in state._path_table().paths:
            key = ("flight", colour, run)
            assert (refusal(state, key) is None) == (key in allowed)


# ---------------------------------------------------------------------- the layout's runs, kept per process


def test_the_path_table_holds_every_straight_run_in_the_documented_order() -> None:
    """The table a layout's states share, with its masks, byte lanes and the shared flight JSON."""
    layouts = {
        state.board.layout.coords: state.board.layout
        for state in (
            GAME.start("competitive", 4, seed, options={"layout": kind})
            for seed in range(3)
            for kind in LAYOUTS
        )
    }
    for layout in layouts.values():
        table = path_table(layout)
        fresh = PathTable(layout)
        runs = straight_runs(layout)
        assert table.paths == fresh.paths == runs
        assert table.masks == [mask([cell in run for cell in range(len(layout))]) for run in runs]
        assert all(table.index[run] == i for i, run in enumerate(runs))
        coords = [tuple(layout.coords[cell] for cell in run) for run in runs]
        assert table.coords == coords and all(table.by_coords[path] == i for i, path in enumerate(coords))
        for cell in range(len(layout)):
            lanes = sum(1 << 8 * i for i, run in enumerate(runs) if cell in run)
            assert table.through[cell] == lanes and table.through_ff[cell] == lanes * 0xFF
        assert table.all_through == sum(table.through)
        for colour in range(len(COLOURS)):
            listed = table.moves(colour)
            assert listed == [flight_json(layout, colour, run) for run in runs]
            assert all(table.listed[id(move)] == i for i, move in enumerate(listed))


# ---------------------------------------------------------------------- random games, checked


def play_checked(variant: str, seats: int, layout: str, seed: int) -> None:
    """One random game with the caches checked after every step. The moves are played every way
    the engine is driven: listed, sent back as plain JSON, as canonical keys, on a copy; at every
    move a state loaded from the JSON and one rebuilt from the observation are checked too (their
    counters worked out from the whole board, both from the cells with room and without)."""
    state = GAME.start(variant, seats=seats, seed=seed, options={"layout": layout})
    chooser = Rng(seed)
    check_caches(state)
    while (seat := state.current_seat) is not None:
        if chooser.below(2):
            state.observation(chooser.below(seats))
            check_caches(state)
        check_legal_moves(state)
        check_caches(state)
        loaded = GAME.load_state(json.loads(json.dumps(state.to_json())))
        check_legal_moves(loaded)
        check_caches(loaded)
        if state.board.volcano is not None:
            rebuilt = state_from_observation(copy.deepcopy(state.observation(seat)))
            check_legal_moves(rebuilt)
            check_caches(rebuilt)
        move = chooser.choice(state.legal_moves())
        way = chooser.below(4)
        if way == 0:
            state.apply(json.loads(json.dumps(move)))  # as a bot sends it back
        elif way == 1:
            state.apply_key(state.key_of(move))  # as a search bot plays
        elif way == 2:
            state = state.copy()  # play on in a copy
            state.apply(move)
        else:
            state.apply(move)
        check_caches(state)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize(("variant", "seats"), MODES)
def test_every_kept_value_agrees_with_the_rules_at_every_move(variant: str, seats: int, layout: str) -> None:
    for seed in (1, 2):
        play_checked(variant, seats, layout, seed)


@SETTINGS
@given(mode=st.sampled_from(MODES), seed=st.integers(0, 2**32), layout=st.sampled_from(LAYOUTS))
def test_the_listed_flights_are_the_runs_the_rules_allow_at_every_move(
    mode: tuple[str, int], seed: int, layout: str
) -> None:
    """The listing against :func:`referee.vulkan.rules.flight_paths` too, over many more games."""
    variant, seats = mode
    state = GAME.start(variant, seats=seats, seed=seed, options={"layout": layout})
    chooser = Rng(seed)
    state.apply(chooser.choice(state.legal_moves()))  # the volcano
    while (seat := state.current_seat) is not None:
        legal = state.legal_moves()
        paths = flight_paths(state.board)
        colours = [colour for colour in state.seat_colours[seat] if state.supply[seat][colour]]
        assert legal == [
            flight_json(state.board.layout, colour, path) for colour in colours for path in paths
        ]
        state.apply(chooser.choice(legal))
        check_caches(state)


def test_the_rebuilds_kept_tables_are_what_the_checks_give() -> None:
    """:mod:`referee.vulkan.rebuild` keeps what it checked of the tiles' cells, values and spaces
    by their numbers: each kept table is the one the check gives for those numbers."""
    for seed in range(3):
        play_checked("competitive", 2 + seed, "random", seed)
    assert rebuild_module._TABLES.table
    for (numbers, gone), kept in rebuild_module._TABLES.table.items():
        tiles = len(numbers) // 4
        cells = list(zip(numbers[: 2 * tiles : 2], numbers[1 : 2 * tiles : 2], strict=True))
        values, spaces = list(numbers[2 * tiles : 3 * tiles]), list(numbers[3 * tiles :])
        gone_cells = list(zip(gone[::2], gone[1::2], strict=True))
        assert kept == rebuild_module._checked_table(cells, values, spaces, gone_cells)


def played(seed: int, moves: int, variant: str = "competitive", seats: int = 4) -> VulkanState:
    layout = "random" if seed % 2 else "classic"
    state = GAME.start(variant, seats=seats, seed=seed, options={"layout": layout})
    chooser = Rng(seed)
    for _ in range(moves):
        if state.current_seat is None:
            break
        state.apply(chooser.choice(state.legal_moves()))
    return state


def snapshot(state: VulkanState) -> str:
    """Everything a state shows: its JSON, every seat's observation, its legal moves."""
    views = [state.observation(seat) for seat in range(state.seats)]
    outcome = state.outcome()
    return canonical_json([state.to_json(), views, state.legal_moves(), outcome and outcome.to_json()])


@SETTINGS
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32),
    before=st.integers(0, 30),
    after=st.integers(1, 30),
)
def test_a_copy_is_equal_and_independent_both_ways(mode, seed, before, after) -> None:
    variant, seats = mode
    original = played(seed, before, variant, seats)
    original.observation(0)  # caches built before the copy is taken must not leak between the two
    copied = original.copy()
    assert snapshot(copied) == snapshot(original)
    frozen = snapshot(original)
    chooser = Rng(seed + 1)
    twin = GAME.load_state(json.loads(json.dumps(copied.to_json())))
    for _ in range(after):
        if copied.current_seat is None:
            break
        move = chooser.choice(copied.legal_moves())
        copied.apply(move)
        twin.apply(move)
    assert snapshot(original) == frozen, "playing on the copy changed the original"
    assert snapshot(copied) == snapshot(twin), "the copy plays on as a state loaded from JSON does"
    # and the other way round: the original playing on leaves the copy as it was
    kept = snapshot(copied)
    while original.current_seat is not None:
        original.apply(original.legal_moves()[0])
    assert snapshot(copied) == kept


def test_listed_flights_are_read_only_and_copy_to_plain_objects() -> None:
    state = played(4, 3)
    move = state.legal_moves()[0]
    assert isinstance(move, FlightMove)
    for change in (
        lambda m: m.__setitem__("colour", "red"),
        lambda m: m.update(colour="red"),
        lambda m: m.pop("colour"),
        lambda m: m.clear(),
    ):
        with pytest.raises(TypeError):
            change(move)
    for duplicate in (dict(move), copy.deepcopy(move), copy.copy(move), json.loads(json.dumps(move))):
        assert type(duplicate) is dict and duplicate == move
    # the plain copy is the same move to the engine
    twin = state.copy()
    state.apply(move)
    twin.apply(json.loads(json.dumps(move)))
    assert canonical_json(state.to_json()) == canonical_json(twin.to_json())


def test_a_flight_listed_on_another_layout_is_judged_on_this_one() -> None:
    classic = played(2, 1)
    elsewhere = played(3, 1)  # a random layout
    assert classic.board.layout.coords != elsewhere.board.layout.coords
    for move in elsewhere.legal_moves()[:200]:
        legal = move in classic.legal_moves()
        try:
            classic.copy().apply(move)
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == legal


def test_an_observation_once_handed_out_never_changes() -> None:
    state = played(6, 2)
    first = state.observation(1)
    kept = canonical_json(first)
    first_again = state.observation(2)
    assert first_again["seat"] == 2 and first["seat"] == 1  # each call its own top-level object
    while state.current_seat is not None:
        state.apply(state.legal_moves()[-1])
        state.observation(0)
    assert canonical_json(first) == kept
