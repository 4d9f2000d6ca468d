"""A digest of seeded random games, move by move, for the tests that hold an engine to the JSON it
handed out when their digests were recorded (speed work changes how an engine gets there, never
what it hands out; a change of behaviour needs a new engine version, and new digests with it)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from typing import Any

from referee.rng import Rng


def random_games_digest(
    start: Callable[[int], Any], games: int, observed: Callable[[Any, int], Iterable[int]]
) -> str:
    """Hash of ``games`` random games (``start(seed)`` makes each), the moves drawn from a seeded
    stream: the observations of the seats ``observed(state, seat_to_move)``, every legal move list,
    the final state and outcome; every fifth move is sent back as plain JSON, as a bot's would be."""
    hashed = hashlib.sha256()
    for seed in range(games):
        state = start(seed)
        chooser = Rng(seed * 7 + 3)
        moves = 0
        while (seat := state.current_seat) is not None:
            for viewer in observed(state, seat):
                hashed.update(json.dumps(state.observation(viewer)).encode())
            legal = state.legal_moves()
            hashed.update(json.dumps(legal).encode())
            move = chooser.choice(legal)
            state.apply(json.loads(json.dumps(move)) if moves % 5 == 0 else move)
            moves += 1
        hashed.update(json.dumps(state.to_json(), sort_keys=True).encode())
        hashed.update(repr(state.outcome()).encode())
    return hashed.hexdigest()[:16]
