"""A one-round test game with every kind of variant the ladders distinguish.

Each seat in turn picks 0, 1 or 2; the game ends when all have picked.

- ``open`` (rated, not team): places by pick, highest first; scores are the picks.
- ``coop`` (unrated, team): the team wins when the picks add up to at least the seat count.
- ``crew`` (rated, team): the same goal; a won game ranks seats by pick, a lost one ranks all equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.game import (
    JSON,
    Game,
    GameConfig,
    IllegalMove,
    Outcome,
    SetupError,
    State,
    VariantSpec,
    places_from_keys,
)


class PartyState(State):
    def __init__(self, variant: str, seats: int, picks: list[int] | None = None) -> None:
        self.variant = variant
        self.seats = seats
        self.picks = list(picks or [])

    @property
    def current_seat(self) -> int | None:
        return None if len(self.picks) == self.seats else len(self.picks)

    def legal_moves(self) -> list[dict[str, Any]]:
        return [] if self.current_seat is None else [{"pick": n} for n in range(3)]

    def apply(self, move: dict[str, Any]) -> None:
        if move not in self.legal_moves():
            raise IllegalMove(f"not a legal move: {move!r}")
        self.picks.append(move["pick"])

    def observation(self, seat: int) -> dict[str, JSON]:
        return {"picks": list(self.picks)}

    def outcome(self) -> Outcome | None:
        if self.current_seat is not None:
            return None
        scores = tuple(float(pick) for pick in self.picks)
        if self.variant == "open":
            return Outcome(places_from_keys(self.picks), scores, "all_picked")
        won = sum(self.picks) >= self.seats
        places = places_from_keys(self.picks) if won and self.variant == "crew" else (1,) * self.seats
        return Outcome(places, scores, "all_picked", team_won=won)

    def to_json(self) -> dict[str, JSON]:
        return {"variant": self.variant, "seats": self.seats, "picks": list(self.picks)}


_ENDS: dict[str, Any] = {"end_reasons": frozenset({"all_picked"}), "max_moves": 10}


class Party(Game[PartyState]):
    id = "party"
    title = "Party (test game)"
    version = "1"
    default_variant = "open"
    variants = {
        "open": VariantSpec("open", seats=(2, 3, 4), description="highest pick wins", **_ENDS),
        "coop": VariantSpec(
            "coop", seats=(1, 2, 3), description="reach the goal together", rated=False, team=True, **_ENDS
        ),
        "crew": VariantSpec(
            "crew", seats=(2, 3, 4), description="reach the goal, best pick first", team=True, **_ENDS
        ),
    }

    def new_state(self, config: GameConfig) -> PartyState:
        if config.setup is not None:
            raise SetupError("party has no setup", "setup")
        return PartyState(config.variant, config.seats)

    def load_state(self, data: Mapping[str, JSON]) -> PartyState:
        return PartyState(data["variant"], data["seats"], data["picks"])


GAME = Party()
