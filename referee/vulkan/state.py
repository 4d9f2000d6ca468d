"""A game of Vulkan! in progress: the position, its turns, and the State interface.

The engine is in three layers. At the bottom, :mod:`referee.vulkan.position` holds the position,
the values derived from it that the hot paths keep move by move (listed in
:meth:`~referee.vulkan.position.Position._reset_caches`), and the few mutators that change the
position and keep those values in step with it. Above it the rules live in named functions: the
board's stages of a flight and the flight rule in :mod:`referee.vulkan.rules`, which moves are legal
and their JSON in :mod:`referee.vulkan.moves`, a move's stages and events in
:mod:`referee.vulkan.play`, the observation in :mod:`referee.vulkan.observation` and the result in
:mod:`referee.vulkan.outcome`. This module, on top, is the common State interface over them: the
turn, the legal moves, playing one, copying and saving a game.

Moves (a bot sends one of ``legal_moves()`` back unchanged)::

    {"type": "volcano", "tile": [q, r]}                            # seat 0, once, first
    {"type": "flight", "path": [[q, r], ...], "colour": "red"}     # every later turn

>>> from referee.vulkan import GAME
>>> state = GAME.start("competitive", seats=2, seed=7)
>>> state.legal_moves()[0]
{'type': 'volcano', 'tile': [-2, 0]}
>>> state.apply({"type": "volcano", "tile": [0, 0]})
>>> state.current_seat, state.legal_moves()[0]["colour"]
(1, 'green')
"""

from __future__ import annotations

from itertools import compress
from typing import Any

from referee.game import JSON, IllegalMove, Move, Outcome, State
from referee.vulkan import moves
from referee.vulkan.observation import award_json, loads_out_json, shared_observation, supply_json
from referee.vulkan.outcome import GOALS
from referee.vulkan.paths import FlightMove
from referee.vulkan.play import MOVE_STAGES
from referee.vulkan.position import COLOUR_NAMES as COLOUR_NAMES  # (read here by the board drawing)
from referee.vulkan.position import COLOURS, Key, Position
from referee.vulkan.rules import can_fly, next_flyer


