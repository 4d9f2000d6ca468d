"""The eruption deck: how it is built, and phase 2, revealing a card and carrying it out.

Built as the text says: each sub-deck shuffled and five dealt from it; the Eruption card shuffled in
with the five pre-eruption cards; the five build-up cards on top of those and the lot on the five
post-eruption cards: sixteen cards, the Eruption somewhere from the 6th to the 11th.

A card moves the eruption marker by its value and then does its effects (lava, rubble, ruin, the
bridge). A position bonus is checked first, against where the scientists stand as the card turns
over, before its lava or rubble can move anyone.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.boulderville.edition import EDITION, EruptionCard
from referee.boulderville.hazards import collapse_bridge, cover_with_lava, drop_rubble
from referee.boulderville.renown import score_renown
from referee.boulderville.table import RUIN, Table


def build_deck(table: Table) -> list[str]:
    """Deal and stack the three sub-decks from the table's generator (top of the deck first)."""
    dealt = {
        deck: table.sample(list(EDITION.eruption_decks[deck]), count)
        for deck, count in EDITION.eruption_deal.items()
    }
    pre = [*dealt["pre_eruption"], EDITION.eruption_card]
    table.shuffle(pre)
    return [*dealt["build_up"], *pre, *dealt["post_eruption"]]


EFFECTS: dict[str, Callable[[Table, dict[str, str]], None]] = {
    "lava": lambda table, effect: cover_with_lava(table, effect["space"]),
    "rubble": lambda table, effect: drop_rubble(table, effect["space"]),
    "ruin": lambda table, effect: drop_rubble(table, effect["space"], RUIN),
    "bridge": lambda table, effect: collapse_bridge(table),
}


def position_bonus(table: Table, card: EruptionCard) -> None:
    """Scientists standing at the card's location score its renown; the counter gains once."""
    if card.bonus is None:
        return
    there = EDITION.board.spaces_of(card.bonus.location)
    present = [s for s in table.scientists if s.space in there]
    if not present:
        return
    table.eruption += card.bonus.eruption
    table.log("position_bonus", card=card.id, seats=[s.seat for s in present], eruption=card.bonus.eruption)
    for scientist in present:
        score_renown(table, scientist.seat, card.bonus.renown, reason=card.id)


def reveal(table: Table) -> None:
    """Phase 2: turn the next card over and carry it out (nothing once the deck is spent)."""
    if not table.eruption_deck:
        return
    card = EDITION.eruption_cards[table.eruption_deck.pop(0)]
    table.revealed.append(card.id)
    table.log("eruption_card", card=card.id, value=card.value)
    position_bonus(table, card)
    table.eruption += card.value
    for effect in card.effects:
        EFFECTS[effect["kind"]](table, effect)
