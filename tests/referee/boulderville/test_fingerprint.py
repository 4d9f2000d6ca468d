"""Random games hashed move by move: the engine must hand out the very same JSON as the version
these digests were recorded with (observations of every seat, legal move lists, the final state
and outcome); see :mod:`tests.referee.fingerprint`."""

from __future__ import annotations

from referee.boulderville import GAME
from tests.referee.fingerprint import random_games_digest

DIGEST = "9561eceb928a1f5a"


def test_random_games_hand_out_the_recorded_json() -> None:
    digest = random_games_digest(
        lambda seed: GAME.start("standard", seats=4, seed=seed),
        games=8,
        observed=lambda state, seat: range(4),
    )
    assert digest == DIGEST
