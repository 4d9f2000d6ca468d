"""The turn as a table of named stages, run in order until some seat has a decision to make.

The six phases of the rule text, with Do Science split into its steps::

    ongoing    1. lava spreads; lasting action cards that are over are discarded
    eruption   2. the next eruption card is revealed and carried out
    lead       3a. the lead passes one seat to the left (seat 0 leads the first turn)
    place      3b. each seat places its scientist            (decision, lead order)
    act        3c. each seat may play one action card        (decision, lead order)
    draw       3d. each seat discards any cards and draws up (decision, lead order)
    claim      3e. a turn's rubble clearing is done; tokens are cashed at the Science Station
    townsfolk  4. movers move, nearest the exit first
    willing    5. believers roll a d10 to start moving
    belief     6. the unconvinced check the eruption counter
    end        the game ends once no townsperson is left on the board (or at the turn limit)

A decision stage lists its seats on entry and asks them one by one; a seat with no legal move is
skipped (the draw stage still fills its hand). Automatic stages run without asking anyone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from operator import is_

from referee.boulderville import science, townsfolk
from referee.boulderville.edition import EDITION
from referee.boulderville.eruption import reveal
from referee.boulderville.hazards import kill_person, spread_lava
from referee.boulderville.table import Table
from referee.game import IllegalMove, Move, canonical_json


def _no_start(table: Table) -> None:
    return None


def _no_skip(table: Table, seat: int) -> None:
    return None


@dataclass(frozen=True)
class Decision:
    """A stage where seats decide in turn: who, what they may do, and what a move does."""

    seats: Callable[[Table], list[int]]
    moves: Callable[[Table, int], list[Move]]
    apply: Callable[[Table, int, Move], None]
    start: Callable[[Table], None] = _no_start
    skip: Callable[[Table, int], None] = _no_skip


def ongoing_effects(table: Table) -> None:
    """Phase 1: lava spreads, and lasting cards whose effect is over go to the discards.

    The event log keeps the last ``events_kept_turns`` turns.
    """
    oldest = table.turn - EDITION.rules.events_kept_turns + 1
    table.events = [e for e in table.events if e["turn"] >= oldest]
    spread_lava(table)
    over = [o for o in table.ongoing if o.last_turn < table.turn]
    for effect in over:
        table.discards.append(effect.card)
        table.log("card_effect_over", card=effect.card, effect=effect.effect, target=effect.target)
    table.ongoing = [o for o in table.ongoing if o.last_turn >= table.turn]


def take_lead(table: Table) -> None:
    """Phase 3a: the first turn keeps the first lead; after that it passes to the left."""
    if table.turn > 1:
        table.lead = (table.lead + EDITION.rules.lead_step) % table.seats
    table.log("lead", seat=table.lead)


class BouldervilleEnd(StrEnum):
    """How a game ends: the :attr:`referee.game.Outcome.reason` values."""

    EVACUATED = "evacuated"
    """The last townsperson left the town (saved or lost)."""
    TURN_LIMIT = "turn_limit"
    """The ``max_turns`` option's turns were played; those still in town are lost."""


MAX_MOVES = 20_000
"""The runner's cap: at most 200 turns (the ``max_turns`` option's maximum) of placements, actions
and decisions; random games of the default 40 turns take at most about 280 moves."""


def end_of_turn(table: Table) -> None:
    """Over once the last townsperson has left; at the turn limit those still here are lost."""
    if not table.on_board():
        table.result = BouldervilleEnd.EVACUATED.value
    elif table.turn >= table.options["max_turns"]:
        for person in table.on_board():
            kill_person(table, person, "left_behind")
        table.result = BouldervilleEnd.TURN_LIMIT.value
    else:
        table.turn += 1
        return
    table.log("game_over", reason=table.result, rescue=table.rescue)


STAGES: dict[str, Decision | Callable[[Table], None]] = {
    "ongoing": ongoing_effects,
    "eruption": reveal,
    "lead": take_lead,
    "place": Decision(science.placers, science.placements, science.place, start=science.pick_up_scientists),
    "act": Decision(science.players, science.actions, science.act),
    "draw": Decision(science.drawers, science.discards, science.discard_and_draw, skip=science.fill_hand),
    "claim": science.end_of_science,
    "townsfolk": townsfolk.move_townspeople,
    "willing": townsfolk.check_willingness,
    "belief": townsfolk.check_belief,
    "end": end_of_turn,
}
ORDER = tuple(STAGES)
NEXT = {name: ORDER[(index + 1) % len(ORDER)] for index, name in enumerate(ORDER)}


def enter(table: Table, name: str) -> None:
    table.stage = name
    stage = STAGES[name]
    if isinstance(stage, Decision):
        stage.start(table)
        table.queue = stage.seats(table)
    else:
        table.queue = []


