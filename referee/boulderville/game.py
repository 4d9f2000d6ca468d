"""Volcano! (Boulderville) on the platform's interface: the variant, the state, the outcome.

>>> from referee.boulderville import GAME
>>> state = GAME.start("standard", seats=4, seed=7)
>>> state.current_seat, state.observation(0)["stage"]
(0, 'place')
>>> state.legal_moves()[0]
{'type': 'place', 'space': 'crater_floor'}
>>> while state.outcome() is None:
...     state.apply(state.legal_moves()[-1])
>>> state.outcome().reason
'evacuated'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from operator import is_

from referee.boulderville import notation
from referee.boulderville.deal import explicit_table, seeded_table
from referee.boulderville.edition import EDITION
from referee.boulderville.observer import Observer
from referee.boulderville.table import DEAD, SAVED, Table
from referee.boulderville.turn import (
    MAX_MOVES,
    STAGES,
    BouldervilleEnd,
    Decision,
    advance,
    enter,
    find_move,
    legal_moves,
)
from referee.game import (
    JSON,
    Game,
    GameConfig,
    Move,
    OptionSpec,
    Outcome,
    State,
    VariantSpec,
    places_from_keys,
)

VARIANT = "standard"


class BouldervilleState(State):
    """One game in progress, wrapping its :class:`Table`.

    The legal moves and the observations are worked out once per position and kept until the next
    :meth:`apply` (the match runner asks for both on every move, and ``apply`` needs the moves
    again); the table is changed only through :meth:`apply`, so nothing else can make them stale.
    """

    def __init__(
        self, table: Table, observer: Observer | None = None, legal: list[Move] | None = None
    ) -> None:
        self.table = table
        self._legal = legal
        """The engine's own legal moves of this position (callers get copies), or None: not known yet."""
        self._observer = Observer() if observer is None else observer
        self._handed: list[Move] | None = None
        """The copies of ``_legal`` last handed out, in the same order (a list of the state's own:
        the caller may reorder the one it was given)."""

    @property
    def current_seat(self) -> int | None:
        table = self.table
        return table.queue[0] if table.result is None and table.queue else None

    def legal_moves(self) -> list[Move]:
        """Copies of the engine's own moves, so nothing a caller does to them reaches the engine."""
        listed = self._legal
        if listed is None:
            listed = self._legal = legal_moves(self.table)
        if self.table.stage == "draw":
            handed = [{"type": "discard", "cards": [*move["cards"]]} for move in listed]
        else:
            handed = list(map(dict.copy, listed))  # no list in a place or a play (copy: quickest in C)
        self._handed = handed
        return handed.copy()

    def apply(self, move: Move) -> None:
        table = self.table
        turn, seat = table.turn, table.queue[0]
        # the engine's own legal move that ``move`` spells: found by the copy handed out for it when
        # ``move`` is that copy, unchanged (the usual case, all in C), else by find_move
        legal = self._legal
        if legal is None:
            legal = self._legal = legal_moves(table)
        handed = self._handed
        chosen = None
        if handed is not None and type(move) is dict:
            try:
                own = legal[handed.index(move)]  # the very copy is found first (identity), or an equal one
                if (  # same_parts(move, own), written out: once a move
                    len(move) == len(own)
                    and all(map(is_, move, own))
                    and all(map(is_, move.values(), own.values()))
                ):
                    chosen = own
                else:
                    cards = own.get("cards")
                    if cards is not None and move.keys() == own.keys() and move["type"] is own["type"]:
                        given = move["cards"]
                        if type(given) is list and len(given) == len(cards) and all(map(is_, given, cards)):
                            chosen = own  # a discard: its list is a copy, with the very card names
            except Exception:  # not there, or a value whose comparison fails: find_move decides
                pass
        if chosen is None:
            chosen = find_move(legal, move)
        self._handed = None
        STAGES[table.stage].apply(table, table.queue.pop(0), chosen)  # type: ignore[union-attr]  # carry_out
        self._legal = advance(table)
        self._observer.moved(table, chosen, seat, table.turn == turn and table.result is None)

    def observation(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` sees (``referee.boulderville.view``); shared with later calls, so read only."""
        return self._observer.observe(self.table, seat)

    def copy(self) -> BouldervilleState:
        """An independent copy (search bots play on it), far quicker than a deep copy."""
        return BouldervilleState(self.table.copy(), self._observer.copy(), self._legal)

    def outcome(self) -> Outcome | None:
        """Won when the rescue track is positive: seats ranked by cashed renown; lost: all share 1st."""
        table = self.table
        if table.result is None:
            return None
        renown = [s.renown for s in table.scientists]
        won = table.rescue > 0
        places = places_from_keys(renown) if won else tuple(1 for _ in renown)
        details: dict[str, JSON] = {
            "rescue": table.rescue,
            "saved": sorted(p.id for p in table.people if p.status == SAVED),
            "dead": sorted(p.id for p in table.people if p.status == DEAD),
            "turns": table.turn,
            "eruption": table.eruption,
        }
        return Outcome(places, tuple(float(r) for r in renown), table.result, team_won=won, details=details)

    def to_json(self) -> dict[str, JSON]:
        return self.table.to_json()


class BouldervilleGame(Game[BouldervilleState]):
    id = "boulderville"
    title = "Volcano! (Boulderville), the platform's edition"
    version = "2"
    default_variant = VARIANT
    doc = "docs/games/boulderville.md"
    drawing = "referee.boulderville.drawing"
    bot_modules = ("bots.boulderville", "bots.boulderville_search")
    variants = {
        VARIANT: VariantSpec(
            VARIANT,
            seats=(EDITION.rules.seats,),
            description=(
                "four scientists study the volcano for renown and talk the town into leaving before the "
                "lava comes; the team wins if the rescue track ends positive, then the most renowned leads"
            ),
            options=(
                OptionSpec(
                    "max_turns",
                    "int",
                    EDITION.rules.max_turns,
                    "safety limit: after this many turns the game ends; townspeople still in town are lost",
                    minimum=1,
                    maximum=200,
                ),
            ),
            rated=True,
            team=True,
            end_reasons=frozenset(BouldervilleEnd),
            max_moves=MAX_MOVES,
        )
    }

    def new_state(self, config: GameConfig) -> BouldervilleState:
        setup = config.setup
        table = seeded_table(config.variant, config.seats, config.seed, dict(config.options))
        if setup is not None:
            table = explicit_table(table, setup)
            if "queue" not in setup or not isinstance(STAGES[table.stage], Decision):
                enter(table, table.stage)
        else:
            enter(table, table.stage)
        return BouldervilleState(table, legal=advance(table))

    def load_state(self, data: Mapping[str, JSON]) -> BouldervilleState:
        return BouldervilleState(Table.from_json(dict(data)))

    def describe_move(self, move: object) -> str:
        return notation.describe_move(move)

    def from_observation(
        self, observation: Mapping[str, JSON], seat: int, draw: int = 0
    ) -> BouldervilleState:
        """The engine's determinization: what the seat cannot see dealt from ``draw``
        (:func:`referee.boulderville.guess.determinize`, which starts its deal from this game: it is
        imported by name on first use, as the drawing is)."""
        guess = importlib.import_module("referee.boulderville.guess")
        state: BouldervilleState = guess.determinize(observation, seat, draw)
        return state


GAME = BouldervilleGame()
