"""A match as the platform asks for it: :class:`MatchSpec`, checked once, then trusted.

Everything a referee needs to play a match except the bots' addresses: the game, the variant, which
bot holds each seat, the seed, the resolved options, the explicit setup, the time control and the
fault limit. :meth:`MatchSpec.build` is the one place user input becomes a spec; it raises
:class:`referee.game.SetupError` naming the field. The store keeps a spec as JSON
(:meth:`MatchSpec.to_json`), the worker loads it (:meth:`MatchSpec.from_json`, no second check), the
runner plays it and the replay's header is the spec.

>>> from referee.registry import all_games
>>> game = all_games()[0]
>>> seats = game.variant(game.default_variant).seats[0]
>>> spec = MatchSpec.build(game=game.id, bots=[f"b-{seat}" for seat in range(seats)], seed=7)
>>> spec.variant == game.default_variant, spec.seats == seats, spec.time.move_ms
(True, True, 2000)
>>> MatchSpec.from_json(spec.to_json()) == spec
True
>>> try:
...     MatchSpec.build(game=game.id, bots=["b"] * 99, seed=7)
... except SetupError as error:
...     print(error.field_name)
bots
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from referee.game import JSON, GameConfig, SetupError
from referee.registry import get_game

DEFAULT_MAX_FAULTS = 3
DEFAULT_MOVE_MS = 2000


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class TimeControl:
    """A budget per move plus an optional bank per seat for the match.

    A move may use ``move_ms`` plus whatever is left in the bank; time beyond ``move_ms`` is taken
    from the bank.
    """

    move_ms: int = DEFAULT_MOVE_MS
    bank_ms: int = 0

    def __post_init__(self) -> None:
        if not _whole(self.move_ms) or self.move_ms < 1:
            raise SetupError("time.move_ms must be an integer of at least 1", "time.move_ms")
        if not _whole(self.bank_ms) or self.bank_ms < 0:
            raise SetupError("time.bank_ms must be an integer of at least 0", "time.bank_ms")

    def to_json(self) -> dict[str, int]:
        return {"move_ms": self.move_ms, "bank_ms": self.bank_ms}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TimeControl:
        data = data or {}
        return cls(data.get("move_ms", DEFAULT_MOVE_MS), data.get("bank_ms", 0))


def _frozen(value: JSON) -> JSON:
    """Dicts as read-only views, lists as tuples: a spec cannot be changed through its options."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    return value


def _thawed(value: JSON) -> JSON:
    """The plain JSON of a frozen value (the inverse of :func:`_frozen`)."""
    if isinstance(value, Mapping):
        return {key: _thawed(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_thawed(item) for item in value]
    return value


@dataclass(frozen=True)
class MatchSpec:
    """A checked match request; build it with :meth:`build` (user input) or :meth:`from_json` (the
    store, which only ever holds built specs)."""

    game: str
    variant: str
    bots: tuple[str, ...]
    """The bot id of each seat, in seat order (a bot may hold several seats)."""
    seed: int
    options: Mapping[str, JSON] = field(hash=False)
    """The variant's options, defaults filled in."""
    setup: Mapping[str, JSON] | None = field(hash=False)
    time: TimeControl
    max_faults: int

    @classmethod
    def build(
        cls,
        *,
        game: str,
        bots: Sequence[str],
        seed: int,
        variant: str | None = None,
        options: Mapping[str, JSON] | None = None,
        setup: Mapping[str, JSON] | None = None,
        time: TimeControl | None = None,
        max_faults: int = DEFAULT_MAX_FAULTS,
    ) -> MatchSpec:
        """Check everything about a request that can be wrong before any bot is called.

        Game, variant (the game's default when None), seat count, seed and options are checked by
        :meth:`referee.game.Game.configure`; an explicit ``setup`` is checked by starting the game
        from it, as only the engine knows its rules (a seeded game needs no such start).
        """
        engine = get_game(game)
        if isinstance(bots, str | bytes) or not all(isinstance(bot, str) and bot for bot in bots):
            raise SetupError("bots must be a list of bot ids, one per seat", "bots")
        if not _whole(max_faults) or max_faults < 1:
            raise SetupError("max_faults must be an integer of at least 1", "max_faults")
        config = engine.configure(variant or engine.default_variant, len(bots), seed, options, setup)
        if setup is not None:
            engine.new_state(config)
        return cls(
            game=game,
            variant=config.variant,
            bots=tuple(bots),
            seed=seed,
            options=_frozen(config.options),
            setup=None if setup is None else _frozen(setup),
            time=time if time is not None else TimeControl(),
            max_faults=max_faults,
        )

    def reseated(self, bots: Sequence[str], seed: int) -> MatchSpec:
        """The same checked request with other bots in its seats and another seed (a tournament's
        matches share everything else); the seat count must stay the same."""
        if len(bots) != self.seats:
            raise ValueError(f"a reseated spec keeps its {self.seats} seats, not {len(bots)}")
        if not _whole(seed):
            raise SetupError("seed must be an integer", "seed")
        return replace(self, bots=tuple(bots), seed=seed)

    @property
    def seats(self) -> int:
        return len(self.bots)

    @property
    def config(self) -> GameConfig:
        """What the engine starts the game from (no second check)."""
        options = _thawed(self.options)
        setup = None if self.setup is None else _thawed(self.setup)
        return GameConfig(self.variant, self.seats, self.seed, options, setup)

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": self.game,
            "variant": self.variant,
            "bots": list(self.bots),
            "seed": self.seed,
            "options": _thawed(self.options),
            "setup": None if self.setup is None else _thawed(self.setup),
            "time": self.time.to_json(),
            "max_faults": self.max_faults,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchSpec:
        """A spec as :meth:`to_json` wrote it; trusted, since only built specs are ever stored."""
        return cls(
            game=data["game"],
            variant=data["variant"],
            bots=tuple(data["bots"]),
            seed=data["seed"],
            options=_frozen(data["options"]),
            setup=None if data.get("setup") is None else _frozen(data["setup"]),
            time=TimeControl.from_json(data["time"]),
            max_faults=data["max_faults"],
        )
