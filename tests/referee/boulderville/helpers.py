"""Builders for explicit Boulderville positions, so rule tests read like the rule text.

A position goes through the public ``setup`` JSON, exactly as a match would get it. The quiet
baseline has no eruption cards left, no lava or rubble and one sceptic far from everything (so the
game does not end the moment a test's own townspeople have gone); tests add what they need.
"""

from __future__ import annotations

from typing import Any

from referee.boulderville import GAME, BouldervilleState
from referee.boulderville.edition import EDITION, TownspersonCard
from referee.boulderville.table import Table
from referee.rng import Rng

SCIENTISTS = ("seismologist", "volcanologist", "meteorologist", "geologist")
"""Seat 0 to 3 in the quiet baseline: abilities that stay out of most tests' way."""

SCEPTIC = {"id": "t10", "space": "west_estate_a"}
"""Old Mr Finch, belief 14: never believes at a low counter and keeps the game going."""


def card(card_id: str) -> TownspersonCard:
    """A townsperson card, so tests read their numbers from the edition rather than repeat them."""
    return EDITION.townspeople[card_id]


def value_of(eruption_card: str) -> int:
    return EDITION.eruption_cards[eruption_card].value


def scientist(seat: int, card: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"seat": seat, "id": card or SCIENTISTS[seat], "hand": ["field_notes"] * 3, **fields}


def person(card: str, space: str | None, status: str = "unconvinced", **fields: Any) -> dict[str, Any]:
    return {"id": card, "space": space, "status": status, **fields}


def setup(**fields: Any) -> dict[str, Any]:
    """The quiet baseline with ``fields`` laid over it."""
    scientists = fields.pop("scientists", None) or [scientist(seat) for seat in range(4)]
    people = fields.pop("people", None)
    return {
        "eruption_deck": [],
        "people": [SCEPTIC] if people is None else people,
        "scientists": scientists,
        **fields,
    }


def position(seed: int = 0, **fields: Any) -> BouldervilleState:
    """A state from the quiet baseline, run on to its first decision."""
    return GAME.start("standard", seats=4, seed=seed, setup=setup(**fields))


def table(state: BouldervilleState) -> Table:
    return state.table


def rng_rolling(*rolls: int, sides: int = 10) -> int:
    """A generator state whose next die rolls are ``rolls`` (found by search, the same every run)."""
    for candidate in range(1_000_000):
        rng = Rng(candidate)
        if all(rng.randint(1, sides) == roll for roll in rolls):
            return candidate
    raise AssertionError(f"no generator state rolls {rolls}")


def place(state: BouldervilleState, spaces: dict[int, str]) -> None:
    """The Move scientists phase: each seat asked, in order, places where the test says."""
    while state.table.stage == "place":
        seat = state.current_seat
        assert seat is not None
        space = spaces[seat]
        move = next(m for m in state.legal_moves() if m["space"] == space)
        state.apply(move)


def everyone_passes(state: BouldervilleState, plays: dict[int, dict[str, Any]] | None = None) -> None:
    """The Play actions phase: seats pass unless ``plays`` gives their move."""
    plays = plays or {}
    while state.table.stage == "act":
        seat = state.current_seat
        assert seat is not None
        state.apply(plays.get(seat, {"type": "pass"}))


def everyone_keeps(state: BouldervilleState, discards: dict[int, list[str]] | None = None) -> None:
    """The Draw actions phase: seats keep their hands unless ``discards`` says otherwise."""
    discards = discards or {}
    while state.table.stage == "draw":
        seat = state.current_seat
        assert seat is not None
        state.apply({"type": "discard", "cards": sorted(discards.get(seat, []))})


def play_turn(
    state: BouldervilleState,
    spaces: dict[int, str],
    plays: dict[int, dict[str, Any]] | None = None,
    discards: dict[int, list[str]] | None = None,
) -> None:
    """Make every decision of one turn; the engine runs the rest up to the next turn's decisions."""
    place(state, spaces)
    everyone_passes(state, plays)
    everyone_keeps(state, discards)


def events(state: BouldervilleState, kind: str, turn: int | None = None) -> list[dict[str, Any]]:
    return [e for e in state.table.events if e["kind"] == kind and (turn is None or e["turn"] == turn)]


def status(state: BouldervilleState, card: str) -> str:
    return state.table.person(card).status


def space_of(state: BouldervilleState, card: str) -> str | None:
    return state.table.person(card).space


FAR = {0: "east_estate_d", 1: "west_estate_d", 2: "east_estate_c", 3: "west_estate_c"}
"""Placements out of the way: far from the crater, off the roads to the exits, at no science
location and not in the Town Hall."""


def hidden_apart(seed: int) -> tuple[BouldervilleState, BouldervilleState]:
    """Two games seat 0 cannot tell apart: the other hands, the decks and the dice differ."""
    hands = (["helicopter"] * 3, ["bulldozer"] * 3, ["loudhailer"] * 3)
    states = []
    for shift in (0, 1):
        others = [scientist(seat, hand=hands[(seat + shift) % 3]) for seat in (1, 2, 3)]
        states.append(
            position(
                seed=seed,
                rng=seed + shift,
                stage="place",
                lead=0,
                scientists=[scientist(0, hand=["field_notes", "gas_sampling", "sandbags"]), *others],
                action_deck=[["tv_documentary", "rock_samples"], ["rock_samples", "tv_documentary"]][shift],
                discards=["lab_analysis"],
            )
        )
    return states[0], states[1]
