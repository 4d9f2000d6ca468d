"""A full state built from one seat's observation, the hidden parts drawn to fit what it shows.

Search bots must not read the true state: they plan on *determinizations*, states that the seat
cannot tell from the real one. Everything public is copied from the observation (board, pieces,
bank, counts, phase, pending decisions, the event log as the seat saw it); the seat's own cards are
its own. What the seat cannot see is drawn:

- the other seats' resource cards: every resource has a fixed number of cards (19), so the cards
  neither in the bank nor in the seat's hand are exactly the others' cards; they are shuffled and
  dealt out by each seat's public card count, which keeps both the per-resource totals and the
  per-seat counts right; the cards a pending trade shows a seat to hold (what the offering seat
  offers, what an accepting seat would give) are given to it first;
- the other seats' development cards and the deck's make-up: the cards neither played (public) nor
  held by the seat are shuffled and dealt by each seat's public count, the rest making the deck. A
  deal that would give another seat enough hidden victory points to have won already is drawn again
  (a seat reaching ten points on its own turn wins at once, so no one sits on them);
- cards the turn's seat bought this turn (the log shows how many) are marked as bought this turn;
- the random stream (future dice, draws, steals and lava), seeded by the caller.

>>> from referee.catan_volcano import GAME
>>> from referee.rng import Rng
>>> truth = GAME.start("gold", 4, seed=5)
>>> world = from_observation(truth.observation(0), Rng(1))
>>> world.legal_moves() == truth.legal_moves()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.catan_volcano import moves, volcano
from referee.catan_volcano.board import Layout
from referee.catan_volcano.edition import DEV_CARDS, EDITION, VICTORY_POINT
from referee.catan_volcano.geometry import EDGE_COUNT, NODE_COUNT
from referee.catan_volcano.state import CatanState
from referee.rng import Rng

RESOURCES = EDITION.resources
KINDS = {"settlement": 1, "city": 2}
REDEALS = 20
"""Draws of the development cards before a deal giving some seat a winning hidden hand is kept."""


class InconsistentObservation(ValueError):
    """The observation's counts do not add up (not an observation this engine produced)."""


def _deal(pool: list[int], counts: list[int], rng: Rng) -> tuple[list[list[int]], list[int]]:
    """Shuffle the cards of ``pool`` (a count per kind) and deal ``counts[i]`` to hand i.

    Returns the hands (counts per kind) and what is left (counts per kind)."""
    cards = [kind for kind, count in enumerate(pool) for _ in range(count)]
    if sum(counts) > len(cards):
        raise InconsistentObservation(f"{sum(counts)} hidden cards to deal from {len(cards)}")
    rng.shuffle(cards)
    hands = []
    at = 0
    for count in counts:
        hand = [0] * len(pool)
        for kind in cards[at : at + count]:
            hand[kind] += 1
        hands.append(hand)
        at += count
    rest = [0] * len(pool)
    for kind in cards[at:]:
        rest[kind] += 1
    return hands, rest


def _layout(board: Mapping[str, Any]) -> Layout:
    return Layout(
        tuple(h["terrain"] for h in board["hexes"]),
        tuple(h["number"] for h in board["hexes"]),
        tuple(harbour["kind"] for harbour in board["harbours"]),
    )


