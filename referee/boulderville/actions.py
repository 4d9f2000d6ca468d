"""Action cards: what each use of a card may target, and what it does.

Every card can be played for renown at a science location (``renown``) or to help the townspeople
(``help``); a few can also be played on a scientist (``scientist``): a grant for one named scientist,
a hostile review or a funding cut against one type. Help effects are a table of small named pairs
(who or what may be targeted, what happens), so a new card kind is a line of data, not a branch.

A play as a move (``target`` is a townsperson id, a space id or a seat, and absent when the effect
has none)::

    {"type": "play", "card": "gas_sampling", "use": "renown"}
    {"type": "play", "card": "gas_sampling", "use": "help", "target": "t07"}
    {"type": "play", "card": "peer_review", "use": "scientist", "target": 2}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.boulderville.edition import EDITION, ScientistCard, Use
from referee.boulderville.hazards import clearable, lava_front
from referee.boulderville.renown import score_renown
from referee.boulderville.table import BELIEVER, MOVER, UNCONVINCED, Ongoing, Person, Scientist, Table
from referee.game import Move
from referee.memo import Memo

Target = str | int | None


def _people(statuses: tuple[str, ...]) -> Callable[[Table, Scientist, Use], list[Target]]:
    """Targets: townspeople on the board with one of these statuses, within the use's reach."""

    def targets(table: Table, scientist: Scientist, use: Use) -> list[Target]:
        reach = use.reach
        if reach is None:
            found: list[Target] = [p.id for p in table.people if p.status in statuses]
        else:
            assert scientist.space is not None
            near = EDITION.board.distance[scientist.space]
            # a townsperson with one of these statuses is on the board, so has a space
            found = [p.id for p in table.people if p.status in statuses and near[p.space] <= reach]  # type: ignore[index]
        found.sort()
        return found

    return targets


def _heard(table: Table, scientist: Scientist, use: Use) -> list[Person]:
    """Unconvinced townspeople within the loudhailer's radius of the scientist."""
    assert scientist.space is not None
    near = EDITION.board.distance[scientist.space]
    # an unconvinced townsperson is on the board, so has a space
    return [p for p in table.people if p.status == UNCONVINCED and near[p.space] <= use.radius]  # type: ignore[index]


def _set_status(status: str) -> Callable[[Table, Scientist, Use, Target], None]:
    def resolve(table: Table, scientist: Scientist, use: Use, target: Target) -> None:
        table.person(str(target)).status = status

    return resolve


def _lower(attribute: str) -> Callable[[Table, Scientist, Use, Target], None]:
    def resolve(table: Table, scientist: Scientist, use: Use, target: Target) -> None:
        person = table.person(str(target))
        setattr(person, attribute, getattr(person, attribute) + use.amount)

    return resolve


def _lasting(table: Table, scientist: Scientist, use: Use, card: str, target: Target) -> None:
    last = table.turn + use.turns - 1
    table.ongoing.append(
        Ongoing(
            str(use.effect), card, scientist.seat, use.amount, None if target is None else str(target), last
        )
    )


def _sandbag_targets(table: Table, scientist: Scientist, use: Use) -> list[str]:
    """Spaces next to the lava that are not yet sandbagged."""
    return lava_front(table)


def _bulldoze(table: Table, scientist: Scientist, use: Use, target: Target) -> None:
    del table.terrain[str(target)]
    table.log("rubble_cleared", space=target, by=scientist.seat)


def _loudhailer(table: Table, scientist: Scientist, use: Use, target: Target) -> None:
    for person in _heard(table, scientist, use):
        person.belief_down += use.amount


def _anyone_unconvinced(table: Table, scientist: Scientist, use: Use) -> list[Target]:
    """A meeting's one target (none: no target) while anyone is left to convince."""
    for person in table.people:
        if person.status == UNCONVINCED:
            return [None]
    return []


@dataclass(frozen=True)
class HelpEffect:
    """Who or what a help use may target (``[None]`` for no target; empty: not playable now)."""

    targets: Callable[[Table, Scientist, Use], Sequence[Target]]
    resolve: Callable[[Table, Scientist, Use, Target], None]
    lasting: bool = False


