"""A tiny game for testing the runner and the platform without any real game's rules: Nim.

Seats take turns removing 1 to 3 stones from one pile; whoever takes the last stone wins. The
option ``stones`` sets the pile (default 9). A setup ``{"stones": n, "to_move": s}`` starts anywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.game import (
    JSON,
    Game,
    GameConfig,
    IllegalMove,
    OptionSpec,
    Outcome,
    SetupError,
    State,
    VariantSpec,
)


class NimState(State):
    def __init__(self, seats: int, stones: int, to_move: int = 0, last: int | None = None) -> None:
        self.seats = seats
        self.stones = stones
        self.to_move = to_move
        self.last = last

    @property
    def current_seat(self) -> int | None:
        return None if self.stones == 0 else self.to_move

    def legal_moves(self) -> list[dict[str, Any]]:
        return [{"take": n} for n in range(1, min(3, self.stones) + 1)]

    def apply(self, move: dict[str, Any]) -> None:
        if move not in self.legal_moves():
            raise IllegalMove(f"not a legal move: {move!r}")
        self.stones -= move["take"]
        self.last = self.to_move
        self.to_move = (self.to_move + 1) % self.seats

    def observation(self, seat: int) -> dict[str, JSON]:
        return {"stones": self.stones, "to_move": self.to_move}

    def outcome(self) -> Outcome | None:
        if self.stones:
            return None
        places = tuple(1 if seat == self.last else 2 for seat in range(self.seats))
        scores = tuple(1.0 if seat == self.last else 0.0 for seat in range(self.seats))
        return Outcome(places, scores, "last_stone_taken")

    def to_json(self) -> dict[str, JSON]:
        return {"seats": self.seats, "stones": self.stones, "to_move": self.to_move, "last": self.last}


class Nim(Game[NimState]):
    id = "nim"
    title = "Nim (test game)"
    version = "1"
    default_variant = "standard"
    variants = {
        "standard": VariantSpec(
            "standard",
            seats=(2, 3),
            description="take 1 to 3; the last stone wins",
            options=(OptionSpec("stones", "int", 9, "stones in the pile", minimum=1, maximum=100),),
            end_reasons=frozenset({"last_stone_taken"}),
            max_moves=100,
        )
    }

    def new_state(self, config: GameConfig) -> NimState:
        seats, setup = config.seats, config.setup
        if setup is not None:
            stones = setup.get("stones")
            if not isinstance(stones, int) or stones < 1:
                raise SetupError("setup.stones must be a positive integer", "setup.stones")
            return NimState(seats, stones, int(setup.get("to_move", 0)))
        return NimState(seats, int(config.options["stones"]))

    def load_state(self, data: Mapping[str, JSON]) -> NimState:
        return NimState(data["seats"], data["stones"], data["to_move"], data["last"])


GAME = Nim()
