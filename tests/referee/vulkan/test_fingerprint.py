"""Random games hashed move by move: the engine must hand out the very same JSON as the version
these digests were recorded with (observations of the seat to move, legal move lists, the final
state and outcome). Speed work changes how the engine gets there, never what it hands out; a
change of behaviour needs a new engine version, and new digests with it."""

from __future__ import annotations

import hashlib
import json

import pytest

from referee.rng import Rng
from referee.vulkan import GAME

DIGESTS = {
    ("competitive", 4, "classic"): "03a3887de730590c",
    ("competitive", 3, "random"): "e512e47ad4712ce8",
    ("competitive", 2, "classic"): "7d8b5938a3bb4ac6",
    ("solitaire", 1, "classic"): "e39cc8a27da22d90",
    ("cooperative", 4, "random"): "35be29bdfd907758",
}


def digest(variant: str, seats: int, layout: str, games: int = 12) -> str:
    """Hash of ``games`` seeded random games, every fifth move sent back as plain JSON."""
    hashed = hashlib.sha256()
    for seed in range(games):
        state = GAME.start(variant, seats=seats, seed=seed, options={"layout": layout})
        chooser = Rng(seed * 7 + 3)
        moves = 0
        while (seat := state.current_seat) is not None:
            hashed.update(json.dumps(state.observation(seat)).encode())
            legal = state.legal_moves()
            hashed.update(json.dumps(legal).encode())
            move = chooser.choice(legal)
            state.apply(json.loads(json.dumps(move)) if moves % 5 == 0 else move)
            moves += 1
        hashed.update(json.dumps(state.to_json(), sort_keys=True).encode())
        hashed.update(repr(state.outcome()).encode())
    return hashed.hexdigest()[:16]


@pytest.mark.parametrize(("variant", "seats", "layout"), list(DIGESTS))
def test_random_games_hand_out_the_recorded_json(variant: str, seats: int, layout: str) -> None:
    assert digest(variant, seats, layout) == DIGESTS[(variant, seats, layout)]
