"""``search``: a Boulderville bot that looks ahead on guesses of what it cannot see.

For each decision it takes the heuristic bot's few best moves (``bots.boulderville``) as candidates
and tries each on states built from its own observation alone, the hidden cards and decks dealt at
random (:func:`referee.boulderville.guess.determinize`): every candidate is played on the same
guess with the same dice, then every seat plays on as the heuristic would (keeping its hand at the
draw) to the end of the turn (``HORIZON`` turns more if asked), so the lava, the townspeople's
moves and the willingness dice happen; the
position reached is valued, and the candidate with the best mean over as many guesses as the time
allows is played. A candidate replaces the heuristic's own choice only when its mean is better by
``MARGIN``, so a search too short to tell them apart plays as the heuristic does.

The value of a position is the team's and the seat's: the rescue track plus, for every townsperson
still in town, their value times a rough chance of getting out (a mover with a way out most, the
unconvinced far from believing least, less for anyone the lava reaches first); plus the seat's
renown (``RENOWN_WORTH`` a point, untraded tokens less), since the most renowned seat of a won game
is placed first.

Time: the search stops at ``min(cap, FRACTION * move_ms + BANK_FRACTION * bank_ms) - SAFETY`` from
the request's ``time``, and with less than ``MINIMUM_MS`` left it plays the heuristic's move at
once. The default cap (``DEFAULT_CAP_MS``) keeps a whole demo tournament short; benches may give
more.

>>> from referee.boulderville import GAME
>>> state = GAME.start("standard", seats=4, seed=3)
>>> request = {"seat": 0, "observation": state.observation(0), "legal_moves": state.legal_moves(),
...            "time": {"move_ms": 1000, "bank_ms": 0}}
>>> SearchBot(1, cap_ms=20).choose(request) in request["legal_moves"]
True
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from bots.base import BotFactory, Move, Request
from bots.boulderville import SCORERS, View
from referee.boulderville import BouldervilleState
from referee.boulderville.attributes import Standing
from referee.boulderville.edition import EDITION
from referee.boulderville.guess import determinize
from referee.boulderville.table import BELIEVER, LAVA, MOVER, UNCONVINCED, Table
from referee.boulderville.townsfolk import distances_to_exit, exit_in_use
from referee.rng import Rng, derive_seed

DEFAULT_CAP_MS = 5.0
"""Search time per decision unless the bot is built with another cap: about one guess of every
candidate, small because a demo's round robin asks the bot some four thousand times."""
FRACTION = 0.25
"""Of the move's own budget (``move_ms``)."""
BANK_FRACTION = 0.02
"""Of what is left of the seat's bank."""
SAFETY_MS = 15.0
"""Kept back for the round trip and the JSON on both sides."""
MINIMUM_MS = 2.0
"""Below this there is no time for one guess of every candidate: play the heuristic's move."""
CANDIDATES = {"place": 5, "clear": 5, "play": 3, "pass": 3}
"""How many of the heuristic's best moves are tried, by the kind of decision."""
HORIZON = 0
"""Full turns played on after the current one before the position is valued (0: the position is
valued as the next turn's Move scientists begins, this turn's townspeople phases done)."""
MARGIN = 0.1
"""How much better (in rescue points) a candidate's mean must be to overrule the heuristic."""
RENOWN_WORTH = 0.5
TOKEN_WORTH = 0.3
"""A renown point and an untraded token, against one point on the rescue track."""
OUT_CHANCE = {MOVER: 0.9, BELIEVER: 0.55}
"""Rough chance that a townsperson still in town gets out, by status (the unconvinced: below)."""

board = EDITION.board


def _lava_steps(table: Table) -> dict[str, int]:
    """Lines from the nearest lava to every space (empty before the eruption)."""
    lava = [space for space, cover in table.terrain.items() if cover == LAVA]
    steps = dict.fromkeys(lava, 0)
    queue = deque(lava)
    while queue:
        here = queue.popleft()
        for there in board.adjacent[here]:
            if there not in steps:
                steps[there] = steps[here] + 1
                queue.append(there)
    return steps


