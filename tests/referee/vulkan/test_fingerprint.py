"""Random games hashed move by move: the engine must hand out the very same JSON as the version
these digests were recorded with (observations of the seat to move, legal move lists, the final
state and outcome); see :mod:`tests.referee.fingerprint`."""

from __future__ import annotations

import pytest

from referee.vulkan import GAME
from tests.referee.fingerprint import random_games_digest

DIGESTS = {
    ("competitive", 4, "classic"): "03a3887de730590c",
    ("competitive", 3, "random"): "e512e47ad4712ce8",
    ("competitive", 2, "classic"): "7d8b5938a3bb4ac6",
    ("solitaire", 1, "classic"): "e39cc8a27da22d90",
    ("cooperative", 4, "random"): "35be29bdfd907758",
}


@pytest.mark.parametrize(("variant", "seats", "layout"), list(DIGESTS))
def test_random_games_hand_out_the_recorded_json(variant: str, seats: int, layout: str) -> None:
    digest = random_games_digest(
        lambda seed: GAME.start(variant, seats=seats, seed=seed, options={"layout": layout}),
        games=12,
        observed=lambda state, seat: (seat,),
    )
    assert digest == DIGESTS[(variant, seats, layout)]
