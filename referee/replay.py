"""The replay format ``arena-replay/1``, as types, and the check that a replay re-plays to what it says.

A replay is everything needed to play a match again without its bots: its header is the match's
:class:`referee.match.MatchSpec` (game, variant, seed, options, setup, time control, fault limit),
then the engine version, the seats, the initial state, every move with its seat, source (``bot`` or
``fallback``), fault and think time, and the result. ``docs/replay.md`` describes each field of the
JSON; :meth:`Replay.to_json` writes it and :meth:`Replay.from_json` reads it back.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from referee.game import (
    JSON,
    MOVE_LIMIT,
    STOPPED,
    TIME_LIMIT,
    IllegalMove,
    Move,
    Outcome,
    SetupError,
    canonical_json,
)
from referee.match import MatchSpec
from referee.notation import CUT_MARK, MOVE_JSON_LIMIT
from referee.protocol import Fault, encode
from referee.registry import get_game

REPLAY_FORMAT = "arena-replay/1"
RESULT_FIELDS = ("places", "scores", "reason", "team_won", "details", "forfeited")


class ReplayError(ValueError):
    """A document that is not a readable replay; the message names what is wrong."""


@dataclass(frozen=True)
class FaultRecord:
    """Why a move was not the bot's: the fault's kind, a short detail for its author and, when the
    bot's answer came but was not a legal move, what it sent (:func:`referee.protocol.sent_json`:
    the move of an illegal move, the whole answer of an invalid one; None otherwise, and in
    replays written before it was kept)."""

    kind: Fault
    detail: str
    sent: str | None = None

    def to_json(self) -> dict[str, str]:
        data = {"kind": self.kind.value, "detail": self.detail}
        if self.sent is not None:
            data["sent"] = self.sent
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FaultRecord:
        return cls(Fault(data["kind"]), data["detail"], data.get("sent"))


def sent_words(game_id: str, sent: str) -> str:
    """What a bot sent (a fault's ``sent``), for people: by the game's notation when it is whole
    JSON (an illegal move reads as a move does; anything else as its compact JSON), else the kept
    text as it is (cut, already escaped), at most a line of :data:`referee.notation.MOVE_JSON_LIMIT`
    characters.

    >>> from referee.registry import game_ids
    >>> game_id = game_ids()[0]
    >>> sent_words(game_id, '"no"'), sent_words(game_id, '{"type":"fly","to":"the moo...')
    ('"no"', '{"type":"fly","to":"the moo...')
    """
    try:
        value = json.loads(sent)
    except ValueError:  # cut at the limit: the kept text is escaped already
        if len(sent) > MOVE_JSON_LIMIT:
            return sent[: MOVE_JSON_LIMIT - len(CUT_MARK)] + CUT_MARK
        return sent
    return get_game(game_id).describe_move(value)


@dataclass(frozen=True)
class MoveRecord:
    """One move of the match as it was played."""

    turn: int
    seat: int
    move: Move
    source: Literal["bot", "fallback"]
    fault: FaultRecord | None
    think_ms: float
    log: str | None = None

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "turn": self.turn,
            "seat": self.seat,
            "move": self.move,
            "source": self.source,
            "fault": None if self.fault is None else self.fault.to_json(),
            "think_ms": self.think_ms,
        }
        if self.log:
            data["log"] = self.log
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MoveRecord:
        fault = data.get("fault")
        return cls(
            turn=data["turn"],
            seat=data["seat"],
            move=data["move"],
            source=data["source"],
            fault=None if fault is None else FaultRecord.from_json(fault),
            think_ms=data["think_ms"],
            log=data.get("log"),
        )


@dataclass(frozen=True)
class SeatRecord:
    """Who held a seat and how it went for them: faults by kind (counted once, by the runner)."""

    seat: int
    bot_id: str
    name: str
    faults: Mapping[str, int] = field(default_factory=dict, hash=False)
    """Fault kind -> how many; moves played for a seat after it forfeited are not faults."""
    forfeited: bool = False
    protocol: int | None = None
    """The protocol version the seat's bot was spoken to; None where it was not recorded (replays
    written before it was, and seats of a match that has not been played)."""

    @property
    def fault_count(self) -> int:
        return sum(self.faults.values())

    def to_json(self) -> dict[str, JSON]:
        seat: dict[str, JSON] = {
            "seat": self.seat,
            "bot_id": self.bot_id,
            "name": self.name,
            "faults": self.fault_count,
            "fault_kinds": dict(self.faults),
            "forfeited": self.forfeited,
        }
        if self.protocol is not None:
            seat["protocol"] = self.protocol
        return seat

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatRecord:
        return cls(
            seat=data["seat"],
            bot_id=data["bot_id"],
            name=data["name"],
            faults=dict(data.get("fault_kinds") or {}),
            forfeited=data["forfeited"],
            protocol=data.get("protocol"),
        )


@dataclass(frozen=True)
class MatchResult(Outcome):
    """The engine's outcome with forfeited seats ranked last: what the ladder and standings read.

    An :class:`Outcome` and one more field, ``forfeited`` (the seats that forfeited, in order),
    kept in the same JSON under its own key.
    """

    forfeited: tuple[int, ...] = ()

    @classmethod
    def from_outcome(cls, outcome: Outcome, forfeited: Sequence[int]) -> MatchResult:
        """Forfeited seats share the last place; the other seats keep their order among themselves.

        >>> MatchResult.from_outcome(Outcome((1, 2, 3), (9, 5, 1), "end"), [0]).places
        (3, 1, 2)
        """
        gone = set(forfeited)
        standing = [seat for seat in range(len(outcome.places)) if seat not in gone]
        places = list(outcome.places)
        for seat in standing:
            places[seat] = 1 + sum(1 for other in standing if outcome.places[other] < outcome.places[seat])
        for seat in gone:
            places[seat] = len(standing) + 1
        return cls(
            places=tuple(places),
            scores=tuple(outcome.scores),
            reason=str(outcome.reason),
            team_won=outcome.team_won,
            details=dict(outcome.details),
            forfeited=tuple(sorted(gone)),
        )

    def to_json(self) -> dict[str, JSON]:
        return {**super().to_json(), "forfeited": list(self.forfeited)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchResult:
        base = Outcome.from_json(data)
        forfeited = tuple(data.get("forfeited") or ())
        return cls(base.places, base.scores, base.reason, base.team_won, base.details, forfeited)


@dataclass(frozen=True)
class Replay:
    """A played match. Its header is the spec it was played from."""

    match_id: str
    spec: MatchSpec
    engine_version: str
    seats: tuple[SeatRecord, ...]
    initial_state: Mapping[str, JSON] = field(hash=False)
    moves: tuple[MoveRecord, ...]
    result: MatchResult
    started_at: str
    finished_at: str

    def faults_by_bot(self) -> dict[str, dict[str, int]]:
        """Fault kinds per bot, plus ``forfeit`` for each seat that forfeited (what a bot's record
        adds up); bots without any are left out."""
        counts: dict[str, Counter[str]] = {}
        for seat in self.seats:
            kinds = counts.setdefault(seat.bot_id, Counter())
            kinds.update(seat.faults)
            if seat.forfeited:
                kinds["forfeit"] += 1
        return {bot: dict(kinds) for bot, kinds in counts.items() if kinds}

    def to_json(self) -> dict[str, JSON]:
        spec = self.spec.to_json()
        return {
            "format": REPLAY_FORMAT,
            "match_id": self.match_id,
            "game": spec["game"],
            "variant": spec["variant"],
            "engine_version": self.engine_version,
            "seed": spec["seed"],
            "options": spec["options"],
            "setup": spec["setup"],
            "time": spec["time"],
            "max_faults": spec["max_faults"],
            "seats": [seat.to_json() for seat in self.seats],
            "initial_state": self.initial_state,
            "moves": [move.to_json() for move in self.moves],
            "result": self.result.to_json(),
            "started_at": self.started_at,
            "finished_at": self.finished_at,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Replay:
        """Read a replay document; :class:`ReplayError` names what is missing or malformed."""
        if not isinstance(data, Mapping):
            raise ReplayError("a replay is a JSON object")
        if data.get("format") != REPLAY_FORMAT:
            raise ReplayError(f"format is {data.get('format')!r}, expected {REPLAY_FORMAT!r}")
        try:
            seats = tuple(SeatRecord.from_json(seat) for seat in data["seats"])
            spec = MatchSpec.from_json({**data, "bots": [seat.bot_id for seat in seats]})
            return cls(
                match_id=data["match_id"],
                spec=spec,
                engine_version=data["engine_version"],
                seats=seats,
                initial_state=data["initial_state"],
                moves=tuple(MoveRecord.from_json(move) for move in data["moves"]),
                result=MatchResult.from_json(data["result"]),
                started_at=data["started_at"],
                finished_at=data["finished_at"],
            )
        except KeyError as error:
            raise ReplayError(f"replay lacks a field: {error}") from None
        except (TypeError, ValueError, SetupError) as error:
            raise ReplayError(f"replay has a malformed field: {error}") from None


def compress(replay: Replay) -> bytes:
    """Gzip of the compact JSON: replays of long games shrink about tenfold.

    Encoded as the protocol encodes requests (orjson, UTF-8 as it is, the standard encoder for what
    orjson refuses): the standard library's encoder took about 190 µs of a short match's
    replay, more than the engine's work on a move, orjson about 15."""
    return gzip.compress(encode(replay.to_json()), compresslevel=6)


