"""Vulkan! (Heinrich Glumpler, 2004): fire-fighting flights over a cluster of hex forest tiles.

The rules as played here, and the platform's choices where the rule text is silent, are in
``docs/games/vulkan.md``; the numbers live in ``edition.json``.
"""

from referee.vulkan.game import GAME, VulkanGame, state_from_observation
from referee.vulkan.state import VulkanState

__all__ = ["GAME", "VulkanGame", "VulkanState", "state_from_observation"]
