"""A seat's position rebuilt from its observation alone, for every game the platform ships.

What a bot of protocol version 2 needs: its move requests carry no ``legal_moves``, and the legal
moves of the position rebuilt here are exactly the referee's, the same moves in the same order
(``tests/referee/test_observation_suffices.py`` checks it for every game, variant and seat count).
Where the seat sees everything (Vulkan!, Volcano) the rebuild is the game itself; where it does not
(Boulderville, Catan) it is the engine's determinization, what the seat cannot see dealt from a
fixed seed: whatever is dealt, the seat's legal moves are the same. The bot SDK rebuilds the list
with :func:`legal_moves_from_observation` for a bot started for version 2.

Each game's rebuild is imported on first use, as :mod:`referee.registry` imports games: asking
for one game's never loads the others. A game without an entry here (a test game, say) cannot be
played by a version 2 bot of the SDK; it raises ``NotImplementedError``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.game import Move, State
from referee.registry import get_game


def _vulkan(observation: Mapping[str, Any], seat: int, draw: int) -> State:
    from referee.vulkan import state_from_observation

    return state_from_observation(observation)


def _volcano(observation: Mapping[str, Any], seat: int, draw: int) -> State:
    from referee.volcano import state_from_observation

    return state_from_observation(observation)


def _boulderville(observation: Mapping[str, Any], seat: int, draw: int) -> State:
    from referee.boulderville.guess import determinize

    return determinize(observation, seat, draw)


def _catan_volcano(observation: Mapping[str, Any], seat: int, draw: int) -> State:
    from referee.catan_volcano.determinize import from_observation
    from referee.rng import Rng

    return from_observation(observation, Rng(draw))


REBUILDS: dict[str, Callable[[Mapping[str, Any], int, int], State]] = {
    "vulkan": _vulkan,
    "volcano": _volcano,
    "boulderville": _boulderville,
    "catan-volcano": _catan_volcano,
}
"""Game id -> (observation, seat, draw) -> a position agreeing with everything the seat sees, what
it cannot see dealt from the seed ``draw`` (ignored where nothing is hidden)."""


def position_from_observation(
    game_id: str, observation: Mapping[str, Any], seat: int, draw: int = 0
) -> State:
    """A position of ``game_id`` agreeing with everything ``seat``'s observation shows, ``seat`` to
    move; ``draw`` seeds what the seat cannot see (every draw gives the same legal moves). Raises
    :class:`referee.game.SetupError` for a game that is not registered,
    ``NotImplementedError`` for one that cannot be rebuilt, and ``ValueError`` (a ``SetupError``
    is one), ``KeyError`` or ``TypeError`` for an observation that is not of the game or shows a
    finished one."""
    rebuild = REBUILDS.get(game_id)
    if rebuild is None:
        get_game(game_id)  # an unknown game is said as such
        raise NotImplementedError(f"game {game_id} does not rebuild positions from observations")
    return rebuild(observation, seat, draw)


def legal_moves_from_observation(game_id: str, observation: Mapping[str, Any], seat: int) -> list[Move]:
    """The seat's legal moves, as the referee lists them, from its observation alone."""
    return position_from_observation(game_id, observation, seat).legal_moves()
