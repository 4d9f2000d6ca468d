"""What the platform stores, as types: bots, matches (a status record beside the match's spec) and
tournaments.

Each record is a frozen dataclass with ``to_json``/``from_json``; the store keeps the JSON. A match
is two documents: its :class:`referee.match.MatchSpec` (what to play, written once when the match is
requested) and its :class:`MatchRecord` (where it stands: status, attempts, times, result), the
small one that changes as the match runs.

A name read back (a bot's, a tournament's, the seats' of a match) is :func:`arena.well_formed.well_formed`:
records written before names were checked may hold a lone surrogate, which would otherwise make every
page, answer and Redis write that carries the name fail.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, NotRequired, TypedDict

from arena.well_formed import well_formed
from referee.protocol import PROTOCOL_VERSION
from referee.replay import MatchResult, SeatRecord

GAME_ENTRANT = "@game"
"""The id of the game itself as the opponent of a team variant's team: it has a ladder row (its
skill) but is no bot and never ranked (bot ids never start with @)."""


HOUSE_ENDPOINT = "house:"
"""How the endpoint of a house bot starts (``house:<game>/<reference bot>``): a reference bot the
embedded platform registers and plays in-process (:mod:`arena.worker.house`), so that a new author's
bot has opponents at once. It is never an URL: nothing calls it over the network."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class MatchOrigin(StrEnum):
    """Who asked for a match: spectators and authors read a ladder's matches differently by it."""

    ORGANIZER = "organizer"
    """Requested with the organizer token."""
    CHALLENGE = "challenge"
    """Requested by a seated bot's owner with its token (always unrated)."""
    TOURNAMENT = "tournament"
    """One of a tournament's matches."""
    MATCHMAKING = "matchmaking"
    """Made by a continuous ladder's matchmaking."""

    @classmethod
    def by_default(cls, tournament: str | None) -> MatchOrigin:
        """The origin of a match made without naming one (and of records stored before origins
        were kept): a tournament's when it has one, else the organizer's."""
        return cls.TOURNAMENT if tournament else cls.ORGANIZER


class MatchStatus(StrEnum):
    QUEUED = "queued"
    """Stored and queued, waiting for a worker."""
    RUNNING = "running"
    FINISHED = "finished"
    """Result and replay stored, the ladder updated."""
    ABORTED = "aborted"
    """Could not be played, or not to its end: ``error`` says why. One the runner ended at the
    platform's time limit for a match (``ARENA_MAX_MATCH_SECONDS``) keeps its moves so far as its
    replay; unrated, counted for nobody."""
    CANCELLED = "cancelled"
    """Cancelled before it started, or stopped at a move (the moves so far are its replay); unrated,
    counted for nobody; ``error`` says who cancelled it."""

    @property
    def ended(self) -> bool:
        return self in (MatchStatus.FINISHED, MatchStatus.ABORTED, MatchStatus.CANCELLED)


@dataclass(frozen=True)
class BotRecord:
    """A registered bot. ``token_hash`` authorises changes; ``secret`` signs the referee's requests;
    ``protocol`` is the protocol version the referee speaks to it (bots stored before version 2
    existed have none: they read as version 1)."""

    id: str
    name: str
    endpoint: str
    games: tuple[str, ...]
    token_hash: str
    secret: str
    created_at: str
    created_ts: float
    updated_at: str
    protocol: int = PROTOCOL_VERSION

    @property
    def house(self) -> bool:
        """A house bot: a reference bot the platform plays in-process (:data:`HOUSE_ENDPOINT`)."""
        return self.endpoint.startswith(HOUSE_ENDPOINT)

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "games": list(self.games)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BotRecord:
        return cls(
            id=data["id"],
            name=well_formed(data["name"]),
            endpoint=data["endpoint"],
            games=tuple(data["games"]),
            token_hash=data["token_hash"],
            secret=data["secret"],
            created_at=data["created_at"],
            created_ts=data["created_ts"],
            updated_at=data.get("updated_at", data["created_at"]),
            protocol=data.get("protocol", PROTOCOL_VERSION),
        )


