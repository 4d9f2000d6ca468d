"""A match between reference bots through the real runner, for the bot tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bots.registry import make_bot
from referee.match import MatchSpec, TimeControl
from referee.replay import Replay
from referee.runner import Player, run_match
from referee.transport.agents import LocalAgent


def play_reference(
    game_id: str, variant: str, names: Sequence[str], seed: int, options: dict[str, Any] | None = None
) -> Replay:
    """Seat ``names`` (reference bots of ``game_id``) in order and play one match to its end."""
    spec = MatchSpec.build(
        game=game_id,
        variant=variant,
        bots=[f"{n}-{i}" for i, n in enumerate(names)],
        seed=seed,
        options=options,
        # a bank no bot plans to use (each caps its own thinking), so that a loaded machine's
        # slow move is never a timeout: these matches check moves, not speed
        time=TimeControl(move_ms=2000, bank_ms=600_000),
    )
    players = [Player(name, LocalAgent(make_bot(game_id, name, seat))) for seat, name in enumerate(names)]
    return run_match("bots", spec, players)


def only_bot_moves(replay: Replay) -> bool:
    """Every move was the bot's own answer: no fault, no fallback."""
    return all(move.source == "bot" and move.fault is None for move in replay.moves)
