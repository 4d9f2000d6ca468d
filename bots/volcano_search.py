"""Volcano's planning bot: a beam search over the seat's own turn, on copies of the real state.

A Volcano turn is a run of quiet cap steps (and at most one Power Play) ended by the first eruption,
so the seat to move plans a whole turn, not one step. The bot rebuilds the game from the request's
observation (:func:`referee.volcano.state_from_observation`; Volcano hides nothing) and searches
level by level:

- every erupting step of a position is a *leaf*, scored without copying anything: what its
  captures add to the bot's collection (:func:`bots.volcano.gain`, the greedy bot's measure), less a
  small cost per step taken to reach it; so is a Power Play followed by the eruption it turns into a
  capture (the piece given back is counted against it);
- every quiet step leads to a new position (``State.copy()`` and ``apply``), searched on the next
  level; only the ``beam`` positions with the best leaves go on, and positions reached twice by
  steps in another order are searched once;
- the best leaves are then checked on the board they leave: one that hands the next seat a winning
  one-step capture is marked down, as far down as a win is worth.

The move played is the first move of the best plan; the bot plans again on its next call, so a plan
it can no longer improve is carried out step by step. The search stops early when the time allowed
runs out: a share of what the request's time control grants (``time.move_ms`` plus the bank), less a
margin, and never more than ``budget_ms``, so that even generous clocks keep matches quick.

>>> from referee.volcano import GAME
>>> state = GAME.start("fiesta-caldera", seats=2, seed=3)
>>> request = {"seat": 0, "observation": state.observation(0), "legal_moves": state.legal_moves()}
>>> SearchBot(1).choose(request) in request["legal_moves"]
True
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from bots.base import BotFactory, Move, Request
from bots.volcano import WIN_WORTH, Holding, best_capture, gain
from referee.rng import Rng, derive_seed
from referee.volcano import VolcanoState, state_from_observation
from referee.volcano.eruption import preview_flow
from referee.volcano.pieces import CapColour, Piece
from referee.volcano.tables import POWER_PLAY_MOVES

DEFAULT_BUDGET_MS = 60.0
"""The most a move may take whatever the clock allows: keeps demos and tournaments quick."""
TIME_SHARE = 0.25
"""The share of ``move_ms`` + bank the bot allows itself; the rest is the protocol's safety margin."""
TIME_MARGIN_MS = 25.0
"""Taken off the allowance for rebuilding the state, answering, and the network."""
STEP_COST = 0.01
"""Against every step a plan takes: of two equal plans, the shorter is played (less to go wrong)."""
DEFAULT_DEPTH = 3
"""Levels of positions searched: the root, then up to two quiet moves deep."""
DEFAULT_BEAM = 8
"""Positions kept on each level after the root."""
GUARDED_LEAVES = 24
"""How many of the best leaves are checked against handing the next seat a win."""
PositionKey = tuple[tuple[CapColour | None, ...], tuple[tuple[Piece, ...], ...], tuple[Piece, ...], bool]
"""Caps, stacks, the mover's captures and whether the Power Play is used (see :func:`_position_key`)."""


@dataclass
class Leaf:
    """A plan's end: an eruption (maybe after a Power Play) from a searched position."""

    value: float
    first: int
    """Index of the plan's first move in the root's legal moves."""
    node: VolcanoState
    moves: tuple[Move, ...]
    """What is played from ``node`` to end the turn: the eruption, or a Power Play and then it."""


@dataclass
class Search:
    """One decision: the root's moves, the leaves found so far, the clock."""

    seat: int
    root: VolcanoState
    deadline: float
    mine: Holding
    next_seat: int
    first_moves: list[Move] = field(default_factory=list)
    leaves: list[Leaf] = field(default_factory=list)
    seen: set[PositionKey] = field(default_factory=set)

    def out_of_time(self) -> bool:
        return time.perf_counter() > self.deadline

    def expand(
        self, node: VolcanoState, first: int | None, depth: int
    ) -> tuple[float, list[tuple[int, Move]]]:
        """Score ``node``'s leaves; return its best leaf value and its quiet moves (first-move index, move).

        At the root (``first`` None) every legal move is its own first move.
        """
        board, best = node.board, float("-inf")
        cost = STEP_COST * depth
        quiet: list[tuple[int, Move]] = []
        power_plays = node.power_play_open()
        held_kinds = list(dict.fromkeys(node.captures[self.seat])) if power_plays else []
        for move in node.legal_moves():
            if move["type"] != "step":
                continue
            origin, direction = _origin(move), move["dir"]
            index = self._first(first, move)
            flow, _ = preview_flow(board, origin, direction)
            if not flow:
                quiet.append((index, move))
                continue
            captured = [landing.piece for landing in flow if landing.captured]
            value = gain(self.mine, captured) - cost - STEP_COST
            self.leaves.append(Leaf(value, index, node, (move,)))
            best = max(best, value)
            for landing in flow:  # a Power Play that turns this landing into a capture
                if landing.captured:
                    continue
                for piece in held_kinds:
                    if piece.size != landing.piece.size:
                        continue
                    power_play = POWER_PLAY_MOVES[piece][landing.square]
                    pp_index = self._first(first, power_play)
                    more = [*captured, landing.piece]
                    pp_value = gain(self.mine, more, given_back=piece) - cost - 2 * STEP_COST
                    self.leaves.append(Leaf(pp_value, pp_index, node, (power_play, move)))
                    best = max(best, pp_value)
        return best, quiet

    def _first(self, first: int | None, move: Move) -> int:
        if first is not None:
            return first
        self.first_moves.append(move)
        return len(self.first_moves) - 1

    def children(self, node: VolcanoState, quiet: list[tuple[int, Move]]) -> list[tuple[VolcanoState, int]]:
        """The positions after ``node``'s quiet steps that are still this seat's turn, each once."""
        found = []
        for index, move in quiet:
            child = node.copy()
            child.apply(move)
            if child.current_seat != self.seat:
                continue  # the step limit ended the turn as a pass: nothing to gain there
            key = _position_key(child)
            if key in self.seen:
                continue
            self.seen.add(key)
            found.append((child, index))
        return found

    def guarded_value(self, leaf: Leaf) -> float:
        """The leaf's value, less a handed-over win: the next seat's best one-step capture after it."""
        if leaf.value >= WIN_WORTH / 2:
            return leaf.value
        after = leaf.node.copy()
        for move in leaf.moves:
            after.apply(move)
        if after.outcome() is not None:
            return leaf.value
        theirs = Counter(after.captures[self.next_seat])
        reply = best_capture(after.board, theirs)
        return leaf.value - reply if reply >= WIN_WORTH / 2 else leaf.value


