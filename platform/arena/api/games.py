"""``/api/v1/games``: every registered game, its variants, seat counts and options, and what each
game supplies itself: its rules page and the JSON Schemas of its observations and moves."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from arena.api.parsing import ArenaBlueprint
from arena.api.schemas.games import GameJsonSchemasSchema, GameSchema, SchemaQuerySchema
from arena.errors import NotFound, from_setup_error
from referee.game import Game, SetupError
from referee.registry import all_games, get_game

blp = ArenaBlueprint("games", __name__, url_prefix="/api/v1/games", description="Games and their variants")


@blp.route("")
class Games(MethodView):
    @blp.response(200, GameSchema(many=True))
    def get(self) -> list[dict[str, Any]]:
        """List the games, with each variant's seat counts and options"""
        return [game.to_json() for game in all_games()]  # one that fails to load is logged, not shown


@blp.route("/<game_id>")
class GameById(MethodView):
    @blp.response(200, GameSchema)
    def get(self, game_id: str) -> dict[str, Any]:
        """One game"""
        return _found(game_id).to_json()


def _found(game_id: str) -> Game[Any]:
    try:
        return get_game(game_id)
    except SetupError as error:
        raise NotFound(str(error), from_setup_error(error).errors) from None


@blp.route("/<game_id>/schema")
class GameJsonSchemas(MethodView):
    @blp.arguments(SchemaQuerySchema, location="query")
    @blp.response(200, GameJsonSchemasSchema)
    def get(self, query: dict[str, Any], game_id: str) -> dict[str, Any]:
        """The JSON Schemas of a variant's observations and moves (every observation a seat is sent
        and every legal move validates against them)"""
        game = _found(game_id)
        variant = query.get("variant", game.default_variant)
        try:
            schemas = game.schema(variant)
        except SetupError as error:
            raise from_setup_error(error) from None
        if schemas is None:
            raise NotFound(f"game {game_id} declares no JSON Schemas")
        return {"variant": variant, **schemas}


@blp.route("/<game_id>/rules")
class GameRules(MethodView):
    @blp.response(200, {"type": "string"}, content_type="text/markdown")
    def get(self, game_id: str) -> Response:
        """The game's rules page, as the game supplies it (Markdown)"""
        page = _found(game_id).rules()
        if page is None:
            raise NotFound(f"game {game_id} has no rules page")
        return Response(page, mimetype="text/markdown")