class VulkanState(Position, State):
    """One game. Build it with :meth:`referee.vulkan.game.VulkanGame.new_state`, not directly."""

    def begin(self) -> None:
        """Start play from a fresh position: with the volcano already placed, the turn goes to the
        first seat from ``to_move`` on that can fly (passes recorded), or the game is over at once."""
        if self.board.volcano is not None and self.to_move is not None:
            passes = self._seek_flyer(self.to_move)
            if passes:
                self.last = {"seat": None, "move": None, "events": passes}

    # ------------------------------------------------------------------ the State interface

    @property
    def current_seat(self) -> int | None:
        return self.to_move

    def legal_moves(self) -> list[Move]:
        """The legal moves, in the documented order (:func:`referee.vulkan.moves.legal_keys`).

        A flight in the list is a shared, read-only :class:`FlightMove` (a ``dict``): the list is
        new on every call, its moves are not (``dict(move)`` gives a copy to change).
        """
        seat = self.to_move
        if seat is None:
            return []
        if self.board.volcano is None:
            return [moves.move_of(self, key) for key in moves.legal_keys(self)]
        colours = moves.colours_to_fly(self, seat)
        if len(self.seat_colours[seat]) == 1:  # four seats: see _pick_flights
            return self._pick_flights(colours[0]) if colours else []
        kept = self._live_runs().flights
        flights: list[Move] = []
        for colour in colours:
            picked = kept[colour]
            if picked is None:
                picked = kept[colour] = self._pick_flights(colour)
            flights += picked
        return flights

    def _pick_flights(self, colour: int) -> list[Move]:
        """The legal flights in ``colour``, in table order, as a new list.

        A seat flying two colours keeps them (``LiveRuns.flights``) until a run stops being legal: a
        move that fills no tile leaves every run as it was, so a seat's lists may outlive the
        other seats' moves and are then copied rather than picked out of every run again (11%
        of the lists of random 2- and 3-seat games, 17% and 26% with bots that play the first
        legal move). A seat flying one colour (four seats) finds its list again after the three
        others' moves in 2% of random games' turns and none of first-move games', so its list is
        handed out as picked, without the copy that keeping it would cost every turn."""
        return list(compress(self._path_table().moves(colour), self._live_runs().runs()))

    def legal_keys(self) -> list[Key]:
        """The legal moves in canonical form, in the order of :meth:`legal_moves`.

        Cached until the next move: read it, do not change it.
        """
        if self._keys is None:
            self._keys = moves.legal_keys(self)
        return self._keys

    def apply(self, move: Move) -> None:
        """Play ``move`` if it is legal now (:func:`referee.vulkan.moves.refusal`), else raise
        :class:`IllegalMove` with the reason and leave the state as it was."""
        if type(move) is FlightMove:  # listed by this engine: found by identity, not parsed
            table = self._path_table()
            run = table.listed.get(id(move))
            if run is not None:
                why = moves.flight_refusal(self, move.colour, table.masks[run])
                if why is None:
                    self._play(("flight", move.colour, table.paths[run]), move)
                    return
                raise IllegalMove(f"not a legal move now ({why}): {move!r}")
            move = dict(move)  # listed on another table: read as any other move
        key = moves.key_of(self, move)
        why = moves.refusal(self, key)
        if why is not None:
            raise IllegalMove(f"not a legal move now ({why}): {move!r}")
        self.apply_key(key)

    def apply_key(self, key: Key) -> None:
        """Play a move given in canonical form, without checking it (for simulations of legal keys)."""
        self._play(key, moves.move_of(self, key))

    def outcome(self) -> Outcome | None:
        if self.to_move is not None:
            return None
        return GOALS[self.variant](self)

    def observation(self, seat: int) -> dict[str, JSON]:
        """Everything is open in Vulkan!: every seat sees the whole table.

        The ``tiles``, ``volcano``, ``seats[*].supply``/``awarded`` and ``to_move`` fields have the
        shape of an explicit setup, so :func:`referee.vulkan.game.state_from_observation` can rebuild
        the position from an observation.

        Built once per position and shared (:mod:`referee.vulkan.observation`): every call returns
        a new top-level object (only ``seat`` differs), whose nested values are shared with other
        observations and never changed by the engine. Read them; copy before changing them.
        """
        view = dict(shared_observation(self))
        view["seat"] = seat
        return view

    def copy(self) -> VulkanState:
        """An independent copy, made field by field: far cheaper than a deep copy.

        What play replaces rather than changes (the layout, values and spaces, the live-run list,
        the tiles' observation entries, ``last``) is shared; everything changed in place is copied.
        """
        other = object.__new__(VulkanState)
        other.__dict__.update(self.__dict__)
        other.options = dict(self.options)
        other.board = self.board.copy()
        other.supply = [row[:] for row in self.supply]
        other.awarded = [awards[:] for awards in self.awarded]
        other._scores = self._scores[:]
        other.removed = self.removed[:]
        other.loads_out = self.loads_out[:]
        other._on_table = self._on_table[:]
        if self._runs is not None:
            other._runs = self._runs.copy()
        other._tile_json = self._tile_json[:]
        other._stale_tiles = self._stale_tiles[:]
        other._seat_json = self._seat_json[:]
        other._awarded_json = self._awarded_json[:]
        return other

    def _play(self, key: Key, move: Move) -> None:
        """Play ``key``, whose JSON is ``move`` (the shared listed object for a flight): its stages
        (:data:`referee.vulkan.play.MOVE_STAGES`), then the turn passes on."""
        flyer = self.to_move
        assert flyer is not None, "the game is over"
        events = MOVE_STAGES[key[0]](self, key)
        self.last = {"seat": flyer, "move": move, "events": events}
        self.turn += 1
        self._keys = None
        self._observation = None
        following = (flyer + 1) % self.seats
        if self.ended is not None:
            self.to_move = None
        elif can_fly(self.supply[following], self._room):  # nobody passes: no search
            self.to_move = following
        else:
            events.extend(self._seek_flyer(following))

    def _seek_flyer(self, start: int) -> list[dict[str, JSON]]:
        """Give the turn to the first seat from ``start`` on (clockwise) that can fly
        (:func:`referee.vulkan.rules.next_flyer`); return a pass event for each seat skipped."""
        self.to_move, skipped = next_flyer(self.board, self.supply, start, self._room)
        return [{"kind": "pass", "seat": seat, "why": "no_loads"} for seat in skipped]

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, JSON]:
        board, coords = self.board, self.board.layout.coords
        return {
            "variant": self.variant,
            "seats": self.seats,
            "options": self.options,
            "rng": self.rng_state,
            "tiles": [
                {
                    "at": list(coords[cell]),
                    "value": board.values[cell],
                    "spaces": board.spaces[cell],
                    "on_table": board.present[cell],
                    "loads": [COLOURS[c] for c in board.loads[cell]],
                }
                for cell in range(len(coords))
            ],
            "volcano": None if board.volcano is None else list(coords[board.volcano]),
            "supply": [supply_json(self, s) for s in range(self.seats)],
            "awarded": [[award_json(award) for award in awards] for awards in self.awarded],
            "removed": [list(cell) for cell in self.removed],
            "loads_out": loads_out_json(self),
            "to_move": self.to_move,
            "turn": self.turn,
            "ended": self.ended,
            "last": self.last,
        }

    def move_of(self, key: Key) -> Move:
        """The JSON of a move given in canonical form (the inverse of :meth:`key_of`)."""
        return moves.move_of(self, key)

    def key_of(self, move: Any) -> Key:
        """The canonical form of a move as a bot sends it; :class:`IllegalMove` if it is malformed."""
        return moves.key_of(self, move)
