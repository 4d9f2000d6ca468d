"""Catan with the volcano variants: declared facts and the state factory.

>>> from referee.catan_volcano import GAME
>>> sorted(GAME.variants)
['base', 'gold', 'lost-desert', 'variable-risk-gold', 'vulkan-issimo']
>>> state = GAME.start("gold", seats=4, seed=7)
>>> state.current_seat, state.legal_moves()[0]
(0, {'type': 'place_settlement', 'node': 0})
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.catan_volcano import moves, notation
from referee.catan_volcano.board import BOARD_MAKERS, EXPLICIT_BOARD_RULES, VOLCANO_PLACEMENTS, Layout
from referee.catan_volcano.state import CatanState
from referee.catan_volcano.variants import RULES, SPECS
from referee.game import JSON, Game, GameConfig, SetupError
from referee.rng import Rng, derive_seed


class CatanVolcanoGame(Game[CatanState]):
    id = "catan-volcano"
    title = "Catan with the volcano variants"
    version = "6"
    default_variant = "gold"
    doc = "docs/games/catan-volcano.md"
    drawing = "referee.catan_volcano.drawing"
    bot_modules = ("bots.catan_volcano", "bots.catan_search")
    variants = SPECS

    def new_state(self, config: GameConfig) -> CatanState:
        """A new game before the first settlement.

        ``setup`` may give an explicit board: ``{"board": {"hexes": [{"terrain": "forest",
        "number": 11}, ...19], "harbours": ["3:1", "wood", ...9]}}`` with as many volcano hexes as
        the variant has; the ``board`` option is then ignored.
        """
        variant, seed, resolved = config.variant, config.seed, dict(config.options)
        rules = RULES[variant]
        board_rng = Rng(derive_seed(seed, "catan-volcano", "board"))
        layout = self._layout(rules.volcanoes, rules.placement, resolved, config.setup, board_rng)
        state = CatanState.fresh(
            variant, config.seats, resolved, layout, Rng(derive_seed(seed, "catan-volcano", "play"))
        )
        state.remember_legal(moves.settle(state))
        return state

    @staticmethod
    def _layout(
        volcanoes: int,
        placement: str,
        options: Mapping[str, JSON],
        setup: Mapping[str, JSON] | None,
        rng: Rng,
    ) -> Layout:
        if setup is None:
            layout = BOARD_MAKERS[str(options["board"])](rng)
            return VOLCANO_PLACEMENTS[placement](layout, rng)
        if not isinstance(setup, Mapping) or set(setup) - {"board"}:
            raise SetupError("setup may only give a board", "setup")
        layout = Layout.from_json(setup.get("board"), "setup.board")
        if len(layout.volcanoes) != volcanoes:
            raise SetupError(f"this variant's board has {volcanoes} volcano hex(es)", "setup.board.hexes")
        EXPLICIT_BOARD_RULES[placement](layout, "setup.board")
        return layout

    def load_state(self, data: Mapping[str, JSON]) -> CatanState:
        state = CatanState.from_json(data)
        state.remember_legal(moves.generate(state))
        return state

    def describe_move(self, move: object) -> str:
        return notation.describe_move(move)

    def from_observation(self, observation: Mapping[str, JSON], seat: int, draw: int = 0) -> CatanState:
        """The engine's determinization: what the seat cannot see dealt from ``draw``."""
        from referee.catan_volcano.determinize import from_observation

        return from_observation(observation, Rng(draw))


GAME = CatanVolcanoGame()
