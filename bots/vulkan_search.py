"""A Vulkan! bot that plans: ``search``.

Vulkan! is open information, so the request's observation is the whole game:
:func:`referee.vulkan.state_from_observation` rebuilds a playable state, and the bot looks ahead on
copies of it (:meth:`referee.vulkan.VulkanState.copy`).

**Competitive.** Greedy's scoring (:mod:`bots.vulkan`: gain, minus what the flight hands others,
minus the next seat's best reply) ranks the candidate flights, and the best few are compared by
playouts to the end of the game: after the candidate, every seat plays a quick policy (take the most
valuable tile that one load puts out for itself, else a seeded random flight). A playout is worth
the bot's final margin over the best other seat (in tens), plus one for a win (a half for a tie on
score). The playouts use common random
numbers (playout ``j`` draws from the same stream for every candidate), so candidates are compared on
the same futures. The candidate with the best mean wins; greedy's order breaks ties.

**Solitaire.** A one-load-per-tile plan, which the rule test
``test_solitaire_on_a_full_table_is_won_by_cutting_off_tiles_that_each_carry_a_load`` shows can win:

1. the volcano goes where the cheapest *cut* is: tiles that can be put out one after the other
   (each full with two adjacent free edges once those before it are gone) and that include all six
   of the volcano's neighbours, so that once they are out every other tile is isolated;
2. first every tile gets one load (one-tile flights, farthest from the volcano first, never one that
   isolates a tile without loads), so that no isolation can lose any more;
3. then the cut is filled in its order: as its last tile goes, every tile left is isolated, each
   with a load, and awarded.

The cut is found by a best-first search over which tiles near the volcano have gone, costing each
the loads it still needs; the plan is worked out again before every flight, from the position as
it is. When no plan fits the loads left the bot plays as greedy does. The cooperative variant is
played as greedy plays it.

**Time.** A move may take a fraction of what the request's time control allows (``move_ms`` plus
the bank) less a safety margin, and never more than ``cap_ms`` (150 ms by default, which keeps the
platform's demo quick). Given ``playouts``, the bot runs that many playouts per candidate instead,
whatever the clock says, so that a bench can play reproducible games.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bots.base import BotFactory, Move, Request
from bots.vulkan import GreedyBot, ripe_tiles
from referee.rng import Rng, derive_seed
from referee.vulkan import GAME, VulkanState, state_from_observation
from referee.vulkan.hexes import NO_CELL, distance
from referee.vulkan.position import Key
from referee.vulkan.rules import award_to

DEFAULT_CAP_MS = 150
"""The most a move may take on the clock, whatever the time control allows."""

TIME_FRACTION = 0.5
"""The share of the allowed time (``move_ms`` plus bank) the bot plans to use."""

SAFETY_MARGIN_MS = 100
"""Kept back from the allowed time for rebuilding the state, the answer and the network."""

CANDIDATES = 5
"""How many of greedy's best candidates the playouts compare."""

PLAYOUT_MOVES = 60
"""A playout stops after this many flights (a game has at most 48: one load each)."""

CUT_RADIUS = 2
"""Cut tiles are looked for within this distance of the volcano."""

CUT_EXPANSIONS = 4000
"""The most positions the cut search looks at for one volcano."""


def time_budget_s(request: Request, cap_ms: float) -> float:
    """Seconds the bot may think: a fraction of ``move_ms`` plus bank, less a margin, at most the cap."""
    clock = request.get("time") or {}
    allowed = float(clock.get("move_ms", 0)) + float(clock.get("bank_ms", 0))
    return max(0.0, min(cap_ms, TIME_FRACTION * allowed - SAFETY_MARGIN_MS)) / 1000.0


