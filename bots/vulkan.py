"""Reference bots for Vulkan!: ``random`` and ``greedy``.

``greedy`` looks one flight ahead, and one reply further. For each different effect among its legal
flights (flights that drop the same colour on the same tiles do the same thing) it plays the flight
on a copy of the position rebuilt from the observation and scores

    what it gains  -  what the flight hands to other seats  -  the most the next seat can then gain

(gains in fire value; when the bot itself moves next, nothing is taken off). Ties go to the flight
with the bigger immediate gain, then to the bot's seeded stream; among flights of the same effect it
picks by the stream too. In the solitaire and cooperative variants it maximises the team's immediate
gain and avoids a flight that loses the game (an empty tile isolated) whenever another exists. The
volcano, which no flight decides, is a seeded pick.

The search stays cheap in three ways. Flights are played on a copy of the board through the
engine's own stages, without events. Only a flight that fills a tile which has two adjacent free
edges and exactly one free space can take anything: between turns no full tile could go out, so the
first tile to go out must be filled by this flight, and isolation needs a tile to go out first. And a
reply search stops as soon as the reply is big enough to rule the candidate out (candidates are
tried biggest gain first, and a reply only ever takes away).
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.base import Move, RandomBot, Request
from referee.game import canonical_json
from referee.rng import Rng, derive_seed
from referee.vulkan import VulkanState, state_from_observation
from referee.vulkan.rules import award_to, drop_loads, planned_drops, resolve
from referee.vulkan.state import Key

Effect = tuple[int, tuple[int, ...]]
"""What decides a flight's result: its colour and the tiles it drops on, in order."""

LOSS = -1000.0
"""The score of a flight that loses a team game: worse than any gain."""


@dataclass
class Candidate:
    """One effect among the legal flights, every key that has it, and what it brings at once."""

    keys: list[Key]
    base: float


def flight_effect(state: VulkanState, key: Key) -> Effect:
    _, colour, path = key
    seat = state.to_move
    assert seat is not None
    return colour, tuple(planned_drops(state.board, path, state.supply[seat][colour]))


def effects(state: VulkanState) -> dict[Effect, list[Key]]:
    """The legal flights of the seat to move, grouped by effect (in legal-move order)."""
    groups: dict[Effect, list[Key]] = {}
    for key in state.legal_keys():
        groups.setdefault(flight_effect(state, key), []).append(key)
    return groups


def flight_gains(state: VulkanState, effect: Effect) -> tuple[list[int], bool]:
    """Fire value each seat would be awarded by a flight of this effect, and whether a tile without
    loads would be isolated. Runs the engine's stages on a copy of the board; the state is untouched."""
    colour, drops = effect
    flyer = state.to_move
    assert flyer is not None
    board = state.board.copy()
    drop_loads(board, drops, colour, len(drops))
    rounds, cut_off = resolve(board, drops)
    gains = [0] * state.seats
    empty_isolated = False
    for cell in [*(cell for cells in rounds for cell in cells), *cut_off]:
        seat, _ = award_to(board.loads[cell], flyer, state.owners)
        if seat is None:
            empty_isolated = True
        else:
            gains[seat] += board.values[cell]
    return gains, empty_isolated


def ripe_tiles(state: VulkanState) -> set[int]:
    """Tiles one more load would put out: one free space left and two adjacent free edges."""
    board = state.board
    return {
        cell
        for cell in board.forest()
        if board.spaces[cell] - len(board.loads[cell]) == 1 and board.has_adjacent_free_edges(cell)
    }


def best_gain(state: VulkanState, enough: float = float("inf")) -> int:
    """The most fire value the seat to move can gain with its next flight; the search stops early
    once it has found ``enough``. Flights filling the most valuable ripe tiles are tried first."""
    seat = state.to_move
    if seat is None:
        return 0
    ripe = ripe_tiles(state)
    if not ripe:
        return 0
    values = state.board.values
    promising = [effect for effect in effects(state) if not ripe.isdisjoint(effect[1])]
    promising.sort(key=lambda effect: -sum(values[cell] for cell in effect[1] if cell in ripe))
    best = 0
    for effect in promising:
        best = max(best, flight_gains(state, effect)[0][seat])
        if best >= enough:
            break
    return best


class GreedyBot:
    """One flight ahead, minus the best reply of the next seat (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(derive_seed(seed, "vulkan-greedy"))

    def choose(self, request: Request) -> Move:
        legal = request["legal_moves"]
        if legal[0]["type"] != "flight":
            return self.rng.choice(legal)
        state = state_from_observation(request["observation"])
        team = request["observation"]["variant"] != "competitive"
        key = self.rng.choice(self._best(state, team).keys)
        chosen = canonical_json(state.move_of(key))
        return next(move for move in legal if canonical_json(move) == chosen)

    def _best(self, state: VulkanState, team: bool) -> Candidate:
        me = state.to_move
        assert me is not None
        candidates = []
        for effect, keys in effects(state).items():
            gains, empty_isolated = flight_gains(state, effect)
            if team:
                base = LOSS if empty_isolated else float(sum(gains))
            else:
                base = float(2 * gains[me] - sum(gains))
            candidates.append(Candidate(keys, base))
        self.rng.shuffle(candidates)
        candidates.sort(key=lambda c: c.base, reverse=True)  # stable: random among equal gains
        if team:
            return candidates[0]
        best, best_score = candidates[0], float("-inf")
        for candidate in candidates:
            if candidate.base <= best_score:
                break  # a reply only takes away, so no later candidate can do better
            after = state.copy()
            after.apply_key(candidate.keys[0])
            replies = after.to_move not in (None, me)  # after a pass the bot itself flies next
            reply = best_gain(after, enough=candidate.base - best_score) if replies else 0
            if candidate.base - reply > best_score:
                best, best_score = candidate, candidate.base - reply
        return best


BOTS = {"random": RandomBot, "greedy": GreedyBot}
