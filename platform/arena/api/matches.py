"""``/api/v1/matches``: request a match (organizer), follow it and its moves, download its replay."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from typing import IO, Any

from flask import Response, url_for
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from arena.api.context import presented_token, runtime, token_required
from arena.api.parsing import ArenaBlueprint
from arena.api.schemas.common import ErrorSchema
from arena.api.schemas.matches import MatchQuerySchema, MatchSchema, MovesQuerySchema, MovesSchema
from arena.errors import NotFound
from arena.matches import match_requests
from arena.matches.match_requests import MatchView
from arena.matches.moves import match_moves
from arena.records import MatchRecord, MatchStatus
from referee.registry import game_ids

blp = ArenaBlueprint("matches", __name__, url_prefix="/api/v1/matches", description="Matches and replays")


def _get(match_id: str) -> MatchRecord:
    match = runtime().store.matches.get(match_id)
    if match is None:
        raise NotFound(f"no match with id {match_id!r}")
    return match


@blp.route("")
class Matches(MethodView):
    @blp.arguments(MatchQuerySchema, location="query")
    @blp.response(200, MatchSchema(many=True))
    @blp.paginate()
    def get(self, query: dict[str, Any], pagination_parameters: PaginationParameters) -> list[MatchView]:
        """The matches, newest first, a page at a time, filtered by bot, game, variant and status

        A filter is a value to match, never checked against what exists: a bot, game or variant
        there is none of matches nothing (an empty page), as does a variant no game has; a variant
        without a game is that variant of any game. X-Pagination says how many fit.
        """
        store = runtime().store
        ids, pagination_parameters.item_count = store.matches.ids_page(
            bot=query.get("bot"),
            game=query.get("game"),
            variant=query.get("variant"),
            status=MatchStatus(query["status"]) if "status" in query else None,
            offset=pagination_parameters.first_item,
            limit=pagination_parameters.page_size,
            variant_games=game_ids(),
        )
        matches = store.matches.get_many(ids)
        specs = store.matches.specs(ids)
        progress = store.progress.played([m.id for m in matches if m.status is MatchStatus.RUNNING])
        return [MatchView(m, specs.get(m.id), progress.get(m.id)) for m in matches]

    @token_required(blp, "the organizer token, or a seated bot's token for an unrated challenge")
    @blp.arguments(MatchSchema)
    @blp.response(202, MatchSchema)
    def post(self, data: dict[str, Any]) -> tuple[MatchView, dict[str, str]]:
        """Request a match; it is queued for a worker

        The organizer may request any match. A bot's owner may challenge: an unrated match in which
        the bot holds a seat, with the bot's own token (challenges are rate limited per bot). Game,
        variant, seat count, options and setup are checked by the game itself, and every bot must
        exist and play the game, before anything is queued.
        """
        data = match_requests.authorize(runtime(), presented_token(), data)
        match, spec = match_requests.create(runtime(), data)
        location = url_for("matches.MatchById", match_id=match.id)
        return MatchView(match, spec), {"Location": location}


@blp.route("/<match_id:match_id>")
class MatchById(MethodView):
    @blp.response(200, MatchSchema)
    def get(self, match_id: str) -> MatchView:
        """A match: its status (queued, running, finished, aborted, cancelled) and result"""
        match = _get(match_id)
        store = runtime().store
        return MatchView(match, store.matches.spec(match_id), store.progress.played([match_id]).get(match_id))

    @token_required(blp, "the organizer token, or for a challenge the token of the bot that made it")
    @blp.response(204)
    @blp.alt_response(409, schema=ErrorSchema, description="the match has already finished or was aborted")
    def delete(self, match_id: str) -> None:
        """Cancel a match

        A queued match is cancelled at once and never starts; a running one stops before its next
        move and is stored cancelled, its moves so far in its replay, unrated and counted for
        nobody. The organizer may cancel any match; a bot's owner a challenge its bot made (the
        match's ``challenger``), never one it was only challenged to. Cancelling a cancelled match
        changes nothing.
        """
        match_requests.cancel(runtime(), match_id, presented_token())


@blp.route("/<match_id:match_id>/moves")
class Moves(MethodView):
    @blp.arguments(MovesQuerySchema, location="query")
    @blp.response(200, MovesSchema)
    def get(self, query: dict[str, Any], match_id: str) -> dict[str, Any]:
        """A match's moves, each with its words: a finished match's all, a running match's so far

        Each move is as the replay keeps it (docs/replay.md), with ``words`` beside the JSON (the
        game's notation), and a fault that kept what the bot sent has it in words too
        (``sent_words``). ``start`` skips the moves a spectator already has.
        """
        match = _get(match_id)
        start = query["start"]
        moves = match_moves(runtime(), match, start)
        return {"match_id": match.id, "status": match.status.value, "start": start, "moves": moves}


@blp.route("/<match_id:match_id>/replay")
class Replay(MethodView):
    @blp.response(
        200,
        description="the replay (arena-replay/1, see docs/replay.md), as a JSON download",
        content_type="application/json",
    )
    def get(self, match_id: str) -> Response:
        """Download a finished match's replay"""
        match = _get(match_id)
        stored = runtime().store.replays.open(match_id)
        if stored is None:
            raise NotFound(f"match {match_id} has no replay: it is {match.status.value}")
        return Response(
            _unzipped(stored),
            mimetype="application/json",
            headers={"Content-Disposition": f'attachment; filename="{match_id}.json"'},
        )


def _unzipped(stored: IO[bytes], chunk: int = 64 * 1024) -> Iterator[bytes]:
    """The stored gzip's JSON, a piece at a time: a long replay never sits whole in the API's memory.

    The stored bytes are the gzip of the replay's compact JSON, so they unzip to exactly the body a
    parse and compact dump would give.
    """
    with stored, gzip.GzipFile(fileobj=stored, mode="rb") as unzipped:
        while piece := unzipped.read(chunk):
            yield piece
