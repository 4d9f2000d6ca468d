"""``/api/v1/ladders/<game>``: the ladder of one game and variant, a page at a time; and
``/api/v1/ladders/<game>/<variant>/matchmaking``: the continuous ladder, on and off."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from arena.api.context import organizer_only, runtime
from arena.api.parsing import ArenaBlueprint
from arena.api.schemas.ladders import LadderQuerySchema, LadderSchema, MatchmakingSchema, MatchmakingSetSchema
from arena.errors import InvalidRequest, NotFound
from arena.ladders import ladder, matchmaking
from arena.matches import match_requests
from arena.standings_csv import ladder_csv

blp = ArenaBlueprint(
    "ladders", __name__, url_prefix="/api/v1/ladders", description="Ladders per game and variant"
)

PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
SHOWN = tuple(LadderSchema().fields)
"""The body's fields, as the schema documents them.

A page is answered as built (:func:`arena.ladders.ladder.page` gives exactly the schema's fields, plain JSON
values), not dumped through marshmallow again: dumping fifty rows of sixteen fields cost more than
reading them from Redis. The tests check that the schema's dump of a page is the page itself."""


@blp.route("/<game_id>")
class Ladder(MethodView):
    @blp.arguments(LadderQuerySchema, location="query")
    @blp.response(200, LadderSchema)
    @blp.paginate(page_size=PAGE_SIZE, max_page_size=MAX_PAGE_SIZE)
    def get(
        self, query: dict[str, Any], game_id: str, pagination_parameters: PaginationParameters
    ) -> Response:
        """One page of a ladder, best first (X-Pagination says how many rows there are)

        Rated variants rank by the conservative skill estimate (mu - 3 sigma) and show the Elo
        rating beside it; unrated ones rank by win rate (team win rate for team variants), then
        mean score. Ranks are competition ranks over the whole ladder: a tie shares its rank, on
        every page it spans. ``refit`` holds the last batch refit's ratings and 95% intervals.
        """
        try:
            game, variant = match_requests.resolve_game(game_id, query.get("variant"))
        except InvalidRequest as error:
            if "game" in error.errors:  # an unknown game is a missing resource; a bad variant is 422
                raise NotFound(error.message, error.errors) from None
            raise
        shown = ladder.page(
            runtime().store,
            game_id,
            variant,
            game.variant(variant),
            pagination_parameters.first_item,
            pagination_parameters.page_size,
        )
        pagination_parameters.item_count = shown["total"]
        return jsonify({name: shown[name] for name in SHOWN})


@blp.route("/<game_id>/standings.csv")
class LadderCsv(MethodView):
    @blp.arguments(LadderQuerySchema, location="query")
    @blp.response(
        200, description="rank, bot, name, the ladder's ranking columns, games, wins, draws, losses"
    )
    def get(self, query: dict[str, Any], game_id: str) -> Response:
        """The whole ladder of a game and variant (?variant=, default: the game's first) as CSV"""
        try:
            game, variant = match_requests.resolve_game(game_id, query.get("variant"))
        except InvalidRequest as error:
            if "game" in error.errors:
                raise NotFound(error.message, error.errors) from None
            raise
        store = runtime().store
        spec = game.variant(variant)
        shown = ladder.page(store, game_id, variant, spec, 0, store.ladders.size(game_id, variant))
        return Response(
            ladder_csv(spec.rated, spec.team, shown["entries"]),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{game_id}-{variant}-standings.csv"'},
        )


def _ladder(game_id: str, variant: str) -> None:
    """404 for an unknown game, 422 naming ``variant`` for an unknown variant."""
    try:
        match_requests.resolve_game(game_id, variant)
    except InvalidRequest as error:
        if "game" in error.errors:
            raise NotFound(error.message, error.errors) from None
        raise


@blp.route("/<game_id>/<variant>/matchmaking")
class Matchmaking(MethodView):
    @blp.response(200, MatchmakingSchema)
    def get(self, game_id: str, variant: str) -> dict[str, Any]:
        """Whether the continuous ladder is on: its rate, and its matches in flight"""
        _ladder(game_id, variant)
        return matchmaking.status(runtime(), game_id, variant)

    @organizer_only(blp)
    @blp.arguments(MatchmakingSetSchema)
    @blp.response(200, MatchmakingSchema)
    def put(self, data: dict[str, Any], game_id: str, variant: str) -> dict[str, Any]:
        """Turn the continuous ladder on, or change its settings (needs the organizer token)

        Every bot registered for the game is then kept playing rated matches of this variant: bots
        of close rating and high uncertainty meet, those that played least first, never the same
        opponents twice in a row where avoidable. At most matches_per_minute are made in any 60 s,
        and none while max_in_flight of the ladder's matches are queued or running.
        """
        _ladder(game_id, variant)
        return matchmaking.start(runtime(), game_id, variant, data)

    @organizer_only(blp)
    @blp.response(200, MatchmakingSchema)
    def delete(self, game_id: str, variant: str) -> dict[str, Any]:
        """Turn the continuous ladder off (needs the organizer token)

        No match is made after this. The ladder's queued matches are cancelled (aborted with the
        error "matchmaking stopped", listed in cancelled); matches being played finish and count.
        """
        _ladder(game_id, variant)
        return matchmaking.stop(runtime(), game_id, variant)
