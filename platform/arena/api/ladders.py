"""``/api/v1/ladders/<game>``: the ladder of one game and variant, a page at a time."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from arena import ladder, match_requests
from arena.api.context import runtime
from arena.api.parsing import ArenaBlueprint
from arena.api.schemas import LadderQuerySchema, LadderSchema
from arena.errors import InvalidRequest, NotFound

blp = ArenaBlueprint(
    "ladders", __name__, url_prefix="/api/v1/ladders", description="Ladders per game and variant"
)

PAGE_SIZE = 50
MAX_PAGE_SIZE = 500
SHOWN = tuple(LadderSchema().fields)
"""The body's fields, as the schema documents them.

A page is answered as built (:func:`arena.ladder.page` gives exactly the schema's fields, plain JSON
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
