"""``/api/v1/ladders/<game>``: the ladder of one game and variant."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from arena import ladder, match_requests
from arena.api.context import runtime
from arena.api.parsing import ArenaBlueprint
from arena.api.schemas import LadderQuerySchema, LadderSchema
from arena.errors import InvalidRequest, NotFound

blp = ArenaBlueprint(
    "ladders", __name__, url_prefix="/api/v1/ladders", description="Ladders per game and variant"
)


@blp.route("/<game_id>")
class Ladder(MethodView):
    @blp.arguments(LadderQuerySchema, location="query")
    @blp.response(200, LadderSchema)
    def get(self, query: dict[str, Any], game_id: str) -> dict[str, Any]:
        """Rank, bot, rating, games, wins, draws, losses (and team win rate, mean score)

        Rated variants rank by Elo rating; unrated ones by win rate (team win rate for team
        variants), then mean score.
        """
        try:
            game, variant = match_requests.resolve_game(game_id, query.get("variant"))
        except InvalidRequest as error:
            if "game" in error.errors:  # an unknown game is a missing resource; a bad variant is 422
                raise NotFound(error.message, error.errors) from None
            raise
        spec = game.variant(variant)
        store = runtime().store
        rows = store.ladder_rows(game_id, variant)
        names = {bot_id: bot.name for bot_id, bot in store.get_bots(rows).items()}
        if spec.rated:
            ranked_by = "rating"
        else:
            ranked_by = "team_win_rate, mean_score" if spec.team else "win_rate, mean_score"
        return {
            "game": game_id,
            "variant": variant,
            "rated": spec.rated,
            "team": spec.team,
            "ranked_by": ranked_by,
            "entries": ladder.ranked(rows, names, spec),
        }
