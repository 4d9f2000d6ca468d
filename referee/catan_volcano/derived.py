"""What follows from where the pieces stand, worked out once per arrangement of the pieces.

Most moves (rolls, trades, discards, the end of a turn) leave the buildings and roads where they
were, yet the legal moves, production and the observation all ask what the pieces imply: where a
seat may build, its bank trade rates, who may be robbed on each hex, what each number pays, the
buildings and roads as JSON. A :class:`Derived` answers these, each worked out on first use and kept,
for one arrangement: :func:`referee.catan_volcano.placed.derived` hands out the state's current
one. The engine counts every change it makes to the ownership lists (``state.board_moves``: a
building, a road, lava; counted by the mutators of :mod:`referee.catan_volcano.changes`), and so does
:meth:`~referee.catan_volcano.state.CatanState.remember_legal` (a position set up by hand calls
it through ``changed_by_hand``, which first drops the state's object); when the count moved
since the last look, the lists are compared with the copies the object was made from (three short
lists of ints) and a new one made when they differ (the count is the state's own, as is the count
at the last look, ``state.placed_at``: a copy shares the object but counts apart). So whether the
lists were changed by a move, by lava or by hand (followed by ``changed_by_hand``), a stale answer is
never given; and a copy of the state shares the object until its own pieces move.

Everything a :class:`Derived` hands out is shared between positions and must not be changed.
"""

from __future__ import annotations

from bisect import insort
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from referee.catan_volcano import building
from referee.catan_volcano import move_table as table
from referee.catan_volcano.board import GENERIC_HARBOUR_INDEX
from referee.catan_volcano.edition import EDITION, GOLD, NOTHING
from referee.catan_volcano.geometry import (
    EDGE_COUNT,
    EDGE_NODES,
    HEX_COUNT,
    HEX_NODES,
    NODE_COUNT,
    NODE_EDGES,
    NODE_HEXES,
    NODE_NODES,
)
from referee.game import Move

if TYPE_CHECKING:
    from referee.catan_volcano.position import Position

RESOURCES = EDITION.resources
LEVELS = {1: "settlement", 2: "city"}

Payout = tuple[int, int, tuple[tuple[int, int], ...]]
"""One producing hex on a number: (hex, resource or gold, ((seat, cards), ...) per building)."""

Share = tuple[int, str, tuple[tuple[int, int], ...], int]
"""What a roll owes of one resource: (resource, its name, ((seat, cards), ...) in seat order, total)."""


class Plan:
    """What a roll of one number pays with the robber on one hex, before the bank's limits: per
    resource the seats owed and how much (:data:`Share`), the gold owed per seat, and the gains as
    the production event shows them when the bank can pay everything (shared by those events:
    recorded events are never changed), and the seats owed resources as a bit mask (bit ``seat``)."""

    __slots__ = ("shares", "gold", "gains", "takers")

    def __init__(self, shares: tuple[Share, ...], gold: tuple[int, ...], gains: list[dict[str, int]]) -> None:
        self.shares = shares
        self.gold = gold
        self.gains = gains
        self.takers = 0
        for _, _, takers, _ in shares:
            for seat, _ in takers:
                self.takers |= 1 << seat