def from_observation(observation: Mapping[str, Any], rng: Rng) -> CatanState:
    """A state consistent with ``observation`` (the viewer's own cards, everything public), its
    hidden parts drawn from ``rng``. Raises :class:`InconsistentObservation` if the counts do not
    add up."""
    me, seats = observation["seat"], observation["seats"]
    players = observation["players"]
    state = CatanState(observation["variant"], seats, observation["options"], _layout(observation["board"]))
    state.rng = Rng(rng.below(2**62))
    you = observation["you"]
    others = [seat for seat in range(seats) if seat != me]

    bank = [observation["bank"][name] for name in RESOURCES]
    mine = [you["hand"][name] for name in RESOURCES]
    unseen = [EDITION.bank_per_resource - bank[r] - mine[r] for r in range(len(RESOURCES))]
    if min(unseen) < 0:
        raise InconsistentObservation("more cards of a resource in sight than the game has")
    committed = _committed_cards(observation, others)
    pool = [unseen[r] - sum(cards[r] for cards in committed) for r in range(len(RESOURCES))]
    counts = [
        players[seat]["resource_cards"] - sum(cards) for seat, cards in zip(others, committed, strict=True)
    ]
    if min(pool) < 0 or min(counts) < 0:
        raise InconsistentObservation("a pending trade commits cards the seats cannot hold")
    dealt, left = _deal(pool, counts, rng)
    if any(left):
        raise InconsistentObservation("the other seats' card counts do not add up to the cards unseen")
    hands = [[0] * len(RESOURCES) for _ in range(seats)]
    hands[me] = mine
    for seat, hand, cards in zip(others, dealt, committed, strict=True):
        hands[seat] = [held + kept for held, kept in zip(hand, cards, strict=True)]

    devs, new_devs = _development_cards(observation, others, rng)

    owner, level = [-1] * NODE_COUNT, [0] * NODE_COUNT
    for item in observation["buildings"]:
        owner[item["node"]], level[item["node"]] = item["seat"], KINDS[item["kind"]]
    edges = [-1] * EDGE_COUNT
    for item in observation["roads"]:
        edges[item["edge"]] = item["seat"]
    pending = observation["pending"]
    state.bank = bank
    state.hands = hands
    state.devs = devs[0]
    state.new_devs = new_devs
    state.played = [[players[seat]["played"][kind] for kind in DEV_CARDS] for seat in range(seats)]
    state.deck = devs[1]
    state.node_owner, state.node_level, state.edge_owner = owner, level, edges
    state.pieces = [
        [players[seat]["pieces_left"][name] for name in ("roads", "settlements", "cities")]
        for seat in range(seats)
    ]
    state.road_length = [players[seat]["road_length"] for seat in range(seats)]
    state.longest_road = next((seat for seat in range(seats) if players[seat]["longest_road"]), -1)
    state.largest_army = next((seat for seat in range(seats) if players[seat]["largest_army"]), -1)
    state.robber = observation["robber"]
    state.phase = observation["phase"]
    state.resume = pending.get("then", "main")
    state.turn = observation["turn"]
    state.turn_seat = observation["turn_seat"]
    to_move = observation["to_move"]
    state.current = -1 if to_move is None else to_move
    in_setup = state.phase in ("place_settlement", "place_road")
    state.setup_step = len(observation["roads"]) if in_setup else 2 * seats  # a step ends with its road
    state.dev_played = observation["development_card_played"]
    dice = observation["dice"]
    state.dice = None if dice is None else (dice[0], dice[1])
    state.rolls_ahead = state.rolls_left = 0  # the coming rolls are drawn from ``rng``, not the game's
    state.discard_owed = list(pending.get("discards", [0] * seats))
    state.gold_owed = list(pending.get("gold", [0] * seats))
    state.eruptions = []
    if state.phase == "gold" and state.dice is not None:  # the eruptions wait for the gold picks
        total = state.dice[0] + state.dice[1]
        state.eruptions = [
            hex_id
            for hex_id in state.tables.volcanoes_by_number[total]
            if not volcano.stopped_by_robber(state, hex_id)
        ]
    state.free_roads = pending.get("free_roads", 0)
    offer = pending.get("offer")
    state.offer = None if offer is None else {k: list(v) if type(v) is list else v for k, v in offer.items()}
    state.offers_made = observation["offers_made"]
    state.winner = -1
    state.end_reason = None
    state.events = [dict(event) for event in observation["events"]]
    if state.phase == "over":
        raise InconsistentObservation("the game is over: nothing to search")
    state.remember_legal(moves.generate(state))
    return state


def _committed_cards(observation: Mapping[str, Any], others: list[int]) -> list[list[int]]:
    """The cards each other seat is known to hold because a pending trade commits them: the offering
    seat holds what it offers, and each seat that accepted holds what it would give (the engine lets a
    seat offer or accept only what it has, and no hand changes until the offer is settled). All zero
    when no offer is pending, so a world is then drawn exactly as without this."""
    committed = {seat: [0] * len(RESOURCES) for seat in others}
    offer = observation["pending"].get("offer")
    if offer is not None:
        if offer["seat"] in committed:
            committed[offer["seat"]][RESOURCES.index(offer["give"])] += offer["give_count"]
        for seat in offer["accepted"]:
            if seat in committed:
                committed[seat][RESOURCES.index(offer["get"])] += offer["get_count"]
    return [committed[seat] for seat in others]


def _development_cards(
    observation: Mapping[str, Any], others: list[int], rng: Rng
) -> tuple[tuple[list[list[int]], list[int]], list[list[int]]]:
    """((every seat's development cards, the deck), every seat's cards bought this turn)."""
    me, seats, players = observation["seat"], observation["seats"], observation["players"]
    you = observation["you"]
    held = [you["development_cards"][kind] for kind in DEV_CARDS]
    unseen = list(EDITION.deck)
    for kind, name in enumerate(DEV_CARDS):
        unseen[kind] -= held[kind] + sum(players[seat]["played"][name] for seat in range(seats))
    if min(unseen) < 0:
        raise InconsistentObservation("more development cards in sight than the game has")
    counts = [players[seat]["development_cards"] for seat in others]
    if sum(counts) + observation["development_cards_left"] != sum(unseen):
        raise InconsistentObservation("the development card counts do not add up")
    for _ in range(REDEALS):
        dealt, deck = _deal(unseen, counts, rng)
        if all(
            players[seat]["points_showing"] + hand[VICTORY_POINT] < EDITION.points_to_win
            for seat, hand in zip(others, dealt, strict=True)
        ):
            break
    devs = [[0] * len(DEV_CARDS) for _ in range(seats)]
    devs[me] = held
    for seat, hand in zip(others, dealt, strict=True):
        devs[seat] = hand
    new_devs = [[0] * len(DEV_CARDS) for _ in range(seats)]
    new_devs[me] = [you["bought_this_turn"][kind] for kind in DEV_CARDS]
    buyer = observation["turn_seat"]
    if buyer != me:
        bought = sum(
            1
            for event in observation["events"]
            if event["type"] == "buy_development_card"
            and event["seat"] == buyer
            and event["turn"] == observation["turn"]
        )
        cards = [kind for kind, count in enumerate(devs[buyer]) for _ in range(count)]
        rng.shuffle(cards)
        for kind in cards[:bought]:
            new_devs[buyer][kind] += 1
    return (devs, deck), new_devs
