"""Reference bots for Catan with the volcano variants: ``random``, ``heuristic`` and ``search`` (the
last plans its turns by beam search over determinized copies: :mod:`bots.catan_search`).

``heuristic`` reads only the request (observation and legal moves), like any HTTP bot. It scores
every legal move with a small function per move type (:data:`SCORERS`) and plays the best:

- placement by pip count: a node is worth the dice dots of its producing hexes, a little more for
  each different resource and for a harbour, less next to a volcano's lava;
- builds toward points: a city first, then a settlement, then a development card, roads only
  toward a free settlement spot; it aims at one build at a time and keeps the cards it needs;
- uses harbours: trades with the bank at its best rate, giving only cards its aim does not need;
- sends the robber where it hurts the opponents most and never itself, steals from the leader,
  picks gold and year-of-plenty cards for its aim, discards what its aim needs least, accepts
  seat trades that help its aim and makes none itself.

>>> from referee.catan_volcano import GAME
>>> state = GAME.start("gold", seats=4, seed=3)
>>> request = {"seat": 0, "observation": state.observation(0), "legal_moves": state.legal_moves()}
>>> HeuristicBot(1).choose(request)["type"]
'place_settlement'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bots.base import BotFactory, Move, RandomBot, Request
from referee.rng import Rng, derive_seed

RESOURCES = ("wood", "brick", "sheep", "wheat", "ore")
COSTS: dict[str, dict[str, int]] = {
    "city": {"wheat": 2, "ore": 3},
    "settlement": {"wood": 1, "brick": 1, "sheep": 1, "wheat": 1},
    "development_card": {"sheep": 1, "wheat": 1, "ore": 1},
    "road": {"wood": 1, "brick": 1},
}

DIVERSITY_WORTH = 1.0
HARBOUR_WORTH = 0.5
GOLD_SHARE = 1.2
"""Gold is any resource: its dots count a little more than one resource's."""
LAVA_COST = 1.5
"""Per neighbouring volcano: the chance of losing the building."""


def pips(number: int | None) -> int:
    """The dots on a number token: how many of the 36 rolls of two dice give it."""
    return 0 if number is None else 6 - abs(7 - number)


@dataclass(frozen=True)
class BoardFacts:
    """What the bot derives once per board from the observation."""

    node_hexes: tuple[tuple[int, ...], ...]
    node_edges: tuple[tuple[int, ...], ...]
    edge_nodes: tuple[tuple[int, int], ...]
    hex_nodes: tuple[tuple[int, ...], ...]
    node_worth: tuple[float, ...]
    hex_pips: tuple[int, ...]

    @classmethod
    def read(cls, board: dict[str, Any]) -> BoardFacts:
        node_hexes = tuple(tuple(h) for h in board["node_hexes"])
        hexes = board["hexes"]
        volcanoes = {v["hex"] for v in board["volcanoes"]}
        harbour_nodes = {n for harbour in board["harbours"] for n in harbour["nodes"]}
        hex_pips = tuple(pips(h["number"]) if h["resource"] else 0 for h in hexes)
        worths = []
        for node, around in enumerate(node_hexes):
            produced = {hexes[h]["resource"] for h in around if hexes[h]["resource"]}
            worth = sum(hex_pips[h] * (GOLD_SHARE if hexes[h]["resource"] == "gold" else 1.0) for h in around)
            worth += DIVERSITY_WORTH * len(produced)
            worth += HARBOUR_WORTH if node in harbour_nodes else 0.0
            worth -= LAVA_COST * sum(1 for h in around if h in volcanoes)
            worths.append(worth)
        return cls(
            node_hexes=node_hexes,
            node_edges=tuple(tuple(e) for e in board["node_edges"]),
            edge_nodes=tuple((a, b) for a, b in board["edge_nodes"]),
            hex_nodes=tuple(tuple(h) for h in board["hex_nodes"]),
            node_worth=tuple(worths),
            hex_pips=hex_pips,
        )