class Derived:
    """The facts that follow from one arrangement of the pieces (see the module's doc)."""

    __slots__ = (
        "owner",
        "level",
        "edges",
        "_road_spots",
        "_road_moves",
        "_settlement_moves",
        "_city_moves",
        "_rates",
        "_rate_views",
        "_hex_seats",
        "_payouts",
        "_plans",
        "_robber_moves",
        "_buildings",
        "_roads",
    )

    def __init__(self, owner: list[int], level: list[int], edges: list[int], seats: int) -> None:
        self.owner = list(owner)
        self.level = list(level)
        self.edges = list(edges)
        self._road_spots: list[list[int] | None] = [None] * seats
        self._road_moves: list[tuple[Move, ...] | None] = [None] * seats
        self._settlement_moves: list[tuple[Move, ...] | None] = [None] * seats
        self._city_moves: list[tuple[Move, ...] | None] = [None] * seats
        self._rates: list[list[int] | None] = [None] * seats
        self._rate_views: list[dict[str, int] | None] = [None] * seats
        self._hex_seats: tuple[int, ...] | None = None
        self._payouts: dict[int, tuple[Payout, ...]] = {}
        self._plans: dict[tuple[int, int], Plan] = {}
        self._robber_moves: dict[int, tuple[list[Move], tuple[int, ...]]] = {}
        self._buildings: list[dict[str, Any]] | None = None
        self._roads: list[dict[str, Any]] | None = None

    def keep_buildings(self, older: Derived) -> None:
        """Share ``older``'s answers that depend on the buildings alone (the same buildings as
        these: the caller checked): city moves, trade rates, who is on each hex, what each number
        pays, the robber's targets and the buildings as JSON. Road and settlement moves depend on
        the roads too: :meth:`keep_spots` carries them over after a single road, else they are
        worked out again."""
        self._city_moves = older._city_moves
        self._rates = older._rates
        self._rate_views = older._rate_views
        self._hex_seats = older._hex_seats
        self._payouts = older._payouts
        self._plans = older._plans
        self._robber_moves = older._robber_moves
        self._buildings = older._buildings

    def keep_spots(self, older: Derived, edge: int) -> None:
        """Carry ``older``'s road and settlement spots over when the one change between the two
        arrangements is a road on ``edge`` (the buildings the same: the caller checked; ``edge``
        is a hint, checked here: with any other change nothing is carried over).

        A seat's spots follow from its own roads and the buildings. The new road only takes an
        edge from the other seats, whose settlement spots stay as they were and whose road spots
        lose that edge; the builder's gain the free edges at the road's two ends (where no other
        seat's building stands) and the ends themselves as settlement spots where the distance
        rule allows. Found so, they are the lists :func:`building.road_spots` and
        :func:`building.settlement_spots` give (the Catan fingerprint and a property test compare).
        """
        edges, before = self.edges, older.edges
        if edge < 0 or before[edge] != -1:
            return
        seat = edges[edge]
        if seat < 0:
            return
        edges[edge] = -1  # the lists compared whole with the road taken out: the one change?
        alone = edges == before
        edges[edge] = seat
        if not alone:
            return
        shown = older._roads
        if shown is not None:
            shown = list(shown)
            insort(shown, _ROAD_VIEWS[seat][edge], key=_EDGE)
            self._roads = shown
        owner = self.owner
        ends = [node for node in EDGE_NODES[edge] if owner[node] == -1 or owner[node] == seat]
        for other in range(len(self._road_spots)):
            spots = older._road_spots[other]
            if other == seat:
                if spots is not None:
                    grown = {free for node in ends for free in NODE_EDGES[node] if edges[free] == -1}
                    grown.update(spots)
                    grown.discard(edge)
                    self._road_spots[seat] = sorted(grown)
                found = older._settlement_moves[seat]
                if found is not None:
                    nodes = {move["node"] for move in found}
                    for node in ends:
                        if owner[node] == -1 and all(owner[near] == -1 for near in NODE_NODES[node]):
                            nodes.add(node)
                    settlement = table.SETTLEMENT
                    self._settlement_moves[seat] = tuple([settlement[node] for node in sorted(nodes)])
                continue
            self._settlement_moves[other] = older._settlement_moves[other]
            if spots is None:
                continue
            if edge in spots:
                self._road_spots[other] = [spot for spot in spots if spot != edge]
            else:
                self._road_spots[other] = spots
                self._road_moves[other] = older._road_moves[other]

    def keep_around(self, older: Derived, node: int, hexes_by_number: tuple[tuple[int, ...], ...]) -> None:
        """Share what ``older`` found that the change of buildings leaves standing, when its one
        change is at ``node`` (a hint, checked here: otherwise only the payouts of the numbers
        away from every change are shared, :meth:`keep_payouts`).

        One building put, raised or removed changes the payouts of the numbers on its hexes
        alone, the buildings as JSON at that node alone, and the trade rates and city spots of its
        owner (before and after) alone. A city raised or lowered leaves the owners as they were,
        and with them who sits on each hex, the robber's targets and, with the roads as they were,
        every seat's road and settlement spots (which follow from who owns a node, not from what
        stands there). Lists shared with ``older`` are filled by both as they go: the same
        answers, as the same pieces imply them.
        """
        owner, level, before_owner, before_level = self.owner, self.level, older.owner, older.level
        if node < 0:
            self.keep_payouts(older, hexes_by_number)
            return
        seat, now = owner[node], level[node]
        was_seat, was = before_owner[node], before_level[node]
        owner[node], level[node] = was_seat, was  # the lists compared whole with the change undone
        alone = owner == before_owner and level == before_level
        owner[node], level[node] = seat, now
        if not alone:
            self.keep_payouts(older, hexes_by_number)
            return
        self._keep_numbers(older, set(NODE_HEXES[node]), hexes_by_number)
        changed = {seat, was_seat} - {-1}
        self._rates = [None if other in changed else rates for other, rates in enumerate(older._rates)]
        self._rate_views = [
            None if other in changed else shown for other, shown in enumerate(older._rate_views)
        ]
        self._city_moves = [
            None if other in changed else moves for other, moves in enumerate(older._city_moves)
        ]
        shown = older._buildings
        if shown is not None:
            shown = [building for building in shown if building["node"] != node]
            if seat >= 0:
                insort(shown, {"node": node, "seat": seat, "kind": LEVELS[now]}, key=_NODE)
            self._buildings = shown
        same_roads = self.edges == older.edges  # (a road may have been built too since older was made)
        if same_roads:
            self._roads = older._roads
        if seat == was_seat:
            self._hex_seats = older._hex_seats
            self._robber_moves = older._robber_moves
            if same_roads:
                self._road_spots = older._road_spots
                self._road_moves = older._road_moves
                self._settlement_moves = older._settlement_moves

    def keep_payouts(self, older: Derived, hexes_by_number: tuple[tuple[int, ...], ...]) -> None:
        """Share ``older``'s payouts and plans of the numbers whose hexes have no corner where a
        building changed (a new settlement or city touches three hexes at most, so most numbers
        pay as before)."""
        touched = {
            hex_id
            for node, (was, now, was_level, now_level) in enumerate(
                zip(older.owner, self.owner, older.level, self.level, strict=True)
            )
            if was != now or was_level != now_level
            for hex_id in NODE_HEXES[node]
        }
        self._keep_numbers(older, touched, hexes_by_number)

    def _keep_numbers(
        self, older: Derived, touched: set[int], hexes_by_number: tuple[tuple[int, ...], ...]
    ) -> None:
        """Share ``older``'s payouts and plans of the numbers none of whose hexes is ``touched``."""
        kept = {number for number in older._payouts if touched.isdisjoint(hexes_by_number[number])}
        for number in kept:
            self._payouts[number] = older._payouts[number]
        for key, plan in older._plans.items():
            if key[0] in kept:
                self._plans[key] = plan

    # -- where a seat may build --------------------------------------------------------------

    def road_spots(self, state: Position, seat: int) -> list[int]:
        """:func:`building.road_spots`, kept."""
        spots = self._road_spots[seat]
        if spots is None:
            spots = self._road_spots[seat] = building.road_spots(state, seat)
        return spots

    def road_moves(self, state: Position, seat: int) -> tuple[Move, ...]:
        """The ``build_road`` moves on :meth:`road_spots`, kept: the main phase lists them as they
        are, without making a list of the shared move objects every time."""
        found = self._road_moves[seat]
        if found is None:
            road = table.ROAD
            found = self._road_moves[seat] = tuple([road[edge] for edge in self.road_spots(state, seat)])
        return found

    def settlement_moves(self, state: Position, seat: int) -> tuple[Move, ...]:
        """The ``build_settlement`` moves on :func:`building.settlement_spots`, kept."""
        found = self._settlement_moves[seat]
        if found is None:
            settlement = table.SETTLEMENT
            found = self._settlement_moves[seat] = tuple(
                [settlement[node] for node in building.settlement_spots(state, seat)]
            )
        return found

    def city_moves(self, state: Position, seat: int) -> tuple[Move, ...]:
        """The ``build_city`` moves on :func:`building.city_spots`, kept."""
        found = self._city_moves[seat]
        if found is None:
            city = table.CITY
            found = self._city_moves[seat] = tuple([city[node] for node in building.city_spots(state, seat)])
        return found

    # -- trade rates -------------------------------------------------------------------------

    def rates(self, state: Position, seat: int) -> list[int]:
        """:func:`rates`, kept."""
        found = self._rates[seat]
        if found is None:
            found = self._rates[seat] = rates(state, seat)
        return found

    def rate_view(self, state: Position, seat: int) -> dict[str, int]:
        """The seat's rates as the observation shows them."""
        shown = self._rate_views[seat]
        if shown is None:
            shown = self._rate_views[seat] = dict(zip(RESOURCES, self.rates(state, seat), strict=True))
        return shown

    # -- the robber and production -----------------------------------------------------------

    def hex_seats(self) -> tuple[int, ...]:
        """Per hex, the seats with a building on one of its corners, as a bit mask (bit ``seat``)."""
        found = self._hex_seats
        if found is None:
            masks = [0] * HEX_COUNT
            for node, seat in enumerate(self.owner):
                if seat >= 0:
                    for hex_id in NODE_HEXES[node]:
                        masks[hex_id] |= 1 << seat
            found = self._hex_seats = tuple(masks)
        return found

    def robber_moves(self, robber: int, thief: int, has_cards: int) -> list[Move]:
        """The ``move_robber`` moves a thief may choose, in hex then seat order: every hex but the
        robber's, each with the other seats there holding a card (``has_cards``, a bit mask by
        seat), or with no victim if none. A new list of the shared move objects.

        Kept per thief and seats holding cards, for every hex, with where each hex's moves start:
        the robber's hex is cut out by two slices, as the robber moves far more often than the
        thief or the seats with cards change."""
        key = thief << 8 | has_cards
        found = self._robber_moves.get(key)
        if found is None:
            others = has_cards & ~(1 << thief)
            every: list[Move] = []
            start = [0]
            for hex_id, seats in enumerate(self.hex_seats()):
                every.extend(table.ROBBER_BY_VICTIMS[hex_id][seats & others])
                start.append(len(every))
            found = self._robber_moves[key] = (every, tuple(start))
        every, starts = found
        if not 0 <= robber < HEX_COUNT:
            return list(every)
        return every[: starts[robber]] + every[starts[robber + 1] :]

    def payouts(self, state: Position, number: int) -> tuple[Payout, ...]:
        """The hexes on ``number`` that produce, each with what its buildings are owed, in hex then
        corner order (the robber is not considered here: it moves without the pieces moving)."""
        found = self._payouts.get(number)
        if found is None:
            production, owner, level = state.tables.production, self.owner, self.level
            found = self._payouts[number] = tuple(
                (
                    hex_id,
                    production[hex_id],
                    tuple((owner[n], level[n]) for n in HEX_NODES[hex_id] if owner[n] >= 0),
                )
                for hex_id in state.tables.hexes_by_number[number]
                if production[hex_id] != NOTHING
            )
        return found

    def plan(self, state: Position, number: int, robber: int) -> Plan:
        """What a roll of ``number`` owes with the robber on ``robber`` (see :class:`Plan`), kept."""
        if robber not in state.tables.hexes_by_number[number]:
            robber = -1  # the robber is on no hex of this number: the same plan wherever it is
        found = self._plans.get((number, robber))
        if found is None:
            n = state.seats
            owed = [[0] * n for _ in range(5)]
            gold = [0] * n
            for hex_id, resource, paid in self.payouts(state, number):
                if hex_id == robber or not paid:
                    continue
                if resource == GOLD:
                    for owner, cards in paid:
                        gold[owner] += cards
                else:
                    row = owed[resource]
                    for owner, cards in paid:
                        row[owner] += cards
            shares = tuple(
                (
                    resource,
                    RESOURCES[resource],
                    tuple((seat, cards) for seat, cards in enumerate(row) if cards),
                    sum(row),
                )
                for resource, row in enumerate(owed)
                if any(row)
            )
            gains: list[dict[str, int]] = [{} for _ in range(n)]
            for _, name, takers, _ in shares:
                for seat, cards in takers:
                    gains[seat][name] = cards
            found = self._plans[(number, robber)] = Plan(shares, tuple(gold), gains)
        return found

    # -- the pieces as JSON ------------------------------------------------------------------

    def buildings(self) -> list[dict[str, Any]]:
        shown = self._buildings
        if shown is None:
            owner, level = self.owner, self.level
            shown = self._buildings = [
                {"node": node, "seat": owner[node], "kind": LEVELS[level[node]]}
                for node in range(NODE_COUNT)
                if owner[node] >= 0
            ]
        return shown

    def roads(self) -> list[dict[str, Any]]:
        shown = self._roads
        if shown is None:
            views = _ROAD_VIEWS
            shown = self._roads = [views[who][edge] for edge, who in enumerate(self.edges) if who >= 0]
        return shown

    def roads_after(self, older: Derived, built: list[tuple[int, int]]) -> list[dict[str, Any]]:
        """:meth:`roads`, from ``older``'s and the roads ``built`` since, as (edge, seat): a walk
        over every edge costs some 30k instructions, putting a road into a list a few thousand.
        Taken only when ``older``'s edges with those roads added are exactly these (a road is only
        ever added, to an empty edge); otherwise made anew."""
        shown = self._roads
        if shown is None:
            edges = older.edges
            if built:
                edges = list(edges)
                for edge, seat in built:
                    if edges[edge] != -1:
                        return self.roads()
                    edges[edge] = seat
            if edges != self.edges:
                return self.roads()
            shown = older.roads()
            if built:
                shown = list(shown)
                for edge, seat in built:
                    insort(shown, _ROAD_VIEWS[seat][edge], key=_EDGE)
            self._roads = shown
        return shown


_ROAD_VIEWS: tuple[tuple[dict[str, Any], ...], ...] = tuple(
    tuple({"edge": edge, "seat": seat} for edge in range(EDGE_COUNT)) for seat in range(8)
)
"""``_ROAD_VIEWS[seat][edge]``: a road as observations show it, made once and shared (read-only)."""

_EDGE = itemgetter("edge")
_NODE = itemgetter("node")


def rates(state: Position, seat: int) -> list[int]:
    """The seat's maritime rate per resource: 4, 3 with a 3:1 harbour, 2 with that resource's."""
    best = [EDITION.bank_rate] * 5
    node_owner = state.node_owner
    for node, kind in state.tables.harbour_nodes:
        if node_owner[node] == seat:
            if kind == GENERIC_HARBOUR_INDEX:
                best = [min(rate, EDITION.generic_harbour_rate) for rate in best]
            else:
                best[kind] = EDITION.resource_harbour_rate
    return best
