"""Phase 3, Do Science: the seats' decisions (place, play, draw) and clearing rubble.

Every seat decides in lead order. A scientist that made a lucky escape this turn sits the whole
phase out. In Move scientists every scientist is picked up and placed again anywhere that holds no
lava, no ruin and no scientist already placed; placing on rubble means clearing it (``clear``), and a
clearing scientist plays no action card that turn. Moves::

    {"type": "place", "space": "town_hall_steps"}
    {"type": "clear", "space": "north_road"}
    {"type": "pass"}
    {"type": "discard", "cards": ["bulldozer", "field_notes"]}

(plays are in :mod:`referee.boulderville.actions`). ``discard`` lists the cards let go before the
hand is filled back up; ``"cards": []`` keeps the whole hand.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from referee.boulderville.actions import play, plays
from referee.boulderville.edition import EDITION
from referee.boulderville.hazards import clearable
from referee.boulderville.renown import claim_renown
from referee.boulderville.table import CLEARABLE, RUBBLE_TURNED, Table
from referee.game import Move
from referee.memo import Memo

# ----- b. Move scientists --------------------------------------------------------------------------


def placers(table: Table) -> list[int]:
    return table.in_turn()


def pick_up_scientists(table: Table) -> None:
    """Everyone is placed afresh: lift every scientist before the first one is placed."""
    for scientist in table.scientists:
        scientist.space = None
        scientist.clearing = False


PLACES = tuple(
    (space.id, {"type": "place", "space": space.id}, {"type": "clear", "space": space.id})
    for space in EDITION.board.spaces
)
"""Each space in board order with its two moves. The engine's own moves are never handed out
(the state gives callers copies) nor changed, so every game lists the same ones."""

_OPEN = Memo[frozenset[tuple[str, str]], tuple[list[Move], dict[str, int]]](
    "boulderville.open_ground", limit=10_000
)
"""By the covered spaces: the placements with no scientist on the board, and where each space's
move sits in that list. A game sees a few dozen coverings; the same ones come up in every game."""


_LAST: list[tuple[dict[str, str], tuple[list[Move], dict[str, int]]]] = [({"": ""}, ([], {}))]
"""The last terrain looked up (a copy of it) with what it gave, as one tuple (swapped whole, so
threads sharing it never see a terrain with another's answer): the placements of a turn share one
terrain, and comparing it with the copy is quicker than spelling its key."""


def _open_ground(terrain: dict[str, str]) -> tuple[list[Move], dict[str, int]]:
    seen, last = _LAST[0]
    if terrain == seen:
        return last
    key = frozenset(terrain.items())
    found = _OPEN.table.get(key)
    if found is None:
        moves: list[Move] = []
        for space, place, clear in PLACES:
            cover = terrain.get(space)
            if cover is None:
                moves.append(place)
            elif cover in CLEARABLE:
                moves.append(clear)
        found = _OPEN.keep(key, (moves, {move["space"]: index for index, move in enumerate(moves)}))
    _LAST[0] = (dict(terrain), found)
    return found


def placements(table: Table, seat: int) -> list[Move]:
    """Every space without lava, ruin or a placed scientist, in board order (``clear`` on rubble)."""
    moves, index = _open_ground(table.terrain)
    taken = sorted([index[s.space] for s in table.scientists if s.space in index], reverse=True)
    moves = list(moves)
    for position in taken:
        del moves[position]
    return moves


def place(table: Table, seat: int, move: Move) -> None:
    scientist = table.scientists[seat]
    scientist.space = move["space"]
    scientist.clearing = move["type"] == "clear"
    table.log("scientist_placed", seat=seat, space=scientist.space, clearing=scientist.clearing)


# ----- c. Play actions -----------------------------------------------------------------------------


def players(table: Table) -> list[int]:
    turn, scientists = table.turn, table.scientists
    seats = []
    for seat in table.lead_order():
        scientist = scientists[seat]
        if scientist.missed_turn != turn and scientist.space is not None and not scientist.clearing:
            seats.append(seat)
    return seats


def actions(table: Table, seat: int) -> list[Move]:
    """The seat's plays, then ``pass``; nothing at all (the seat is skipped) when it cannot play."""
    found = plays(table, seat)
    if found:
        found.append(PASS)
    return found


PASS: Move = {"type": "pass"}
"""The engine's own pass, listed after every seat's plays (never handed out, nor changed)."""


def act(table: Table, seat: int, move: Move) -> None:
    if move["type"] == "pass":
        table.log("passed", seat=seat)
    else:
        play(table, seat, move)


# ----- d. Draw actions -----------------------------------------------------------------------------


def drawers(table: Table) -> list[int]:
    return table.in_turn()


def discards(table: Table, seat: int) -> list[Move]:
    """Every distinct set of cards the seat may let go, smallest first (``[]`` keeps the hand).

    With an empty hand there is nothing to decide, so the seat is skipped (and still draws).
    """
    return _discards(tuple(sorted(table.scientists[seat].hand)))


@cache
def _discards(hand: tuple[str, ...]) -> list[Move]:
    """The discards of a sorted hand, listed once per hand (the engine never changes nor hands out
    its own moves; there are a few thousand hands of up to four cards)."""
    seen: list[tuple[str, ...]] = []
    for size in range(len(hand) + 1) if hand else ():
        for chosen in combinations(hand, size):
            if chosen not in seen:
                seen.append(chosen)
    return [{"type": "discard", "cards": list(chosen)} for chosen in seen]


HAND_SIZE = {card.id: card.abilities.hand_size for card in EDITION.scientists.values()}


def fill_hand(table: Table, seat: int) -> None:
    """Draw back up to the hand size; an empty deck is the discards, shuffled."""
    scientist = table.scientists[seat]
    size = HAND_SIZE[scientist.id]
    drawn: list[str] = []
    while len(scientist.hand) < size:
        if not table.action_deck:
            if not table.discards:
                break
            table.action_deck, table.discards = table.discards, []
            table.shuffle(table.action_deck)
            table.log("action_deck_reshuffled", cards=len(table.action_deck))
        drawn.append(table.action_deck.pop(0))
        scientist.hand.append(drawn[-1])
    if drawn:
        table.log("cards_drawn", seat=seat, count=len(drawn), private={"cards": drawn})


def discard_and_draw(table: Table, seat: int, move: Move) -> None:
    hand = table.scientists[seat].hand
    for card in move["cards"]:
        hand.remove(card)
        table.discards.append(card)
    table.log("cards_discarded", seat=seat, count=len(move["cards"]), private={"cards": list(move["cards"])})
    fill_hand(table, seat)


# ----- e. Claim renown (and the turn's rubble clearing) ---------------------------------------------


def clear_rubble(table: Table) -> None:
    """A turn's work on each rubble card a scientist stands on: turned after one, gone after two."""
    needed = EDITION.rules.rubble_work_needed
    for seat in table.lead_order():
        scientist = table.scientists[seat]
        if not scientist.clearing or scientist.space is None or not clearable(table, scientist.space):
            continue
        done = (1 if table.terrain[scientist.space] == RUBBLE_TURNED else 0) + (
            EDITION.scientists[scientist.id].abilities.rubble_work
        )
        if done >= needed:
            del table.terrain[scientist.space]
            table.log("rubble_cleared", space=scientist.space, by=seat)
        else:
            table.terrain[scientist.space] = RUBBLE_TURNED
            table.log("rubble_turned", space=scientist.space, by=seat)


def end_of_science(table: Table) -> None:
    clear_rubble(table)
    claim_renown(table)
