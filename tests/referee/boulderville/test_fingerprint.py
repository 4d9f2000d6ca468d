"""Random games hashed move by move: the engine must hand out the very same JSON as the version
these digests were recorded with (observations of every seat, legal move lists, the final state
and outcome). Speed work changes how the engine gets there, never what it hands out; a change of
behaviour needs a new engine version, and new digests with it."""

from __future__ import annotations

import hashlib
import json

from referee.boulderville import GAME
from referee.rng import Rng

DIGEST = "9561eceb928a1f5a"


def digest(games: int = 8) -> str:
    """Hash of ``games`` seeded random games, every fifth move sent back as plain JSON."""
    hashed = hashlib.sha256()
    for seed in range(games):
        state = GAME.start("standard", seats=4, seed=seed)
        chooser = Rng(seed * 7 + 3)
        moves = 0
        while state.current_seat is not None:
            for seat in range(4):
                hashed.update(json.dumps(state.observation(seat)).encode())
            legal = state.legal_moves()
            hashed.update(json.dumps(legal).encode())
            move = chooser.choice(legal)
            state.apply(json.loads(json.dumps(move)) if moves % 5 == 0 else move)
            moves += 1
        hashed.update(json.dumps(state.to_json(), sort_keys=True).encode())
        hashed.update(repr(state.outcome()).encode())
    return hashed.hexdigest()[:16]


def test_random_games_hand_out_the_recorded_json() -> None:
    assert digest() == DIGEST
