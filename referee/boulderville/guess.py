"""A playable state built from one seat's observation, the hidden parts filled in at random.

A bot that looks ahead must not peek at what its observation hides: the other seats' hands, the
order of the action deck and of the eruption deck, the generator's state. :func:`determinize`
rebuilds every public fact from the observation and deals the hidden ones from what the observation
still allows, so a search can play on as if the guess were the game:

* the other seats' hands (their sizes are shown), the action deck (its size is shown) and the
  discards come from the action cards that are neither in the seat's own hand nor on the table
  (cards played in view are not followed into the discards: the event log keeps two turns);
* the eruption deck keeps the deal's structure: the build-up cards not yet seen on top, then the
  pre-eruption cards with the Eruption card among them, then the post-eruption cards, each drawn
  from the pool's cards not yet revealed, as many as the deal leaves;
* a townsperson's lasting changes (``belief_down``...) are not shown, only the numbers as they
  stand, so each is worked back from those numbers and what the table does to them;
* the seats still to decide in this stage are the stage's seats from the one to move on;
* the event log starts empty, the turn limit is the default, and the generator is new.

>>> from referee.boulderville import GAME
>>> state = GAME.start("standard", seats=4, seed=7)
>>> guess = determinize(state.observation(0), 0, seed=1)
>>> guess.legal_moves() == state.legal_moves()
True
>>> sorted(guess.table.scientists[0].hand) == sorted(state.table.scientists[0].hand)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from referee.boulderville.attributes import Standing
from referee.boulderville.edition import EDITION
from referee.boulderville.game import VARIANT, BouldervilleState
from referee.boulderville.table import ON_BOARD, Ongoing, Person, Scientist, Table
from referee.boulderville.turn import STAGES, Decision, legal_moves
from referee.rng import Rng, derive_seed


def _unseen_action_cards(observation: Mapping[str, Any]) -> list[str]:
    """The action cards the seat cannot see: all of them but its hand and the lasting ones in play."""
    seen = Counter(observation["hand"]) + Counter(o["card"] for o in observation["ongoing"])
    unseen = Counter(EDITION.action_deck()) - seen
    return sorted(unseen.elements())


def _eruption_deck(observation: Mapping[str, Any], rng: Rng) -> list[str]:
    """A deck the deal could have left, top first, as long as the observation says."""
    revealed = set(observation["revealed"])
    parts: list[list[str]] = []
    for deck in ("build_up", "pre_eruption", "post_eruption"):
        pool = EDITION.eruption_decks[deck]
        shown = sum(1 for card in pool if card in revealed)
        hidden = [card for card in pool if card not in revealed]
        rng.shuffle(hidden)
        part = hidden[: max(0, EDITION.eruption_deal[deck] - shown)]
        if deck == "pre_eruption" and EDITION.eruption_card not in revealed:
            part.append(EDITION.eruption_card)
            rng.shuffle(part)
        parts.append(part)
    dealt = [card for part in parts for card in part]
    left = observation["eruption_cards_left"]
    return dealt[len(dealt) - left :] if left else []


def _person(view: Mapping[str, Any], standing: Standing) -> Person:
    """The townsperson, with the lasting changes that make the numbers shown."""
    person = Person(view["id"], view["space"], view["status"])
    now = view.get("now")
    if person.status not in ON_BOARD or now is None:
        return person
    # with no lasting change, what the table alone makes of the card
    belief, willingness, speed = standing.numbers(person)
    person.belief_down = max(0, belief - now["belief"])
    person.willingness_down = max(0, willingness - now["willingness"])
    person.speed_up = max(0, now["speed"] - speed)
    return person


def determinize(observation: Mapping[str, Any], seat: int, seed: int) -> BouldervilleState:
    """A state agreeing with everything ``seat``'s observation shows, the rest dealt from ``seed``.

    The same observation, seat and seed give the same state. Raises ``ValueError`` for an
    observation of a finished game (there is nothing left to play).
    """
    if observation["over"] is not None or observation["to_move"] is None:
        raise ValueError("the game is over: there is no state to play on")
    rng = Rng(derive_seed(seed, "boulderville-guess", seat))
    turn = observation["turn"]
    scientists = [
        Scientist(
            seat=view["seat"],
            id=view["id"],
            space=view["space"],
            tokens=view["tokens"],
            renown=view["renown"],
            missed_turn=turn if view["out_this_turn"] else 0,
            clearing=view["clearing"],
        )
        for view in observation["scientists"]
    ]
    table = Table(
        seats=len(scientists),
        variant=VARIANT,
        options={"max_turns": EDITION.rules.max_turns},
        rng=Rng(derive_seed(seed, "boulderville-guess-rng", seat)).state,
        people=[],
        scientists=scientists,
        eruption_deck=_eruption_deck(observation, rng),
        action_deck=[],
        turn=turn,
        lead=observation["lead"],
        stage=observation["stage"],
        eruption=observation["eruption"],
        rescue=observation["rescue"],
        terrain=dict(observation["terrain"]),
        revealed=list(observation["revealed"]),
        ongoing=[Ongoing(**effect) for effect in observation["ongoing"]],
    )
    # lasting changes are worked back against the table as it stands, people and scientists placed
    table.people = [Person(view["id"], view["space"], view["status"]) for view in observation["townspeople"]]
    standing = Standing(table)
    table.people = [_person(view, standing) for view in observation["townspeople"]]
    unseen = _unseen_action_cards(observation)
    rng.shuffle(unseen)
    for scientist, view in zip(scientists, observation["scientists"], strict=True):
        if scientist.seat == seat:
            scientist.hand = list(observation["hand"])
        else:
            scientist.hand, unseen = unseen[: view["hand_size"]], unseen[view["hand_size"] :]
    table.action_deck = unseen[: observation["action_cards_left"]]
    table.discards = unseen[observation["action_cards_left"] :]
    stage = STAGES[table.stage]
    assert isinstance(stage, Decision)
    asked = stage.seats(table)
    to_move = observation["to_move"]
    table.queue = asked[asked.index(to_move) :] if to_move in asked else [to_move]
    return BouldervilleState(table, legal=legal_moves(table))
