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
from dataclasses import dataclass, field
from datetime import UTC, datetime
from time import monotonic
from typing import Any

from referee.game import JSON, Game, Move, Outcome, State, VariantSpec
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


@dataclass(slots=True)
class _Match:
    """One match under way: what the stages of a move read and change.

    ``seat``, ``legal``, ``left_s`` and ``reply`` belong to the move being played: each move's
    stages set them in turn (:data:`MOVE_STAGES`)."""

    match_id: str
    spec: MatchSpec
    game: Game[Any]
    variant: VariantSpec
    state: State
    accounts: list[_Seat]
    fallback_rng: Rng
    deadline: float | None
    clock: Callable[[], float]
    on_move: Callable[[MoveRecord], None] | None
    should_stop: Callable[[], bool] | None
    moves: list[MoveRecord] = field(default_factory=list)
    seat: int = 0
    legal: list[Move] = field(default_factory=list)
    left_s: float | None = None
    reply: Reply = field(default_factory=lambda: Reply(None, 0.0))

    def request(self, kind: str, seat: int) -> dict[str, Any]:
        """A request to ``seat`` of ``kind`` (start, move, end) at the current turn."""
        spec, time = self.spec, self.spec.time
        return request_base(
            kind=kind,
            match_id=self.match_id,
            game=spec.game,
            variant=spec.variant,
            seat=seat,
            seats=spec.seats,
            turn=len(self.moves),
            time={"move_ms": time.move_ms, "bank_ms": self.accounts[seat].bank_ms},
            observation=self.state.observation(seat),
            protocol=self.accounts[seat].player.protocol,
        )


MoveStage = Callable[[_Match], Outcome | None]
"""One stage of a move: changes the match, or ends it there with the outcome it answers."""


def _move_limit(match: _Match) -> Outcome | None:
    """Past the variant's ``max_moves`` the runner ends the match (no engine holds a worker for ever)."""
    if len(match.moves) >= match.variant.max_moves:
        return move_limit_outcome(match.spec.seats, match.variant.team)
    return None


def _stop_asked(match: _Match) -> Outcome | None:
    """The caller asked for the match to stop (it was cancelled): it ends before this move."""
    if match.should_stop is not None and match.should_stop():
        return stopped_outcome(match.spec.seats, match.variant.team)
    return None


def _time_left(match: _Match) -> Outcome | None:
    """How long the match may still run (``max_seconds``); none left ends it."""
    match.left_s = None if match.deadline is None else match.deadline - match.clock()
    if match.left_s is not None and match.left_s <= 0:
        return time_limit_outcome(match.spec.seats, match.variant.team)
    return None


def _ask_seat(match: _Match) -> Outcome | None:
    """Ask the seat to move for its move's budget (or what is left of the match's time) and charge
    its bank; a forfeited seat is not asked. A bot still thinking when the match's time runs out
    is not blamed: the match ends there."""
    state = match.state
    seat = state.current_seat
    assert seat is not None, "an engine must name a seat to move while the game goes on"
    match.seat = seat
    account = match.accounts[seat]
    # computed once per state and shared, never rebuilt: a version 1 request carries this very
    # list (encoded once, with the request), the answer is looked up in it, a fallback drawn
    # from it; a version 2 request leaves it out, to be rebuilt by the bot from the observation
    match.legal = legal = state.legal_moves()
    if account.forfeited:
        match.reply = Reply(None, 0.0, Fault.FORFEITED, "seat has forfeited")
        return None
    time = match.spec.time
    move_request = with_legal_moves(match.request("move", seat), legal)
    budget_s = (time.move_ms + account.bank_ms) / 1000.0
    left_s = match.left_s
    timeout_s = budget_s if left_s is None else min(budget_s, left_s)
    reply = account.player.agent.ask(move_request, timeout_s)
    if timeout_s < budget_s and reply.fault is Fault.TIMEOUT:  # the match's time ran out
        return time_limit_outcome(match.spec.seats, match.variant.team)
    account.bank_ms = _bank_after(account.bank_ms, reply.think_ms, time)
    match.reply = reply
    return None


