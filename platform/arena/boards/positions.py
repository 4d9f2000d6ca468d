"""Positions of a replay, re-played through the engine: the picture never guesses a rule.

:func:`position_after` gives the position after ``n`` moves of a replay document (0: the start);
:class:`Positions` walks one replay and keeps a copy of the state every :data:`CHECKPOINT_EVERY`
moves, so that stepping through a long game frame by frame costs a few moves per frame, not a
re-play from the start. :func:`position_after` keeps the walkers of the last few replays it was
asked about, so the board pages (one request per frame) get the same benefit.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from referee.game import IllegalMove, SetupError, State, canonical_json
from referee.registry import get_game

CHECKPOINT_EVERY = 25
CACHED_REPLAYS = 8
"""Walkers kept by :func:`position_after`: the replays being watched at once."""


class ReplayPositionError(ValueError):
    """A document that cannot be re-played: the message says which field or which move."""


def _header(replay: Mapping[str, Any]) -> tuple[str, str, int, int, Any, Any]:
    if not isinstance(replay, Mapping):
        raise ReplayPositionError("a replay is a JSON object")
    try:
        game, variant, seed, seats = replay["game"], replay["variant"], replay["seed"], replay["seats"]
    except KeyError as error:
        raise ReplayPositionError(f"replay lacks a field: {error}") from None
    if not isinstance(seats, Sequence) or isinstance(seats, str):
        raise ReplayPositionError("replay field seats must be a list")
    if not isinstance(replay.get("moves"), Sequence) or isinstance(replay.get("moves"), str):
        raise ReplayPositionError("replay field moves must be a list")
    return game, variant, seed, len(seats), replay.get("options"), replay.get("setup")


def _moves(replay: Mapping[str, Any]) -> list[Any]:
    moves = []
    for index, record in enumerate(replay["moves"]):
        if not isinstance(record, Mapping) or "move" not in record:
            raise ReplayPositionError(f"replay move {index} has no move")
        moves.append(record["move"])
    return moves


class Positions:
    """Every position of one replay, computed on demand: ``positions.after(n)`` or ``positions[n]``.

    ``len(positions)`` is the number of positions, one more than the number of moves. Each position
    returned is the caller's own copy. Not for use from several threads at once without a lock
    (:func:`position_after` holds one).
    """

    def __init__(self, replay: Mapping[str, Any], every: int = CHECKPOINT_EVERY) -> None:
        game_id, variant, seed, seats, options, setup = _header(replay)
        try:
            self.game = get_game(game_id)
            start = self.game.start(variant, seats=seats, seed=seed, options=options, setup=setup)
        except SetupError as error:
            raise ReplayPositionError(f"the replay's game cannot be set up: {error}") from None
        self.every = every
        self.moves = _moves(replay)
        self._checkpoints: dict[int, State] = {0: start.copy()}
        self._cursor: State = start
        self._cursor_at = 0
        self.lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.moves) + 1

    def __getitem__(self, n: int) -> State:
        return self.after(n)

    def __iter__(self) -> Iterator[State]:
        for n in range(len(self)):
            yield self.after(n)

    def extend(self, replay: Mapping[str, Any]) -> bool:
        """Take the moves of a later copy of the same match (a match in play grows); False when the
        document's moves do not begin with the ones already known."""
        moves = _moves(replay)
        if len(moves) < len(self.moves) or moves[: len(self.moves)] != self.moves:
            return False
        self.moves.extend(moves[len(self.moves) :])
        return True

    def after(self, n: int) -> State:
        """The position after ``n`` moves (0: the initial position), as a copy the caller may play on.

        :class:`IndexError` beyond the replay's end; :class:`ReplayPositionError` when the engine
        refuses a recorded move (the replay is from another engine version, or damaged).
        """
        if isinstance(n, bool) or not isinstance(n, int):
            raise ReplayPositionError(f"a move number is a whole number, not {n!r}")
        if not 0 <= n <= len(self.moves):
            raise IndexError(
                f"no position after {n} moves: the replay has {len(self.moves)} moves "
                f"(positions 0 to {len(self.moves)})"
            )
        start = max(k for k in self._checkpoints if k <= n)
        if self._cursor_at <= n and self._cursor_at >= start:
            start = self._cursor_at
        else:
            self._cursor, self._cursor_at = self._checkpoints[start].copy(), start
        state = self._cursor
        while self._cursor_at < n:
            index = self._cursor_at
            self._apply(state, index)
            self._cursor_at += 1
            if self._cursor_at % self.every == 0 and self._cursor_at not in self._checkpoints:
                self._checkpoints[self._cursor_at] = state.copy()
        return state.copy()

    def _apply(self, state: State, index: int) -> None:
        move = self.moves[index]
        if state.outcome() is not None:
            raise ReplayPositionError(f"move {index}: the game was already over")
        try:
            state.apply(move)
        except IllegalMove:
            raise ReplayPositionError(
                f"move {index} (seat {state.current_seat}) is not legal on this engine: "
                f"{canonical_json(move)[:200]}"
            ) from None
        except (TypeError, ValueError, KeyError) as error:
            raise ReplayPositionError(f"move {index} cannot be played: {error}") from None


_walkers: OrderedDict[tuple[Any, ...], Positions] = OrderedDict()
_walkers_lock = threading.Lock()


def _cache_key(replay: Mapping[str, Any]) -> tuple[Any, ...]:
    game, variant, seed, seats, options, setup = _header(replay)
    return (
        replay.get("match_id"),
        game,
        variant,
        canonical_json(seed),
        seats,
        canonical_json(options),
        canonical_json(setup),
    )


def position_after(replay: Mapping[str, Any], move: int) -> State:
    """The position after ``move`` moves of a replay document (``arena-replay/1``, or the
    replay-shaped document of a match in play): 0 is the initial position.

    The document is re-played from its game, variant, seats, seed, options and setup. Raises
    :class:`IndexError` beyond the end and :class:`ReplayPositionError` (a ``ValueError``) for a
    document that does not re-play. Walkers of recent replays are kept, so asking for the frames of
    one replay in turn is cheap.
    """
    key = _cache_key(replay)
    with _walkers_lock:
        walker = _walkers.get(key)
        if walker is not None and walker.extend(replay):
            _walkers.move_to_end(key)
        else:
            walker = Positions(replay)
            _walkers[key] = walker
            while len(_walkers) > CACHED_REPLAYS:
                _walkers.popitem(last=False)
    with walker.lock:
        return walker.after(move)
