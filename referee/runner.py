"""The match runner: drives one game's engine against the seats' agents and returns the replay.

It is the only place where engines meet bots. For every move it builds the protocol request from the
engine's observation and legal moves (version 2 requests leave the legal moves out, each seat in its
own bot's version; the answer is checked against them all the same), asks the seat's agent under the
time control, and turns every failure into a recorded fault and a seeded random legal move, so a
match always reaches its end. A
match that passes its variant's ``max_moves`` is ended by the runner (reason ``move_limit``), so no
engine can hold a worker for ever; one whose ``should_stop`` answers true before a move is ended
there (reason ``stopped``), the moves so far in its replay. Given ``max_seconds``, a match still
going when that much time has passed since it started is ended at that moment (reason
``time_limit``), however many moves its time control would still allow: a move asked when less time
is left than the move's own budget is asked with what is left, and a bot that has not answered
when it runs out is not blamed (no fault; the move is not played).

>>> from referee.transport.agents import LocalAgent
>>> from referee.bot import Request
>>> class First:
...     def choose(self, request: Request) -> dict:
...         return request["legal_moves"][0]
>>> from referee.registry import all_games
>>> game = all_games()[0]
>>> names = [f"b-{seat}" for seat in range(game.variant(game.default_variant).seats[0])]
>>> spec = MatchSpec.build(game=game.id, bots=names, seed=3)
>>> replay = run_match("m-1", spec, [Player(name, LocalAgent(First())) for name in names])
>>> replay.spec is spec, replay.result.reason in get_game(game.id).variant(spec.variant).end_reasons
(True, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from time import monotonic
from typing import Any

from referee.game import Move, Outcome
from referee.match import DEFAULT_MAX_FAULTS, MatchSpec, TimeControl
from referee.protocol import (
    PROTOCOL_VERSION,
    Fault,
    check_version,
    request_base,
    sent_json,
    with_legal_moves,
)
from referee.registry import get_game
from referee.replay import (
    FaultRecord,
    MatchResult,
    MoveRecord,
    Replay,
    SeatRecord,
    move_limit_outcome,
    stopped_outcome,
    time_limit_outcome,
)
from referee.rng import Rng, derive_seed
from referee.transport.agents import Agent, Reply

NOTICE_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class Player:
    """Who plays a seat: the name the replay shows, the agent that reaches the bot, and the protocol
    version the bot is spoken to (its requests say it; version 2 move requests carry no
    ``legal_moves``). Seats of one match may speak different versions."""

    name: str
    agent: Agent
    protocol: int = PROTOCOL_VERSION


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class _Seat:
    """A seat's running account during a match: bank, faults by kind, forfeit."""

    def __init__(self, player: Player, bank_ms: int) -> None:
        self.player = player
        self.bank_ms = bank_ms
        self.faults: Counter[str] = Counter()
        self.forfeited = False


