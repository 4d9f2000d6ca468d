"""Reference bots for Vulkan!: ``random`` and ``greedy``.

``greedy`` looks one flight ahead, and one reply further. For each different effect among its legal
flights (flights that drop the same colour on the same tiles do the same thing) it plays the flight
on a copy of the board and scores

    what it gains  -  what the flight hands to other seats  -  the most the next seat can then gain

(gains in fire value; when the bot itself moves next, nothing is taken off). Ties go to the flight
with the bigger immediate gain, then to the bot's seeded stream; among flights of the same effect it
picks by the stream too. In the solitaire and cooperative variants it maximises the team's immediate
gain and avoids a flight that loses the game (an empty tile isolated) whenever another exists. The
volcano, which no flight decides, is a seeded pick.

The search stays cheap in four ways. Flights are played on a bare copy of the board through the
engine's own stages (drops, cascade, isolation, awards), without events. Only a flight that fills a
*ripe* tile (one free space left, two adjacent free edges) can take anything: between turns no full
tile could go out, so the first tile to go out must be filled by this flight, and isolation needs a
tile to go out first. A reply search stops once the reply is big enough to rule the candidate out,
and candidates are tried biggest gain first, so the whole search stops when no later one can do
better. Last, once a decision has simulated :data:`SIMULATION_BUDGET` flights (its own candidates
included, which are always all simulated) it searches no more replies and keeps the best candidate
scored so far: a bound in work, not in time, so play stays reproducible from the seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bots.base import BotFactory, Move, RandomBot, Request
from referee.rng import Rng, derive_seed
from referee.vulkan import VulkanState, state_from_observation
from referee.vulkan.position import Key
from referee.vulkan.rules import Board, award_to, drop_loads, flight_paths, next_flyer, planned_drops, resolve

Effect = tuple[int, tuple[int, ...]]
"""What decides a flight's result: its colour and the tiles it drops on, in order."""

LOSS = -1000.0
"""The score of a flight that loses a team game: worse than any gain."""

SIMULATION_BUDGET = 4000
"""Flights simulated per decision at most (a few hundred is typical; see the module docstring)."""


@dataclass
class Simulated:
    """A simulated flight: the board after it, each seat's gain, and whether an empty tile was cut off."""

    board: Board
    gains: list[int]
    empty_isolated: bool


@dataclass
class Candidate:
    """One effect among the bot's legal flights, the keys that have it, and what it brings at once."""

    effect: Effect
    keys: list[Key]
    result: Simulated
    base: float


class Search:
    """The simulations of one decision, counted against the budget."""

    def __init__(self, state: VulkanState, budget: int) -> None:
        self.owners = state.owners
        self.seat_colours = state.seat_colours
        self.seats = state.seats
        self.left = budget

    def simulate(self, board: Board, effect: Effect, flyer: int) -> Simulated:
        """Play a flight of this effect on a copy of ``board`` with the engine's stages."""
        self.left -= 1
        colour, drops = effect
        after = board.copy()
        drop_loads(after, drops, colour, len(drops))
        rounds, cut_off = resolve(after, drops)
        gains = [0] * self.seats
        empty_isolated = False
        for cell in [*(cell for cells in rounds for cell in cells), *cut_off]:
            seat, _ = award_to(after.loads[cell], flyer, self.owners)
            if seat is None:
                empty_isolated = True
            else:
                gains[seat] += after.values[cell]
            after.loads[cell] = []
        return Simulated(after, gains, empty_isolated)

    def best_gain(self, board: Board, seat: int, supply: list[int], enough: float) -> int:
        """The most fire value ``seat`` can gain with one flight on ``board``; stops early once it has
        found ``enough`` or the budget is spent.

        One-tile flights onto ripe tiles, the most valuable first, usually settle it; only then are
        all the flights through ripe tiles listed, those filling the most ripe value first.
        """
        ripe = ripe_tiles(board)
        colours = [colour for colour in self.seat_colours[seat] if supply[colour]]
        if not ripe or not colours:
            return 0
        values = board.values
        quick: list[Effect] = [
            (colour, (cell,)) for cell in sorted(ripe, key=lambda c: (-values[c], c)) for colour in colours
        ]
        best = self._best_of(board, seat, quick, enough)
        if best >= enough or self.left <= 0:
            return best
        paths = [path for path in flight_paths(board) if not ripe.isdisjoint(path)]
        rest = set()
        for colour in colours:
            for path in paths:
                drops = tuple(planned_drops(board, path, supply[colour]))
                if len(drops) > 1 and not ripe.isdisjoint(drops):
                    rest.add((colour, drops))
        order = sorted(rest, key=lambda e: (-sum(values[c] for c in e[1] if c in ripe), e))
        return max(best, self._best_of(board, seat, order, enough))

    def _best_of(self, board: Board, seat: int, effects: list[Effect], enough: float) -> int:
        best = 0
        for effect in effects:
            if self.left <= 0:
                break
            best = max(best, self.simulate(board, effect, seat).gains[seat])
            if best >= enough:
                break
        return best


