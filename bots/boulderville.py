"""Reference bots for Volcano! (Boulderville): ``random``, ``heuristic`` and ``search``.

``heuristic`` scores every legal move from the public observation and the edition's data, and
plays the best (ties: the first in the engine's order). The scores are rough worths in rescue
points: a townsperson's value when a move gets them believing, moving or out of town sooner, a
share of it when the move only makes that likelier; a renown token is worth ``TOKEN_WORTH``, so
the bot does science when nobody in town needs it more. It keeps clear of spaces the lava will
fill at the start of the next turn (a lucky escape costs a turn and every untraded token).

>>> from referee.boulderville import GAME
>>> state = GAME.start("standard", seats=4, seed=3)
>>> request = {"seat": 0, "observation": state.observation(0), "legal_moves": state.legal_moves()}
>>> HeuristicBot(1).choose(request) in request["legal_moves"]
True
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bots.base import BotFactory, Move, RandomBot, Request
from referee.boulderville.edition import EDITION, Use

TOKEN_WORTH = 0.5
"""A renown token against one point on the rescue track (renown only counts if the town is saved)."""
CASH_WORTH = 0.9
"""Each token cashed onto the track (safe from lucky escapes) at the Science Station."""
ESCAPE_COST = 2.0
"""Standing where the lava arrives next turn: a lost turn, plus every untraded token."""
NEAR_MISS = 0.2
"""Per point, a belief lowered for this turn short of enough: the next scientist in the Town Hall
may make up the rest."""
FAR = 99

board = EDITION.board


def _value(person: dict[str, Any]) -> int:
    """A townsperson's rescue points, as the observation gives them."""
    value: int = person["value"]
    return value


def _spread(sources: Iterable[str], passable: Callable[[str], bool]) -> dict[str, int]:
    """Lines from the nearest source to every space reachable through passable spaces."""
    steps = {space: 0 for space in sources}
    queue = deque(steps)
    while queue:
        here = queue.popleft()
        for there in board.adjacent[here]:
            if there not in steps and passable(there):
                steps[there] = steps[here] + 1
                queue.append(there)
    return steps


@dataclass
class View:
    """The facts of one observation the scores need, worked out once per decision."""

    obs: dict[str, Any]
    seat: int

    def __post_init__(self) -> None:
        obs = self.obs
        self.terrain: dict[str, str] = obs["terrain"]
        self.counter: int = obs["eruption"]
        self.me: dict[str, Any] = obs["scientists"][self.seat]
        self.card = EDITION.scientists[self.me["id"]]
        self.people = [p for p in obs["townspeople"] if p["space"] is not None]
        self.person_at = {p["space"]: p for p in self.people}
        lava = [s for s, cover in self.terrain.items() if cover == "lava"]
        # before the eruption, reckon the lava will start from the crater in a few turns
        self.lava_eta = (
            _spread(lava, lambda s: True)
            if lava
            else {s: d + 4 for s, d in board.distance["crater_floor"].items()}
        )
        self.sandbagged = {o["target"] for o in obs["ongoing"] if o["effect"] == "sandbags"}
        gate = board.exits["freeway" if obs["bridge_standing"] else "country_road"]
        self.exit_steps = self.to_exit(gate, self.terrain)

    @staticmethod
    def to_exit(gate: str, terrain: dict[str, str]) -> dict[str, int]:
        if gate in terrain:
            return {}
        steps = _spread([gate], lambda s: s not in terrain)
        return {space: n + 1 for space, n in steps.items()}

    def eta(self, space: str) -> int:
        return self.lava_eta.get(space, FAR)

    def threatened(self, person: dict[str, Any]) -> bool:
        """The lava reaches them before they can walk out at their present pace."""
        steps = self.exit_steps.get(person["space"], FAR)
        pace = max(1, person["now"]["speed"]) if person["status"] == "mover" else 1
        return self.eta(person["space"]) <= steps // pace + 2

    def worth(self, person: dict[str, Any]) -> float:
        """A townsperson's value, more when the lava is near."""
        return _value(person) * (1.5 if self.threatened(person) else 1.0)


# ----- who gains from what -----------------------------------------------------------------------------


def _belief_gain(view: View, person: dict[str, Any], lowered: int, lasting: bool = False) -> float:
    """Worth of lowering an unconvinced townsperson's belief by ``lowered`` (this turn, or for good).

    Enough to make them believe at this turn's check: most of their worth. Short of it, a lasting
    change brings that day nearer; a change for this turn only may still add up with the next
    scientist's (the Town Hall), so it keeps a little worth.
    """
    if person["status"] != "unconvinced" or lowered <= 0:
        return 0.0
    belief: int = person["now"]["belief"]
    if view.counter > belief:
        return 0.0
    if view.counter > belief - lowered:
        return view.worth(person) * 0.9
    if not lasting:
        return view.worth(person) * NEAR_MISS * lowered
    return view.worth(person) * 0.5 * lowered / (belief - view.counter + 1)


def _willingness_gain(view: View, person: dict[str, Any], lowered: int) -> float:
    """A believer's better odds of rolling above their willingness (a d10, one in ten per point)."""
    if person["status"] != "believer":
        return 0.1 * lowered * _value(person) if person["status"] == "unconvinced" else 0.0
    willingness: int = person["now"]["willingness"]
    room = min(lowered, max(0, willingness))
    return view.worth(person) * 0.12 * room * 1.5