def decompress(data: bytes) -> dict[str, JSON]:
    document: dict[str, JSON] = json.loads(gzip.decompress(data))
    return document


def verify_replay(replay: Mapping[str, Any]) -> list[str]:
    """Re-play a replay document through the engine; return what does not match (empty when all does).

    Checks the format and engine version, that the seed, options and setup give the recorded initial
    state, that each move was the recorded seat's to make and legal, and that the result (with the
    recorded forfeits) is the one the engine reaches. It reads the JSON rather than a
    :class:`Replay`, so that a damaged file is reported field by field.
    """
    problems: list[str] = []
    if replay.get("format") != REPLAY_FORMAT:
        return [f"format is {replay.get('format')!r}, expected {REPLAY_FORMAT!r}"]
    try:
        game = get_game(replay["game"])
        seats = len(replay["seats"])
        state = game.start(
            replay["variant"],
            seats=seats,
            seed=replay["seed"],
            options=replay.get("options"),
            setup=replay.get("setup"),
        )
    except (KeyError, TypeError) as error:
        return [f"replay lacks a field: {error}"]
    except SetupError as error:
        return [f"the replay's game cannot be set up: {error}"]
    if replay.get("engine_version") != game.version:
        problems.append(f"made with {game.id} engine {replay.get('engine_version')}, this is {game.version}")
    recorded_initial = replay.get("initial_state")
    if recorded_initial is not None and canonical_json(state.to_json()) != canonical_json(recorded_initial):
        return [*problems, "initial state differs from the one the seed, options and setup give"]
    recorded = replay.get("result") or {}
    moves = replay.get("moves", [])
    for index, record in enumerate(moves):
        where = f"move {index} (seat {record.get('seat')})"
        if state.outcome() is not None:
            return [*problems, f"{where}: the game was already over"]
        if record.get("seat") != state.current_seat:
            return [*problems, f"{where}: the engine has seat {state.current_seat} to move"]
        try:
            state.apply(record["move"])
        except IllegalMove:
            return [*problems, f"{where}: illegal move {canonical_json(record.get('move'))}"]
    outcome = state.outcome()
    if outcome is None:
        if recorded.get("reason") == MOVE_LIMIT and len(moves) >= game.variant(replay["variant"]).max_moves:
            outcome = move_limit_outcome(seats, game.variant(replay["variant"]).team)
        elif recorded.get("reason") == STOPPED:
            outcome = stopped_outcome(seats, game.variant(replay["variant"]).team)
        elif recorded.get("reason") == TIME_LIMIT:
            outcome = time_limit_outcome(seats, game.variant(replay["variant"]).team)
        else:
            return [*problems, f"after {len(moves)} moves the game is not over"]
    expected = MatchResult.from_outcome(outcome, recorded.get("forfeited", [])).to_json()
    for name in RESULT_FIELDS:
        if canonical_json(expected.get(name)) != canonical_json(recorded.get(name)):
            problems.append(
                f"result.{name}: replay says {canonical_json(recorded.get(name))}, "
                f"the engine gives {canonical_json(expected.get(name))}"
            )
    return problems


def move_limit_outcome(seats: int, team: bool) -> Outcome:
    """The outcome of a match the runner cut at its variant's ``max_moves``: nobody is ahead, so all
    seats share first place with no score (and a team did not win)."""
    return Outcome((1,) * seats, (0.0,) * seats, MOVE_LIMIT, team_won=False if team else None)


def stopped_outcome(seats: int, team: bool) -> Outcome:
    """The outcome of a match the runner stopped before its end (it was cancelled): like a move
    limit, nobody ahead and no score; the platform counts it for nobody."""
    return Outcome((1,) * seats, (0.0,) * seats, STOPPED, team_won=False if team else None)


def time_limit_outcome(seats: int, team: bool) -> Outcome:
    """The outcome of a match the runner ended at its whole-match time limit: like a stop, nobody
    ahead and no score, as the game did not reach its end; the platform counts it for nobody."""
    return Outcome((1,) * seats, (0.0,) * seats, TIME_LIMIT, team_won=False if team else None)
