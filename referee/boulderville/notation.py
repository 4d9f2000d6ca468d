"""Boulderville's moves in words, by the edition's names: spaces ("Crater rim"), action cards
("Gas sampling") and townspeople (their name up to its first comma: "Dr Priya Nair"), seats by
number.

>>> describe_move({"type": "place", "space": "town_hall_steps"})
'place at Town Hall steps'
>>> describe_move({"type": "clear", "space": "north_road"})
'clear rubble at North Road'
>>> describe_move({"type": "play", "card": "gas_sampling", "use": "help", "target": "t03"})
'play Gas sampling to help Dr Priya Nair'
>>> describe_move({"type": "discard", "cards": ["bulldozer", "field_notes"]})
'discard Bulldozer, Field notes'

Anything not shaped like a move of the game (here a use the card does not have) reads as JSON:

>>> describe_move({"type": "play", "card": "sandbags", "use": "scientist", "target": 1})
'{"type":"play","card":"sandbags","use":"scientist","target":1}'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.boulderville.edition import EDITION
from referee.notation import Wording, describe, is_int

_SPACES = {space.id: space.name for space in EDITION.board.spaces}
_PEOPLE = {person.id: person.name.split(",")[0] for person in EDITION.townspeople.values()}
_CARDS = {card.id: card.name for card in EDITION.actions.values()}
_USES = {card.id: frozenset(use.use for use in card.uses) for card in EDITION.actions.values()}
_LAST_SEAT = EDITION.rules.seats - 1
_MOST_IN_HAND = max(card.abilities.hand_size for card in EDITION.scientists.values())
"""No discard holds more cards than the biggest hand, so a discard's words stay a line long."""


def _known(names: Mapping[str, str], value: object) -> str | None:
    return names.get(value) if isinstance(value, str) else None


def _on_space(words: str) -> Wording:
    """A move naming one space: ``words`` then its name."""

    def read(move: Mapping[str, Any]) -> str | None:
        space = _known(_SPACES, move["space"])
        return None if space is None else f"{words} {space}"

    return Wording(("space",), read)


def _play(move: Mapping[str, Any]) -> str | None:
    card, use = _known(_CARDS, move["card"]), move["use"]
    if card is None or not isinstance(use, str) or use not in _USES[move["card"]]:
        return None
    if "target" not in move:
        return {"renown": f"play {card} for renown", "help": f"play {card} to help the town"}.get(use)
    target = move["target"]
    if use == "help" and _known(_PEOPLE, target) is not None:
        return f"play {card} to help {_PEOPLE[target]}"
    if use == "help" and _known(_SPACES, target) is not None:
        return f"play {card} at {_SPACES[target]}"
    if use == "scientist" and is_int(target, 0, _LAST_SEAT):
        return f"play {card} on seat {target}"
    return None


def _discard(move: Mapping[str, Any]) -> str | None:
    cards = move["cards"]
    if not isinstance(cards, list | tuple) or len(cards) > _MOST_IN_HAND:
        return None
    names = [_known(_CARDS, card) for card in cards]
    if None in names:
        return None
    return f"discard {', '.join(str(name) for name in names)}" if names else "discard nothing"


WORDINGS = {
    "place": _on_space("place at"),
    "clear": _on_space("clear rubble at"),
    "play": Wording(("card", "use"), _play, optional=("target",)),
    "pass": Wording((), lambda move: "pass"),
    "discard": Wording(("cards",), _discard),
}
"""Every move type of Boulderville (``docs/games/boulderville.md``, Moves) and how it reads."""


def describe_move(move: object) -> str:
    """A move of Boulderville in words, or its compact JSON if it is not one (see the module)."""
    return describe(move, WORDINGS)
