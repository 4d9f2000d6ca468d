"""Explicit Catan positions for the rule tests, built the way the rules talk about a table.

A position starts from the rulebook's beginner board (optionally with volcanoes put on given hexes),
skips the snake-order setup, and places exactly the pieces and cards a test names. Dice and other
draws are rigged by choosing the RNG state whose next draws are the ones the test wants
(:func:`rig`), so the engine itself rolls them and a test reads like a turn at the table.

Useful beginner-board facts (hexes numbered row by row, 0..18):
hex 4 hills 6, hex 5 pasture 4, hex 8 forest 11, hex 9 desert (the centre), hex 10 forest 3,
hex 13 mountains 3, hex 14 fields 4. Node 18 is the centre hex's top corner, touching hexes 4, 5, 9.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from referee.catan_volcano import GAME, CatanState, awards, building, changes
from referee.catan_volcano.board import beginner_layout
from referee.catan_volcano.edition import DEV_CARDS, EDITION
from referee.catan_volcano.geometry import edge_between
from referee.rng import Rng

RESOURCES = EDITION.resources


def beginner_board(volcanoes: Mapping[int, int] | None = None) -> dict[str, Any]:
    """The beginner board's JSON, with ``{hex: number}`` turned into volcanoes."""
    board = beginner_layout().to_json()
    for hex_id, number in (volcanoes or {}).items():
        board["hexes"][hex_id] = {"terrain": "volcano", "number": number}
    return board


def table(
    variant: str = "base",
    seats: int = 4,
    volcanoes: Mapping[int, int] | None = None,
    **options: Any,
) -> CatanState:
    """A game on the beginner board, setup skipped, seat 0 about to roll, nobody holding anything."""
    if volcanoes is None:
        state = GAME.start(variant, seats, seed=0, options={"board": "beginner", **options})
    else:
        setup = {"board": beginner_board(volcanoes)}
        state = GAME.start(variant, seats, seed=0, options=options, setup=setup)
    state.setup_step = 2 * seats
    start_turn(state, 0, "roll")
    return state


def start_turn(state: CatanState, seat: int, phase: str = "main") -> CatanState:
    """Make it ``seat``'s turn in ``phase`` (``roll``: before the roll; ``main``: after it)."""
    state.turn_seat = seat
    state.current = seat
    state.phase = phase
    state.dev_played = False
    state.offers_made = 0
    return refresh(state)


def refresh(state: CatanState) -> CatanState:
    """Recompute the legal moves after a test changed the position by hand."""
    state.changed_by_hand()
    return state


def settlement(state: CatanState, seat: int, node: int, city: bool = False) -> None:
    building.place_building(state, seat, node)
    if city:
        changes.upgrade_city(state, seat, node)
    refresh(state)


def road(state: CatanState, seat: int, *path: int) -> list[int]:
    """Roads along a path of nodes; returns the edge ids."""
    edges = [edge_between(a, b) for a, b in zip(path, path[1:], strict=False)]
    for edge in edges:
        changes.put_road(state, seat, edge)
    awards.update_longest_road(state, range(state.seats))
    refresh(state)
    return edges


def give(state: CatanState, seat: int, **cards: int) -> None:
    """Set the seat's hand to exactly these resource cards, taken from (or returned to) the bank."""
    hand = state.hands[seat]
    for index, name in enumerate(RESOURCES):
        wanted = cards.get(name, 0)
        state.bank[index] -= wanted - hand[index]
        hand[index] = wanted
    assert min(state.bank) >= 0
    refresh(state)


def hand(state: CatanState, seat: int) -> dict[str, int]:
    return {name: count for name, count in zip(RESOURCES, state.hands[seat], strict=True) if count}


def deal_card(state: CatanState, seat: int, kind: str, bought_this_turn: bool = False) -> None:
    """Give the seat a development card from the deck."""
    index = DEV_CARDS.index(kind)
    state.deck[index] -= 1
    state.devs[seat][index] += 1
    if bought_this_turn:
        state.new_devs[seat][index] += 1
    refresh(state)


class Roll(NamedTuple):
    """A roll to rig: its outcome's index, ``6 * (first - 1) + (second - 1)``."""

    index: int


def roll(first: int, second: int) -> Roll:
    """A roll of these two dice, for :func:`rig`."""
    return Roll(6 * (first - 1) + (second - 1))


def rig(state: CatanState, *draws: int | tuple[int, int] | Roll) -> None:
    """Set what comes next: rolls (:func:`roll`) become the rolls drawn ahead, in order (none
    left after them); the other draws are set on the RNG, in order: an int is one d6 (a lava die),
    ``(n, k)`` is ``below(n) == k``.

    ``rig(state, roll(3, 5), 2)`` makes the next roll a 3 and a 5, and the next die (lava) show 2.
    """
    rolls = [draw.index for draw in draws if isinstance(draw, Roll)]
    state.rolls_ahead = sum(index * 36**place for place, index in enumerate(rolls))
    state.rolls_left = len(rolls)
    wanted = [(6, d - 1) if isinstance(d, int) else d for d in draws if not isinstance(d, Roll)]
    for candidate in range(1_000_000):
        rng = Rng(candidate)
        if all(rng.below(bound) == value for bound, value in wanted):
            state.rng = Rng(candidate)
            return
    raise AssertionError(f"no RNG state gives {draws}")


def types(state: CatanState) -> set[str]:
    return {move["type"] for move in state.legal_moves()}


def of_type(state: CatanState, kind: str) -> list[dict[str, Any]]:
    return [move for move in state.legal_moves() if move["type"] == kind]


def events(state: CatanState, kind: str) -> list[dict[str, Any]]:
    return [event for event in state.events if event["type"] == kind]
