"""A Catan bot that plans its turn: a shallow beam search over determinized copies of the game.

After its roll, the seat's turn is a sequence of its own decisions (build, buy, trade with the bank,
play a card) until it ends the turn; which sequence is best is a planning question the one-move
``heuristic`` bot answers only one build at a time. :class:`SearchBot` plans the whole rest of the
turn:

1. **Worlds.** It never reads the true state: from its own observation it builds a few
   *determinizations* (:func:`referee.catan_volcano.determinize.from_observation`): the other seats'
   cards, the deck's make-up and the random stream drawn to fit everything the observation shows.
2. **Beam.** In each world it tries every one of its legal moves (offers to other seats aside: their
   answers are not its to plan) on a :meth:`~referee.catan_volcano.state.CatanState.copy`, keeps the
   :data:`BEAM` best positions by :func:`evaluate`, extends those by one more move, and so on up to
   :data:`DEPTH` moves. Ending the turn is the same as stopping, so a plan's worth is the best
   position along it. A knight or road building card met along a plan is played out by small
   policies (:func:`_robber_choice`, the best free road).
3. **Choice.** Each first move is worth the mean over the worlds of its best plan; the best first
   move is played. The next request plans again from what really happened (a card bought, a steal).

:func:`evaluate` is a fixed score of one seat's position: points (a win above all), its production
in dice dots weighted by resource, the spread of its resources, the settlement spots its roads
reach, its cards toward the next builds with a penalty past seven cards (the robber's discard),
and development cards in hand.

Every other decision (setup, the roll, the robber after a 7, discards, gold, trade answers) is the
``heuristic`` bot's, and a decision with one legal move is played at once.

The work per decision is bounded by a count of positions evaluated (:data:`NODE_BUDGET`), which keeps
play reproducible from the seed; a time limit well inside the protocol's deadline (a fraction of
``request["time"]["move_ms"]``, capped by :data:`DEFAULT_CAP_MS`) stops the search early on a slow
machine, so it never costs the seat a timeout.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from bots.base import BotFactory, Move, Request
from bots.catan_volcano import HeuristicBot
from referee.catan_volcano import awards, building
from referee.catan_volcano.determinize import InconsistentObservation, from_observation
from referee.catan_volcano.edition import EDITION, GOLD, KNIGHT, VICTORY_POINT
from referee.catan_volcano.geometry import HEX_COUNT, HEX_NODES, NODE_HEXES
from referee.catan_volcano.state import CatanState
from referee.rng import Rng, derive_seed

WORLDS = 2
"""Determinizations per decision: only buying a card, a knight's steal and a monopoly depend on
hidden cards; building and bank trades are the same in every world."""
BEAM = 5
"""Positions kept at each depth of the beam."""
DEPTH = 4
"""Own moves planned ahead within the turn (a bank trade or two, then the build they pay for)."""
NODE_BUDGET = 1500
"""Positions evaluated per decision at most (over all worlds): the bound that keeps play
reproducible."""
DEFAULT_CAP_MS = 150.0
"""The most a decision may take however long the protocol allows (Catan games are ~1,000 moves)."""
TIME_FRACTION = 0.25
"""Of the per-move time the protocol gives, the share the search may use (the rest is margin for
the network and the referee)."""
PLANNED_PHASES = frozenset({"main"})

WIN = 1_000_000.0
POINT = 100.0
PIP = 5.0
"""Per dice dot of production (a settlement on 6-8-5 makes 13 dots: worth 65)."""
SPREAD = 8.0
"""Per different resource produced."""
CARD = 3.0
CARD_CAP = 4
"""Cards of one resource beyond this count for nothing (they are what the bank trades are for)."""
CROWDED = 4.0
"""Per card beyond seven: the robber's discard takes half the hand on a 7."""
DEV_CARD = 12.0
SPOT = 12.0
"""For having a settlement spot reachable on one's roads, plus its dots (:data:`SPOT_PIP`)."""
SPOT_PIP = 1.5
ROAD = 2.0
"""Per segment of the seat's longest road (toward the award)."""
RESOURCE_WEIGHT = (1.0, 1.0, 0.9, 1.1, 1.1)
"""Wood, brick, sheep, wheat, ore: wheat and ore make cities and cards."""
GOLD_WEIGHT = 1.2
"""A gold dot is any resource the seat picks: a little more than one resource's."""


