"""The turn's skeleton: who decides next, the start and end of a turn, the win and the outcome.

Phases (``state.phase``) and who decides in each:

========================  ================================================================
``place_settlement``      setup, the seat in snake order places a settlement
``place_road``            setup, the same seat places a road next to it
``roll``                  the turn's seat rolls, or first plays a development card
``discard``               a seat holding more than seven cards after a 7 discards one card
``robber``                the turn's seat moves the robber (after a 7 or a knight)
``gold``                  a seat owed gold from a volcano picks one resource
``main``                  the turn's seat builds, buys, plays, trades or ends the turn
``road_building``         the turn's seat places a free road (road building card)
``trade_answer``          a seat offered a trade accepts or declines
``trade_confirm``         the offering seat picks one seat that accepted, or cancels
``over``                  nobody
========================  ================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.catan_volcano import awards
from referee.catan_volcano.edition import EDITION
from referee.catan_volcano.events import forget_before, record
from referee.catan_volcano.variants import CatanEnd
from referee.game import Move, Outcome, places_from_keys

if TYPE_CHECKING:
    from referee.catan_volcano.position import Position


def next_owed(state: Position, owed: list[int]) -> int:
    """The first seat, in order from the turn's seat, still owing a decision in ``owed``; -1 if none."""
    if not any(owed):
        return -1
    n = state.seats
    start = state.turn_seat
    for k in range(n):
        seat = (start + k) % n
        if owed[seat]:
            return seat
    return -1


def begin_turn(state: Position, seat: int) -> None:
    """A seat's turn starts: before the roll. A seat already on enough points wins at once: the
    moves that begin a turn (the end of the last one, the last setup road) are always followed by
    :func:`referee.catan_volcano.moves.settle`, whose first step is :func:`check_win` (which
    looks at the seat's points if they may have moved since it last did)."""
    state.turn_seat = seat
    state.current = seat
    state.phase = "roll"
    state.dev_played = False
    state.offers_made = 0
    state.dice = None


def end_turn(state: Position, move: Move) -> None:
    """The turn ends: cards bought become playable, the turn count moves on, the limit may end it."""
    seat = state.turn_seat
    state.new_devs[seat] = [0, 0, 0, 0, 0]
    record(state, {"type": "end_turn", "seat": seat})
    state.turn += 1
    forget_before(state, state.turn - state.seats)
    if state.turn >= state.options["turn_limit"]:
        finish(state, -1, CatanEnd.TURN_LIMIT)
        return
    begin_turn(state, (seat + 1) % state.seats)


def enter_main(state: Position) -> None:
    state.phase = "main"
    state.current = state.turn_seat


def resume(state: Position) -> None:
    """Back to the phase a knight or a road building card interrupted (before or after the roll)."""
    state.phase = state.resume
    state.current = state.turn_seat


def check_win(state: Position) -> None:
    """Ten points on one's own turn win: only the turn's seat is checked.

    Looked at only when something that counts towards points may have moved since this seat's
    last look (``state.score_moves``, see :mod:`.changes`): this runs after every move, and points change on
    few moves and in few turns."""
    moved, seat = state.score_moves, state.turn_seat
    if moved == state.win_checked[seat]:
        return
    state.win_checked[seat] = moved
    if state.phase == "over":
        return
    if awards.points(state, seat) >= EDITION.points_to_win:
        finish(state, seat, CatanEnd.POINTS)


def finish(state: Position, winner: int, reason: str) -> None:
    state.phase = "over"
    state.winner = winner
    state.end_reason = str(reason)
    state.current = -1
    record(state, {"type": "game_over", "winner": None if winner < 0 else winner, "reason": str(reason)})


def outcome(state: Position) -> Outcome:
    """Places by points (hidden victory point cards count); the winner, if any, always first."""
    scores = tuple(float(awards.points(state, seat)) for seat in range(state.seats))
    keys = [(seat == state.winner, scores[seat]) for seat in range(state.seats)]
    details = {"winner": None if state.winner < 0 else state.winner, "turns": state.turn}
    return Outcome(places_from_keys(keys), scores, state.end_reason or CatanEnd.POINTS.value, details=details)