def ripe_tiles(board: Board) -> set[int]:
    """Tiles one more load would put out: one free space left and two adjacent free edges."""
    return {
        cell
        for cell in board.forest()
        if board.spaces[cell] - len(board.loads[cell]) == 1 and board.has_adjacent_free_edges(cell)
    }


def flight_effect(state: VulkanState, key: Key) -> Effect:
    """The colour and tiles a legal flight of the seat to move drops on."""
    _, colour, path = key
    seat = state.to_move
    assert seat is not None
    return colour, tuple(planned_drops(state.board, path, state.supply[seat][colour]))


class GreedyBot:
    """One flight ahead, minus the best reply of the next seat (see the module docstring)."""

    def __init__(self, seed: int, budget: int = SIMULATION_BUDGET) -> None:
        self.rng = Rng(derive_seed(seed, "vulkan-greedy"))
        self.budget = budget

    def choose(self, request: Request) -> Move:
        legal: list[Move] = request["legal_moves"]
        if legal[0]["type"] != "flight":
            return self.rng.choice(legal)
        state = state_from_observation(request["observation"])
        team = request["observation"]["variant"] != "competitive"
        key = self.rng.choice(self.best(state, team).keys)
        return legal[legal.index(state.move_of(key))]

    def ranked(self, state: VulkanState, limit: int, deadline: float | None = None) -> list[Candidate]:
        """Greedy's ``limit`` best candidates in a competitive flight phase, best first, each scored in
        full (gain, less what it hands others, less the next seat's best reply; within the budget).

        Past ``deadline`` (a ``time.perf_counter()`` value) no further candidate is scored: the
        first always is, and only scored ones are returned.
        """
        search = Search(state, self.budget)
        candidates = self._candidates(state, search, team=False)
        scored: list[tuple[float, Candidate]] = []
        for candidate in candidates[: 3 * limit]:
            if scored and deadline is not None and time.perf_counter() > deadline:
                break
            reply = self._reply(search, state, candidate, enough=float("inf"))
            scored.append((candidate.base - reply, candidate))
        scored.sort(key=lambda pair: pair[0], reverse=True)  # stable: greedy's order among equals
        return [candidate for _, candidate in scored[:limit]]

    def _candidates(self, state: VulkanState, search: Search, team: bool) -> list[Candidate]:
        """Every effect among the legal flights, simulated once, biggest immediate gain first."""
        me = state.to_move
        assert me is not None
        groups: dict[Effect, list[Key]] = {}
        for key in state.legal_keys():
            groups.setdefault(flight_effect(state, key), []).append(key)
        candidates = []
        for effect, keys in groups.items():
            result = search.simulate(state.board, effect, me)
            if team:
                base = LOSS if result.empty_isolated else float(sum(result.gains))
            else:
                base = float(2 * result.gains[me] - sum(result.gains))
            candidates.append(Candidate(effect, keys, result, base))
        self.rng.shuffle(candidates)
        candidates.sort(key=lambda c: c.base, reverse=True)  # stable: random among equal gains
        return candidates

    def best(self, state: VulkanState, team: bool) -> Candidate:
        """The candidate flight effect the bot plays in ``state`` (a flight phase)."""
        search = Search(state, self.budget)
        candidates = self._candidates(state, search, team)
        if team:
            return candidates[0]
        best, best_score = candidates[0], float("-inf")
        for candidate in candidates:
            if candidate.base <= best_score or search.left <= 0:
                break  # a reply only takes away, so no later candidate can do better
            reply = self._reply(search, state, candidate, enough=candidate.base - best_score)
            if candidate.base - reply > best_score:
                best, best_score = candidate, candidate.base - reply
        return best

    @staticmethod
    def _reply(search: Search, state: VulkanState, candidate: Candidate, enough: float) -> int:
        """The most the seat flying after this candidate can gain (0 when that is the bot again)."""
        me = state.to_move
        assert me is not None
        colour, drops = candidate.effect
        supply = [row[:] for row in state.supply]
        supply[me][colour] -= len(drops)
        board = candidate.result.board
        seat, _ = next_flyer(board, supply, (me + 1) % state.seats)
        if seat is None or seat == me:
            return 0
        return search.best_gain(board, seat, supply[seat], enough)


BOTS: dict[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}
"""This module's bots; ``search`` is in :mod:`bots.vulkan_search`, which builds on greedy here
(:mod:`bots.registry` lists both modules)."""