def _judge_answer(match: _Match) -> Outcome | None:
    """An answer must be one of the legal moves: the engine's own equal move is kept, anything
    else is an illegal-move fault (worded by the game's notation)."""
    reply = match.reply
    if reply.fault is not None:
        return None
    chosen = _find_legal(reply.move, match.legal)
    if chosen is None:
        detail = f"not one of the legal moves: {match.game.describe_move(reply.move)}"
        sent = sent_json(reply.move)
        match.reply = Reply(None, reply.think_ms, Fault.ILLEGAL_MOVE, detail, reply.log, sent)
    else:
        match.reply = Reply(chosen, reply.think_ms, log=reply.log)
    return None


def _play_move(match: _Match) -> Outcome | None:
    """Record the move (a seeded random legal move for a fault), count the seat's fault (enough of
    them forfeit it), apply it and report it; the game's own outcome, once it has one."""
    reply = match.reply
    record = _record(len(match.moves), match.seat, reply, match.legal, match.fallback_rng)
    if reply.fault is not None and reply.fault is not Fault.FORFEITED:
        account = match.accounts[match.seat]
        account.faults[reply.fault.value] += 1
        if account.faults.total() >= match.spec.max_faults:
            account.forfeited = True
    match.state.apply(record.move)
    match.moves.append(record)
    if match.on_move is not None:
        match.on_move(record)
    return match.state.outcome()


MOVE_STAGES: tuple[MoveStage, ...] = (
    _move_limit,
    _stop_asked,
    _time_left,
    _ask_seat,
    _judge_answer,
    _play_move,
)
"""A move, stage by stage: the first stage that answers an outcome ends the match there."""


def run_match(
    match_id: str,
    spec: MatchSpec,
    players: Sequence[Player],
    on_move: Callable[[MoveRecord], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    max_seconds: float | None = None,
    clock: Callable[[], float] = monotonic,
) -> Replay:
    """Play a match to its end and return its replay: start it (:func:`_start`), play its moves
    through :data:`MOVE_STAGES` until one answers an outcome, then tell the seats how it ended
    and make the replay (:func:`_end`).

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
    state = game.new_state(spec.config)
    initial_state = state.to_json()
    match = _Match(
        match_id,
        spec,
        game,
        game.variant(spec.variant),
        state,
        [_Seat(player, spec.time.bank_ms) for player in players],
        Rng(derive_seed(spec.seed, "fallback")),
        None if max_seconds is None else clock() + max_seconds,
        clock,
        on_move,
        should_stop,
    )
    started_at = _now()
    _start(match)
    outcome = _play(match)
    return _end(match, outcome, initial_state, started_at)


def _start(match: _Match) -> None:
    """Tell every seat the match starts (each in its own protocol version)."""
    for seat, account in enumerate(match.accounts):
        account.player.agent.notify(match.request("start", seat), NOTICE_TIMEOUT_S)


def _play(match: _Match) -> Outcome:
    """Play moves, each through :data:`MOVE_STAGES`, until one ends the match."""
    outcome = match.state.outcome()
    while outcome is None:
        for stage in MOVE_STAGES:
            outcome = stage(match)
            if outcome is not None:
                break
    return outcome


def _end(match: _Match, outcome: Outcome, initial_state: JSON, started_at: str) -> Replay:
    """Tell every seat how the match ended and make its replay."""
    result = _result(outcome, match.accounts)
    for seat, account in enumerate(match.accounts):
        notice = match.request("end", seat)
        notice["result"] = result.to_json()
        account.player.agent.notify(notice, NOTICE_TIMEOUT_S)
    spec = match.spec
    return Replay(
        match_id=match.match_id,
        spec=spec,
        engine_version=match.game.version,
        seats=tuple(
            SeatRecord(
                seat,
                spec.bots[seat],
                account.player.name,
                dict(account.faults),
                account.forfeited,
                account.player.protocol,
            )
            for seat, account in enumerate(match.accounts)
        ),
        initial_state=initial_state,
        moves=tuple(match.moves),
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
