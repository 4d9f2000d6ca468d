"""Random games hashed move by move: the engine must hand out the very same JSON as the version
these digests were recorded with (observations of every seat, legal move lists, the final state
and outcome); see :mod:`tests.referee.fingerprint`. Recorded from the engine of commit 8c50bea."""

from __future__ import annotations

import pytest

from referee.volcano import GAME
from tests.referee.fingerprint import random_games_digest

DIGESTS = {
    (2, True): "96ef772d319d65f3",
    (3, True): "217f82d97dfebe1a",
    (3, False): "8b2c50c2576e8e6d",
}
"""By (seats, Power Play on), the digest of four random games from seeds 0 to 3."""


@pytest.mark.parametrize(("seats", "power_play"), list(DIGESTS))
def test_random_games_hand_out_the_recorded_json(seats: int, power_play: bool) -> None:
    digest = random_games_digest(
        lambda seed: GAME.start("fiesta-caldera", seats=seats, seed=seed, options={"power_play": power_play}),
        games=4,
        observed=lambda state, seat: range(seats),
    )
    assert digest == DIGESTS[seats, power_play]
