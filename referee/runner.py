"""The match runner: drives one game's engine against the seats' agents and writes the replay.

It is the only place where engines meet bots. For every move it builds the protocol request from the
engine's observation and legal moves, asks the seat's agent under the time control, and turns every
failure into a recorded fault and a seeded random legal move, so a match always reaches its end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from referee.agents import Agent, Reply
from referee.game import JSON, Outcome, SetupError, State
from referee.protocol import Fault, request_base
from referee.registry import get_game
from referee.replay import REPLAY_FORMAT, result_with_forfeits
from referee.rng import Rng, derive_seed

DEFAULT_MAX_FAULTS = 3
NOTICE_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class TimeControl:
    """A budget per move plus an optional bank per seat for the match.

    A move may use ``move_ms`` plus whatever is left in the bank; time beyond ``move_ms`` is taken
    from the bank.
    """

    move_ms: int = 2000
    bank_ms: int = 0

    def __post_init__(self) -> None:
        if self.move_ms < 1 or self.bank_ms < 0:
            raise SetupError("time.move_ms must be at least 1 and time.bank_ms at least 0", "time")

    def to_json(self) -> dict[str, int]:
        return {"move_ms": self.move_ms, "bank_ms": self.bank_ms}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TimeControl:
        data = data or {}
        return cls(int(data.get("move_ms", 2000)), int(data.get("bank_ms", 0)))


@dataclass(frozen=True)
class SeatBot:
    """Who plays a seat: the bot's id and name as the replay shows them, and how to reach it."""

    bot_id: str
    name: str
    agent: Agent


def check_match_request(
    game_id: str,
    variant: str,
    seats: int,
    options: Mapping[str, JSON] | None,
    setup: Mapping[str, JSON] | None,
) -> dict[str, JSON]:
    """Everything about a match request that can be wrong before any bot is called.

    Builds the initial state once (cheap for every game) so that a bad setup is refused when the
    match is requested, not when a worker picks it up. Returns the resolved options.
    """
    return _initial_state(game_id, variant, seats, 0, options, setup)[1]


def _initial_state(
    game_id: str,
    variant: str,
    seats: int,
    seed: int,
    options: Mapping[str, JSON] | None,
    setup: Mapping[str, JSON] | None,
) -> tuple[State, dict[str, JSON]]:
    """The match's first state and its resolved options; :class:`SetupError` for a bad request."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError("seed must be an integer", "seed")
    game = get_game(game_id)
    resolved = game.resolve(variant, seats, options)
    return game.new_state(variant, seats=seats, seed=seed, options=resolved, setup=setup), resolved


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class _Seat:
    """A seat's running account during a match: bank, faults, forfeit."""

    def __init__(self, entry: SeatBot, bank_ms: int) -> None:
        self.entry = entry
        self.bank_ms = bank_ms
        self.faults = 0
        self.forfeited = False