def value(state: BouldervilleState, seat: int) -> float:
    """The worth of a position for ``seat``: the rescue it can still expect, and its own renown."""
    table = state.table
    me = table.scientists[seat]
    own = RENOWN_WORTH * me.renown + TOKEN_WORTH * me.tokens
    if table.result is not None:
        return table.rescue + (own if table.rescue > 0 else 0.0)
    to_exit = distances_to_exit(table, exit_in_use(table))
    lava = _lava_steps(table)
    standing = Standing(table)
    expected = float(table.rescue)
    for person in table.people:
        if person.space is None:
            continue
        card = EDITION.townspeople[person.id]
        belief, _, speed = standing.numbers(person)
        if person.status == UNCONVINCED:
            chance = max(0.1, 0.45 - 0.05 * max(0, belief - table.eruption))
        else:
            chance = OUT_CHANCE[person.status]
        steps = to_exit.get(person.space)
        if steps is None:
            chance *= 0.4
        elif lava.get(person.space, 99) <= steps // max(1, speed if person.status == MOVER else 1) + 1:
            chance *= 0.5
        expected += card.value * (2 * chance - 1)
    return expected + own


class SearchBot:
    """Tries the heuristic's best moves on guessed states (see the module's docstring)."""

    def __init__(
        self, seed: int, cap_ms: float = DEFAULT_CAP_MS, guesses: int | None = None, horizon: int = HORIZON
    ) -> None:
        self.seed = seed
        self.cap_ms = cap_ms
        self.guesses = guesses
        """A fixed number of guesses per decision instead of a time budget (benches: the same play on
        any machine); None: as many as the time allows."""
        self.horizon = horizon
        self.asked = 0

    def budget_ms(self, request: Request) -> float:
        """Milliseconds this decision may search, from the request's time and the cap."""
        clock = request.get("time") or {}
        allowed = FRACTION * float(clock.get("move_ms", 0)) + BANK_FRACTION * float(clock.get("bank_ms", 0))
        return min(self.cap_ms, allowed - SAFETY_MS)

    def choose(self, request: Request) -> Move:
        started = time.perf_counter()
        legal: list[Move] = request["legal_moves"]
        seat: int = request["seat"]
        observation = request["observation"]
        view = View(observation, seat)
        scores = [SCORERS[move["type"]](view, move) for move in legal]
        ranked = sorted(range(len(legal)), key=lambda i: -scores[i])  # stable: the engine's order on ties
        best = legal[ranked[0]]
        kind = best["type"]
        self.asked += 1
        if len(legal) == 1 or kind == "discard":
            return best
        candidates = [legal[i] for i in ranked[: CANDIDATES[kind]]]
        if len(candidates) < 2:
            return best
        if self.guesses is None:
            deadline = started + self.budget_ms(request) / 1000.0
            if deadline - time.perf_counter() < MINIMUM_MS / 1000.0:
                return best
            means = self.search(observation, seat, candidates, deadline)
        else:
            means = self.search(observation, seat, candidates, None, self.guesses)
        challenger = max(range(len(candidates)), key=lambda i: means[i])
        return candidates[challenger] if means[challenger] > means[0] + MARGIN else best

    def search(
        self,
        observation: dict[str, Any],
        seat: int,
        candidates: list[Move],
        deadline: float | None,
        most: int | None = None,
    ) -> list[float]:
        """Each candidate's mean value over guesses, every candidate tried on the same guesses:
        until ``deadline`` (a ``perf_counter`` time), or ``most`` guesses."""
        totals = [0.0] * len(candidates)
        guesses = 0
        while (time.perf_counter() < deadline) if deadline is not None else guesses < (most or 1):
            guess = determinize(observation, seat, derive_seed(self.seed, "search", self.asked, guesses))
            roll = derive_seed(self.seed, "roll", self.asked, guesses)
            values = []
            for move in candidates:
                state = guess.copy()
                state.table.rng = Rng(roll).state  # the same dice for every candidate
                state.apply(move)
                values.append(value(play_on(state, self.horizon), seat))
                if deadline is not None and time.perf_counter() >= deadline and guesses:
                    return [total / guesses for total in totals]
            totals = [total + v for total, v in zip(totals, values, strict=True)]
            guesses += 1
        return [total / guesses for total in totals] if guesses else totals


def play_on(state: BouldervilleState, horizon: int = HORIZON) -> BouldervilleState:
    """Every seat plays as the heuristic does (keeping its hand) until ``horizon`` more turns end."""
    stop = state.table.turn + horizon + 1
    table = state.table
    while (seat := state.current_seat) is not None and table.turn < stop:
        legal = state.legal_moves()
        if table.stage == "draw":
            state.apply(legal[0])  # the empty discard: keep the hand, as the heuristic does
            continue
        view = View(state.observation(seat), seat)
        scores = [SCORERS[move["type"]](view, move) for move in legal]
        state.apply(legal[max(range(len(legal)), key=scores.__getitem__)])
    return state


BOTS: dict[str, BotFactory] = {"search": SearchBot}
"""The search bot, registered beside :mod:`bots.boulderville`'s (see :mod:`bots.registry`)."""
