"""The layer above :class:`~referee.catan_volcano.position.Position` that keeps what the pieces
imply (:class:`~referee.catan_volcano.derived.Derived`) current: :func:`derived` hands it out, made
anew only when a piece moved since the last look (see :mod:`referee.catan_volcano.derived`)."""

from __future__ import annotations

from referee.catan_volcano.derived import Derived
from referee.catan_volcano.position import Position


class Placed(Position):
    """A position that keeps what its pieces imply: the layer above :class:`Position` that the
    rules asking it (legal moves, production, the robber, trades, the observation) take."""

    __slots__ = ("placed", "placed_at")

    placed: Derived | None
    """What the pieces on the board imply, as last found (:func:`derived`; None: never yet)."""
    placed_at: int
    """``board_moves`` when :attr:`placed` was last found current (-1: never)."""


def derived(state: Placed) -> Derived:
    """The state's :class:`Derived`, made anew when a piece moved since the last one.

    When only roads moved (the most common change: a road is built far more often than anything
    else), what depends on the buildings alone is carried over (:meth:`Derived.keep_buildings`),
    and after a single road the seats' spots too (:meth:`Derived.keep_spots`); when one building
    changed, what it leaves standing (:meth:`Derived.keep_around`). The rules name the road or
    node they last changed (``state.road_built``, ``state.built_at``) and these check the hint
    against the lists before trusting it."""
    known = state.placed
    if known is not None and state.placed_at == state.board_moves:
        return known
    if (
        known is None
        or state.node_owner != known.owner
        or state.edge_owner != known.edges
        or state.node_level != known.level
    ):
        fresh = Derived(state.node_owner, state.node_level, state.edge_owner, state.seats)
        if known is not None:
            if known.owner == fresh.owner and known.level == fresh.level:
                fresh.keep_buildings(known)
                fresh.keep_spots(known, state.road_built)
            else:
                fresh.keep_around(known, state.built_at, state.tables.hexes_by_number)
        known = state.placed = fresh
    state.placed_at = state.board_moves
    return known
