"""The Vulkan! game object: declared facts, new games (seeded or set up) and reloading.

>>> from referee.vulkan import GAME
>>> state = GAME.start("competitive", seats=3, seed=1, options={"layout": "random"})
>>> state.phase, state.current_seat
('volcano', 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.game import JSON, Game, GameConfig, SetupError
from referee.rng import Rng, derive_seed
from referee.vulkan import notation
from referee.vulkan.edition import EDITION
from referee.vulkan.rebuild import quick_state
from referee.vulkan.setup import StartPosition, dealt_position, parse_setup
from referee.vulkan.state import VulkanState
from referee.vulkan.variants import DEFAULT_VARIANT, VARIANTS

SETUP_KEYS_IN_OBSERVATION = ("tiles", "volcano", "to_move")


class VulkanGame(Game[VulkanState]):
    """Vulkan!'s facts for the platform and its one way in: every game starts here, so the seeded
    deal and the checked explicit setup are the only two sources of a position."""

    id = "vulkan"
    title = "Vulkan!"
    version = "1"
    variants = VARIANTS
    default_variant = DEFAULT_VARIANT
    doc = "docs/games/vulkan.md"
    drawing = "referee.vulkan.drawing"
    bot_modules = ("bots.vulkan", "bots.vulkan_search")

    def new_state(self, config: GameConfig) -> VulkanState:
        """A new game: tiles dealt onto the ``layout`` option's cells by the seed, or the explicit
        setup (which then replaces the layout option)."""
        seats, setup = config.seats, config.setup
        rng = Rng(derive_seed(config.seed, self.id, "deal"))
        layout = str(config.options["layout"])
        start = dealt_position(layout, seats, rng) if setup is None else parse_setup(setup, seats)
        state = VulkanState(config.variant, seats, dict(config.options), rng.state, start)
        state.begin()
        return state

    def load_state(self, data: Mapping[str, JSON]) -> VulkanState:
        """The state :meth:`VulkanState.to_json` wrote, its derived values worked out afresh."""
        tiles = data["tiles"]
        start = StartPosition(
            cells=[tuple(tile["at"]) for tile in tiles],
            values=[tile["value"] for tile in tiles],
            spaces=[tile["spaces"] for tile in tiles],
            loads=[[EDITION.colour_index(c) for c in tile["loads"]] for tile in tiles],
            volcano=None if data["volcano"] is None else tuple(data["volcano"]),
            supply=[[row.get(name, 0) for name in EDITION.colours] for row in data["supply"]],
            awarded=[
                [(None if a["at"] is None else tuple(a["at"]), a["value"]) for a in awards]
                for awards in data["awarded"]
            ],
            to_move=0,
            present=[tile["on_table"] for tile in tiles],
        )
        state = VulkanState(data["variant"], data["seats"], dict(data["options"]), data["rng"], start)
        state.removed = [tuple(cell) for cell in data["removed"]]
        state.loads_out = [data["loads_out"].get(name, 0) for name in EDITION.colours]
        state.to_move = data["to_move"]
        state.turn = data["turn"]
        state.ended = data["ended"]
        state.last = data["last"]
        return state

    def describe_move(self, move: object) -> str:
        return notation.describe_move(move)

    def from_observation(self, observation: Mapping[str, JSON], seat: int, draw: int = 0) -> VulkanState:
        """Every Vulkan! observation shows everything: :func:`state_from_observation`."""
        return state_from_observation(observation)


GAME = VulkanGame()


def state_from_observation(observation: Mapping[str, Any]) -> VulkanState:
    """Rebuild a playable position from an observation (every Vulkan! observation shows everything).

    Checked as an explicit setup is: whatever :func:`referee.vulkan.setup.parse_setup` refuses is
    refused, with its :class:`SetupError` naming the field. A flight-phase observation as the
    referee writes it is checked in bulk and rebuilt on the match's whole layout, the tiles that
    left the table as gaps (:mod:`referee.vulkan.rebuild`); anything else goes through the full
    check, on the layout of the tiles on the table. Either way a missing tile and an empty cell are
    the same gap, so the legal moves are the same. Raises :class:`SetupError` for a finished game
    (there is nothing left to play).
    """
    if observation.get("to_move") is None:
        raise SetupError("the game is over: nothing to rebuild", "observation.to_move")
    state = quick_state(observation)
    if state is not None:
        return state
    return checked_state_from_observation(observation)


def checked_state_from_observation(observation: Mapping[str, Any]) -> VulkanState:
    """:func:`state_from_observation` through the full check of an explicit setup, which names what
    is wrong (:func:`referee.vulkan.setup.parse_setup`), on the layout of the tiles on the table."""
    setup: dict[str, Any] = {key: observation[key] for key in SETUP_KEYS_IN_OBSERVATION}
    setup["seats"] = [{"supply": seat["supply"], "awarded": seat["awarded"]} for seat in observation["seats"]]
    return GAME.start(observation["variant"], seats=len(observation["seats"]), seed=0, setup=setup)