class Table:
    """One request, read for scoring: who owns what, the seat's hand and what it aims to build."""

    def __init__(self, facts: BoardFacts, request: Request) -> None:
        obs = request["observation"]
        self.facts = facts
        self.obs = obs
        self.seat: int = request["seat"]
        self.legal: list[Move] = request["legal_moves"]
        self.owner = {b["node"]: b["seat"] for b in obs["buildings"]}
        self.level = {b["node"]: b["kind"] for b in obs["buildings"]}
        self.roads = {r["edge"]: r["seat"] for r in obs["roads"]}
        you = obs["you"]
        self.hand: dict[str, int] = dict(you["hand"])
        self.rates: dict[str, int] = you["trade_rates"]
        self.me = obs["players"][self.seat]
        self.settlement_spots = [m["node"] for m in self.legal if m["type"] == "build_settlement"]
        self.aim = self._aim()
        self.need = (
            {r: max(0, COSTS[self.aim].get(r, 0) - self.hand[r]) for r in RESOURCES} if self.aim else {}
        )

    def free_spot(self, node: int) -> bool:
        """The distance rule allows a settlement here (ignoring roads)."""
        if node in self.owner:
            return False
        return all(other not in self.owner for other in self.neighbours(node))

    def neighbours(self, node: int) -> list[int]:
        facts = self.facts
        return [a + b - node for e in facts.node_edges[node] for a, b in (facts.edge_nodes[e],)]

    def my_settlements(self) -> list[int]:
        return [n for n, s in self.owner.items() if s == self.seat and self.level[n] == "settlement"]

    def reachable_spot_worth(self) -> float:
        """The best free spot one or two edges beyond the seat's roads (what a road would open)."""
        ends = {n for e, s in self.roads.items() if s == self.seat for n in self.facts.edge_nodes[e]}
        best = 0.0
        for end in ends:
            if self.owner.get(end, self.seat) != self.seat:
                continue
            for near in self.neighbours(end):
                for spot in (near, *self.neighbours(near)):
                    if self.free_spot(spot):
                        best = max(best, self.facts.node_worth[spot])
        return best

    def _aim(self) -> str | None:
        pieces = self.me["pieces_left"]
        if pieces["cities"] and self.my_settlements():
            city_missing = sum(max(0, n - self.hand[r]) for r, n in COSTS["city"].items())
            if city_missing <= 2 or not (self.settlement_spots or self.reachable_spot_worth()):
                return "city"
        if pieces["settlements"] and self.settlement_spots:
            return "settlement"
        if pieces["settlements"] and pieces["roads"] and self.reachable_spot_worth() > 0:
            return "road"
        if pieces["cities"] and self.my_settlements():
            return "city"
        if self.obs["development_cards_left"]:
            return "development_card"
        return None

    def surplus(self, resource: str) -> int:
        keep = COSTS[self.aim].get(resource, 0) if self.aim else 0
        return self.hand[resource] - keep


Scorer = Callable[[Table, Move], float]


def _settle_spot(table: Table, move: Move) -> float:
    return table.facts.node_worth[move["node"]]


def _road_towards(table: Table, move: Move) -> float:
    """Setup and free roads: toward the best free spot beyond the road's far end."""
    a, b = table.facts.edge_nodes[move["edge"]]
    far = b if table.owner.get(a) == table.seat or _touches_own_road(table, a) else a
    best = 0.0
    for spot in (far, *table.neighbours(far)):
        if table.free_spot(spot):
            best = max(best, table.facts.node_worth[spot])
    return best


def _touches_own_road(table: Table, node: int) -> bool:
    return any(table.roads.get(e) == table.seat for e in table.facts.node_edges[node])


def _build_road(table: Table, move: Move) -> float:
    if table.aim != "road":
        return -1.0
    return 40.0 + _road_towards(table, move)


def _build_settlement(table: Table, move: Move) -> float:
    return 90.0 + table.facts.node_worth[move["node"]]


def _build_city(table: Table, move: Move) -> float:
    return 100.0 + table.facts.node_worth[move["node"]]


def _buy_card(table: Table, move: Move) -> float:
    return 30.0 if table.aim == "development_card" else -1.0


def _after_trade_missing(table: Table, give: str, count: int, get: str) -> int:
    hand = dict(table.hand)
    hand[give] -= count
    hand[get] += 1
    return sum(max(0, n - hand[r]) for r, n in COSTS[table.aim].items()) if table.aim else 99


def _maritime(table: Table, move: Move) -> float:
    give, get = move["give"], move["get"]
    count = table.rates[give]
    if not table.aim or table.need.get(get, 0) == 0 or table.surplus(give) < count:
        return -1.0
    return 50.0 if _after_trade_missing(table, give, count, get) == 0 else 20.0


