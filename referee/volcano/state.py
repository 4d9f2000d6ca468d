"""A game of Volcano in progress: the board, the captures and whose turn it is, and the moves.

A turn is a run of moves by one seat: cap steps, and at most one Power Play, until a step sets off an
eruption (the turn ends there) or ``step_limit`` steps went by without one (the turn ends as a pass).
What this turn's moves were is kept as a list; the step count and whether the Power Play was used
are counted as moves are played (and recounted from the list when a state is loaded).

>>> from referee.volcano import GAME
>>> state = GAME.start("fiesta-caldera", seats=2, seed=7)
>>> state.legal_moves()[0]
{'type': 'step', 'from': [1, 0], 'dir': 'N'}
>>> state.apply(state.legal_moves()[0])  # the red nest's first piece would land off the board
>>> state.current_seat, state.observation(0)["steps_this_turn"]
(0, 1)
>>> state.apply({"type": "step", "from": [0, 0], "dir": "SE"})  # the yellow nest erupts
>>> [landing["to"] for landing in state.last_eruption["flow"]], state.last_eruption["stopped"]
([[2, 2], [3, 3]], 'cap')
>>> state.current_seat  # the eruption ended seat 0's turn
1
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.game import JSON, IllegalMove, Move, Outcome, State, places_from_keys
from referee.memo import Memo
from referee.volcano.board import DIRECTIONS, SQUARES, Board, parse_square
from referee.volcano.edition import BOARD_SIZE, CALDERA
from referee.volcano.ends import VolcanoEnd
from referee.volcano.eruption import can_step, step_cap
from referee.volcano.frozen import FrozenDict, FrozenList, freeze
from referee.volcano.pieces import Piece, PieceError
from referee.volcano.tables import (
    MOVE_BY_ID,
    PIECE_JSON,
    POWER_PLAY_MOVES,
    STEP_MOVES,
    STEPS_FROM,
    squares_picker,
)
from referee.volcano.trios import Trios, count_trios, winning_reason


def copy_json(value: Any) -> Any:
    """A deep copy of plain JSON (dicts, lists, scalars), editable whatever it was copied from.

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
_STEP_KEYS = frozenset({"type", "from", "dir"})
_POWER_PLAY_KEYS = frozenset({"type", "piece", "to"})
_ROW_RANGES = tuple(range(row * BOARD_SIZE, (row + 1) * BOARD_SIZE) for row in range(BOARD_SIZE))
_CALDERA_JSON = FrozenList(CALDERA)
_NO_MOVES: FrozenList = FrozenList()


class _Placement:
    """What one placement of the caps decides for every position that has it: the cap steps and the
    squares a Power Play may go to. Kept in :data:`_PLACEMENTS`, so positions that differ by Power
    Plays and eruptions only (caps stay put) share it."""

    __slots__ = ("steps", "pick_free")

    def __init__(self, capped: tuple[int, ...]) -> None:
        taken = set(capped)
        self.steps: list[Move] = [
            move for origin in capped for to, move in STEPS_FROM[origin] if to not in taken
        ]
        self.pick_free = squares_picker(tuple([index for index in SQUARES if index not in taken]))


_PLACEMENTS = Memo[tuple[int, ...], _Placement]("volcano.placements", limit=20_000)
"""Placements seen so far, by the capped squares in board order."""


def _placement(capped: tuple[int, ...]) -> _Placement:
    placement = _PLACEMENTS.table.get(capped)
    if placement is None:
        placement = _PLACEMENTS.keep(capped, _Placement(capped))
    return placement


