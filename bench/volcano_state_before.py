"""The baseline of ``bench_volcano.py``: Volcano's state class as it was before the engine was made fast.

This is the engine's previous ``referee/volcano/state.py``, kept word for word but for this docstring
and :func:`_eruption_json` (the previous ``Eruption.to_json``, which built plain dicts; the engine's
now hands out shared read-only ones). It plays exactly the same games as today's engine (the bench
checks that every game has the same moves), but builds every observation and move list afresh as
plain JSON and counts trios on every view. Not used by the engine, only measured against it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.game import JSON, IllegalMove, Move, Outcome, State, places_from_keys
from referee.volcano.board import DIRECTIONS, SQUARES, Board, parse_square, square_json
from referee.volcano.edition import CALDERA
from referee.volcano.ends import VolcanoEnd
from referee.volcano.eruption import Eruption, can_step, step_cap
from referee.volcano.pieces import Piece, PieceError
from referee.volcano.trios import Trios, count_trios, winning_reason


def copy_json(value: Any) -> Any:
    """A deep copy of plain JSON (dicts, lists, scalars): views must never share the state's lists.

    >>> moves = [{"type": "step", "from": [0, 0], "dir": "E"}]
    >>> copy_json(moves) == moves and copy_json(moves)[0]["from"] is not moves[0]["from"]
    True
    """
    if isinstance(value, dict):
        return {key: copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_json(item) for item in value]
    return value


STEP = "step"
POWER_PLAY = "power_play"


class VolcanoState(State):
    """One game. Build it with :meth:`referee.volcano.game.VolcanoGame.new_state`."""

    def __init__(
        self,
        *,
        variant: str,
        seats: int,
        options: dict[str, JSON],
        board: Board,
        captures: list[list[Piece]],
        to_move: int,
        turn_moves: list[Move] | None = None,
        turns_played: int = 0,
        passes_in_row: int = 0,
        last_eruption: dict[str, JSON] | None = None,
        result: Outcome | None = None,
    ) -> None:
        self.variant = variant
        self.seats = seats
        self.options = options
        self.board = board
        self.captures = captures
        self.to_move = to_move
        self.turn_moves: list[Move] = turn_moves or []
        self.turns_played = turns_played
        self.passes_in_row = passes_in_row
        self.last_eruption = last_eruption
        self.result = result

    # ----- facts read off the state -------------------------------------------------------------

    @property
    def current_seat(self) -> int | None:
        return None if self.result is not None else self.to_move

    @property
    def steps_this_turn(self) -> int:
        return sum(1 for move in self.turn_moves if move["type"] == STEP)

    @property
    def power_play_used(self) -> bool:
        return any(move["type"] == POWER_PLAY for move in self.turn_moves)

    def power_play_open(self) -> bool:
        """The seat to move may still make a Power Play this turn (and holds a piece to play)."""
        return bool(self.options["power_play"] and self.captures[self.to_move] and not self.power_play_used)

    def trios(self, seat: int) -> Trios:
        return count_trios(self.captures[seat])

    # ----- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Cap steps (caps in board order, directions N, NE, E, ... NW), then Power Plays
        (captured piece kinds by colour and size, then squares in board order)."""
        if self.result is not None:
            return []
        board = self.board
        moves: list[Move] = [
            {"type": STEP, "from": square_json(origin), "dir": direction}
            for origin in board.cap_squares()
            for direction in DIRECTIONS
            if can_step(board, origin, direction)
        ]
        if self.power_play_open():
            free = [square_json(index) for index in SQUARES if board.caps[index] is None]
            for piece in sorted(set(self.captures[self.to_move]), key=Piece.sort_key):
                moves.extend({"type": POWER_PLAY, "piece": piece.to_json(), "to": to} for to in free)
        return moves

    def apply(self, move: Move) -> None:
        if self.result is not None:
            raise IllegalMove("the game is over")
        kind = move.get("type") if isinstance(move, dict) else None
        play = _MOVE_KINDS.get(kind) if isinstance(kind, str) else None
        if play is None:
            raise IllegalMove(f"a move's type is one of {', '.join(_MOVE_KINDS)}: {move!r}")
        play(self, move)

    def _play_step(self, move: Move) -> None:
        if set(move) != {"type", "from", "dir"}:
            raise IllegalMove('a step is {"type": "step", "from": [row, column], "dir": "N"|"NE"|...}')
        origin, direction = parse_square(move["from"]), move["dir"]
        if origin is None or not isinstance(direction, str) or direction not in DIRECTIONS:
            raise IllegalMove(f"not a square and a direction: {move!r}")
        if not can_step(self.board, origin, direction):
            raise IllegalMove(f"no cap on {move['from']} can step {direction}: {move!r}")
        eruption = step_cap(self.board, origin, direction)
        self.turn_moves.append({"type": STEP, "from": square_json(origin), "dir": direction})
        if eruption.erupted:
            mover = self.to_move
            self.captures[mover] = sorted(self.captures[mover] + eruption.captured, key=Piece.sort_key)
            self.last_eruption = {"seat": mover, "turn": self.turns_played, **_eruption_json(eruption)}
            self._end_turn(erupted=True, win=winning_reason(self.trios(mover)))
        elif self.steps_this_turn >= self.options["step_limit"]:
            self._end_turn(erupted=False, win=None)

    def _play_power_play(self, move: Move) -> None:
        if set(move) != {"type", "piece", "to"}:
            raise IllegalMove('a Power Play is {"type": "power_play", "piece": {...}, "to": [row, column]}')
        try:
            piece = Piece.from_json(move["piece"])
        except PieceError as error:
            raise IllegalMove(f"not a piece: {error}") from None
        square = parse_square(move["to"])
        if square is None or not self.power_play_open() or piece not in self.captures[self.to_move]:
            raise IllegalMove(f"this Power Play is not open to seat {self.to_move}: {move!r}")
        if self.board.caps[square] is not None:
            raise IllegalMove(f"nothing may be put on a cap: {move!r}")
        self.captures[self.to_move].remove(piece)
        self.board.stacks[square].append(piece)
        self.turn_moves.append({"type": POWER_PLAY, "piece": piece.to_json(), "to": square_json(square)})

    # ----- turns and the end --------------------------------------------------------------------

    def _end_turn(self, *, erupted: bool, win: str | None) -> None:
        """Close the mover's turn: an eruption, or a pass at the step limit. Then the game may end."""
        self.turns_played += 1
        self.passes_in_row = 0 if erupted else self.passes_in_row + 1
        if win is not None:
            self.result = self._outcome(win, winner=self.to_move)
            return
        reason = next((reason for reason, ends in _GAME_ENDS if ends(self)), None)
        if reason is not None:
            self.result = self._outcome(reason, winner=None)
            return
        self.to_move = (self.to_move + 1) % self.seats
        self.turn_moves = []

    def _outcome(self, reason: str, winner: int | None) -> Outcome:
        """The winner first; everyone else by trios of any colours, then by pieces captured."""
        trios = [self.trios(seat) for seat in range(self.seats)]
        pieces = [len(held) for held in self.captures]
        keys = [(seat == winner, trios[seat].any_colour, pieces[seat]) for seat in range(self.seats)]
        return Outcome(
            places=places_from_keys(keys),
            scores=tuple(float(t.any_colour) for t in trios),
            reason=str(reason),
            details={
                "winner": winner,
                "trios": [t.to_json() for t in trios],
                "pieces_captured": pieces,
                "turns": self.turns_played,
            },
        )

    def outcome(self) -> Outcome | None:
        return self.result

    # ----- views --------------------------------------------------------------------------------

    def observation(self, seat: int) -> dict[str, JSON]:
        """The whole table (Volcano hides nothing), plus the facts of this turn."""
        return {
            "seat": seat,
            "to_move": self.current_seat,
            "board": self.board.to_json(),
            "caldera": list(CALDERA),
            "captures": self._captures_json(),
            "trios": [self.trios(s).to_json() for s in range(self.seats)],
            "steps_this_turn": self.steps_this_turn,
            "power_play_used": self.power_play_used,
            "turn_moves": copy_json(self.turn_moves),
            "turn": self.turns_played,
            "passes_in_row": self.passes_in_row,
            "last_eruption": copy_json(self.last_eruption),
            "options": dict(self.options),
        }

    def _captures_json(self) -> list[list[dict[str, Any]]]:
        return [[piece.to_json() for piece in held] for held in self.captures]

    def to_json(self) -> dict[str, JSON]:
        return {
            "variant": self.variant,
            "seats": self.seats,
            "options": dict(self.options),
            "board": self.board.to_json(),
            "captures": self._captures_json(),
            "to_move": self.to_move,
            "turn_moves": copy_json(self.turn_moves),
            "turns_played": self.turns_played,
            "passes_in_row": self.passes_in_row,
            "last_eruption": copy_json(self.last_eruption),
            "outcome": None if self.result is None else self.result.to_json(),
        }


_MOVE_KINDS: dict[str, Callable[[VolcanoState, Move], None]] = {
    STEP: VolcanoState._play_step,
    POWER_PLAY: VolcanoState._play_power_play,
}
"""How each move type is played; a type not here is an illegal move."""

_GAME_ENDS: tuple[tuple[str, Callable[[VolcanoState], bool]], ...] = (
    (VolcanoEnd.ALL_PASSED, lambda state: state.passes_in_row >= state.seats),
    (VolcanoEnd.TURN_LIMIT, lambda state: state.turns_played >= state.options["turn_limit"]),
)
"""After a turn without a win, the game ends for the first of these that holds."""


def _eruption_json(eruption: Eruption) -> dict[str, Any]:
    """The previous ``Eruption.to_json``: plain dicts, squares and pieces spelled out each time."""
    return {
        "cap": {
            "colour": eruption.cap.value,
            "from": square_json(eruption.origin),
            "to": square_json(eruption.cap_to),
            "dir": eruption.direction,
        },
        "flow": [
            {
                "piece": landing.piece.to_json(),
                "to": square_json(landing.square),
                "captured": landing.captured,
            }
            for landing in eruption.flow
        ],
        "stopped": eruption.stopped,
        "left_behind": eruption.left_behind,
    }