@dataclass(frozen=True)
class MatchRecord:
    """Where a match stands. Its spec (game, seed, options...) is stored beside it, never changed."""

    id: str
    game: str
    variant: str
    bots: tuple[str, ...]
    names: tuple[str, ...]
    """The seats' bot names when the match was requested (bots may be renamed or deleted later)."""
    rated: bool
    tournament: str | None
    created_at: str
    created_ts: float
    status: MatchStatus = MatchStatus.QUEUED
    attempts: int = 0
    """Runs of the match so far (each run that starts it counts one)."""
    failed_attempts: int = 0
    """Runs that ended without the match's end for a failure the worker saw (the store failing
    under it). The other runs that ended without it were ended by their worker's death."""
    started_at: str | None = None
    finished_at: str | None = None
    moves: int = 0
    result: MatchResult | None = None
    seats: tuple[SeatRecord, ...] = field(default=(), hash=False)
    """Each seat's faults and forfeit, once finished (before that: no faults yet)."""
    error: str | None = None
    origin: MatchOrigin = MatchOrigin.ORGANIZER
    challenger: str | None = None
    """A challenge's: the bot whose token asked for it, the one bot (with the organizer) that may
    cancel it. ``None`` for every other match, and for challenges stored before it was kept (only
    the organizer cancels those)."""

    @classmethod
    def new(
        cls,
        match_id: str,
        game: str,
        variant: str,
        bots: tuple[str, ...],
        names: tuple[str, ...],
        *,
        rated: bool,
        tournament: str | None = None,
        origin: MatchOrigin | None = None,
        challenger: str | None = None,
    ) -> MatchRecord:
        """A queued match; ``origin`` defaults to the tournament's when there is one, else the organizer's."""
        if origin is None:
            origin = MatchOrigin.by_default(tournament)
        return cls(
            match_id,
            game,
            variant,
            bots,
            names,
            rated,
            tournament,
            now_iso(),
            time.time(),
            origin=origin,
            challenger=challenger,
        )

    @property
    def seat_records(self) -> tuple[SeatRecord, ...]:
        """The seats with their faults: as finished, or clean while the match has not ended."""
        if self.seats:
            return self.seats
        return tuple(
            SeatRecord(seat, bot, name)
            for seat, (bot, name) in enumerate(zip(self.bots, self.names, strict=True))
        )

    @property
    def has_replay(self) -> bool:
        """Whether the match has a replay to show: a finished match's, or the moves of one stopped
        while it ran, cancelled or cut at the time limit (one that ended before its first move has
        none)."""
        return self.status is MatchStatus.FINISHED or (
            self.status in (MatchStatus.CANCELLED, MatchStatus.ABORTED) and self.moves > 0
        )

    def started(self) -> MatchRecord:
        return replace(self, status=MatchStatus.RUNNING, started_at=now_iso(), attempts=self.attempts + 1)

    def with_failed_attempt(self) -> MatchRecord:
        """The record once its current run is known to have failed (never more failed runs than runs)."""
        return replace(self, failed_attempts=min(self.attempts, self.failed_attempts + 1))

    def aborted(self, reason: str, moves: int = 0) -> MatchRecord:
        """Aborted: never played (no moves), or ended by the time limit after ``moves`` moves; no
        result."""
        return replace(self, status=MatchStatus.ABORTED, error=reason, moves=moves, finished_at=now_iso())

    def cancelled(self, reason: str, moves: int = 0) -> MatchRecord:
        """Cancelled: before it started (no moves), or stopped after ``moves`` moves; no result."""
        return replace(self, status=MatchStatus.CANCELLED, error=reason, moves=moves, finished_at=now_iso())

    def finished(self, result: MatchResult, seats: tuple[SeatRecord, ...], moves: int) -> MatchRecord:
        return replace(
            self,
            status=MatchStatus.FINISHED,
            result=result,
            seats=seats,
            moves=moves,
            error=None,
            finished_at=now_iso(),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "variant": self.variant,
            "bots": list(self.bots),
            "names": list(self.names),
            "rated": self.rated,
            "tournament": self.tournament,
            "created_at": self.created_at,
            "created_ts": self.created_ts,
            "status": self.status.value,
            "attempts": self.attempts,
            "failed_attempts": self.failed_attempts,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "moves": self.moves,
            "result": None if self.result is None else self.result.to_json(),
            "seats": [seat.to_json() for seat in self.seats],
            "error": self.error,
            "origin": self.origin.value,
            "challenger": self.challenger,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchRecord:
        result = data.get("result")
        tournament = data.get("tournament")
        origin = data.get("origin") or MatchOrigin.by_default(tournament)  # stored before origins were kept
        return cls(
            id=data["id"],
            game=data["game"],
            variant=data["variant"],
            bots=tuple(data["bots"]),
            names=tuple(well_formed(name) for name in data["names"]),
            rated=data["rated"],
            tournament=tournament,
            created_at=data["created_at"],
            created_ts=data["created_ts"],
            status=MatchStatus(data["status"]),
            attempts=data["attempts"],
            failed_attempts=data.get("failed_attempts", 0),  # stored before failures were told apart
            started_at=data.get("started_at"),
            finished_at=data.get("finished_at"),
            moves=data.get("moves", 0),
            result=None if result is None else MatchResult.from_json(result),
            seats=tuple(SeatRecord.from_json(seat) for seat in data.get("seats") or ()),
            error=data.get("error"),
            origin=MatchOrigin(origin),
            challenger=data.get("challenger"),  # stored before challengers were kept: none
        )


@dataclass(frozen=True)
class TournamentRecord:
    """A tournament as requested; its matches are stored as matches, listed under it in play order."""

    id: str
    name: str
    game: str
    variant: str
    format: str
    bots: tuple[str, ...]
    names: Mapping[str, str] = field(hash=False)
    seats_per_match: int
    games_per_pairing_requested: int
    games_per_pairing: int
    seed: int
    options: Mapping[str, Any] = field(hash=False)
    time: Mapping[str, int] = field(hash=False)
    rated: bool
    max_faults: int
    match_count: int
    created_at: str
    created_ts: float
    cancelled_at: str | None = None  # set by DELETE: no further match is played
    rounds: int = 0  # swiss: rounds to play; knockout: rounds of the bracket; 0: all at once
    advance: int = 0  # knockout: how many of each pod go on
    seeds: tuple[str, ...] = ()  # knockout: the bots in seed order, best first; () = as in bots
    pod_ties: str = "seed"  # knockout: a pod tied for going on goes by "seed" or is "replay"ed
    organizer: str | None = None  # the organizer's id; None: made with ARENA_ADMIN_TOKEN
    organizer_name: str | None = None
    starts_at: str | None = None  # when it starts (ISO 8601, UTC); None: it started when made
    starts_ts: float = 0.0
    entry: str = "invited"  # invited (its bots), open (bots enter themselves) or ladder (top N)
    top: int = 0  # ladder entry: how many of the ladder's best enter
    min_entrants: int = 0
    max_entrants: int = 0
    scheduled: bool = False  # waiting for its start: no match made yet
    cancel_reason: str | None = None  # why it was cancelled, when the platform cancelled it
    plan: Mapping[str, Any] | None = field(default=None, hash=False)
    """A scheduled tournament's request (format, options, time...) but its bots, to start it with."""

    def to_json(self) -> dict[str, Any]:
        return {
            **self.__dict__,
            "plan": None if self.plan is None else dict(self.plan),
            "bots": list(self.bots),
            "seeds": list(self.seeds),
            "names": dict(self.names),
            "options": dict(self.options),
            "time": dict(self.time),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TournamentRecord:
        return cls(
            **{
                **data,
                "name": well_formed(data["name"]),
                "names": {bot: well_formed(name) for bot, name in data["names"].items()},
                "bots": tuple(data["bots"]),
                "seeds": tuple(data.get("seeds", ())),
            }
        )


class RoundRecord(TypedDict):
    """One round of a tournament played in rounds, as stored: its matches (one a pod), the bots given a
    bye and, in a knockout replaying tied pods, each replayed pod's replays."""

    matches: list[str]
    byes: list[str]
    replays: NotRequired[dict[str, list[str]]]
    """A pod's first match -> its replays, in play order (only pods replayed; absent: none)."""


def round_match_ids(round_: RoundRecord) -> list[str]:
    """Every match of a round: one a pod, then the pods' replays."""
    replays = round_.get("replays", {})
    return [*round_["matches"], *(replay for match in round_["matches"] for replay in replays.get(match, ()))]


class EntryStatus(StrEnum):
    ENTERED = "entered"
    WITHDRAWN = "withdrawn"
    """Withdrawn by its owner or the organizer, or by the platform at the start (``reason`` says why)."""


@dataclass(frozen=True)
class EntryRecord:
    """One bot's entry to a tournament: who, when, and whether it still stands (and why not)."""

    bot: str
    name: str
    when: str
    ts: float
    status: EntryStatus = EntryStatus.ENTERED
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {**self.__dict__, "status": self.status.value}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EntryRecord:
        return cls(**{**data, "status": EntryStatus(data["status"])})


@dataclass(frozen=True)
class OrganizerRecord:
    """Someone the admin lets run tournaments: its token (kept as a hash) manages its own only."""

    id: str
    name: str
    token_hash: str
    created_at: str
    created_ts: float

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OrganizerRecord:
        return cls(**data)
