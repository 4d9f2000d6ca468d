"""The one interface every game's engine implements.

The platform, the match runner, the replay checker and the conformance test speak only to the
types in this module, so a new game plugs in by implementing :class:`Game` and :class:`State` and
adding one line to :mod:`referee.registry`; nothing else changes.

An engine is pure and deterministic: all chance comes from :class:`referee.rng.Rng` seeded by the
match seed and kept inside the state, states are JSON-able, and the same seed, setup, options and
moves give the same game byte for byte.

A state always has a seat to move while the game goes on, and that seat always has at least one
legal move: turns a seat cannot play (no loads left, say) are skipped by the engine itself, so a bot
is never asked to answer a forced pass.

Example, with any registered game::

    >>> from referee.registry import get_game
    >>> game = get_game("vulkan")
    >>> state = game.start("competitive", seats=2, seed=7)
    >>> while state.outcome() is None:
    ...     state.apply(state.legal_moves()[0])
    >>> outcome = state.outcome()
    >>> outcome.reason in game.variant("competitive").end_reasons, sorted(outcome.places)
    (True, [1, 2])

A request is checked once, by :meth:`Game.configure`, which returns a :class:`GameConfig`;
:meth:`Game.new_state` takes that config and trusts it (the match runner builds the config from a
:class:`referee.match.MatchSpec`, which was checked when the match was requested).
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

from referee.notation import move_json

JSON = Any  # a recursive JSON alias is more than mypy can check usefully here
"""Any value that ``json.dumps`` accepts: dicts with str keys, lists, str, int, float, bool, None."""

Move = dict[str, Any]
"""A move as a bot sees it: a small JSON object, one of the state's ``legal_moves()``."""


class IllegalMove(ValueError):
    """Raised by :meth:`State.apply` for a move that is not among the legal moves."""


class SetupError(ValueError):
    """Raised for a variant, seat count, option or explicit setup the game cannot start from.

    The platform turns it into an HTTP 422 and the CLI into a message and a non-zero exit, so the
    text should say which field is wrong and why.
    """

    def __init__(self, message: str, field_name: str = "setup") -> None:
        super().__init__(message)
        self.field_name = field_name


