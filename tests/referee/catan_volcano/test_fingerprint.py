"""Random games hashed move by move: the engine must hand out the very same JSON as the version
these digests were recorded with (observations of the seat to move and of the next seat, legal
move lists, the final state and outcome); see :mod:`tests.referee.fingerprint`. The games are cut
short by a turn limit, so that every variant is played in a few seconds in all; the longer
comparison over many full games is ``bench/catan_fingerprint.py``."""

from __future__ import annotations

import pytest

from referee.catan_volcano import GAME
from tests.referee.fingerprint import random_games_digest

TURN_LIMIT = 60

DIGESTS = {
    ("base", 4, "beginner"): "7ca7c89b89122a54",
    ("gold", 3, "random"): "3df415e8d8a7ffeb",
    ("lost-desert", 4, "random"): "60737590d0e2e724",
    ("variable-risk-gold", 3, "random"): "f6772ff9e8e28d26",
    ("vulkan-issimo", 4, "random"): "e5c146825b552e02",
}


@pytest.mark.parametrize(("variant", "seats", "board"), list(DIGESTS))
def test_random_games_hand_out_the_recorded_json(variant: str, seats: int, board: str) -> None:
    options = {"board": board, "trades": seats == 3, "turn_limit": TURN_LIMIT}
    digest = random_games_digest(
        lambda seed: GAME.start(variant, seats, seed=seed, options=options),
        games=2,
        observed=lambda state, seat: (seat, (seat + 1) % state.seats),
    )
    assert digest == DIGESTS[(variant, seats, board)]
