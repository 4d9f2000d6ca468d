"""``/api/v1/tournaments``: tournaments made at once or scheduled with their entry rules (an organizer's
token or the admin's), their entries, progress and standings (JSON and CSV)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Response, url_for
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from arena.accounts import organizers
from arena.api.context import BEARER, presented_token, runtime
from arena.api.parsing import ArenaBlueprint
from arena.api.schemas.common import ErrorSchema, PagedQuerySchema
from arena.api.schemas.events import EntryCreateSchema, EntrySchema
from arena.api.schemas.tournaments import (
    TournamentCreateSchema,
    TournamentSchema,
    TournamentSummarySchema,
    TournamentUpdateSchema,
)
from arena.errors import Conflict
from arena.records import EntryRecord, TournamentRecord
from arena.standings_csv import tournament_csv
from arena.tournaments import entry, scheduled, tournament_requests
from arena.tournaments.tournament_requests import TournamentView

blp = ArenaBlueprint("tournaments", __name__, url_prefix="/api/v1/tournaments", description="Tournaments")
F = TypeVar("F", bound=Callable[..., object])


def _token_doc(who: str) -> Callable[[F], F]:
    def mark(view: F) -> F:
        view = blp.alt_response(401, schema=ErrorSchema, description=f"missing or wrong token: needs {who}")(
            view
        )
        return blp.doc(security=BEARER)(view)

    return mark


def managers_only(view: F) -> F:
    """The view needs an organizer's token or the admin's, checked before the body is read."""

    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        organizers.require_manager(runtime(), presented_token())
        return view(*args, **kwargs)

    return _token_doc("an organizer's token or the admin token")(cast(F, checked))


def manager_of_it(view: F) -> F:
    """The view needs the token of the tournament's organizer, or the admin's."""

    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        tournament = tournament_requests.get(runtime(), kwargs["tournament_id"])
        organizers.require_manager_of(runtime(), presented_token(), tournament)
        return view(*args, **kwargs)

    return _token_doc("the tournament's organizer's token or the admin token")(cast(F, checked))


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

    @managers_only
    @blp.arguments(TournamentCreateSchema)
    @blp.response(202, TournamentSchema)
    def post(self, data: dict[str, Any]) -> tuple[TournamentView, dict[str, str]]:
        """Make a tournament (an organizer's token or the admin token)

        Without starts_at and with entry "invited" (the defaults) it starts at once with its bots:
        round_robin: every combination of seats_per_match bots; gauntlet: the first bot against
        every combination of the others. Each pairing plays games_per_pairing games, rounded up to
        a multiple of the seats, rotating the seats so each bot sits in each seat equally often.

        With starts_at in the future it is "scheduled": bots enter (entry "open", through
        /entries), or are its bots (entry "invited"), or are the ladder's best top (entry "ladder",
        at the start); at starts_at every entrant is pinged (the check-in) and the tournament
        starts with those that answered, or is cancelled below min_entrants.
        """
        who = organizers.require_manager(runtime(), presented_token())
        tournament = scheduled.create(runtime(), data, who)
        location = url_for("tournaments.TournamentById", tournament_id=tournament.id)
        return tournament_requests.view(runtime(), tournament), {"Location": location}


@blp.route("/<tournament_id:tournament_id>")
class TournamentById(MethodView):
    @blp.response(200, TournamentSchema)
    def get(self, tournament_id: str) -> TournamentView:
        """A tournament: entries, progress, standings and matches

        Points: each match is worth one point, shared equally by the seats in first place; in team
        variants a game the team lost gives no points.
        """
        return tournament_requests.view(runtime(), tournament_requests.get(runtime(), tournament_id))

    @manager_of_it
    @blp.arguments(TournamentUpdateSchema)
    @blp.response(200, TournamentSchema)
    @blp.alt_response(409, schema=ErrorSchema, description="it has started: nothing changes any more")
    def patch(self, data: dict[str, Any], tournament_id: str) -> TournamentView:
        """Change a scheduled tournament before its start: name, starts_at, limits, options"""
        tournament = tournament_requests.get(runtime(), tournament_id)
        changed = scheduled.edit(runtime(), tournament, data)
        return tournament_requests.view(runtime(), changed)

    @manager_of_it
    @blp.response(204)
    def delete(self, tournament_id: str) -> None:
        """Cancel a tournament (its organizer's token or the admin token)

        A scheduled tournament never starts. Otherwise no further round is made; queued matches
        are cancelled (error "tournament cancelled") and never start; running matches stop before
        their next move, stored cancelled with their moves so far, unrated and counted for nobody.
        The tournament then shows the status "cancelled".
        """
        tournament = tournament_requests.get(runtime(), tournament_id)
        if tournament.scheduled and not tournament.cancelled_at:
            scheduled.cancel_scheduled(runtime(), tournament, None)
        tournament_requests.cancel(runtime(), tournament_id)


@blp.route("/<tournament_id:tournament_id>/entries")
class Entries(MethodView):
    @blp.response(200, EntrySchema(many=True))
    def get(self, tournament_id: str) -> list[dict[str, Any]]:
        """The tournament's entries, withdrawn ones with why"""
        tournament = tournament_requests.get(runtime(), tournament_id)
        return tournament_requests.view(runtime(), tournament).entries

    @_token_doc("the bot's token (or the tournament's organizer's)")
    @blp.arguments(EntryCreateSchema)
    @blp.response(201, EntrySchema)
    @blp.alt_response(409, schema=ErrorSchema, description="full, started, or not open to bots")
    def post(self, data: dict[str, Any], tournament_id: str) -> EntryRecord:
        """Enter a bot (with that bot's token) in an open tournament before its start

        The organizer (or the admin) may add a bot to a scheduled tournament of any entry kind.
        """
        tournament = tournament_requests.get(runtime(), tournament_id)
        return entry.enter(runtime(), tournament, data["bot"], presented_token())


@blp.route("/<tournament_id:tournament_id>/entries/<bot_id>")
class EntryById(MethodView):
    @_token_doc("the bot's token (or the tournament's organizer's)")
    @blp.response(204)
    @blp.alt_response(409, schema=ErrorSchema, description="the tournament has started")
    def delete(self, tournament_id: str, bot_id: str) -> None:
        """Withdraw a bot before the start (the bot's token, or the organizer's)"""
        tournament = tournament_requests.get(runtime(), tournament_id)
        entry.withdraw(runtime(), tournament, bot_id, presented_token())


@blp.route("/<tournament_id:tournament_id>/standings.csv")
class StandingsCsv(MethodView):
    @blp.response(
        200, description="rank, bot, name, the format's ranking columns, games, wins, draws, losses"
    )
    def get(self, tournament_id: str) -> Response:
        """The standings as CSV"""
        tournament = tournament_requests.get(runtime(), tournament_id)
        if tournament.scheduled and not tournament.cancelled_at:
            raise Conflict("the tournament has not started: it has no standings yet")
        shown = tournament_requests.view(runtime(), tournament)
        body = tournament_csv(tournament.format, shown.result.standings)
        return Response(
            body,
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{tournament.id}-standings.csv"'},
        )