def _robber_on_me(table: Table) -> bool:
    robber_hex = table.obs["robber"]
    return any(table.owner.get(n) == table.seat for n in table.facts.hex_nodes[robber_hex])


def _knight(table: Table, move: Move) -> float:
    if _robber_on_me(table):
        return 60.0
    return 15.0


def _road_building(table: Table, move: Move) -> float:
    return 30.0 if table.reachable_spot_worth() > 0 else -1.0


def _year_of_plenty(table: Table, move: Move) -> float:
    if not table.aim:
        return -1.0
    hand = dict(table.hand)
    hand[move["first"]] += 1
    hand[move["second"]] += 1
    missing = sum(max(0, n - hand[r]) for r, n in COSTS[table.aim].items())
    return 45.0 - 10.0 * missing


def _monopoly(table: Table, move: Move) -> float:
    return 20.0 + table.need.get(move["resource"], 0)


def _robber(table: Table, move: Move) -> float:
    players = table.obs["players"]
    worth = 0.0
    for node in table.facts.hex_nodes[move["hex"]]:
        owner = table.owner.get(node)
        if owner is None:
            continue
        weight = 2.0 if table.level[node] == "city" else 1.0
        if owner == table.seat:
            worth -= 100.0
        else:
            worth += (
                weight * table.facts.hex_pips[move["hex"]] * (1.0 + players[owner]["points_showing"] / 10)
            )
    victim = move["victim"]
    if victim is not None:
        worth += 0.5 * players[victim]["points_showing"] + 0.1 * players[victim]["resource_cards"]
    return worth


def _discard(table: Table, move: Move) -> float:
    return float(table.surplus(move["resource"]))


def _gold(table: Table, move: Move) -> float:
    resource = move["resource"]
    return 10.0 * table.need.get(resource, 0) - table.hand[resource]


def _answer(table: Table, move: Move) -> float:
    offer = table.obs["pending"]["offer"]
    helps = table.need.get(offer["give"], 0) > 0 and table.surplus(offer["get"]) >= offer["get_count"]
    return 1.0 if helps else -1.0


def _confirm(table: Table, move: Move) -> float:
    points: int = table.obs["players"][move["seat"]]["points_showing"]
    return 10.0 - points


SCORERS: dict[str, Scorer] = {
    "place_settlement": _settle_spot,
    "place_road": _road_towards,
    "roll": lambda table, move: 10.0,
    "end_turn": lambda table, move: 0.0,
    "build_road": _build_road,
    "build_settlement": _build_settlement,
    "build_city": _build_city,
    "buy_development_card": _buy_card,
    "maritime_trade": _maritime,
    "offer_trade": lambda table, move: -5.0,
    "accept_trade": _answer,
    "decline_trade": lambda table, move: 0.0,
    "confirm_trade": _confirm,
    "cancel_trade": lambda table, move: 0.0,
    "play_knight": _knight,
    "play_road_building": _road_building,
    "play_year_of_plenty": _year_of_plenty,
    "play_monopoly": _monopoly,
    "move_robber": _robber,
    "discard": _discard,
    "choose_gold": _gold,
}
"""A score per move type; the best-scoring legal move is played (ties: the first listed)."""


class HeuristicBot:
    """Pip-count placement, builds toward points, harbour-aware bank trades. See the module doc."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(derive_seed(seed, "catan-heuristic"))
        self._facts: BoardFacts | None = None
        self._board_key: Any = None

    def facts(self, board: dict[str, Any]) -> BoardFacts:
        key = tuple((h["terrain"], h["number"]) for h in board["hexes"])
        if key != self._board_key:
            self._facts = BoardFacts.read(board)
            self._board_key = key
        assert self._facts is not None
        return self._facts

    def choose(self, request: Request) -> Move:
        legal: list[Move] = request["legal_moves"]
        if len(legal) == 1:
            return legal[0]
        table = Table(self.facts(request["observation"]["board"]), request)
        best, best_score = legal[0], float("-inf")
        for move in legal:
            score = SCORERS[move["type"]](table, move)
            if score > best_score:
                best, best_score = move, score
        return best


BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
"""This module's bots; the planning bot ``search`` is in :mod:`bots.catan_search`, which builds on
the heuristic here (:mod:`bots.registry` lists both modules)."""
