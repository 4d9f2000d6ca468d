"""A seat's position rebuilt from its observation alone, for every game that can
(:meth:`referee.game.Game.from_observation`).

What a bot of protocol version 2 needs: its move requests carry no ``legal_moves``, and the legal
moves of the position rebuilt here are exactly the referee's, the same moves in the same order
(``tests/referee/test_observation_suffices.py`` checks it for every game, variant and seat count).
Where the seat sees everything the rebuild is the game itself; where it does not it is the
engine's determinization, what the seat cannot see dealt from a
fixed seed: whatever is dealt, the seat's legal moves are the same. The bot SDK rebuilds the list
with :func:`legal_moves_from_observation` for a bot started for version 2.

Asking for one game's rebuild never loads the others (:mod:`referee.registry` imports games on
first use). A game that does not rebuild (a test game, say) cannot be played by a version 2 bot of
the SDK; it raises ``NotImplementedError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.game import Move, State
from referee.registry import get_game


def position_from_observation(
    game_id: str, observation: Mapping[str, Any], seat: int, draw: int = 0
) -> State:
    """A position of ``game_id`` agreeing with everything ``seat``'s observation shows, ``seat`` to
    move; ``draw`` seeds what the seat cannot see (every draw gives the same legal moves). Raises
    :class:`referee.game.SetupError` for a game that is not registered,
    ``NotImplementedError`` for one that cannot be rebuilt, and ``ValueError`` (a ``SetupError``
    is one), ``KeyError`` or ``TypeError`` for an observation that is not of the game or shows a
    finished one."""
    return get_game(game_id).from_observation(observation, seat, draw)


def legal_moves_from_observation(game_id: str, observation: Mapping[str, Any], seat: int) -> list[Move]:
    """The seat's legal moves, as the referee lists them, from its observation alone."""
    return position_from_observation(game_id, observation, seat).legal_moves()