class SearchBot:
    """Plays greedy's best few flights out to the end and keeps the best (see the module docstring)."""

    def __init__(self, seed: int, playouts: int | None = None, cap_ms: float = DEFAULT_CAP_MS) -> None:
        self.seed = derive_seed(seed, "vulkan-search")
        self.rng = Rng(self.seed)
        self.playouts = playouts
        self.cap_ms = cap_ms
        self.greedy = GreedyBot(seed)

    def choose(self, request: Request) -> Move:
        legal = request["legal_moves"]
        observation = request["observation"]
        deadline = time.perf_counter() + time_budget_s(request, self.cap_ms)
        variant = observation["variant"]
        if variant == "solitaire":
            move = self._solitaire(observation)
            return self.greedy.choose(request) if move is None else _listed(legal, move)
        if variant != "competitive" or legal[0]["type"] != "flight":
            return self.greedy.choose(request)
        state = state_from_observation(observation)
        return _listed(legal, state.move_of(self.best_flight(state, deadline)))

    # ------------------------------------------------------------------ competitive

    def best_flight(self, state: VulkanState, deadline: float) -> Key:
        """The flight the playouts rate best among greedy's top :data:`CANDIDATES`."""
        ranked = self.greedy.ranked(state, CANDIDATES, None if self.playouts is not None else deadline)
        if len(ranked) == 1:
            return ranked[0].keys[0]
        me = state.to_move
        assert me is not None
        totals = [0.0] * len(ranked)
        played = 0
        while self._more(played, deadline):
            stream = derive_seed(self.seed, state.turn, self.rng.below(1 << 30))
            for i, candidate in enumerate(ranked):
                totals[i] += playout(state, candidate.keys[0], me, Rng(stream))
            played += 1
        best = max(range(len(ranked)), key=lambda i: (totals[i], -i))
        return ranked[best].keys[self.rng.below(len(ranked[best].keys))]

    def _more(self, played: int, deadline: float) -> bool:
        if self.playouts is not None:
            return played < self.playouts
        return played == 0 or time.perf_counter() < deadline

    # ------------------------------------------------------------------ solitaire

    def _solitaire(self, observation: dict[str, Any]) -> Move | None:
        if observation["phase"] == "volcano":
            return solitaire_volcano(observation)
        state = state_from_observation(observation)
        key = solitaire_step(state)
        return None if key is None else state.move_of(key)


def _listed(legal: Sequence[Move], wanted: Move) -> Move:
    """The legal move, as the request listed it, equal to ``wanted``."""
    return legal[legal.index(wanted)]


# ---------------------------------------------------------------------- playouts


def playout(state: VulkanState, first: Key, me: int, rng: Rng) -> float:
    """Play ``first`` on a copy, then every seat's quick policy to the end; the bot's reward."""
    game = state.copy()
    game.apply_key(first)
    for _ in range(PLAYOUT_MOVES):
        if game.to_move is None:
            break
        game.apply_key(quick_move(game, rng))
    scores = [game.score(seat) for seat in range(game.seats)]
    others = max(score for seat, score in enumerate(scores) if seat != me)
    margin = scores[me] - others
    return margin / 10.0 + (1.0 if margin > 0 else 0.5 if margin == 0 else 0.0)


def quick_move(state: VulkanState, rng: Rng) -> Key:
    """The playouts' policy: the most valuable tile one load of ours puts out for us, else a random
    legal flight."""
    seat = state.to_move
    assert seat is not None
    board = state.board
    colours = [c for c in state.seat_colours[seat] if state.supply[seat][c]]
    best: tuple[int, int, int] | None = None
    for cell in ripe_tiles(board):
        for colour in colours:
            winner, _ = award_to([*board.loads[cell], colour], seat, state.owners)
            if winner == seat and (best is None or board.values[cell] > best[0]):
                best = (board.values[cell], colour, cell)
    if best is not None:
        return ("flight", best[1], (best[2],))
    keys = state.legal_keys()
    return keys[rng.below(len(keys))]


# ---------------------------------------------------------------------- the solitaire plan


@dataclass(frozen=True)
class Cut:
    """Tiles to put out in this order; once all are out, every other tile is isolated."""

    order: tuple[int, ...]


def _free_corner(board_present: int, corners: tuple[tuple[int, int], ...]) -> bool:
    for a, b in corners:
        if (a == NO_CELL or not board_present >> a & 1) and (b == NO_CELL or not board_present >> b & 1):
            return True
    return False