def canonical_json(value: JSON) -> str:
    """The one JSON spelling used to compare moves and states byte for byte."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class OptionSpec:
    """One option a variant accepts in a match's ``options``, declared once with its default.

    ``kind`` is ``"bool"``, ``"int"``, ``"str"`` or ``"choice"`` (then ``choices`` lists the values).
    """

    name: str
    kind: str
    default: JSON
    description: str
    choices: tuple[JSON, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: JSON) -> JSON:
        """Return ``value`` if it fits this option, else raise :class:`SetupError`."""
        where = f"options.{self.name}"
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise SetupError(f"{where} must be true or false", where)
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise SetupError(f"{where} must be an integer", where)
            if self.minimum is not None and value < self.minimum:
                raise SetupError(f"{where} must be at least {self.minimum}", where)
            if self.maximum is not None and value > self.maximum:
                raise SetupError(f"{where} must be at most {self.maximum}", where)
        elif self.kind == "str" and not isinstance(value, str):
            raise SetupError(f"{where} must be a string", where)
        if self.choices and value not in self.choices:
            allowed = ", ".join(json.dumps(c) for c in self.choices)
            raise SetupError(f"{where} must be one of {allowed}", where)
        return value

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "description": self.description,
        }
        if self.choices:
            data["choices"] = list(self.choices)
        if self.minimum is not None:
            data["minimum"] = self.minimum
        if self.maximum is not None:
            data["maximum"] = self.maximum
        return data


@dataclass(frozen=True)
class VariantSpec:
    """The facts of one variant, declared once: seat counts, options, how results are rated.

    ``rated``: results feed the Elo ladder (places between seats mean something).
    ``team``: the outcome carries ``team_won`` (solitaire, cooperative and team games); the ladder
    then shows each bot's team win rate, and for unrated variants its mean score.
    ``end_reasons``: every :attr:`Outcome.reason` the engine can give in this variant (the values of
    the game's end-reason enum, as python-chess declares its ``Termination``).
    ``max_moves``: more moves than any game of this variant plays within its own limits; the match
    runner ends a match that goes past it with :data:`MOVE_LIMIT`, so a faulty engine cannot hold a
    worker for ever.
    """

    name: str
    seats: tuple[int, ...]
    description: str
    options: tuple[OptionSpec, ...] = ()
    rated: bool = True
    team: bool = False
    end_reasons: frozenset[str] = field(kw_only=True)
    max_moves: int = field(kw_only=True)

    def resolve_options(self, given: Mapping[str, JSON] | None) -> dict[str, JSON]:
        """Fill in defaults and check every given option; unknown names are a :class:`SetupError`."""
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            raise SetupError("options must be an object of option names and values", "options")
        known = {spec.name: spec for spec in self.options}
        unknown = sorted(str(name) for name in given if name not in known)
        if unknown:
            raise SetupError(f"unknown option(s) for variant {self.name}: {', '.join(unknown)}", "options")
        return {
            name: spec.check(given[name]) if name in given else spec.default for name, spec in known.items()
        }

    def check_seats(self, seats: int) -> None:
        if isinstance(seats, bool) or not isinstance(seats, int) or seats not in self.seats:
            allowed = ", ".join(str(n) for n in self.seats)
            raise SetupError(f"variant {self.name} is played by {allowed} seats, not {seats}", "bots")

    def to_json(self) -> dict[str, JSON]:
        return {
            "name": self.name,
            "description": self.description,
            "seats": list(self.seats),
            "rated": self.rated,
            "team": self.team,
            "options": [spec.to_json() for spec in self.options],
            "end_reasons": sorted(self.end_reasons),
            "max_moves": self.max_moves,
        }


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: None from :meth:`State.outcome` while play goes on.

    ``places[i]`` is seat i's place, 1 being best; seats that tie share a place (1, 1, 3).
    ``scores[i]`` is seat i's score in the game's own units. ``reason`` is a short machine word
    such as ``"no_flights_left"``. ``team_won`` is set for team results, else None.
    ``details`` holds game-specific facts worth keeping in the replay (tie-breaks used...).
    """

    places: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str
    team_won: bool | None = None
    details: dict[str, JSON] = field(default_factory=dict, hash=False)

    def to_json(self) -> dict[str, JSON]:
        return {
            "places": list(self.places),
            "scores": list(self.scores),
            "reason": self.reason,
            "team_won": self.team_won,
            "details": dict(self.details),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> Outcome:
        return cls(
            places=tuple(data["places"]),
            scores=tuple(data["scores"]),
            reason=data["reason"],
            team_won=data.get("team_won"),
            details=dict(data.get("details") or {}),
        )


MOVE_LIMIT = "move_limit"
"""The reason of a match the runner ended because it passed its variant's ``max_moves``."""

STOPPED = "stopped"
"""The reason of a match the runner ended because it was told to stop (the match was cancelled)."""

TIME_LIMIT = "time_limit"
"""The reason of a match the runner ended because it ran past the whole-match time it was given
(the platform's ``ARENA_MAX_MATCH_SECONDS``)."""


@dataclass(frozen=True)
class GameConfig:
    """A checked request for a new game: what :meth:`Game.new_state` starts from.

    Only :meth:`Game.configure` (or :meth:`referee.match.MatchSpec.build`, which calls it) makes one
    from user input; ``options`` are resolved, defaults filled in. ``setup`` is the game's explicit
    position, or None for the seeded default; only the engine knows its rules, so it is checked by
    ``new_state`` itself.
    """

    variant: str
    seats: int
    seed: int
    options: Mapping[str, JSON] = field(hash=False)
    setup: Mapping[str, JSON] | None = field(default=None, hash=False)


def places_from_keys(keys: list[Any], reverse: bool = True) -> tuple[int, ...]:
    """Competition ranking ("1224") of seats by a sortable key per seat, best key first.

    >>> places_from_keys([10, 30, 30, 5])
    (3, 1, 1, 4)
    """
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=reverse)
    places = [0] * len(keys)
    for position, seat in enumerate(order):
        if position and keys[seat] == keys[order[position - 1]]:
            places[seat] = places[order[position - 1]]
        else:
            places[seat] = position + 1
    return tuple(places)


class State(ABC):
    """One game in progress. Mutable: :meth:`apply` changes it in place.

    Subclasses keep every fact of the game in JSON-able form (or can rebuild it from
    :meth:`to_json`), including the RNG's state, so that ``game.load_state(s.to_json())`` continues
    exactly as ``s`` would.
    """

    @property
    @abstractmethod
    def current_seat(self) -> int | None:
        """The seat to move, or None once the game is over."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move of :attr:`current_seat`, each a JSON object a bot may send back as is.

        Never empty while the game goes on; empty once it is over. The order is deterministic.
        """

    @abstractmethod
    def apply(self, move: Move) -> None:
        """Play ``move`` for the current seat. Raises :class:`IllegalMove` if it is not legal."""

    @abstractmethod
    def observation(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` may see, as JSON: the whole table for open games, less for hidden ones."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def to_json(self) -> dict[str, JSON]:
        """The whole state, JSON-able, enough for :meth:`Game.load_state` to continue it."""

    def copy(self) -> Self:
        """An independent copy to look ahead with (search bots, tests): playing on it leaves this
        state alone. Engines may override it with something faster than a deep copy."""
        return copy.deepcopy(self)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is one of the legal moves (compared as canonical JSON)."""
        try:
            wanted = canonical_json(move)
        except (TypeError, ValueError, RecursionError):  # not JSON at all: never a legal move
            return False
        return any(canonical_json(m) == wanted for m in self.legal_moves())


S = TypeVar("S", bound=State)


class Game(ABC, Generic[S]):
    """A game's declared facts and its state factory. One instance per game, kept in the registry.

    Subclasses set the class attributes and implement :meth:`new_state` and :meth:`load_state`;
    ``Game[VulkanState]`` says which state class a game makes.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str]
    """The engine version, stored in every replay; bump it whenever the same moves could play out
    differently."""
    variants: ClassVar[dict[str, VariantSpec]]
    default_variant: ClassVar[str]
    doc: ClassVar[str] = ""
    """Path of the game's doc page, relative to the repository root (``docs/games/<id>.md``)."""

    def variant(self, name: str) -> VariantSpec:
        try:
            return self.variants[name]
        except (KeyError, TypeError):
            allowed = ", ".join(sorted(self.variants))
            message = f"game {self.id} has no variant {name!r} (variants: {allowed})"
            raise SetupError(message, "variant") from None

    def configure(
        self,
        variant: str,
        seats: int,
        seed: int,
        options: Mapping[str, JSON] | None = None,
        setup: Mapping[str, JSON] | None = None,
    ) -> GameConfig:
        """Check the variant, the seat count, the seed and the options, once, for every game alike.

        Returns the config :meth:`new_state` starts from, options' defaults filled in; raises a
        :class:`SetupError` naming ``variant``, ``bots``, ``seed``, ``options`` or ``setup``.
        """
        spec = self.variant(variant)
        spec.check_seats(seats)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError("seed must be an integer", "seed")
        resolved = spec.resolve_options(options)
        if setup is not None and not isinstance(setup, Mapping):
            raise SetupError("setup must be an object", "setup")
        return GameConfig(variant, seats, seed, resolved, setup)

    @abstractmethod
    def new_state(self, config: GameConfig) -> S:
        """A new game from a checked config (see :meth:`configure`); it does not check it again.
        A bad explicit ``config.setup`` is a :class:`SetupError` naming the field."""

    def start(
        self,
        variant: str,
        seats: int,
        seed: int,
        options: Mapping[str, JSON] | None = None,
        setup: Mapping[str, JSON] | None = None,
    ) -> S:
        """Check a request and start the game: ``new_state(configure(...))``, for tests and tools."""
        return self.new_state(self.configure(variant, seats, seed, options, setup))

    @abstractmethod
    def load_state(self, data: Mapping[str, JSON]) -> S:
        """Rebuild a state from :meth:`State.to_json` output."""

    def describe_move(self, move: object) -> str:
        """``move`` in the game's own short words, as chess has SAN: ``"green flight 3,0 -> 0,3"``.

        For people (a replay's move list, a fault hint), beside the JSON, never instead of it. The
        words come from the move alone, so every move of a stored replay can be worded without
        playing it again, and distinct legal moves of a position read differently. Never raises:
        a move the game cannot word, malformed or another game's, reads as its compact JSON
        (:func:`referee.notation.move_json`), which is also what a game that declares no notation
        shows for every move.

        >>> from referee.registry import get_game
        >>> get_game("vulkan").describe_move({"type": "volcano", "tile": [-2, 0]})
        'volcano at -2,0'
        >>> get_game("vulkan").describe_move({"type": "fly", "to": "the moon"})
        '{"type":"fly","to":"the moon"}'
        """
        return move_json(move)

    def to_json(self) -> dict[str, JSON]:
        """The game's facts for ``GET /api/v1/games``."""
        return {
            "id": self.id,
            "title": self.title,
            "version": self.version,
            "default_variant": self.default_variant,
            "doc": self.doc,
            "variants": [spec.to_json() for spec in self.variants.values()],
        }