def _clearing_gain(view: View, space: str, work: int) -> float:
    """Worth of clearing the rubble on ``space``: the townspeople it lets out or brings nearer."""
    if work < EDITION.rules.rubble_work_needed and view.terrain.get(space) != "rubble_turned":
        work_share = 0.5
    else:
        work_share = 1.0
    opened = {s: c for s, c in view.terrain.items() if s != space}
    gate = board.exits["freeway" if view.obs["bridge_standing"] else "country_road"]
    after = View.to_exit(gate, opened)
    gain = 0.0
    for person in view.people:
        before, later = view.exit_steps.get(person["space"], FAR), after.get(person["space"], FAR)
        if later < before:
            share = {"mover": 1.0, "believer": 0.6}.get(person["status"], 0.3)
            gain += view.worth(person) * share * (1.0 if before == FAR else 0.3)
    return gain * work_share


# ----- placing the scientist ---------------------------------------------------------------------------


def _renown_here(view: View, location: str | None, hand: list[str]) -> int:
    """The most tokens one card in hand scores at this location."""
    best = 0
    for card in set(hand):
        for use in EDITION.actions[card].uses:
            if use.use == "renown" and location in use.tokens:
                bonus = sum(n for key, n in use.bonus.items() if key in (view.card.id, view.card.type))
                best = max(
                    best, use.tokens[location] + bonus + view.card.abilities.renown_bonus.get(location, 0)
                )
    return best


def score_place(view: View, move: Move) -> float:
    space = move["space"]
    location = board.location_of(space)
    me, abilities = view.me, view.card.abilities
    score = 0.0
    if view.eta(space) <= 1 and space not in view.sandbagged:
        score -= ESCAPE_COST + me["tokens"]
    person = view.person_at.get(space)
    if person is not None:
        sharing = abilities.sharing
        if person["status"] == "mover" and space in view.exit_steps:
            score += view.worth(person) * (1.2 if view.threatened(person) else 0.6)
        score += _belief_gain(view, person, sharing.belief)
        score += _willingness_gain(view, person, sharing.willingness)
    if location == "town_hall":
        score += sum(_belief_gain(view, p, abilities.town_hall_belief) for p in view.people)
    if move["type"] == "clear":
        score += _clearing_gain(view, space, abilities.rubble_work)
    score += TOKEN_WORTH * _renown_here(view, location, view.obs["hand"])
    if location is not None and location == view.obs["cash_at"]:
        rate = EDITION.rules.cash_rates[location]
        score += CASH_WORTH * (me["tokens"] // rate[0]) * rate[1]
    if location in EDITION.rules.science_locations and view.obs["eruption_cards_left"]:
        score += 0.1
    return score


# ----- playing a card ----------------------------------------------------------------------------------


def _help_gain(view: View, use: Use, target: Any) -> float:
    person = next((p for p in view.people if p["id"] == target), None)
    effect = use.effect
    if effect == "convince" and person is not None:
        return view.worth(person) * 0.9
    if effect == "urge" and person is not None:
        return view.worth(person) * 1.0
    if effect == "belief" and person is not None:
        return _belief_gain(view, person, use.amount, lasting=True)
    if effect == "willingness" and person is not None:
        return _willingness_gain(view, person, use.amount)
    if effect in ("speed", "rush") and person is not None:
        steps = view.exit_steps.get(person["space"], FAR)
        moving = person["status"] == "mover" and steps < FAR
        share = 0.5 if effect == "speed" else 0.35 * use.amount
        return (
            view.worth(person) * share * (1.0 if moving else 0.2) * (1.5 if view.threatened(person) else 0.5)
        )
    if effect == "meeting" or effect == "loudhailer":
        near = board.distance[view.me["space"]]
        heard = [p for p in view.people if effect == "meeting" or near[p["space"]] <= use.radius]
        return sum(_belief_gain(view, p, use.amount, lasting=effect == "loudhailer") for p in heard)
    if effect == "sandbags":
        held = view.person_at.get(target)
        on_way = sum(_value(p) for p in view.people if p["status"] != "unconvinced") * 0.05
        return (_value(held) * 1.2 if held else 0.0) + on_way
    if effect == "bulldoze":
        return _clearing_gain(view, target, EDITION.rules.rubble_work_needed)
    return 0.0


def score_play(view: View, move: Move) -> float:
    if move["type"] == "pass":
        return 0.05
    use = next(u for u in EDITION.actions[move["card"]].uses if u.use == move["use"])
    target = move.get("target")
    if use.use == "renown":
        tokens = _renown_here(view, board.location_of(view.me["space"]), [move["card"]])
        lead = EDITION.rules.lead_bonus_tokens if view.obs["lead"] == view.seat else 0
        return TOKEN_WORTH * (tokens + lead)
    if use.use == "scientist":
        if use.effect == "award":
            return TOKEN_WORTH * use.amount * (1 if target == view.seat else -0.5)
        tokens_held: int = view.obs["scientists"][target]["tokens"]
        return TOKEN_WORTH * 0.4 * min(use.amount, tokens_held)
    return _help_gain(view, use, target)


def score_discard(view: View, move: Move) -> float:
    """Keep the hand: every card helps the town some day, and a discard only buys a random card
    (measured: letting go of the cards worth little renown won no more games)."""
    return -float(len(move["cards"]))


SCORERS: dict[str, Callable[[View, Move], float]] = {
    "place": score_place,
    "clear": score_place,
    "play": score_play,
    "pass": score_play,
    "discard": score_discard,
}


class HeuristicBot:
    """Plays the legal move with the best score (see the module's docstring)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, request: Request) -> Move:
        legal: list[Move] = request["legal_moves"]
        view = View(request["observation"], request["seat"])
        scores = [SCORERS[move["type"]](view, move) for move in legal]
        return legal[max(range(len(legal)), key=scores.__getitem__)]


BOTS: dict[str, BotFactory] = {"random": RandomBot, "heuristic": HeuristicBot}
"""This module's bots; ``search`` is in :mod:`bots.boulderville_search`, which builds on the heuristic
here (:mod:`bots.registry` lists both modules)."""