def run_match(
    match_id: str,
    spec: MatchSpec,
    players: Sequence[Player],
    on_move: Callable[[MoveRecord], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_seconds: float | None = None,
    clock: Callable[[], float] = monotonic,
) -> Replay:
    """Play a match to its end and return its replay.

    ``players`` are in seat order, one per seat of ``spec``. The spec is trusted (it was checked
    when built), but an explicit setup is the engine's to judge: a :class:`referee.game.SetupError`
    can still come from a spec loaded from an older store. Once the game starts no bot behaviour can
    make this raise. ``on_move`` is called with each move as it is played (progress reports); its
    exceptions are not caught. ``should_stop`` is asked before every move; when it answers true
    the match ends there (see the module doc). The runner does no I/O of its own for it: the caller
    decides how often to look. ``max_seconds`` is the whole match's time, from the call, by
    ``clock`` (seconds; a test passes a clock it moves); None plays on to the end. The start and
    end notices (:data:`NOTICE_TIMEOUT_S` each) are outside it.
    """
    if len(players) != spec.seats:
        raise ValueError(f"the spec has {spec.seats} seats but {len(players)} players were given")
    for player in players:
        check_version(player.protocol)
    game = get_game(spec.game)
    variant = game.variant(spec.variant)
    state = game.new_state(spec.config)
    initial_state = state.to_json()
    time = spec.time
    fallback_rng = Rng(derive_seed(spec.seed, "fallback"))
    accounts = [_Seat(player, time.bank_ms) for player in players]
    started_at = _now()
    deadline = None if max_seconds is None else clock() + max_seconds

    def request(kind: str, seat: int, turn: int) -> dict[str, Any]:
        return request_base(
            kind=kind,
            match_id=match_id,
            game=spec.game,
            variant=spec.variant,
            seat=seat,
            seats=spec.seats,
            turn=turn,
            time={"move_ms": time.move_ms, "bank_ms": accounts[seat].bank_ms},
            observation=state.observation(seat),
            protocol=accounts[seat].player.protocol,
        )

    for seat, account in enumerate(accounts):
        account.player.agent.notify(request("start", seat, 0), NOTICE_TIMEOUT_S)

    moves: list[MoveRecord] = []
    outcome = state.outcome()
    while outcome is None:
        if len(moves) >= variant.max_moves:
            outcome = move_limit_outcome(spec.seats, variant.team)
            break
        if should_stop is not None and should_stop():
            outcome = stopped_outcome(spec.seats, variant.team)
            break
        left_s = None if deadline is None else deadline - clock()
        if left_s is not None and left_s <= 0:
            outcome = time_limit_outcome(spec.seats, variant.team)
            break
        seat = state.current_seat
        assert seat is not None, "an engine must name a seat to move while the game goes on"
        account = accounts[seat]
        # computed once per state and shared, never rebuilt: a version 1 request carries this very
        # list (encoded once, with the request), the answer is looked up in it, a fallback drawn
        # from it; a version 2 request leaves it out, to be rebuilt by the bot from the observation
        legal = state.legal_moves()
        if account.forfeited:
            reply = Reply(None, 0.0, Fault.FORFEITED, "seat has forfeited")
        else:
            move_request = with_legal_moves(request("move", seat, len(moves)), legal)
            budget_s = (time.move_ms + account.bank_ms) / 1000.0
            timeout_s = budget_s if left_s is None else min(budget_s, left_s)
            reply = account.player.agent.ask(move_request, timeout_s)
            if timeout_s < budget_s and reply.fault is Fault.TIMEOUT:  # the match's time ran out
                outcome = time_limit_outcome(spec.seats, variant.team)
                break
            account.bank_ms = _bank_after(account.bank_ms, reply.think_ms, time)
            if reply.fault is None:
                chosen = _find_legal(reply.move, legal)
                if chosen is None:
                    words = game.describe_move(reply.move)
                    detail = f"not one of the legal moves: {words}"
                    sent = sent_json(reply.move)
                    reply = Reply(None, reply.think_ms, Fault.ILLEGAL_MOVE, detail, reply.log, sent)
                else:
                    reply = Reply(chosen, reply.think_ms, log=reply.log)
        record = _record(len(moves), seat, reply, legal, fallback_rng)
        if reply.fault is not None and reply.fault is not Fault.FORFEITED:
            account.faults[reply.fault.value] += 1
            if account.faults.total() >= spec.max_faults:
                account.forfeited = True
        state.apply(record.move)
        moves.append(record)
        if on_move is not None:
            on_move(record)
        outcome = state.outcome()

    result = _result(outcome, accounts)
    for seat, account in enumerate(accounts):
        notice = request("end", seat, len(moves))
        notice["result"] = result.to_json()
        account.player.agent.notify(notice, NOTICE_TIMEOUT_S)

    return Replay(
        match_id=match_id,
        spec=spec,
        engine_version=game.version,
        seats=tuple(
            SeatRecord(
                seat,
                spec.bots[seat],
                account.player.name,
                dict(account.faults),
                account.forfeited,
                account.player.protocol,
            )
            for seat, account in enumerate(accounts)
        ),
        initial_state=initial_state,
        moves=tuple(moves),
        result=result,
        started_at=started_at,
        finished_at=_now(),
    )


def _bank_after(bank_ms: int, think_ms: float, time: TimeControl) -> int:
    """What is left of a seat's bank once a move took ``think_ms``: time beyond ``move_ms`` is spent."""
    return max(0, bank_ms - max(0, round(think_ms) - time.move_ms))


def _result(outcome: Outcome, accounts: Sequence[_Seat]) -> MatchResult:
    forfeited = [seat for seat, account in enumerate(accounts) if account.forfeited]
    return MatchResult.from_outcome(outcome, forfeited)


def _find_legal(move: Move | None, legal: list[Move]) -> Move | None:
    """The legal move equal to the bot's answer, or None.

    Plain equality ignores key order as the protocol wants, and is far cheaper than spelling every
    legal move as canonical JSON. It also takes ``1.0`` or ``true`` for ``1``; returning the engine's
    own legal move (never the bot's object) keeps such spellings out of the engine and the replay.
    """
    try:
        return legal[legal.index(move)]  # type: ignore[arg-type]  # None is simply not in the list
    except ValueError:
        return None


def _record(turn: int, seat: int, reply: Reply, legal: list[Move], rng: Rng) -> MoveRecord:
    if reply.fault is None and reply.move is not None:
        return MoveRecord(turn, seat, reply.move, "bot", None, reply.think_ms, reply.log or None)
    fault = FaultRecord(reply.fault or Fault.INVALID_RESPONSE, reply.detail, reply.sent)
    return MoveRecord(turn, seat, rng.choice(legal), "fallback", fault, reply.think_ms, reply.log or None)


__all__ = ["DEFAULT_MAX_FAULTS", "MatchSpec", "Player", "TimeControl", "run_match"]