def run_match(
    *,
    match_id: str,
    game_id: str,
    variant: str,
    seats: list[SeatBot],
    seed: int,
    options: Mapping[str, JSON] | None = None,
    setup: Mapping[str, JSON] | None = None,
    time: TimeControl | None = None,
    max_faults: int = DEFAULT_MAX_FAULTS,
    on_move: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play a match to its end and return its replay (format ``arena-replay/1``).

    Raises :class:`SetupError` only for a request that could not start; once the game starts no bot
    behaviour can make it raise. ``on_move`` is called with each move record as it is played
    (progress reports); its exceptions are not caught.
    """
    time = time or TimeControl()
    game = get_game(game_id)
    state, resolved = _initial_state(game_id, variant, len(seats), seed, options, setup)
    initial_state = state.to_json()
    fallback_rng = Rng(derive_seed(seed, "fallback"))
    accounts = [_Seat(entry, time.bank_ms) for entry in seats]
    started_at = _now()

    def request(kind: str, seat: int, turn: int) -> dict[str, Any]:
        return request_base(
            kind=kind,
            match_id=match_id,
            game=game_id,
            variant=variant,
            seat=seat,
            seats=len(seats),
            turn=turn,
            time={"move_ms": time.move_ms, "bank_ms": accounts[seat].bank_ms},
            observation=state.observation(seat),
        )

    for seat, account in enumerate(accounts):
        account.entry.agent.notify(request("start", seat, 0), NOTICE_TIMEOUT_S)

    moves: list[dict[str, Any]] = []
    while state.outcome() is None:
        seat = state.current_seat
        assert seat is not None, "an engine must name a seat to move while the game goes on"
        account = accounts[seat]
        legal = state.legal_moves()
        if account.forfeited:
            reply = Reply(None, 0.0, Fault.FORFEITED, "seat has forfeited")
        else:
            move_request = request("move", seat, len(moves))
            move_request["legal_moves"] = legal
            reply = account.entry.agent.ask(move_request, (time.move_ms + account.bank_ms) / 1000.0)
            account.bank_ms = max(0, account.bank_ms - max(0, round(reply.think_ms) - time.move_ms))
            if reply.fault is None:
                chosen = _find_legal(reply.move, legal)
                if chosen is None:
                    reply = Reply(None, reply.think_ms, Fault.ILLEGAL_MOVE, "not one of the legal moves")
                else:
                    reply = Reply(chosen, reply.think_ms, log=reply.log)
        record = _record(len(moves), seat, reply, legal, fallback_rng)
        if reply.fault is not None and reply.fault is not Fault.FORFEITED:
            account.faults += 1
            if account.faults >= max_faults:
                account.forfeited = True
        state.apply(record["move"])
        moves.append(record)
        if on_move is not None:
            on_move(record)

    outcome = state.outcome()
    assert outcome is not None
    forfeited = [seat for seat, account in enumerate(accounts) if account.forfeited]
    result = result_with_forfeits(outcome, forfeited)
    for seat, account in enumerate(accounts):
        notice = request("end", seat, len(moves))
        notice["result"] = result
        account.entry.agent.notify(notice, NOTICE_TIMEOUT_S)

    return {
        "format": REPLAY_FORMAT,
        "match_id": match_id,
        "game": game_id,
        "variant": variant,
        "engine_version": game.version,
        "seed": seed,
        "options": resolved,
        "setup": setup,
        "time": time.to_json(),
        "max_faults": max_faults,
        "seats": [
            {
                "seat": seat,
                "bot_id": account.entry.bot_id,
                "name": account.entry.name,
                "faults": account.faults,
                "forfeited": account.forfeited,
            }
            for seat, account in enumerate(accounts)
        ],
        "initial_state": initial_state,
        "moves": moves,
        "result": result,
        "started_at": started_at,
        "finished_at": _now(),
    }


def _find_legal(move: dict[str, Any] | None, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The legal move equal to the bot's answer, or None.

    Plain equality ignores key order as the protocol wants, and is far cheaper than spelling every
    legal move as canonical JSON. It also takes ``1.0`` or ``true`` for ``1``; returning the engine's
    own legal move (never the bot's object) keeps such spellings out of the engine and the replay.
    """
    try:
        return legal[legal.index(move)]
    except ValueError:
        return None


def _record(turn: int, seat: int, reply: Reply, legal: list[dict[str, Any]], rng: Rng) -> dict[str, Any]:
    record: dict[str, Any] = {"turn": turn, "seat": seat}
    if reply.fault is None:
        record.update(move=reply.move, source="bot", fault=None)
    else:
        record.update(
            move=rng.choice(legal),
            source="fallback",
            fault={"kind": reply.fault.value, "detail": reply.detail},
        )
    record["think_ms"] = reply.think_ms
    if reply.log:
        record["log"] = reply.log
    return record


__all__ = ["Outcome", "SeatBot", "TimeControl", "check_match_request", "run_match"]