def advance(table: Table) -> list[Move]:
    """Run stages until a seat has a decision or the game is over; the legal moves of the seat
    to move (found on the way, as a seat with none is skipped), or ``[]`` once the game is over."""
    while table.result is None:
        stage = STAGES[table.stage]
        if isinstance(stage, Decision):
            while table.queue:
                moves = stage.moves(table, table.queue[0])
                if moves:
                    return moves
                stage.skip(table, table.queue.pop(0))
        else:
            stage(table)
            if table.result is not None:
                return []
        enter(table, NEXT[table.stage])
    return []


def legal_moves(table: Table) -> list[Move]:
    if table.result is not None or not table.queue:
        return []
    stage = STAGES[table.stage]
    assert isinstance(stage, Decision)
    return stage.moves(table, table.queue[0])


def _spelled(move: object) -> str:
    """The move's canonical JSON, or IllegalMove for anything JSON cannot spell.

    A client may send anything (sets, non-string keys, nesting deep enough to exhaust the stack);
    none of it can be a legal move, so it is refused like any other wrong move, never a crash.
    """
    try:
        return canonical_json(move)
    except (TypeError, ValueError, RecursionError):
        raise IllegalMove(f"not a JSON move: {type(move).__name__}") from None


def _spelled_alike(given: object, own: object) -> bool:
    """Whether ``given``, already ``==`` to the engine's ``own``, also spells the same JSON.

    ``==`` takes ``True`` for ``1`` and ``1.0`` for ``1``, which JSON tells apart, and a key or value
    of a class of its own may claim to equal anything; every other difference (a tuple for a list)
    makes ``==`` false and goes to the canonical comparison.
    """
    kind = type(own)
    if kind is str:
        return isinstance(given, str)
    if kind is dict:
        if not isinstance(given, dict):
            return False
        for key in given:
            if type(key) is not str:
                return False
        # own is a dict (kind is dict), which mypy cannot see through kind; an isinstance costs every move
        for key, value in own.items():  # type: ignore[attr-defined]  # noqa: SIM110 (every move: no generator)
            theirs = given[key]
            if type(value) is str:  # most values: no call
                if not isinstance(theirs, str):
                    return False
            elif not _spelled_alike(theirs, value):
                return False
        return True
    if kind is list:
        if not isinstance(given, list):
            return False
        return all(map(_spelled_alike, given, own))  # type: ignore[call-overload]  # own is a list (kind)
    if kind is bool:
        return isinstance(given, bool)
    if kind is int:
        return isinstance(given, int) and not isinstance(given, bool)
    return given is None and own is None


def same_parts(given: dict[str, object], own: Move) -> bool:
    """Whether ``given`` has the very key and value objects of ``own``, in order: a shallow copy of
    it (as ``legal_moves`` hands out), so spelled alike with no more checking (all in C)."""
    if len(given) != len(own):
        return False
    return all(map(is_, given, own)) and all(map(is_, given.values(), own.values()))


def find_move(legal: list[Move], move: object) -> Move:
    """The engine's own legal move that ``move`` spells (as canonical JSON), or IllegalMove.

    Most moves come back exactly as they were listed, so a plain comparison finds them first; only
    a move that differs in form (a tuple for a list, a dict subclass) is spelled out as JSON.
    """
    if type(move) is dict:
        try:
            for own in legal:
                if own == move and (same_parts(move, own) or _spelled_alike(move, own)):
                    return own
        except Exception:  # a value whose comparison fails is no legal move's value: spell it out
            pass
    wanted = _spelled(move)
    chosen = next((m for m in legal if canonical_json(m) == wanted), None)
    if chosen is None:
        raise IllegalMove(f"not a legal move now: {wanted[:200]}")
    return chosen


def apply_move(table: Table, move: Move, legal: list[Move] | None = None) -> tuple[Move, list[Move]]:
    """Play the current seat's move and run on to the next decision; IllegalMove leaves all as it was.

    The stage carries out the engine's own copy of the matching legal move, so a caller's move that
    only spells the same (a tuple for a list, a dict subclass) never reaches the stages. ``legal``
    is this table's ``legal_moves``, when the caller has them already. Returns the move played and
    the legal moves of the next seat to move.
    """
    return carry_out(table, find_move(legal_moves(table) if legal is None else legal, move))


def carry_out(table: Table, chosen: Move) -> tuple[Move, list[Move]]:
    """Play ``chosen``, one of the engine's own legal moves for this table (as :func:`find_move`
    gives), and run on to the next decision: ``chosen`` and the next seat's legal moves."""
    stage = STAGES[table.stage]
    assert isinstance(stage, Decision)
    seat = table.queue.pop(0)
    stage.apply(table, seat, chosen)
    return chosen, advance(table)
