"""Connect Four's facts and factory: the one object the platform speaks to (:data:`GAME`).

Everything the platform shows of the game is declared here and read on first use: the drawing
(:mod:`connect_four.drawing`), the reference bots (:mod:`connect_four.bots`), the rules page
(``rules.md``) and the JSON Schemas (``schemas/``), both package data beside this module.
"""

from __future__ import annotations

from collections.abc import Mapping

from connect_four import grid, notation
from connect_four.state import BOARD_FULL, FOUR_IN_A_ROW, VARIANT, ConnectFourState, state_from_document
from referee.game import JSON, Game, GameConfig, SetupError, VariantSpec


class ConnectFourGame(Game[ConnectFourState]):
    id = "connect-four"
    title = "Connect Four"
    version = "1"
    default_variant = VARIANT
    variants = {
        VARIANT: VariantSpec(
            name=VARIANT,
            seats=(2,),
            description="seven columns, six rows: four of one's discs in a line wins",
            end_reasons=frozenset({FOUR_IN_A_ROW, BOARD_FULL}),
            max_moves=grid.WIDTH * grid.HEIGHT,
        )
    }
    doc = "examples/connect_four/connect_four/rules.md"
    drawing = "connect_four.drawing"
    bot_modules = ("connect_four.bots",)

    def new_state(self, config: GameConfig) -> ConnectFourState:
        if config.setup is None:
            return ConnectFourState(grid.empty())
        state = state_from_document(config.setup)
        if any(
            grid.line_through(state.columns, column, row)
            for column in range(grid.WIDTH)
            for row in range(len(state.columns[column]))
        ) and (state.line is None):
            raise SetupError("the position already holds a line of four", "setup.columns")
        return state

    def load_state(self, data: Mapping[str, JSON]) -> ConnectFourState:
        return state_from_document(data)

    def from_observation(self, observation: Mapping[str, JSON], seat: int, draw: int = 0) -> ConnectFourState:
        """Nothing is hidden: the observation is the whole state."""
        if observation.get("to_move") is None:
            raise SetupError("the game is over: nothing to rebuild", "observation.to_move")
        return state_from_document(observation)

    def describe_move(self, move: object) -> str:
        return notation.describe_move(move)


GAME = ConnectFourGame()