def pips(number: int | None) -> int:
    return 0 if number is None else 6 - abs(7 - number)


def evaluate(state: CatanState, seat: int) -> float:
    """A fixed score of ``seat``'s position (higher is better); see the module doc."""
    if state.phase == "over":
        return WIN if state.winner == seat else awards.points(state, seat) * POINT - WIN
    score = awards.points(state, seat) * POINT
    numbers, production, level = state.layout.numbers, state.tables.production, state.node_level
    produced = [0.0] * 6
    for node in _buildings(state, seat):
        for hex_id in NODE_HEXES[node]:
            resource = production[hex_id]
            if resource >= 0:
                dots = pips(numbers[hex_id]) * level[node] * (0.5 if hex_id == state.robber else 1.0)
                produced[resource] += dots
    weights = (*RESOURCE_WEIGHT, GOLD_WEIGHT)
    score += PIP * sum(dots * weight for dots, weight in zip(produced, weights, strict=True))
    score += SPREAD * sum(1 for r in range(5) if produced[r] or produced[GOLD])  # gold is every kind
    hand = state.hands[seat]
    score += CARD * sum(min(count, CARD_CAP) for count in hand)
    held = sum(hand)
    if held > EDITION.discard_above:
        score -= CROWDED * (held - EDITION.discard_above)
    devs = state.devs[seat]
    score += DEV_CARD * (sum(devs) - devs[VICTORY_POINT]) + (2.0 if devs[KNIGHT] else 0.0)
    if state.pieces[seat][1]:
        spots = building.settlement_spots(state, seat)
        if spots:
            best = max(sum(pips(numbers[h]) for h in NODE_HEXES[n] if production[h] != -1) for n in spots)
            score += SPOT + SPOT_PIP * best
    score += ROAD * min(state.road_length[seat], 8)
    return score


def _buildings(state: CatanState, seat: int) -> list[int]:
    owner = state.node_owner
    return [node for node in range(len(owner)) if owner[node] == seat]


def _robber_choice(state: CatanState, seat: int, legal: list[Move]) -> Move:
    """Within a plan: the hex that blocks the most opponent dots (none of the seat's own), stealing
    from the seat there holding the most cards."""
    numbers, owner, level = state.layout.numbers, state.node_owner, state.node_level
    worth = [0.0] * HEX_COUNT
    for hex_id in range(HEX_COUNT):
        for node in HEX_NODES[hex_id]:
            if owner[node] == seat:
                worth[hex_id] -= 100.0
            elif owner[node] >= 0:
                worth[hex_id] += pips(numbers[hex_id]) * level[node]

    def score(move: Move) -> float:
        victim = move["victim"]
        return worth[move["hex"]] + (0.0 if victim is None else 0.1 * sum(state.hands[victim]))

    return max(legal, key=score)


def _planned(legal: list[Move]) -> list[Move]:
    """The moves a plan may contain: all but offers to other seats (their answers are not ours)."""
    return [move for move in legal if move["type"] != "offer_trade"]


