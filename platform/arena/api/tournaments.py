"""``/api/v1/tournaments``: round robins and gauntlets (organizer), progress and standings."""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from arena.api.context import organizer_only, runtime
from arena.api.parsing import ArenaBlueprint
from arena.api.schemas.common import PagedQuerySchema
from arena.api.schemas.tournaments import (
    TournamentCreateSchema,
    TournamentSchema,
    TournamentSummarySchema,
)
from arena.records import TournamentRecord
from arena.tournaments import tournament_requests
from arena.tournaments.tournament_requests import TournamentView

blp = ArenaBlueprint("tournaments", __name__, url_prefix="/api/v1/tournaments", description="Tournaments")


@blp.route("")
class Tournaments(MethodView):
    @blp.arguments(PagedQuerySchema, location="query")
    @blp.response(200, TournamentSummarySchema(many=True))
    @blp.paginate()
    def get(
        self, query: dict[str, Any], pagination_parameters: PaginationParameters
    ) -> list[TournamentRecord]:
        """The tournaments, newest first, a page at a time"""
        store = runtime().store
        pagination_parameters.item_count = total = store.tournaments.count()
        if pagination_parameters.first_item >= total:  # past the end (Redis takes no offset past 2**63)
            return []
        ids = store.tournaments.recent_ids(pagination_parameters.page_size, pagination_parameters.first_item)
        found = (store.tournaments.get(tid) for tid in ids)
        return [tournament for tournament in found if tournament is not None]

    @organizer_only(blp)
    @blp.arguments(TournamentCreateSchema)
    @blp.response(202, TournamentSchema)
    def post(self, data: dict[str, Any]) -> tuple[TournamentView, dict[str, str]]:
        """Start a tournament (needs the organizer token): every match is queued at once

        round_robin: every combination of seats_per_match bots; gauntlet: the first bot against
        every combination of the others. Each pairing plays games_per_pairing games, rounded up to
        a multiple of the seats, rotating the seats so each bot sits in each seat equally often.
        """
        tournament = tournament_requests.create(runtime(), data)
        location = url_for("tournaments.TournamentById", tournament_id=tournament.id)
        return tournament_requests.view(runtime(), tournament), {"Location": location}


@blp.route("/<tournament_id:tournament_id>")
class TournamentById(MethodView):
    @blp.response(200, TournamentSchema)
    def get(self, tournament_id: str) -> TournamentView:
        """A tournament: progress, standings and matches

        Points: each match is worth one point, shared equally by the seats in first place; in team
        variants a game the team lost gives no points.
        """
        return tournament_requests.view(runtime(), tournament_requests.get(runtime(), tournament_id))

    @organizer_only(blp)
    @blp.response(204)
    def delete(self, tournament_id: str) -> None:
        """Cancel a tournament (needs the organizer token)

        No further round is made; queued matches are cancelled (error "tournament cancelled") and
        never start; running matches stop before their next move, stored cancelled with their moves
        so far, unrated and counted for nobody. The tournament then shows the status "cancelled".
        """
        tournament_requests.cancel(runtime(), tournament_id)
