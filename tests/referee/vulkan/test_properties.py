"""Properties that random play must never break, checked after every move (hypothesis)."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.game import IllegalMove, canonical_json
from referee.vulkan import GAME, VulkanState
from referee.vulkan.edition import EDITION
from referee.vulkan.rules import Board, extinguish_cascade, isolate

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
    state = GAME.new_state(variant, seats=seats, seed=seed, options={"layout": layout})
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
    state = GAME.new_state("competitive", seats=2, seed=seed, options={"layout": "random"})
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
    state = GAME.new_state("solitaire", seats=1, seed=seed, options={"layout": "random"})
    state.apply(state.legal_moves()[0])
    board = state.board
    full = data.draw(st.sets(st.sampled_from(board.forest()), max_size=30), label="full tiles")
    for cell in full:
        board.loads[cell] = [0] * board.spaces[cell]
    order = data.draw(st.permutations(range(len(board.present))), label="order")
    expected = one_at_a_time(board.copy(), list(order))
    rounds = extinguish_cascade(board)
    assert {cell for cells in rounds for cell in cells} == expected
