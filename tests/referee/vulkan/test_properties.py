"""Properties that random play must never break, checked after every move (hypothesis)."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.game import IllegalMove, SetupError, canonical_json
from referee.rng import Rng
from referee.vulkan import GAME, VulkanState
from referee.vulkan.edition import EDITION
from referee.vulkan.rules import Board, extinguish_cascade, isolate
from tests.referee.engine_checks import JSON_SCALARS, assert_applied_or_refused, json_values

MODES = [("competitive", 2), ("competitive", 3), ("competitive", 4), ("solitaire", 1)] + [
    ("cooperative", n) for n in (2, 3, 4)
]
TOTAL_LOADS = EDITION.loads_per_colour * len(EDITION.colours)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def colour_counts(state: VulkanState) -> Counter[int]:
    """Every load in the game by colour: in supplies, on the table, and out of the game."""
    counts: Counter[int] = Counter()
    for row in state.supply:
        for colour, n in enumerate(row):
            counts[colour] += n
    for pile in state.board.loads:
        counts.update(pile)
    for colour, n in enumerate(state.loads_out):
        counts[colour] += n
    return counts


def check_invariants(state: VulkanState, all_cells: set[tuple[int, int]]) -> None:
    board, coords = state.board, state.board.layout.coords
    # no load is ever created or lost, colour by colour
    assert colour_counts(state) == {c: EDITION.loads_per_colour for c in range(len(EDITION.colours))}
    # every tile is on the table, awarded to one seat, or out of the game, and only one of these
    on_table = {coords[cell] for cell in range(len(coords)) if board.present[cell]}
    awarded = [cell for awards in state.awarded for cell, _ in awards]
    assert len(awarded) == len(set(awarded)), "a tile was awarded twice"
    assert len(state.removed) == len(set(state.removed))
    parts = [on_table, set(awarded), set(state.removed)]
    assert sum(map(len, parts)) == len(all_cells) and set().union(*parts) == all_cells
    # tiles out of play carry no loads; no tile holds more loads than spaces
    for cell in range(len(coords)):
        assert len(board.loads[cell]) <= board.spaces[cell]
        if not board.present[cell] or cell == board.volcano:
            assert board.loads[cell] == []
    # scores are the awarded values
    observation = state.observation(0)
    for seat, view in enumerate(observation["seats"]):
        assert view["score"] == state.score(seat) == sum(a["value"] for a in view["awarded"])
    if board.volcano is not None:
        # between turns nothing is pending: no full tile could go out, nothing is cut off
        assert not any(
            board.is_forest(cell) and board.is_full(cell) and board.has_adjacent_free_edges(cell)
            for cell in range(len(coords))
        )
        assert isolate(board.copy()) == []
    if state.current_seat is not None:
        assert state.can_fly(state.current_seat)


@settings(SETTINGS, max_examples=50)
@given(
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 2**32),
    layout=st.sampled_from(["classic", "random"]),
    data=st.data(),
)
def test_random_play_keeps_every_invariant_and_ends(mode, seed, layout, data) -> None:
    variant, seats = mode
    state = GAME.start(variant, seats=seats, seed=seed, options={"layout": layout})
    all_cells = set(state.board.layout.coords)
    check_invariants(state, all_cells)
    moves = 0
    while state.outcome() is None:
        legal = state.legal_moves()
        assert legal
        state.apply(legal[data.draw(st.integers(0, len(legal) - 1), label="move")])
        moves += 1
        # the volcano, then at most one flight per load: every flight drops at least one
        assert moves <= 1 + TOTAL_LOADS
        check_invariants(state, all_cells)
    outcome = state.outcome()
    scores = [state.score(seat) for seat in range(seats)]
    assert list(outcome.scores) == (scores if variant == "competitive" else [sum(scores)] * seats)
    if variant == "competitive":
        for a in range(seats):
            for b in range(seats):
                if scores[a] > scores[b]:
                    assert outcome.places[a] < outcome.places[b]
    else:
        assert outcome.team_won == (not state.board.forest() and not state.removed)


@SETTINGS
@given(seed=st.integers(0, 2**32), data=st.data())
def test_apply_accepts_exactly_the_listed_moves(seed, data) -> None:
    state = GAME.start("competitive", seats=2, seed=seed, options={"layout": "random"})
    for _ in range(data.draw(st.integers(0, 6), label="warm-up moves")):
        if state.outcome() is not None:
            return
        legal = state.legal_moves()
        state.apply(legal[data.draw(st.integers(0, len(legal) - 1))])
    if state.outcome() is not None:
        return
    legal = {canonical_json(move) for move in state.legal_moves()}
    cells = [list(cell) for cell in state.board.layout.coords]
    for _ in range(20):
        path = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=4), label="path")
        colour = data.draw(st.sampled_from(EDITION.colours), label="colour")
        move = {"type": "flight", "path": path, "colour": colour}
        trial = GAME.load_state(state.to_json())
        try:
            trial.apply(move)
            accepted = True
        except IllegalMove:
            accepted = False
        assert accepted == (canonical_json(move) in legal)
        if accepted:
            assert any(event["kind"] == "drop" for event in trial.last["events"])


def one_at_a_time(board: Board, order: list[int]) -> set[int]:
    """A slow cascade for comparison: take off one qualifying tile at a time, in the given order."""
    out: set[int] = set()
    while True:
        for cell in order:
            if board.is_forest(cell) and board.is_full(cell) and board.has_adjacent_free_edges(cell):
                board.present[cell] = False
                out.add(cell)
                break
        else:
            return out


@SETTINGS
@given(seed=st.integers(0, 2**32), data=st.data())
def test_the_cascade_does_not_depend_on_order(seed, data) -> None:
    state = GAME.start("solitaire", seats=1, seed=seed, options={"layout": "random"})
    state.apply(state.legal_moves()[0])
    board = state.board
    full = data.draw(st.sets(st.sampled_from(board.forest()), max_size=30), label="full tiles")
    for cell in full:
        board.loads[cell] = [0] * board.spaces[cell]
    order = data.draw(st.permutations(range(len(board.present))), label="order")
    expected = one_at_a_time(board.copy(), list(order))
    rounds = extinguish_cascade(board)
    assert {cell for cells in rounds for cell in cells} == expected


JSON_LEAVES = JSON_SCALARS | st.sampled_from(
    ["flight", "volcano", "red", "blue", "path", "tile", "colour", "type"]
)
MOVE_KEYS = st.sampled_from(["type", "path", "colour", "tile"]) | st.text(max_size=4)
ANY_JSON = json_values(JSON_LEAVES, keys=MOVE_KEYS, max_leaves=12)
NEAR_MOVES = st.fixed_dictionaries(
    {"type": st.sampled_from(["flight", "volcano"]) | ANY_JSON},
    optional={"path": ANY_JSON, "colour": ANY_JSON, "tile": ANY_JSON},
)
"""Objects shaped almost like moves, so that the checks past the ``type`` are reached too."""


@SETTINGS
@given(move=ANY_JSON | NEAR_MOVES, flights=st.integers(0, 3), seed=st.integers(0, 2**16))
def test_any_json_sent_as_a_move_is_refused_unchanged_unless_legal(move, flights, seed) -> None:
    state = GAME.start("competitive", seats=3, seed=seed)
    chooser = Rng(seed)
    for _ in range(1 + flights):  # the volcano phase, then some flights
        state.apply(chooser.choice(state.legal_moves()))
    assert_applied_or_refused(state, move)


RING = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]
GOOD_SETUP = {
    "tiles": [{"at": [0, 0], "value": 1}, *({"at": cell, "value": 5, "loads": ["red"]} for cell in RING)],
    "volcano": [0, 0],
    "seats": [{"supply": {"red": 3}, "awarded": [{"at": [5, 5], "value": 2}]}, {}],
    "to_move": 1,
}
"""A position the engine accepts; the test below puts any JSON at one place in it."""
PLACES = [
    ["tiles"],
    ["tiles", 2],
    ["tiles", 2, "at"],
    ["tiles", 2, "at", 0],
    ["tiles", 2, "value"],
    ["tiles", 2, "spaces"],
    ["tiles", 2, "loads"],
    ["tiles", 2, "loads", 0],
    ["volcano"],
    ["seats"],
    ["seats", 0],
    ["seats", 0, "supply"],
    ["seats", 0, "supply", "red"],
    ["seats", 0, "awarded"],
    ["seats", 0, "awarded", 0],
    ["seats", 0, "awarded", 0, "at"],
    ["to_move"],
]


@SETTINGS
@given(place=st.sampled_from(PLACES), value=ANY_JSON)
def test_any_json_anywhere_in_a_setup_starts_a_game_or_names_the_wrong_field(place, value) -> None:
    setup = json.loads(json.dumps(GOOD_SETUP))
    target = setup
    for step in place[:-1]:
        target = target[step]
    target[place[-1]] = value
    try:
        state = GAME.start("competitive", seats=2, seed=0, setup=setup)
    except SetupError as error:
        assert error.field_name.startswith("setup") and str(error).startswith(error.field_name)
        return
    while state.outcome() is None:  # whatever was accepted plays to the end
        state.apply(state.legal_moves()[0])
