"""A match's moves as the API shows them: each as the replay keeps it, with the game's words beside.

The words (``words``, and a fault's ``sent_words``) are added to the JSON, never put in its place:
a program reads the move, a person the words (:meth:`referee.game.Game.describe_move`). A finished
match's moves come from its stored replay, a running match's from the live progress the worker
reports; the replay download itself stays the stored document, without words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.records import MatchRecord, MatchStatus
from arena.runtime import Runtime
from referee.game import SetupError
from referee.notation import move_json
from referee.registry import get_game
from referee.replay import decompress, sent_words


def with_words(game_id: str, moves: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each move record with ``words`` (the move in the game's words) and, for a fault that kept
    what the bot sent, the fault's ``sent_words``. A game no longer registered words nothing: its
    moves read as their JSON (:func:`referee.notation.move_json`)."""
    try:
        describe = get_game(game_id).describe_move
    except SetupError:
        describe = move_json
    shown: list[dict[str, Any]] = []
    for record in moves:
        worded = {**record, "words": describe(record.get("move"))}
        fault = record.get("fault")
        if isinstance(fault, Mapping) and isinstance(fault.get("sent"), str):
            worded["fault"] = {**fault, "sent_words": sent_words(game_id, fault["sent"])}
        shown.append(worded)
    return shown


def match_moves(runtime: Runtime, match: MatchRecord, start: int) -> list[dict[str, Any]] | None:
    """The match's moves from index ``start`` on, worded: an ended match's from its replay (finished,
    or stopped while it ran: cancelled, or aborted at the time limit), a running match's so far; None
    when there are none to show (queued, aborted without a replay, or a replay or live progress no
    longer kept)."""
    if match.has_replay:
        stored = runtime.store.replays.get(match.id)
        if stored is None:
            return None
        document = decompress(stored)
        moves = document["moves"]
        assert isinstance(moves, list)
        return with_words(match.game, moves[start:])
    if match.status is MatchStatus.RUNNING:
        return with_words(match.game, runtime.store.progress.live_moves(match.id, start))
    return None
