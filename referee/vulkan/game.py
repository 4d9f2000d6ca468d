"""The Vulkan! game object: declared facts, new games (seeded or set up) and reloading.

>>> from referee.vulkan import GAME
>>> state = GAME.new_state("competitive", seats=3, seed=1, options={"layout": "random"})
>>> state.phase, state.current_seat
('volcano', 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.game import JSON, Game, SetupError
from referee.rng import Rng, derive_seed
from referee.vulkan.setup import dealt_position, parse_setup
from referee.vulkan.state import VulkanState
from referee.vulkan.variants import DEFAULT_VARIANT, VARIANTS

SETUP_KEYS_IN_OBSERVATION = ("tiles", "volcano", "to_move")


class VulkanGame(Game):
    """Vulkan!'s facts for the platform and its one way in: every game starts here, so the seeded
    deal and the checked explicit setup are the only two sources of a position."""

    id = "vulkan"
    title = "Vulkan!"
    version = "1"
    variants = VARIANTS
    default_variant = DEFAULT_VARIANT
    doc = "docs/games/vulkan.md"

    def new_state(
        self,
        variant: str,
        seats: int,
        seed: int,
        options: Mapping[str, JSON] | None = None,
        setup: Mapping[str, JSON] | None = None,
    ) -> VulkanState:
        """A new game: tiles dealt onto the ``layout`` option's cells by ``seed``, or the explicit
        ``setup`` (which then replaces the layout option)."""
        resolved = self.resolve(variant, seats, options)
        rng = Rng(derive_seed(seed, self.id, "deal"))
        start = dealt_position(resolved["layout"], seats, rng) if setup is None else parse_setup(setup, seats)
        state = VulkanState(variant, seats, resolved, rng.state, start)
        state.begin()
        return state

    def load_state(self, data: Mapping[str, JSON]) -> VulkanState:
        return VulkanState.from_json(data)


GAME = VulkanGame()


def state_from_observation(observation: Mapping[str, Any]) -> VulkanState:
    """Rebuild a playable position from an observation (every Vulkan! observation shows everything).

    Tiles that already left the table are simply absent from the rebuilt layout, which changes no
    rule: a missing tile and an empty cell are the same gap. Raises :class:`SetupError` for a
    finished game (there is nothing left to play).
    """
    if observation.get("to_move") is None:
        raise SetupError("the game is over: nothing to rebuild", "observation.to_move")
    setup: dict[str, Any] = {key: observation[key] for key in SETUP_KEYS_IN_OBSERVATION}
    setup["seats"] = [{"supply": seat["supply"], "awarded": seat["awarded"]} for seat in observation["seats"]]
    return GAME.new_state(observation["variant"], seats=len(observation["seats"]), seed=0, setup=setup)
