"""Volcano's declared facts and its state factory: the one variant, its seats and options.

>>> from referee.volcano import GAME
>>> GAME.variant("fiesta-caldera").resolve_options(None)
{'power_play': True, 'step_limit': 30, 'turn_limit': 300}
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.game import JSON, Game, GameConfig, OptionSpec, Outcome, SetupError, VariantSpec
from referee.rng import Rng
from referee.volcano import notation
from referee.volcano.board import Board, BoardError
from referee.volcano.edition import DEFAULT_STEP_LIMIT, DEFAULT_TURN_LIMIT
from referee.volcano.ends import MAX_MOVES, VolcanoEnd
from referee.volcano.pieces import Piece
from referee.volcano.setup import explicit_position, seeded_position
from referee.volcano.state import VolcanoState, copy_json

VARIANT = "fiesta-caldera"

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "power_play",
        "bool",
        True,
        "Power Play: once a turn, before the eruption, put one captured piece on any square without a cap",
    ),
    OptionSpec(
        "step_limit",
        "int",
        DEFAULT_STEP_LIMIT,
        "cap steps a turn may take without an eruption; the turn then ends as a pass",
        minimum=1,
        maximum=1000,
    ),
    OptionSpec(
        "turn_limit",
        "int",
        DEFAULT_TURN_LIMIT,
        "turns after which the game ends and seats are ranked by trios, then pieces captured",
        minimum=1,
        maximum=100_000,
    ),
)


class VolcanoGame(Game[VolcanoState]):
    id = "volcano"
    title = "Volcano (Looney Pyramids, Fiesta Caldera)"
    version = "1"
    default_variant = VARIANT
    doc = "docs/games/volcano.md"
    drawing = "referee.volcano.drawing"
    bot_modules = ("bots.volcano", "bots.volcano_search")
    variants = {
        VARIANT: VariantSpec(
            VARIANT,
            seats=(2, 3),
            description=(
                "move caps to set off eruptions; capture pieces landing on their own size; "
                "three single-colour trios or five trios win"
            ),
            options=OPTIONS,
            end_reasons=frozenset(VolcanoEnd),
            max_moves=MAX_MOVES,
        )
    }

    def new_state(self, config: GameConfig) -> VolcanoState:
        seats, setup = config.seats, config.setup
        if setup is None:
            position = seeded_position(seats, Rng(config.seed))
        else:
            position = explicit_position(seats, setup)
        return VolcanoState(
            variant=config.variant,
            seats=seats,
            options=dict(config.options),
            board=position.board,
            captures=position.captures,
            to_move=position.to_move,
        )

    def load_state(self, data: Mapping[str, JSON]) -> VolcanoState:
        """Rebuild a state from :meth:`VolcanoState.to_json`.

        The document normally comes from the engine itself (a replay's ``initial_state``), but a
        stored file can be damaged: a missing field or a value of the wrong shape is a SetupError
        naming ``state`` (or the board square), never a KeyError from deep inside.
        """
        try:
            board = Board.from_json(data["board"], "state.board")
            outcome = data["outcome"]
            return VolcanoState(
                variant=data["variant"],
                seats=data["seats"],
                options=dict(data["options"]),
                board=board,
                captures=[[Piece.from_json(item) for item in held] for held in data["captures"]],
                to_move=data["to_move"],
                turn_moves=copy_json(data["turn_moves"]),
                turns_played=data["turns_played"],
                passes_in_row=data["passes_in_row"],
                last_eruption=copy_json(data["last_eruption"]),
                result=None if outcome is None else Outcome.from_json(outcome),
            )
        except BoardError as error:
            raise SetupError(str(error), error.field_name) from None
        except (KeyError, TypeError, ValueError) as error:
            raise SetupError(f"not a Volcano state document: {error!r}", "state") from None

    def describe_move(self, move: object) -> str:
        return notation.describe_move(move)

    def from_observation(self, observation: Mapping[str, JSON], seat: int, draw: int = 0) -> VolcanoState:
        """Volcano hides nothing: :func:`state_from_observation`."""
        return state_from_observation(observation)


GAME = VolcanoGame()


def state_from_observation(observation: Mapping[str, JSON]) -> VolcanoState:
    """The game a seat's observation shows, as a state to look ahead with (search bots).

    Volcano hides nothing and keeps no chance after setup, so an observation holds every fact of the
    state: the board, every seat's captures, the seat to move, this turn's moves, the counters, the
    last eruption and the options. The variant is the one Volcano has; the seat count is the number
    of capture lists. A finished game (``to_move`` null) is refused: there is nothing left to plan.
    A field missing or of the wrong shape is a :class:`SetupError` naming it, as for ``load_state``.

    >>> state = GAME.start(VARIANT, seats=3, seed=5)
    >>> state.apply(state.legal_moves()[0])
    >>> twin = state_from_observation(state.observation(2))
    >>> twin.to_json() == state.to_json()
    True
    """
    try:
        to_move = observation["to_move"]
        if to_move is None:
            raise SetupError("the observation shows a finished game", "observation.to_move")
        document = {
            "variant": VARIANT,
            "seats": len(observation["captures"]),
            "options": observation["options"],
            "board": observation["board"],
            "captures": observation["captures"],
            "to_move": to_move,
            "turn_moves": observation["turn_moves"],
            "turns_played": observation["turn"],
            "passes_in_row": observation["passes_in_row"],
            "last_eruption": observation["last_eruption"],
            "outcome": None,
        }
    except (KeyError, TypeError) as error:
        raise SetupError(f"not a Volcano observation: {error!r}", "observation") from None
    return GAME.load_state(document)
