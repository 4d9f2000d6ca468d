"""``arena replay show FILE [--move N] [--json]``: a replay's moves in words, and its position after
move N drawn as text.

The position comes from re-playing the replay through the engine (:mod:`arena.boards`), so what is
printed is what the engine says, whatever the file claims. A header line names the game, the
variant, the move and who made it; then every move up to N, one a line, beside its seat, in the
game's words (:meth:`referee.game.Game.describe_move`; ``--json`` adds each move's JSON), a fault
with what the bot sent in words; then the board. Bad input (no such file, not a replay, N out of
range, a replay the engine cannot re-play) is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from arena.boards import NoBoardDrawing, Positions, ReplayPositionError, render_text
from referee.game import Game, canonical_json
from referee.registry import get_game
from referee.replay import REPLAY_FORMAT, sent_words


class ShowError(ValueError):
    """Bad input for ``replay show``: the message is printed as is."""


def read_replay(path: str) -> dict[str, Any]:
    """A replay document from a JSON or gzip-compressed JSON file."""
    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise ShowError(f"cannot read it: {error.strerror or error}") from None
    try:
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        document = json.loads(raw)
    except (OSError, EOFError, ValueError) as error:
        raise ShowError(f"it is not JSON: {error}") from None
    if not isinstance(document, dict) or document.get("format") != REPLAY_FORMAT:
        raise ShowError(f'it is not a replay (no "format": "{REPLAY_FORMAT}")')
    return document


def _name(replay: dict[str, Any], seat: int) -> str:
    for record in replay.get("seats") or []:
        if isinstance(record, dict) and record.get("seat") == seat:
            return str(record.get("name") or record.get("bot_id") or "?")
    return "?"


def _fault_words(game: Game[Any], record: dict[str, Any]) -> str:
    """``fallback move after a fault: KIND; sent: WORDS`` for a move the referee played for a bot."""
    fault = record["fault"]
    words = f"{record.get('source', 'fallback')} move after a fault: {fault.get('kind')}"
    sent = fault.get("sent")
    if isinstance(sent, str):
        words += f"; sent: {sent_words(game.id, sent)}"
    return words


def _move_words(game: Game[Any], record: dict[str, Any], with_json: bool) -> str:
    """A move in the game's words, its JSON after it with ``with_json``."""
    words = game.describe_move(record.get("move"))
    return f"{words}  {canonical_json(record.get('move'))}" if with_json else words


def header(replay: dict[str, Any], move: int, with_json: bool = False) -> str:
    """``game / variant, move N of M: what was played``, then the faults so far."""
    game = get_game(replay["game"])
    moves = replay["moves"]
    line = f"{replay['game']} / {replay['variant']}, move {move} of {len(moves)}"
    if move == 0:
        line += ": the initial position"
    else:
        record = moves[move - 1]
        seat = record.get("seat")
        line += f": seat {seat} ({_name(replay, seat)}) played {_move_words(game, record, with_json)}"
        if record.get("fault"):
            line += f" [{_fault_words(game, record)}]"
    faults: Counter[Any] = Counter(
        r.get("seat") for r in moves[:move] if isinstance(r, dict) and r.get("fault")
    )
    totals = ", ".join(f"seat {seat} {count}" for seat, count in sorted(faults.items())) or "none"
    line += f"; faults so far: {totals}"
    if move == len(moves) and isinstance(replay.get("result"), dict):
        result = replay["result"]
        line += f"; ended: {result.get('reason')}, places {result.get('places')}"
    return line


def move_list(replay: dict[str, Any], move: int, with_json: bool = False) -> str:
    """The first ``move`` moves, one a line: its number (``--move`` shows the position after it),
    its seat and bot, the move in words (and JSON), and a fault with what the bot sent."""
    game = get_game(replay["game"])
    lines = []
    for number, record in enumerate(replay["moves"][:move], start=1):
        seat = record.get("seat")
        line = f"{number:>5}  seat {seat} ({_name(replay, seat)}): {_move_words(game, record, with_json)}"
        if record.get("fault"):
            line += f"  [{_fault_words(game, record)}]"
        lines.append(line)
    return "\n".join(lines)


def show(
    path: str,
    move: int | None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    with_json: bool = False,
) -> int:
    """Print the moves and the position; 0 when shown, 2 (with a message on ``err``) for bad input."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        replay = read_replay(path)
        positions = Positions(replay)
        last = len(positions) - 1
        wanted = last if move is None else move
        if not 0 <= wanted <= last:
            raise ShowError(f"--move must be 0 to {last}: the replay has {last} moves, not {wanted}")
        state = positions.after(wanted)
        picture = render_text(replay["game"], state, reveal=True)
        moves = move_list(replay, wanted, with_json)
        out.write(header(replay, wanted, with_json) + "\n\n" + (moves + "\n\n" if moves else "") + picture)
        return 0
    except (ShowError, ReplayPositionError, NoBoardDrawing, IndexError) as error:
        print(f"arena replay show: {path}: {error}", file=err)
        return 2


def _run(args: argparse.Namespace) -> int:
    return show(args.file, args.move, with_json=args.json)


def add_show_command(replay_commands: Any) -> None:
    """Add ``show`` to the ``arena replay`` subcommands (an ``argparse`` subparsers object)."""
    parser = replay_commands.add_parser(
        "show",
        help="print a replay's moves in words and the position after a move, re-played through the engine",
    )
    parser.add_argument("file", help="replay file (JSON, or gzip of JSON)")
    parser.add_argument(
        "--move", type=int, metavar="N", help="moves played (default: all, the last position)"
    )
    parser.add_argument("--json", action="store_true", help="print each move's JSON beside its words")
    parser.set_defaults(func=_run)