HELP: dict[str, HelpEffect] = {
    "convince": HelpEffect(_people((UNCONVINCED,)), _set_status(BELIEVER)),
    "urge": HelpEffect(_people((BELIEVER,)), _set_status(MOVER)),
    "belief": HelpEffect(_people((UNCONVINCED,)), _lower("belief_down")),
    "willingness": HelpEffect(_people((UNCONVINCED, BELIEVER)), _lower("willingness_down")),
    "speed": HelpEffect(_people((UNCONVINCED, BELIEVER, MOVER)), _lower("speed_up")),
    "rush": HelpEffect(_people((MOVER,)), lambda *_: None, lasting=True),
    "meeting": HelpEffect(_anyone_unconvinced, lambda *_: None, lasting=True),
    "sandbags": HelpEffect(_sandbag_targets, lambda *_: None, lasting=True),
    "bulldoze": HelpEffect(
        lambda table, scientist, use: sorted(
            (s for s in table.terrain if clearable(table, s)), key=EDITION.board.order.__getitem__
        ),
        _bulldoze,
    ),
    "loudhailer": HelpEffect(
        lambda table, scientist, use: [None] if _heard(table, scientist, use) else [],
        _loudhailer,
    ),
}


LASTING = frozenset(name for name, effect in HELP.items() if effect.lasting)
"""Help effects whose card stays on the table until phase 1 finds the effect over."""


def _matches(card: ScientistCard, who: dict[str, str]) -> bool:
    for key, value in who.items():  # noqa: SIM110 (a plain loop: asked for every scientist of every play listed)
        if (card.type if key == "type" else card.id) != value:
            return False
    return True


def _scientist_targets(table: Table, scientist: Scientist, use: Use) -> list[Target]:
    """Award: any matching scientist; discredit: another matching scientist holding tokens."""
    return [
        other.seat
        for other in table.scientists
        if _matches(EDITION.scientists[other.id], use.who)
        and (use.effect == "award" or (other.seat != scientist.seat and other.tokens > 0))
    ]


def _scientist_resolve(table: Table, scientist: Scientist, use: Use, target: Target) -> None:
    assert isinstance(target, int)
    if use.effect == "award":
        score_renown(table, target, use.amount, reason="award")
        return
    other = table.scientists[target]
    lost = min(other.tokens, use.amount)
    other.tokens -= lost
    table.log("renown_lost", seat=target, tokens=lost)


def renown_for(scientist: Scientist, use: Use) -> int:
    """Tokens a renown use scores where the scientist stands (0: not at one of the card's locations)."""
    location = EDITION.board.location_of(scientist.space)
    if location not in use.tokens:
        return 0
    card = EDITION.scientists[scientist.id]
    bonus = sum(n for key, n in use.bonus.items() if key in (card.id, card.type))
    return use.tokens[location] + bonus + card.abilities.renown_bonus.get(location, 0)


_PLAYS = Memo[tuple[str, str, tuple[Target, ...]], list[Move]]("boulderville.plays", limit=50_000)
"""The plays of one use of a card on each of its targets, made once: the engine never changes nor
hands out its own moves (the state gives callers copies)."""


def _plays_of(card: str, use: str, targets: tuple[Target, ...]) -> list[Move]:
    key = (card, use, targets)
    moves = _PLAYS.table.get(key)
    if moves is None:
        moves = []
        for target in targets:
            move: Move = {"type": "play", "card": card, "use": use}
            if target is not None:
                move["target"] = target
            moves.append(move)
        _PLAYS.keep(key, moves)
    return moves


HelpKey = tuple[str | None, int | None, int]
Step = tuple[
    str,
    "HelpKey | None",
    Callable[[Table, Scientist, Use], Sequence[Target]],
    Use,
    list[Move],
    dict[tuple[Target, ...], list[Move]],
    str,
]
"""One use of a card in a hand's plan: the use kind, the help key (None: not a help use), how to
find its targets, the use, the plays it gives whatever the table (a renown use's one play, or
none), its plays by targets found so far, and the card."""

_PLANS = Memo[tuple[tuple[str, ...], str, str | None], tuple[Step, ...]]("boulderville.plans", limit=50_000)
"""By (the distinct cards of a hand in id order, the scientist, its location): the uses to look at,
with what the table cannot change worked out once (a renown use scores or not by card, scientist
and location alone). A few thousand hands, eight scientists' worth, six locations."""

_MADE_LIMIT = 256
"""Plays kept per step of a plan, by targets (a belief card's targets are any set of townspeople)."""