class VolcanoState(State):
    """One game. Build it with :meth:`referee.volcano.game.VolcanoGame.new_state`.

    The facts are the board, the captures, the seat to move, this turn's moves and the counters.
    Everything handed out (observations, move lists) is read-only JSON (:mod:`.frozen`) built from
    shared pieces and kept until the next move: only the squares, the captures and the views a move
    changed are built again. That is what makes the referee's per-move path (a view, the moves, a move
    applied) cheap; ``docs/games/volcano.md`` has the profile and the figures.
    """

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
        self.captures = [sorted(held, key=Piece.sort_key) for held in captures]
        self.to_move = to_move
        self.turn_moves: list[Move] = [freeze(copy_json(move)) for move in turn_moves or []]
        self.turns_played = turns_played
        self.passes_in_row = passes_in_row
        self.last_eruption = None if last_eruption is None else freeze(copy_json(last_eruption))
        self.result = result
        self._options_view = freeze(dict(options))
        self.forget_kept()

    # ----- what is kept between moves, and its mutators -------------------------------------------

    def forget_kept(self) -> None:
        """Work everything kept between moves out afresh from the facts (the board, the captures,
        this turn's moves), as a new state does: the counters and the capped squares recounted,
        every view dropped. The cache tests and the bench's baseline call it to compare with."""
        self._steps = sum(1 for move in self.turn_moves if move["type"] == STEP)
        self._power_played = any(move["type"] == POWER_PLAY for move in self.turn_moves)
        self._capped = tuple(index for index in SQUARES if self.board.caps[index] is not None)
        self._squares: list[FrozenDict | None] = [None] * len(SQUARES)
        self._rows: list[FrozenList | None] = [None] * BOARD_SIZE
        self._trios: list[Trios | None] = [None] * self.seats
        self._held_views: list[FrozenList | None] = [None] * self.seats
        self._trios_views: list[FrozenDict | None] = [None] * self.seats
        self._forget_position()

    def _forget_position(self) -> None:
        """Drop what was built for the last position (views, moves); squares are dropped one by one."""
        self._views: dict[int, FrozenDict] = {}
        self._legal: list[Move] | None = None
        self._board_view: FrozenList | None = None
        self._table_view: tuple[FrozenList, FrozenList] | None = None
        self._turn_view: FrozenList | None = None

    def _changed_captures(self, seat: int) -> None:
        """Forget what was built from this seat's captures: its trios, and their view and theirs."""
        self._trios[seat] = self._trios_views[seat] = self._held_views[seat] = None

    def _touched(self, *squares: int) -> None:
        """Forget the views of these squares (and of their rows) and everything built for the position."""
        for square in squares:
            self._squares[square] = None
            self._rows[square // BOARD_SIZE] = None
        self._forget_position()

    def copy(self) -> VolcanoState:
        """An independent copy, sharing only read-only parts (cached views, the options)."""
        twin = object.__new__(VolcanoState)
        twin.__dict__.update(self.__dict__)
        twin.board = self.board.copy()
        twin.captures = [list(held) for held in self.captures]
        twin.turn_moves = list(self.turn_moves)
        twin._squares = list(self._squares)
        twin._rows = list(self._rows)
        twin._trios = list(self._trios)
        twin._held_views = list(self._held_views)
        twin._trios_views = list(self._trios_views)
        twin._views = dict(self._views)
        return twin

    # ----- facts read off the state -------------------------------------------------------------

    @property
    def current_seat(self) -> int | None:
        return None if self.result is not None else self.to_move

    @property
    def steps_this_turn(self) -> int:
        return self._steps

    @property
    def power_play_used(self) -> bool:
        return self._power_played

    def power_play_open(self) -> bool:
        """The seat to move may still make a Power Play this turn (and holds a piece to play)."""
        return bool(self.options["power_play"] and self.captures[self.to_move] and not self._power_played)

    def trios(self, seat: int) -> Trios:
        trios = self._trios[seat]
        if trios is None:
            trios = self._trios[seat] = count_trios(self.captures[seat])
        return trios

    # ----- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Cap steps (caps in board order, directions N, NE, E, ... NW), then Power Plays
        (captured piece kinds by colour and size, then squares in board order)."""
        if self.result is not None:
            return []
        if self._legal is None:
            self._legal = self._list_moves()
        return list(self._legal)

    def _list_moves(self) -> list[Move]:
        placement = _placement(self._capped)
        moves = list(placement.steps)
        if self.power_play_open():
            pick_free = placement.pick_free
            for piece in dict.fromkeys(self.captures[self.to_move]):  # distinct kinds, in order
                moves += pick_free(POWER_PLAY_MOVES[piece])
        return moves

    def apply(self, move: Move) -> None:
        if self.result is not None:
            raise IllegalMove("the game is over")
        known = MOVE_BY_ID.get(id(move))
        if known is not None:  # one of the listed moves itself: already read, only its legality is left
            kind, what, square = known
            if kind == STEP:
                self._step(square, what, move)
            else:
                self._power_play(what, square, move)
            return
        move_type = move.get("type") if isinstance(move, dict) else None
        if move_type == STEP:
            self._play_step(move)
        elif move_type == POWER_PLAY:
            self._play_power_play(move)
        else:
            raise IllegalMove(f"a move's type is one of {', '.join(MOVE_TYPES)}: {move!r}")

    def _play_step(self, move: Move) -> None:
        if move.keys() != _STEP_KEYS:
            raise IllegalMove('a step is {"type": "step", "from": [row, column], "dir": "N"|"NE"|...}')
        origin, direction = parse_square(move["from"]), move["dir"]
        if origin is None or not isinstance(direction, str) or direction not in DIRECTIONS:
            raise IllegalMove(f"not a square and a direction: {move!r}")
        self._step(origin, direction, move)

    def _step(self, origin: int, direction: str, move: Move) -> None:
        board = self.board
        if not can_step(board, origin, direction):
            raise IllegalMove(f"no cap on {move['from']} can step {direction}: {move!r}")
        eruption = step_cap(board, origin, direction)
        self._capped = tuple(sorted(eruption.cap_to if index == origin else index for index in self._capped))
        self._touched(origin, eruption.cap_to, *(landing.square for landing in eruption.flow))
        self.turn_moves.append(STEP_MOVES[origin][direction])
        self._steps += 1
        if eruption.flow:
            mover = self.to_move
            captured = eruption.captured
            if captured:
                self.captures[mover] = sorted(self.captures[mover] + captured, key=Piece.sort_key)
                self._changed_captures(mover)
            self.last_eruption = FrozenDict({"seat": mover, "turn": self.turns_played, **eruption.to_json()})
            self._end_turn(erupted=True, win=winning_reason(self.trios(mover)))
        elif self._steps >= self.options["step_limit"]:
            self._end_turn(erupted=False, win=None)

    def _play_power_play(self, move: Move) -> None:
        if move.keys() != _POWER_PLAY_KEYS:
            raise IllegalMove('a Power Play is {"type": "power_play", "piece": {...}, "to": [row, column]}')
        try:
            piece = Piece.from_json(move["piece"])
        except PieceError as error:
            raise IllegalMove(f"not a piece: {error}") from None
        square = parse_square(move["to"])
        if square is None:
            raise IllegalMove(f"not a square: {move!r}")
        self._power_play(piece, square, move)

    def _power_play(self, piece: Piece, square: int, move: Move) -> None:
        held = self.captures[self.to_move]
        if not self.power_play_open() or piece not in held:
            raise IllegalMove(f"this Power Play is not open to seat {self.to_move}: {move!r}")
        if self.board.caps[square] is not None:
            raise IllegalMove(f"nothing may be put on a cap: {move!r}")
        held.remove(piece)
        self._changed_captures(self.to_move)
        self.board.stacks[square].append(piece)
        self._touched(square)
        self.turn_moves.append(POWER_PLAY_MOVES[piece][square])
        self._power_played = True

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
        self._steps = 0
        self._power_played = False

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
        """The whole table (Volcano hides nothing), plus the facts of this turn. Read-only; built
        once per position and seat."""
        view = self._views.get(seat)
        if view is None:
            captures, trios = self._table_json()
            view = self._views[seat] = FrozenDict(
                {
                    "seat": seat,
                    "to_move": self.current_seat,
                    "board": self._board_json(),
                    "caldera": _CALDERA_JSON,
                    "captures": captures,
                    "trios": trios,
                    "steps_this_turn": self._steps,
                    "power_play_used": self._power_played,
                    "turn_moves": self._turn_moves_json(),
                    "turn": self.turns_played,
                    "passes_in_row": self.passes_in_row,
                    "last_eruption": self.last_eruption,
                    "options": self._options_view,
                }
            )
        return view

    def _board_json(self) -> FrozenList:
        """Rows of squares, each ``{"stack": [...], "cap": ...}``; only changed squares are built."""
        if self._board_view is None:
            rows, squares = self._rows, self._squares
            for row, indices in enumerate(_ROW_RANGES):
                if rows[row] is None:
                    rows[row] = FrozenList([squares[index] or self._square_json(index) for index in indices])
            self._board_view = FrozenList(rows)
        return self._board_view

    def _square_json(self, index: int) -> FrozenDict:
        view = self._squares[index]
        if view is None:
            cap = self.board.caps[index]
            stack = FrozenList([PIECE_JSON[piece] for piece in self.board.stacks[index]])
            view = self._squares[index] = FrozenDict(
                {"stack": stack, "cap": None if cap is None else cap.value}
            )
        return view

    def _table_json(self) -> tuple[FrozenList, FrozenList]:
        """Every seat's captures and trios, as every seat sees them."""
        if self._table_view is None:
            trios = FrozenList([self._trios_json(seat) for seat in range(self.seats)])
            self._table_view = (self._captures_json(), trios)
        return self._table_view

    def _trios_json(self, seat: int) -> FrozenDict:
        view = self._trios_views[seat]
        if view is None:
            view = self._trios_views[seat] = FrozenDict(self.trios(seat).to_json())
        return view

    def _captures_json(self) -> FrozenList:
        views = self._held_views
        for seat, view in enumerate(views):
            if view is None:
                views[seat] = FrozenList([PIECE_JSON[piece] for piece in self.captures[seat]])
        return FrozenList(views)

    def _turn_moves_json(self) -> FrozenList:
        if self._turn_view is None:
            self._turn_view = FrozenList(self.turn_moves) if self.turn_moves else _NO_MOVES
        return self._turn_view

    def to_json(self) -> dict[str, JSON]:
        """The whole state as plain, editable JSON (the document replays store)."""
        return {
            "variant": self.variant,
            "seats": self.seats,
            "options": dict(self.options),
            "board": copy_json(self._board_json()),
            "captures": copy_json(self._captures_json()),
            "to_move": self.to_move,
            "turn_moves": copy_json(self.turn_moves),
            "turns_played": self.turns_played,
            "passes_in_row": self.passes_in_row,
            "last_eruption": copy_json(self.last_eruption),
            "outcome": None if self.result is None else self.result.to_json(),
        }


MOVE_TYPES = (STEP, POWER_PLAY)
"""The move types; a move of any other type is illegal."""

_GAME_ENDS: tuple[tuple[str, Callable[[VolcanoState], bool]], ...] = (
    (VolcanoEnd.ALL_PASSED, lambda state: state.passes_in_row >= state.seats),
    (VolcanoEnd.TURN_LIMIT, lambda state: state.turns_played >= state.options["turn_limit"]),
)
"""After a turn without a win, the game ends for the first of these that holds."""