class SearchBot:
    """Plans its whole turn by beam search over copies of the state; seeded tie-breaks.

    ``budget_ms`` caps the time of one move; ``depth`` and ``beam`` bound the search (the benchmark
    states which it used). With a clock that allows it, the search is the same on every machine, so
    games are reproducible; a tight clock only cuts it short.
    """

    def __init__(
        self,
        seed: int,
        budget_ms: float = DEFAULT_BUDGET_MS,
        depth: int = DEFAULT_DEPTH,
        beam: int = DEFAULT_BEAM,
    ) -> None:
        self.rng = Rng(derive_seed(seed, "volcano-search"))
        self.budget_ms = budget_ms
        self.depth = depth
        self.beam = beam

    def allowance_ms(self, request: Request) -> float:
        """The time this move may take: a share of the clock's move time and bank, less a margin."""
        clock = request.get("time") if isinstance(request, dict) else None
        if not isinstance(clock, dict):
            return self.budget_ms
        granted = float(clock.get("move_ms") or 0) + float(clock.get("bank_ms") or 0)
        return max(0.0, min(self.budget_ms, TIME_SHARE * granted - TIME_MARGIN_MS))

    def choose(self, request: Request) -> Move:
        started = time.perf_counter()
        legal: list[Move] = request["legal_moves"]
        if len(legal) == 1:
            return legal[0]
        seat = request["seat"]
        root = state_from_observation(request["observation"])
        search = Search(
            seat=seat,
            root=root,
            deadline=started + self.allowance_ms(request) / 1000.0,
            mine=Counter(root.captures[seat]),
            next_seat=(seat + 1) % root.seats,
        )
        self._search(search)
        if not search.leaves:  # no eruption within reach: any quiet step
            return self.rng.choice(legal)
        scored = sorted(search.leaves, key=lambda leaf: leaf.value, reverse=True)
        best_value, best_firsts = float("-inf"), list[int]()
        for rank, leaf in enumerate(scored):
            if leaf.value < best_value - 1e-9 or (rank >= GUARDED_LEAVES and best_firsts):
                break  # no later leaf can beat what is already found (guarding only lowers values)
            value = search.guarded_value(leaf) if rank < GUARDED_LEAVES else leaf.value
            if value > best_value + 1e-9:
                best_value, best_firsts = value, [leaf.first]
            elif value >= best_value - 1e-9 and leaf.first not in best_firsts:
                best_firsts.append(leaf.first)
        choice = search.first_moves[self.rng.choice(sorted(best_firsts))]
        return next((move for move in legal if move == choice), legal[0])

    def _search(self, search: Search) -> None:
        """Level by level: expand every position of the level (score its leaves), then grow the next
        level from the ``beam`` positions with the best leaves (the root's level is the root alone)."""
        level: list[tuple[VolcanoState, int | None]] = [(search.root, None)]
        for depth in range(self.depth):
            expanded = []
            for order, (node, first) in enumerate(level):
                if depth and search.out_of_time():
                    return
                best, quiet = search.expand(node, first, depth)
                expanded.append((best, order, node, quiet))
            if depth + 1 == self.depth:
                return
            expanded.sort(key=lambda item: (-item[0], item[1]))
            level = []
            for _, _, node, quiet in expanded[: self.beam]:
                level.extend(search.children(node, quiet))
                if search.out_of_time():
                    return


def _origin(move: Move) -> int:
    square: list[int] = move["from"]
    row, column = square
    return row * 5 + column


def _position_key(state: VolcanoState) -> PositionKey:
    """What distinguishes two positions inside one turn: caps, stacks, the mover's captures, steps."""
    board = state.board
    return (
        tuple(board.caps),
        tuple(tuple(stack) for stack in board.stacks),
        tuple(state.captures[state.to_move]),
        state.power_play_used,
    )


BOTS: dict[str, BotFactory] = {"search": SearchBot}
"""The planning bot, registered beside :mod:`bots.volcano`'s (see :mod:`bots.registry`)."""
