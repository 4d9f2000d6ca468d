"""The one interface every game's engine implements.

The platform, the match runner, the replay checker and the conformance test speak only to the
types in this module, so a new game plugs in by implementing :class:`Game` and :class:`State` in a
package of its own and declaring its ``GAME`` under the entry-point group ``volcano_arena.games``
(:mod:`referee.registry` finds it there); nothing else changes. Everything the platform shows of a
game comes through :class:`Game` too: its notation (:meth:`Game.describe_move`), its board drawing
(:meth:`Game.render_svg`, :meth:`Game.render_text`, :meth:`Game.seat_colours`), a position rebuilt
from an observation (:meth:`Game.from_observation`), its rules page (:meth:`Game.rules`), the JSON
Schemas of its observation and move (:meth:`Game.schema`) and its reference bots
(:attr:`Game.bot_modules`). The drawing, the rules and the schemas are read on first use only, so a
match never loads them.

An engine is pure and deterministic: all chance comes from :class:`referee.rng.Rng` seeded by the
match seed and kept inside the state, states are JSON-able, and the same seed, setup, options and
moves give the same game byte for byte.

A state always has a seat to move while the game goes on, and that seat always has at least one
legal move: turns a seat cannot play (no loads left, say) are skipped by the engine itself, so a bot
is never asked to answer a forced pass.

Example, with any registered game::

    >>> from referee.registry import all_games
    >>> game = all_games()[0]
    >>> variant = game.variant(game.default_variant)
    >>> state = game.start(variant.name, seats=variant.seats[0], seed=7)
    >>> while state.outcome() is None:
    ...     state.apply(state.legal_moves()[0])
    >>> outcome = state.outcome()
    >>> outcome.reason in variant.end_reasons, len(outcome.places) == variant.seats[0]
    (True, True)

A request is checked once, by :meth:`Game.configure`, which returns a :class:`GameConfig`;
:meth:`Game.new_state` takes that config and trusts it (the match runner builds the config from a
:class:`referee.match.MatchSpec`, which was checked when the match was requested).
"""

from __future__ import annotations

import copy
import importlib
import json
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
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
    ``Game[MyState]`` says which state class a game makes.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str]
    """The engine version, stored in every replay; bump it whenever the same moves could play out
    differently."""
    variants: ClassVar[dict[str, VariantSpec]]
    default_variant: ClassVar[str]
    doc: ClassVar[str] = ""
    """Path of the game's doc page, relative to its source repository (``docs/games/<id>.md``);
    the page itself is :meth:`rules`."""
    drawing: ClassVar[str | None] = None
    """The module that draws this game's positions, imported on first use: it has
    ``svg(state, reveal)`` and ``text(state, reveal)``, and ``seat_colours(seats)`` where the game's
    pieces have colours of their own. None: the game is not drawn (its pages show no board)."""
    bot_modules: ClassVar[tuple[str, ...]] = ()
    """Modules holding this game's reference bots, each exposing ``BOTS``, a dict from bot name to a
    factory called with a seed (:data:`bots.base.BotFactory`); ``bots.registry`` reads them. A game
    offers at least ``random``."""
    rules_resource: ClassVar[str] = "rules.md"
    """The rules page (Markdown), a resource of the package that defines the game's class."""
    schemas_resource: ClassVar[str] = "schemas"
    """The folder (a resource of the same package) of the game's JSON Schemas: ``observation.json``
    and ``move.json``, and ``observation.<variant>.json`` or ``move.<variant>.json`` for a variant
    whose shape differs."""

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

        >>> from referee.registry import all_games
        >>> all_games()[0].describe_move({"type": "fly", "to": "the moon"})
        '{"type":"fly","to":"the moon"}'
        """
        return move_json(move)

    # -- what the platform shows of the game: read on first use, never during a match ------------

    def _drawing(self) -> Any:
        if self.drawing is None:
            raise NotImplementedError(f"game {self.id} has no board drawing")
        return importlib.import_module(self.drawing)

    def render_svg(self, state: State, *, reveal: bool = True) -> str:
        """A standalone SVG document of the position (a ``viewBox``, no external resources, a
        legend); with ``reveal=False`` what no seat may see (cards in hands) is shown as counts only,
        for spectators of a match in play. ``NotImplementedError`` for a game that is not drawn."""
        text: str = self._drawing().svg(state, reveal)
        return text

    def render_text(self, state: State, *, reveal: bool = True) -> str:
        """The position as plain text for a terminal (what ``arena replay show`` prints)."""
        text: str = self._drawing().text(state, reveal)
        return text

    def seat_colours(self, seats: int) -> list[str]:
        """The CSS colour of each of ``seats`` seats in the game's pictures (a seat drawn red is red
        on the page's move list too); the common palette where the game's pieces have none."""
        from referee.drawing.svg import seat_colours as palette

        if self.drawing is None:
            return palette(seats)
        colours: list[str] = getattr(self._drawing(), "seat_colours", palette)(seats)
        return colours

    def from_observation(self, observation: Mapping[str, JSON], seat: int, draw: int = 0) -> State:
        """A position agreeing with everything ``seat``'s observation shows, ``seat`` to move, what
        the seat cannot see dealt from the seed ``draw`` (ignored where nothing is hidden): its legal
        moves are the referee's, in the same order, whatever is dealt. What a bot of protocol
        version 2 rebuilds its legal moves from. ``NotImplementedError`` for a game that cannot."""
        raise NotImplementedError(f"game {self.id} does not rebuild positions from observations")

    def _resources(self) -> Any:
        """The package defining this game's class: where its rules and schemas lie."""
        module = sys.modules[type(self).__module__]
        package = module.__name__ if hasattr(module, "__path__") else (module.__package__ or "")
        return resources.files(package)

    def rules(self) -> str | None:
        """The game's rules page as Markdown (the rules as played, the platform's choices, the
        JSON of observations and moves), or None for a game that ships none."""
        page = self._resources() / self.rules_resource
        return page.read_text(encoding="utf-8") if page.is_file() else None

    def schema(self, variant: str | None = None) -> dict[str, JSON] | None:
        """``{"observation": ..., "move": ...}``: the JSON Schemas every observation sent to a seat
        and every legal move of ``variant`` (default: the default variant) validate against, or None
        for a game that declares none. Raises :class:`SetupError` for an unknown variant."""
        name = self.variant(variant if variant is not None else self.default_variant).name
        folder = self._resources() / self.schemas_resource
        found: dict[str, JSON] = {}
        for part in ("observation", "move"):
            for candidate in (f"{part}.{name}.json", f"{part}.json"):
                if (folder / candidate).is_file():
                    found[part] = json.loads((folder / candidate).read_text(encoding="utf-8"))
                    break
        return found if len(found) == 2 else None

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
