"""A game of Vulkan! in progress: turns, supplies, awards and the JSON the outside world sees.

The board and the stages of a flight live in :mod:`referee.vulkan.rules`; this module runs them in
order for the seat to move, keeps score, skips seats that cannot fly and says when the game is over.

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

from collections.abc import Callable, Mapping
from typing import Any

from referee.game import JSON, IllegalMove, Move, Outcome, State, places_from_keys
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import NO_CELL, Coord, Layout
from referee.vulkan.rules import (
    Board,
    award_to,
    drop_loads,
    flight_paths,
    is_straight_run,
    next_flyer,
    resolve,
)
from referee.vulkan.setup import Award, StartPosition
from referee.vulkan.variants import VARIANTS, VulkanEnd

Key = tuple[Any, ...]
"""A move in canonical form: ``("volcano", cell)`` or ``("flight", colour, path)`` with cell indices."""

COLOURS = EDITION.colours

NO_FLIGHTS_LEFT = VulkanEnd.NO_FLIGHTS_LEFT.value
EMPTY_TILE_ISOLATED = VulkanEnd.EMPTY_TILE_ISOLATED.value
ALL_TILES_GATHERED = VulkanEnd.ALL_TILES_GATHERED.value


class VulkanState(State):
    """One game. Build it with :meth:`referee.vulkan.game.VulkanGame.new_state`, not directly."""

    def __init__(
        self,
        variant: str,
        seats: int,
        options: dict[str, JSON],
        rng_state: int,
        start: StartPosition,
    ) -> None:
        self.variant = variant
        self.seats = seats
        self.options = options
        self.rng_state = rng_state
        self.seat_colours = EDITION.seat_colours(seats)
        self.owners = EDITION.owners(seats)
        self.loses_on_empty_isolation = VARIANTS[variant].team
        layout = Layout.of(start.cells)
        order = [start.cells.index(cell) for cell in layout.coords]
        self.board = Board(
            layout=layout,
            values=[start.values[i] for i in order],
            spaces=[start.spaces[i] for i in order],
            present=[True] * len(layout),
            loads=[list(start.loads[i]) for i in order],
            volcano=None if start.volcano is None else layout.index[start.volcano],
        )
        self.supply = [list(row) for row in start.supply]
        self.awarded: list[list[Award]] = [list(awards) for awards in start.awarded]
        self.removed: list[Coord] = []
        self.loads_out = [0] * len(COLOURS)
        self.turn = 0
        self.ended: str | None = None
        self.last: dict[str, JSON] | None = None
        self.to_move: int | None = start.to_move
        self._keys: list[Key] | None = None
        self._key_set: set[Key] | None = None

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

    @property
    def phase(self) -> str:
        if self.to_move is None:
            return "over"
        return "volcano" if self.board.volcano is None else "flight"

    def legal_moves(self) -> list[Move]:
        keys = self.legal_keys()
        return LEGAL_JSON[self.phase](self, keys) if keys else []

    def legal_keys(self) -> list[Key]:
        """The legal moves in canonical form, in the order of :meth:`legal_moves`.

        Cached until the next move: read it, do not change it.
        """
        if self._keys is None:
            self._keys = [] if self.to_move is None else LEGAL_KEYS[self.phase](self)
        return self._keys

    def apply(self, move: Move) -> None:
        key = self.key_of(move)
        if self._key_set is None:
            self._key_set = set(self.legal_keys())
        if key not in self._key_set:
            raise IllegalMove(f"not a legal move now ({WHY_ILLEGAL[key[0]](self, key)}): {move!r}")
        self.apply_key(key)

    def apply_key(self, key: Key) -> None:
        """Play a move given in canonical form, without checking it (for simulations of legal keys)."""
        flyer = self.to_move
        assert flyer is not None, "the game is over"
        events = MOVE_STAGES[key[0]](self, key)
        self.last = {"seat": flyer, "move": MOVE_JSON[key[0]](self, key), "events": events}
        self.turn += 1
        self._keys = self._key_set = None
        if self.ended is not None:
            self.to_move = None
        else:
            events.extend(self._seek_flyer((flyer + 1) % self.seats))

    def outcome(self) -> Outcome | None:
        if self.to_move is not None:
            return None
        return GOALS[self.variant](self)

    def observation(self, seat: int) -> dict[str, JSON]:
        """Everything is open in Vulkan!: every seat sees the whole table.

        The ``tiles``, ``volcano``, ``seats[*].supply``/``awarded`` and ``to_move`` fields have the
        shape of an explicit setup, so :func:`referee.vulkan.game.state_from_observation` can rebuild
        the position from an observation.
        """
        board, coords = self.board, self.board.layout.coords
        return {
            "variant": self.variant,
            "seat": seat,
            "phase": self.phase,
            "turn": self.turn,
            "to_move": self.to_move,
            "tiles": [
                {
                    "at": list(coords[cell]),
                    "value": board.values[cell],
                    "spaces": board.spaces[cell],
                    "loads": [COLOURS[c] for c in board.loads[cell]],
                }
                for cell in range(len(coords))
                if board.present[cell]
            ],
            "volcano": None if board.volcano is None else list(coords[board.volcano]),
            "seats": [
                {
                    "colours": [COLOURS[c] for c in self.seat_colours[s]],
                    "supply": self._supply_json(s),
                    "awarded": [_award_json(award) for award in self.awarded[s]],
                    "score": self.score(s),
                    "loads_on_table": self.own_loads_on_table(s),
                }
                for s in range(self.seats)
            ],
            "removed": [list(cell) for cell in self.removed],
            "loads_out": self._loads_out_json(),
            "last": self.last,
        }

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
            "supply": [self._supply_json(s) for s in range(self.seats)],
            "awarded": [[_award_json(award) for award in awards] for awards in self.awarded],
            "removed": [list(cell) for cell in self.removed],
            "loads_out": self._loads_out_json(),
            "to_move": self.to_move,
            "turn": self.turn,
            "ended": self.ended,
            "last": self.last,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> VulkanState:
        """Rebuild a state from :meth:`to_json` output."""
        tiles = data["tiles"]
        start = StartPosition(
            cells=[tuple(tile["at"]) for tile in tiles],
            values=[tile["value"] for tile in tiles],
            spaces=[tile["spaces"] for tile in tiles],
            loads=[[EDITION.colour_index(c) for c in tile["loads"]] for tile in tiles],
            volcano=None if data["volcano"] is None else tuple(data["volcano"]),
            supply=[[row.get(name, 0) for name in COLOURS] for row in data["supply"]],
            awarded=[
                [(None if a["at"] is None else tuple(a["at"]), a["value"]) for a in awards]
                for awards in data["awarded"]
            ],
            to_move=0,
        )
        state = cls(data["variant"], data["seats"], dict(data["options"]), data["rng"], start)
        for tile in tiles:
            state.board.present[state.board.layout.index[tuple(tile["at"])]] = tile["on_table"]
        state.removed = [tuple(cell) for cell in data["removed"]]
        state.loads_out = [data["loads_out"].get(name, 0) for name in COLOURS]
        state.to_move = data["to_move"]
        state.turn = data["turn"]
        state.ended = data["ended"]
        state.last = data["last"]
        return state

    # ------------------------------------------------------------------ facts about the game

    def score(self, seat: int) -> int:
        """The sum of the fire values of the tiles ``seat`` has been awarded."""
        return sum(value for _, value in self.awarded[seat])

    def own_loads_on_table(self, seat: int) -> int:
        """Loads of the colours ``seat`` alone holds that still lie on the table (the tie-break).

        The shared fourth colour of the 3-seat game belongs to nobody and is not counted.
        """
        return sum(1 for pile in self.board.loads for colour in pile if self.owners[colour] == seat)

    def can_fly(self, seat: int) -> bool:
        """Whether ``seat`` could make a flight now: it has a load and some forest tile has room."""
        return any(self.supply[seat]) and self.board.any_room()

    def move_of(self, key: Key) -> Move:
        """The JSON of a move given in canonical form (the inverse of :meth:`key_of`)."""
        return MOVE_JSON[key[0]](self, key)

    def key_of(self, move: Any) -> Key:
        """The canonical form of a move as a bot sends it; :class:`IllegalMove` if it is malformed."""
        if not isinstance(move, Mapping) or not isinstance(move.get("type"), str):
            raise IllegalMove(f"a move is an object with a 'type': {move!r}")
        parse = MOVE_PARSERS.get(move["type"])
        if parse is None:
            raise IllegalMove(f"unknown move type {move['type']!r} (types: {', '.join(MOVE_PARSERS)})")
        return parse(self, move)

    # ------------------------------------------------------------------ turn order

    def _seek_flyer(self, start: int) -> list[dict[str, JSON]]:
        """Give the turn to the first seat from ``start`` on (clockwise) that can fly; return a pass
        event for each seat skipped. Nobody able to fly ends the game (no passes are recorded then)."""
        self.to_move, skipped = next_flyer(self.board, self.supply, start)
        return [{"kind": "pass", "seat": seat, "why": "no_loads"} for seat in skipped]

    # ------------------------------------------------------------------ helpers for the JSON

    def _supply_json(self, seat: int) -> dict[str, int]:
        return {COLOURS[c]: self.supply[seat][c] for c in self.seat_colours[seat]}

    def _loads_out_json(self) -> dict[str, int]:
        return {name: self.loads_out[c] for c, name in enumerate(COLOURS)}

    def _coord(self, cell: int) -> list[int]:
        return list(self.board.layout.coords[cell])


def _award_json(award: Award) -> dict[str, JSON]:
    cell, value = award
    return {"at": None if cell is None else list(cell), "value": value}


# ---------------------------------------------------------------------- legal moves, per phase


def _volcano_keys(state: VulkanState) -> list[Key]:
    """Seat 0 turns over a tile enclosed on all six edges."""
    board = state.board
    return [
        ("volcano", cell)
        for cell in range(len(board.present))
        if board.present[cell]
        and all(other != NO_CELL and board.present[other] for other in board.layout.neighbours[cell])
    ]


def _flight_keys(state: VulkanState) -> list[Key]:
    """Every path that drops a load, once for each colour the seat still has loads of."""
    seat = state.to_move
    assert seat is not None
    colours = [c for c in state.seat_colours[seat] if state.supply[seat][c]]
    paths = flight_paths(state.board)
    return [("flight", colour, path) for colour in colours for path in paths]


LEGAL_KEYS: dict[str, Callable[[VulkanState], list[Key]]] = {"volcano": _volcano_keys, "flight": _flight_keys}


# ---------------------------------------------------------------------- moves: JSON <-> canonical form


def _cell_of(state: VulkanState, value: Any, what: str) -> int:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise IllegalMove(f"{what} must be a cell [q, r], not {value!r}")
    cell = state.board.layout.index.get((value[0], value[1]))
    if cell is None:
        raise IllegalMove(f"{what} {list(value)} is not a cell of this layout")
    return cell


def _exact_keys(move: Mapping[str, Any], keys: set[str]) -> None:
    if set(move) != keys:
        raise IllegalMove(f"a {move['type']} move has exactly the keys {', '.join(sorted(keys))}")


def _parse_volcano(state: VulkanState, move: Mapping[str, Any]) -> Key:
    _exact_keys(move, {"type", "tile"})
    return ("volcano", _cell_of(state, move["tile"], "tile"))


def _parse_flight(state: VulkanState, move: Mapping[str, Any]) -> Key:
    _exact_keys(move, {"type", "path", "colour"})
    colour = move["colour"]
    if not isinstance(colour, str) or colour not in COLOURS:
        raise IllegalMove(f"colour must be one of {', '.join(COLOURS)}, not {colour!r}")
    path = move["path"]
    if not isinstance(path, list | tuple) or not path:
        raise IllegalMove("path must be a non-empty list of cells")
    cells = tuple(_cell_of(state, cell, f"path[{i}]") for i, cell in enumerate(path))
    return ("flight", COLOURS.index(colour), cells)


MOVE_PARSERS: dict[str, Callable[[VulkanState, Mapping[str, Any]], Key]] = {
    "volcano": _parse_volcano,
    "flight": _parse_flight,
}


def _volcano_json(state: VulkanState, key: Key) -> Move:
    return {"type": "volcano", "tile": state._coord(key[1])}


def _flight_json(state: VulkanState, key: Key) -> Move:
    coords = state.board.layout.coords
    return {"type": "flight", "path": [[*coords[cell]] for cell in key[2]], "colour": COLOURS[key[1]]}


MOVE_JSON: dict[str, Callable[[VulkanState, Key], Move]] = {"volcano": _volcano_json, "flight": _flight_json}


def _volcano_moves(state: VulkanState, keys: list[Key]) -> list[Move]:
    return [_volcano_json(state, key) for key in keys]


def _flight_moves(state: VulkanState, keys: list[Key]) -> list[Move]:
    """The same JSON as :func:`_flight_json`, built in one sweep: listing moves is the engine's
    hottest loop (hundreds of moves per turn)."""
    qs, rs = state.board.layout.qs, state.board.layout.rs
    return [
        {"type": "flight", "path": [[qs[cell], rs[cell]] for cell in path], "colour": COLOURS[colour]}
        for _, colour, path in keys
    ]


LEGAL_JSON: dict[str, Callable[[VulkanState, list[Key]], list[Move]]] = {
    "volcano": _volcano_moves,
    "flight": _flight_moves,
}


# ---------------------------------------------------------------------- playing a move


def _choose_volcano(state: VulkanState, key: Key) -> list[dict[str, JSON]]:
    state.board.volcano = key[1]
    return [{"kind": "volcano", "tile": state._coord(key[1])}]


def _fly(state: VulkanState, key: Key) -> list[dict[str, JSON]]:
    """Drops, then the extinguishing cascade, then isolation; every tile that left the table is
    awarded (or, isolated without loads, leaves the game)."""
    _, colour, path = key
    flyer = state.to_move
    assert flyer is not None
    board = state.board
    dropped = drop_loads(board, path, colour, state.supply[flyer][colour])
    state.supply[flyer][colour] -= len(dropped)
    events: list[dict[str, JSON]] = [
        {"kind": "drop", "tile": state._coord(cell), "colour": COLOURS[colour]} for cell in dropped
    ]
    rounds, cut_off = resolve(board, dropped)
    for round_number, cells in enumerate(rounds, start=1):
        for cell in cells:
            events.append({"kind": "extinguished", "tile": state._coord(cell), "round": round_number})
            events.append(_hand_out(state, cell, flyer))
    for cell in cut_off:
        events.append({"kind": "isolated", "tile": state._coord(cell)})
        if not board.loads[cell] and state.loses_on_empty_isolation:
            state.ended = EMPTY_TILE_ISOLATED
        events.append(_hand_out(state, cell, flyer))
    return events


def _hand_out(state: VulkanState, cell: int, flyer: int) -> dict[str, JSON]:
    """Award a tile that left the table to its majority (or the flyer), or drop it from the game."""
    board = state.board
    loads = board.loads[cell]
    seat, why = award_to(loads, flyer, state.owners)
    coord = board.layout.coords[cell]
    if seat is None:
        state.removed.append(coord)
        return {"kind": "removed", "tile": list(coord), "why": "isolated_without_loads"}
    state.awarded[seat].append((coord, board.values[cell]))
    for colour in loads:
        state.loads_out[colour] += 1
    event = {
        "kind": "award",
        "tile": list(coord),
        "value": board.values[cell],
        "seat": seat,
        "why": why,
        "loads": [COLOURS[c] for c in loads],
    }
    board.loads[cell] = []
    return event


def _why_not_volcano(state: VulkanState, key: Key) -> str:
    if state.phase != "volcano":
        return "the volcano is chosen once, as the first move"
    return "the volcano goes on a tile with tiles on all six edges"


def _why_not_flight(state: VulkanState, key: Key) -> str:
    _, colour, path = key
    seat = state.to_move
    if state.phase != "flight":
        return f"the game is in its {state.phase} phase"
    assert seat is not None
    if colour not in state.seat_colours[seat]:
        return f"seat {seat} does not fly {COLOURS[colour]}"
    if not state.supply[seat][colour]:
        return f"seat {seat} has no {COLOURS[colour]} loads left"
    if not is_straight_run(state.board, path):
        return "a flight is a straight run of forest tiles, without gaps and never over the volcano"
    return "every tile on the path is full: a flight must drop at least one load"


WHY_ILLEGAL: dict[str, Callable[[VulkanState, Key], str]] = {
    "volcano": _why_not_volcano,
    "flight": _why_not_flight,
}


MOVE_STAGES: dict[str, Callable[[VulkanState, Key], list[dict[str, JSON]]]] = {
    "volcano": _choose_volcano,
    "flight": _fly,
}


# ---------------------------------------------------------------------- how the game ends


def _competitive_outcome(state: VulkanState) -> Outcome:
    """Most fire value wins; a tie goes to the fewest own loads left on the table, then is shared."""
    scores = [state.score(seat) for seat in range(state.seats)]
    left = [state.own_loads_on_table(seat) for seat in range(state.seats)]
    places = places_from_keys([(score, -loads) for score, loads in zip(scores, left, strict=True)])
    return Outcome(
        places=places,
        scores=tuple(float(score) for score in scores),
        reason=NO_FLIGHTS_LEFT,
        details={"loads_on_table": left, "tie_break_used": len(set(scores)) < len(scores)},
    )


def _team_outcome(state: VulkanState) -> Outcome:
    """The solitaire goal: every forest tile but the volcano went to the team (to any of its seats).

    Lost at once when a tile is isolated without loads; also lost when nobody can fly any more
    with forest tiles still on the table. Every seat shares the team's place and score (the sum of
    all the values the team gathered); ``details`` keeps each seat's own sum.
    """
    tiles_left = len(state.board.forest())
    values = [state.score(seat) for seat in range(state.seats)]
    won = state.ended is None and tiles_left == 0 and not state.removed
    reason = state.ended or (ALL_TILES_GATHERED if won else NO_FLIGHTS_LEFT)
    return Outcome(
        places=(1,) * state.seats,
        scores=(float(sum(values)),) * state.seats,
        reason=reason,
        team_won=won,
        details={"seat_values": values, "tiles_left": tiles_left},
    )


GOALS: dict[str, Callable[[VulkanState], Outcome]] = {
    "competitive": _competitive_outcome,
    "solitaire": _team_outcome,
    "cooperative": _team_outcome,
}
