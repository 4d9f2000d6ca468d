"""``/api/v1/games``: every registered game, its variants, seat counts and options."""

from __future__ import annotations

import logging
from typing import Any

from flask.views import MethodView

from arena.api.parsing import ArenaBlueprint
from arena.api.schemas.games import GameSchema
from arena.errors import NotFound, from_setup_error
from referee.game import SetupError
from referee.registry import game_ids, get_game

log = logging.getLogger(__name__)

blp = ArenaBlueprint("games", __name__, url_prefix="/api/v1/games", description="Games and their variants")


@blp.route("")
class Games(MethodView):
    @blp.response(200, GameSchema(many=True))
    def get(self) -> list[dict[str, Any]]:
        """List the games, with each variant's seat counts and options"""
        games = []
        for game_id in game_ids():
            try:
                games.append(get_game(game_id).to_json())
            except Exception:  # one game that fails to load must not hide the others
                log.exception("game %s does not load", game_id)
        return games


@blp.route("/<game_id>")
class GameById(MethodView):
    @blp.response(200, GameSchema)
    def get(self, game_id: str) -> dict[str, Any]:
        """One game"""
        try:
            return get_game(game_id).to_json()
        except SetupError as error:
            raise NotFound(str(error), from_setup_error(error).errors) from None