class Planner:
    """One decision's beam search over a few worlds, within a node budget and a deadline."""

    def __init__(self, seat: int, deadline: float, budget: int) -> None:
        self.seat = seat
        self.deadline = deadline
        self.budget = budget
        self.evaluated = 0

    def out_of_work(self) -> bool:
        return self.evaluated >= self.budget or time.perf_counter() >= self.deadline

    def after(self, state: CatanState, move: Move) -> CatanState:
        """The position after ``move``, the seat's in-plan decisions (robber, free roads) played."""
        child = state.copy()
        child.apply(move)
        while child.current == self.seat and child.phase in ("robber", "road_building"):
            legal = child.legal_moves()
            if child.phase == "robber":
                child.apply(_robber_choice(child, self.seat, legal))
            else:
                child.apply(max(legal, key=lambda road: self.value(child, road)))
        return child

    def value(self, state: CatanState, move: Move) -> float:
        self.evaluated += 1
        child = state.copy()
        child.apply(move)
        return evaluate(child, self.seat)

    def plans(self, world: CatanState) -> dict[int, float]:
        """Per first move (its index in the legal list): the best position a plan from it reaches."""
        legal = world.legal_moves()
        best: dict[int, float] = {}
        frontier: list[tuple[float, int, CatanState]] = []
        for index, move in enumerate(legal):
            if self.out_of_work() and best:
                break
            if move["type"] == "offer_trade":
                continue
            if move["type"] == "end_turn":
                best[index] = evaluate(world, self.seat)
                continue
            child = self.after(world, move)
            self.evaluated += 1
            worth = evaluate(child, self.seat)
            best[index] = worth
            frontier.append((worth, index, child))
        for _ in range(DEPTH - 1):
            frontier.sort(key=lambda item: -item[0])
            grown: list[tuple[float, int, CatanState]] = []
            for _, first, position in frontier[:BEAM]:
                if position.current != self.seat or position.phase not in PLANNED_PHASES:
                    continue
                for move in _planned(position.legal_moves()):
                    if move["type"] == "end_turn":
                        continue
                    if self.out_of_work():
                        return best
                    child = self.after(position, move)
                    self.evaluated += 1
                    worth = evaluate(child, self.seat)
                    if worth > best[first]:
                        best[first] = worth
                    grown.append((worth, first, child))
            if not grown:
                break
            frontier = grown
        return best


def time_budget_s(request: Mapping[str, Any], cap_ms: float) -> float:
    """The seconds a decision may take: a fraction of the protocol's per-move time, capped."""
    allowed = request.get("time", {}).get("move_ms")
    if not isinstance(allowed, int | float) or allowed <= 0:
        return cap_ms / 1000.0
    return min(cap_ms, TIME_FRACTION * allowed) / 1000.0


class SearchBot:
    """Plans the rest of its turn by beam search over determinized copies; see the module doc."""

    def __init__(
        self, seed: int, node_budget: int = NODE_BUDGET, cap_ms: float = DEFAULT_CAP_MS, worlds: int = WORLDS
    ) -> None:
        self.rng = Rng(derive_seed(seed, "catan-search"))
        self.heuristic = HeuristicBot(seed)
        self.node_budget = node_budget
        self.cap_ms = cap_ms
        self.worlds = worlds

    def choose(self, request: Request) -> Move:
        legal: list[Move] = request["legal_moves"]
        if len(legal) == 1:
            return legal[0]
        observation = request["observation"]
        if observation["phase"] not in PLANNED_PHASES or len(_planned(legal)) == 1:
            return self.heuristic.choose(request)
        deadline = time.perf_counter() + time_budget_s(request, self.cap_ms)
        try:
            worlds = [from_observation(observation, self.rng) for _ in range(self.worlds)]
        except InconsistentObservation:
            return self.heuristic.choose(request)
        planner = Planner(request["seat"], deadline, self.node_budget)
        totals: dict[int, float] = {}
        counts: dict[int, int] = {}
        for world in worlds:
            if world.legal_moves() != legal:  # not the position asked about: trust the heuristic
                return self.heuristic.choose(request)
            for index, worth in planner.plans(world).items():
                totals[index] = totals.get(index, 0.0) + worth
                counts[index] = counts.get(index, 0) + 1
        if not totals:
            return self.heuristic.choose(request)
        best = max(totals, key=lambda index: (totals[index] / counts[index], -index))
        return legal[best]


BOTS: dict[str, BotFactory] = {"search": SearchBot}
"""The planning bot, registered beside :mod:`bots.catan_volcano`'s (see :mod:`bots.registry`)."""
