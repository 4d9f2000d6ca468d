"""``/api/v1/bots``: register a bot endpoint, read bots and their rating history, change, ping or
delete your own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any, TypeVar

from flask import url_for
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from arena.accounts import bot_accounts, ping_now
from arena.api.context import bot_owner_only, ping_gate, presented_token, runtime
from arena.api.parsing import ArenaBlueprint
from arena.api.schemas.bots import (
    BotCreateSchema,
    BotHistorySchema,
    BotOwnerSchema,
    BotQuerySchema,
    BotSchema,
    BotSecretSchema,
    BotUpdateSchema,
    HistoryQuerySchema,
    PingAnswerSchema,
)
from arena.api.schemas.common import ErrorSchema

F = TypeVar("F", bound=Callable[..., object])
CHANGED_MEANWHILE = "the bot's endpoint, secret or protocol changed while the ping ran: nothing was written"

blp = ArenaBlueprint("bots", __name__, url_prefix="/api/v1/bots", description="Bot endpoints")


def _pings(view: F) -> F:
    """Document what a view that pings the bot may also answer: the limits, and a platform busy
    pinging (:mod:`arena.accounts.ping_gate`)."""
    view = blp.alt_response(
        429,
        schema=ErrorSchema,
        description="past a limit (ARENA_REGISTRATION_LIMIT per client address, ARENA_PING_LIMIT per "
        "token and bot, ARENA_PING_HOST_LIMIT per address pinged): try again after Retry-After",
    )(view)
    return blp.alt_response(
        503,
        schema=ErrorSchema,
        description="as many pings wait as may (ARENA_MAX_PINGS): try again after Retry-After",
    )(view)


@blp.route("")
class Bots(MethodView):
    @blp.arguments(BotQuerySchema, location="query")
    @blp.response(200, BotSchema(many=True))
    @blp.paginate()
    def get(
        self, query: dict[str, Any], pagination_parameters: PaginationParameters
    ) -> list[bot_accounts.BotView]:
        """List the bots, oldest first, a page at a time (optionally those playing one game)"""
        store = runtime().store
        ids, pagination_parameters.item_count = store.bots.ids_page(
            query.get("game"), pagination_parameters.first_item, pagination_parameters.page_size
        )
        found = store.bots.get_many(ids)
        return [bot_accounts.view(runtime(), found[bot_id]) for bot_id in ids if bot_id in found]

    @blp.arguments(BotCreateSchema)
    @blp.response(201, BotCreateSchema)
    @_pings
    def post(self, data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """Register a bot, once it answered a ping signed with the secret given; the answer holds
        its token, this once only

        The author chooses the secret (at least 32 characters: `arena bots new-secret` prints one)
        and starts the bot with it first: the platform sends the endpoint a signed ping and
        registers the bot only if the answer is the pong (422 naming `secret` or `endpoint` with
        the reason otherwise). The endpoint must be http or https and resolve to public addresses
        only, unless the platform's ARENA_ENDPOINT_ALLOWLIST admits them. The secret is never
        shown back. `protocol` (1 by default, or 2) is the bot protocol version the referee speaks
        to the bot, the ping included: version 2 move requests carry no `legal_moves`. Limited
        per client address (ARENA_REGISTRATION_LIMIT) and per address pinged
        (ARENA_PING_HOST_LIMIT).
        """
        created, token = bot_accounts.register(runtime(), ping_gate(), data)
        body = {**asdict(bot_accounts.view(runtime(), created)), "token": token}
        return body, {"Location": url_for("bots.BotById", bot_id=created.id)}


@blp.route("/<bot_id:bot_id>")
class BotById(MethodView):
    @blp.response(200, BotSchema)
    def get(self, bot_id: str) -> bot_accounts.BotView:
        """One bot: its games, faults and ratings"""
        return bot_accounts.view(runtime(), bot_accounts.get(runtime(), bot_id))

    @bot_owner_only(blp)
    @blp.arguments(BotUpdateSchema)
    @blp.response(200, BotOwnerSchema)
    @blp.alt_response(409, schema=ErrorSchema, description=CHANGED_MEANWHILE)
    @_pings
    def patch(self, changes: dict[str, Any], bot_id: str) -> bot_accounts.BotView:
        """Change a bot's name, endpoint, games or protocol version (needs the bot's token)

        A new endpoint or protocol version is pinged (signed with the bot's secret, in the protocol
        version that is to be in force) before it replaces the old one; matches already running go
        on in the version they started with. Only the fields sent are written; if the bot's
        endpoint, secret or protocol changed while the ping ran (another request), the answer is
        409 and nothing is written: read the bot and send the change again. Limited per token and
        bot (ARENA_PING_LIMIT; without the bot's token, per client address as registrations are),
        and a move to an address where the bot never passed a ping per address pinged
        (ARENA_PING_HOST_LIMIT).
        """
        bot = bot_accounts.update(runtime(), ping_gate(), bot_id, presented_token(), changes)
        return bot_accounts.view(runtime(), bot)

    @bot_owner_only(blp)
    @blp.response(204)
    def delete(self, bot_id: str) -> None:
        """Delete a bot (needs the bot's token); its past matches stay"""
        bot_accounts.delete(runtime(), bot_id, presented_token())


@blp.route("/<bot_id:bot_id>/secret")
class BotSecret(MethodView):
    @bot_owner_only(blp)
    @blp.arguments(BotSecretSchema)
    @blp.response(200, BotOwnerSchema)
    @blp.alt_response(409, schema=ErrorSchema, description=CHANGED_MEANWHILE)
    @_pings
    def post(self, data: dict[str, str], bot_id: str) -> bot_accounts.BotView:
        """Replace the bot's signing secret with the one given (needs the bot's token), once the bot
        answered a ping signed with it

        Start the bot with the new secret first (a bot may accept both while it changes over): the
        platform pings the endpoint signed with the new secret and keeps the old one if the ping
        fails (422 naming `secret` or `endpoint`). The referee signs every later request with the
        new secret. The token stays the same. The answer is the bot, without the secret; 409 if
        the bot's endpoint, secret or protocol changed while the ping ran (nothing is written).
        Limited as `PATCH` is.
        """
        bot = bot_accounts.replace_secret(runtime(), ping_gate(), bot_id, presented_token(), data["secret"])
        return bot_accounts.view(runtime(), bot)


@blp.route("/<bot_id:bot_id>/history")
class BotHistory(MethodView):
    @blp.arguments(HistoryQuerySchema, location="query")
    @blp.response(200, BotHistorySchema)
    def get(self, query: dict[str, Any], bot_id: str) -> dict[str, Any]:
        """The bot's rating over time on one ladder: its Elo, skill and conservative estimate after
        each counted match, oldest first (the newest ARENA_HISTORY_POINTS kept)

        `game` defaults to the bot's first game and `variant` to the game's default; a game the bot
        does not play, or an unknown variant, is a 422. An unrated variant keeps no history.
        """
        return bot_accounts.history(runtime(), bot_id, query.get("game"), query.get("variant"))


@blp.route("/<bot_id:bot_id>/ping")
class BotPing(MethodView):
    @bot_owner_only(blp)
    @blp.response(200, PingAnswerSchema)
    @_pings
    def post(self, bot_id: str) -> ping_now.PingAnswer:
        """Ping the bot now (needs the bot's token) and say how it went; a bot that passes comes
        back to the ladders on which it rested

        The platform sends the bot the signed `ping` of registration (its endpoint, secret and
        protocol version in force). The answer is 200 either way: `ok`, and when it failed the fault
        and `problems`, what to fix by field in the words a failed registration uses. A bot the
        continuous ladder rests for forfeiting three matches in a row (see `resting` on the bot) is
        seated again from the scheduler's next tick once it passes (`back_on` lists those ladders).
        Limited as `PATCH` is: per token and bot (ARENA_PING_LIMIT), never by the strangers'
        probes of the bot's own address.
        """
        token = presented_token()
        bot = bot_accounts.owned(runtime(), bot_id, token)
        return ping_now.ping_now(runtime(), ping_gate(), bot, not bot_accounts.by_organizer(runtime(), token))