def cheapest_cut(state: VulkanState) -> Cut | None:
    """The cut of fewest loads still needed, by a best-first search over which nearby tiles are gone.

    A tile can go next when it has two adjacent free edges with the tiles gone so far; it costs its
    free spaces. The goal is every neighbour of the volcano gone. Tiles farther than
    :data:`CUT_RADIUS` from the volcano stay put (they are what the cut isolates).
    """
    board = state.board
    volcano = board.volcano
    if volcano is None:
        return None
    layout = board.layout
    present = 0
    for cell in range(len(board.present)):
        if board.present[cell]:
            present |= 1 << cell
    centre = layout.coords[volcano]
    nearby = [
        cell
        for cell in range(len(layout))
        if present >> cell & 1 and cell != volcano and distance(layout.coords[cell], centre) <= CUT_RADIUS
    ]
    goal = 0
    for other in layout.neighbours[volcano]:
        if other != NO_CELL and present >> other & 1:
            goal |= 1 << other
    if not goal:
        return Cut(())
    cost_of = {cell: board.spaces[cell] - len(board.loads[cell]) for cell in nearby}
    frontier: list[tuple[int, int, tuple[int, ...]]] = [(0, present, ())]
    seen: set[int] = set()
    expansions = 0
    while frontier and expansions < CUT_EXPANSIONS:
        cost, now, order = heapq.heappop(frontier)
        if now in seen:
            continue
        seen.add(now)
        if not now & goal:
            return Cut(order)
        expansions += 1
        for cell in nearby:
            if now >> cell & 1 and _free_corner(now, layout.corners[cell]):
                after = now & ~(1 << cell)
                if after not in seen:
                    heapq.heappush(frontier, (cost + max(1, cost_of[cell]), after, (*order, cell)))
    return None


def plan_cost(state: VulkanState, cut: Cut) -> int:
    """Loads the plan still needs: one on every tile without any, then the cut's free spaces."""
    board = state.board
    empty = sum(1 for cell in board.forest() if not board.loads[cell])
    # a cut tile without loads gets its first one with the others, then needs the rest of its spaces
    in_cut = sum(board.spaces[cell] - max(1, len(board.loads[cell])) for cell in cut.order)
    return empty + in_cut


def solitaire_volcano(observation: dict[str, Any]) -> Move | None:
    """The volcano under which the whole plan costs the fewest loads (None: no plan anywhere)."""
    setup = {key: observation[key] for key in ("tiles", "volcano", "to_move")}
    state = GAME.start("solitaire", seats=1, seed=0, setup=setup)
    best: tuple[int, Key] | None = None
    for key in state.legal_keys():
        trial = state.copy()
        trial.apply_key(key)
        cut = cheapest_cut(trial)
        if cut is not None and (best is None or plan_cost(trial, cut) < best[0]):
            best = (plan_cost(trial, cut), key)
    return None if best is None else state.move_of(best[1])


def solitaire_step(state: VulkanState) -> Key | None:
    """The plan's next flight in a solitaire position, or None when no plan fits the loads left."""
    seat = state.to_move
    assert seat is not None
    cut = cheapest_cut(state)
    if cut is None or plan_cost(state, cut) > sum(state.supply[seat]):
        return None
    colour = max(state.seat_colours[seat], key=lambda c: state.supply[seat][c])
    board = state.board
    centre = board.layout.coords[board.volcano] if board.volcano is not None else (0, 0)
    empty = [cell for cell in board.forest() if not board.loads[cell]]
    empty.sort(key=lambda cell: (-distance(board.layout.coords[cell], centre), cell))
    for cell in empty:
        key: Key = ("flight", colour, (cell,))
        trial = state.copy()
        trial.apply_key(key)
        if trial.ended is None:
            return key
    if empty:
        return None
    for cell in cut.order:
        if board.present[cell] and len(board.loads[cell]) < board.spaces[cell]:
            return ("flight", colour, (cell,))
    return None


BOTS: dict[str, BotFactory] = {"search": SearchBot}
"""The planning bot, registered beside :mod:`bots.vulkan`'s (see :mod:`bots.registry`)."""
