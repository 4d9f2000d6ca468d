"""Every cached answer of the engine equals the one worked out from scratch, at every move of random
games of every variant and seat count.

The engine keeps answers from one position to the next, resting on the marks its mutators set
(:mod:`referee.catan_volcano.changes`): what the pieces imply (:func:`derived`), the seats' public
views, the road lengths, the win looked at only when points may have moved, the legal moves, the
index of the log's secret events, and the parts of the last observation. A missed mark shows here
as a cached answer that differs from the one made afresh. The games are played as the referee plays
them (the observation of the seat to move, its legal moves, the move), so the caches are filled and
carried over as in a match.
"""

from __future__ import annotations

import pytest

from referee.catan_volcano import GAME, CatanState, awards, building
from referee.catan_volcano.derived import Derived, rates
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.geometry import EDGE_NODES, HEX_COUNT
from referee.catan_volcano.moves import generate
from referee.catan_volcano.placed import derived
from referee.catan_volcano.seat_views import players_view
from referee.game import canonical_json
from referee.rng import Rng

SETTINGS = [(variant, seats) for variant in sorted(GAME.variants) for seats in GAME.variants[variant].seats]
TURN_LIMIT = 120
"""Long enough for cities, awards, lava and wins; short enough for a test run of seconds."""
EVERY = 9
"""Every ``EVERY``-th move the observations of every seat and the legal moves are compared with
those of the state loaded from its JSON (no cache at all)."""


def longest_trail_by_search(state: CatanState, seat: int) -> int:
    """The longest road counted a second way: every trail extended edge by edge from every road."""
    mine = [edge for edge, owner in enumerate(state.edge_owner) if owner == seat]

    def extend(end: int, used: frozenset[int]) -> int:
        if state.node_owner[end] not in (-1, seat):
            return len(used)  # a road may end at another seat's building, not pass through it
        best = len(used)
        for edge in mine:
            if edge not in used and end in EDGE_NODES[edge]:
                a, b = EDGE_NODES[edge]
                best = max(best, extend(b if a == end else a, used | {edge}))
        return best

    return max((extend(end, frozenset({edge})) for edge in mine for end in EDGE_NODES[edge]), default=0)


def check_pieces_imply(state: CatanState) -> None:
    """``derived(state)`` (kept, carried over after a road or a building) against a new
    :class:`Derived` of the lists as they stand and the rules' own functions."""
    kept = derived(state)
    fresh = Derived(state.node_owner, state.node_level, state.edge_owner, state.seats)
    assert (kept.owner, kept.level, kept.edges) == (state.node_owner, state.node_level, state.edge_owner)
    for seat in range(state.seats):
        assert kept.road_spots(state, seat) == building.road_spots(state, seat)
        assert kept.road_moves(state, seat) == fresh.road_moves(state, seat)
        assert [move["node"] for move in kept.settlement_moves(state, seat)] == building.settlement_spots(
            state, seat
        )
        assert [move["node"] for move in kept.city_moves(state, seat)] == building.city_spots(state, seat)
        assert kept.rates(state, seat) == rates(state, seat)
        assert kept.rate_view(state, seat) == fresh.rate_view(state, seat)
        for has_cards in (0, (1 << state.seats) - 1):
            assert kept.robber_moves(state.robber, seat, has_cards) == fresh.robber_moves(
                state.robber, seat, has_cards
            )
    assert kept.hex_seats() == fresh.hex_seats()
    for number in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        assert kept.payouts(state, number) == fresh.payouts(state, number)
        for robber in (-1, *state.tables.hexes_by_number[number]):
            kept_plan, fresh_plan = kept.plan(state, number, robber), fresh.plan(state, number, robber)
            assert (kept_plan.shares, kept_plan.gold, kept_plan.gains, kept_plan.takers) == (
                fresh_plan.shares,
                fresh_plan.gold,
                fresh_plan.gains,
                fresh_plan.takers,
            )
    assert kept.buildings() == fresh.buildings()
    assert kept.roads() == fresh.roads()
    assert len(kept.hex_seats()) == HEX_COUNT


def check_marked_caches(state: CatanState) -> None:
    """The caches resting on the other marks: the seats' public views (``cards_moved``,
    ``devs_moved``, ``board_moves``), the win (``score_moves``), the road lengths, the index of
    the log's secret events, the seat to move."""
    assert state.player_views.current(state) == players_view(state)
    if state.phase != "over":
        for seat in range(state.seats):
            if state.win_checked[seat] == state.score_moves:  # looked at and nothing rose since
                assert awards.points(state, seat) < EDITION.points_to_win, "a win went unseen"
    for seat in range(state.seats):
        assert state.road_length[seat] == longest_trail_by_search(state, seat)
    indexed = [(place, id(event)) for place, event, _ in state.secret_events]
    assert indexed == [
        (state.forgotten + index, id(event)) for index, event in enumerate(state.events) if "secret" in event
    ]
    assert state.current_seat == (None if state.phase == "over" else state.current)


def check_against_no_cache(state: CatanState) -> None:
    """The legal moves and every seat's observation against those of the state loaded from its
    JSON, which starts with no cache at all."""
    loaded = CatanState.from_json(state.to_json())
    assert state.legal_moves() == generate(loaded)
    for seat in range(state.seats):
        assert canonical_json(state.observation(seat)) == canonical_json(loaded.observation(seat))


@pytest.mark.parametrize(("variant", "seats"), SETTINGS)
def test_every_cached_answer_is_the_one_worked_out_from_scratch(variant: str, seats: int) -> None:
    for seed in range(2):
        options = {"trades": seed == 1, "board": "random" if seed else "beginner", "turn_limit": TURN_LIMIT}
        state = GAME.start(variant, seats, seed=seed, options=options)
        chooser = Rng(seed + 100)
        moves = 0
        while (seat := state.current_seat) is not None:
            state.observation(seat)
            check_pieces_imply(state)
            check_marked_caches(state)
            if moves % EVERY == 0:
                check_against_no_cache(state)
            state.apply(chooser.choice(state.legal_moves()))
            moves += 1
        check_marked_caches(state)