def _plan(cards: tuple[str, ...], scientist: Scientist, location: str | None) -> tuple[Step, ...]:
    key = (cards, scientist.id, location)
    plan = _PLANS.table.get(key)
    if plan is None:
        steps: list[Step] = []
        for card in cards:
            for use in EDITION.actions[card].uses:
                kind = use.use
                fixed: list[Move] = []
                help_key: HelpKey | None = None
                find: Callable[[Table, Scientist, Use], Sequence[Target]]
                if kind == "renown":
                    if location in use.tokens and renown_for(scientist, use):
                        fixed = _plays_of(card, kind, (None,))
                    find = _no_targets
                elif kind == "help":
                    help_key = (use.effect, use.reach, use.radius)
                    find = HELP[str(use.effect)].targets
                else:
                    find = _scientist_targets
                steps.append((kind, help_key, find, use, fixed, {}, card))
        plan = _PLANS.keep(key, tuple(steps))
    return plan


def _no_targets(table: Table, scientist: Scientist, use: Use) -> list[Target]:
    return []


_DISTINCT = Memo[tuple[str, ...], tuple[str, ...]]("boulderville.distinct_cards", limit=50_000)
"""A hand (as held) to its distinct cards in id order, the first part of a plan's key."""
_LOCATION: dict[str | None, str | None] = {space.id: space.location for space in EDITION.board.spaces}


def plays(table: Table, seat: int) -> list[Move]:
    """Every play the seat's hand allows, cards in id order, uses in card order.

    Help uses with the same effect and reach have the same targets (several cards lower a belief
    anywhere), so each is looked up once.
    """
    scientist = table.scientists[seat]
    found: list[Move] = []
    helped: dict[HelpKey, tuple[Target, ...]] = {}
    hand = tuple(scientist.hand)
    cards = _DISTINCT.table.get(hand)
    if cards is None:
        cards = _DISTINCT.keep(hand, tuple(sorted(set(hand))))
    location = _LOCATION[scientist.space]  # a player's scientist stands on the board
    plan = _PLANS.table.get((cards, scientist.id, location))
    if plan is None:
        plan = _plan(cards, scientist, location)
    for kind, help_key, find, use, fixed, made, card in plan:
        if kind == "renown":
            found += fixed
            continue
        if help_key is None:
            targets = tuple(find(table, scientist, use))
        else:
            targets = helped.get(help_key)  # type: ignore[assignment]  # None: not looked up yet
            if targets is None:
                targets = helped[help_key] = tuple(find(table, scientist, use))
        if targets:
            moves = made.get(targets)
            if moves is None:
                if len(made) >= _MADE_LIMIT:
                    made.clear()
                moves = made[targets] = _plays_of(card, kind, targets)
            found += moves
    return found


_RENOWN = Memo[tuple[str, str, str | None], int]("boulderville.renown", limit=10_000)
"""Tokens a card's renown use scores, by card, scientist and space (:func:`renown_for`)."""
_USES = {(card.id, use.use): use for card in EDITION.actions.values() for use in reversed(card.uses)}
"""Each card's use of each kind (the first listed, as a search of the card's uses would find)."""


def play(table: Table, seat: int, move: Move) -> None:
    """Carry out a legal play: the card is shown and its use resolves.

    The card goes face up to the discards at once, except a lasting one: that stays on the table
    (in ``table.ongoing``) until phase 1 finds its effect over, so it cannot be reshuffled into the
    deck and drawn again while it still works.
    """
    scientist = table.scientists[seat]
    card = move["card"]
    use = _USES[card, move["use"]]
    target = move.get("target")
    scientist.hand.remove(card)
    table.log("card_played", seat=seat, card=card, use=use.use, target=target)
    lasting = use.use == "help" and HELP[str(use.effect)].lasting
    if not lasting:
        table.discards.append(card)
    if use.use == "renown":
        key = (card, scientist.id, scientist.space)
        tokens = _RENOWN.table.get(key)
        if tokens is None:
            tokens = _RENOWN.keep(key, renown_for(scientist, use))  # a few hundred (card, scientist, space)
        score_renown(table, seat, tokens, reason=card)
    elif use.use == "scientist":
        _scientist_resolve(table, scientist, use, target)
    else:
        if lasting:
            _lasting(table, scientist, use, card, target)
        HELP[str(use.effect)].resolve(table, scientist, use, target)
