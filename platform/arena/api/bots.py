"""``/api/v1/bots``: register a bot endpoint, read bots, change or delete your own."""

from __future__ import annotations

from typing import Any

from flask import url_for
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from arena import bot_accounts
from arena.api.context import bot_owner_only, presented_token, runtime
from arena.api.parsing import ArenaBlueprint
from arena.api.schemas import (
    BotCreatedSchema,
    BotCreateSchema,
    BotOwnerSchema,
    BotQuerySchema,
    BotSchema,
    BotSecretSchema,
    BotUpdateSchema,
)

blp = ArenaBlueprint("bots", __name__, url_prefix="/api/v1/bots", description="Bot endpoints")


@blp.route("")
class Bots(MethodView):
    @blp.arguments(BotQuerySchema, location="query")
    @blp.response(200, BotSchema(many=True))
    @blp.paginate()
    def get(self, query: dict[str, Any], pagination_parameters: PaginationParameters) -> list[dict[str, Any]]:
        """List the bots, oldest first, a page at a time (optionally those playing one game)"""
        store = runtime().store
        ids, pagination_parameters.item_count = store.bot_ids_page(
            query.get("game"), pagination_parameters.first_item, pagination_parameters.page_size
        )
        found = store.get_bots(ids)
        return [bot_accounts.public_view(runtime(), found[bot_id]) for bot_id in ids if bot_id in found]

    @blp.arguments(BotCreateSchema)
    @blp.response(201, BotCreatedSchema)
    def post(self, data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """Register a bot; the answer holds its token and secret, this once only

        The endpoint must be http or https and resolve to public addresses only, unless the
        platform's ARENA_ENDPOINT_ALLOWLIST admits them.
        """
        created, token = bot_accounts.register(runtime(), data)
        body = {**bot_accounts.owner_view(runtime(), created), "token": token, "secret": created.secret}
        return body, {"Location": url_for("bots.BotById", bot_id=created.id)}


@blp.route("/<bot_id:bot_id>")
class BotById(MethodView):
    @blp.response(200, BotSchema)
    def get(self, bot_id: str) -> dict[str, Any]:
        """One bot: its games, faults and ratings"""
        return bot_accounts.public_view(runtime(), bot_accounts.get(runtime(), bot_id))

    @bot_owner_only(blp)
    @blp.arguments(BotUpdateSchema)
    @blp.response(200, BotOwnerSchema)
    def patch(self, changes: dict[str, Any], bot_id: str) -> dict[str, Any]:
        """Change a bot's name, endpoint or games (needs the bot's token)"""
        bot = bot_accounts.update(runtime(), bot_id, presented_token(), changes)
        return bot_accounts.owner_view(runtime(), bot)

    @bot_owner_only(blp)
    @blp.response(204)
    def delete(self, bot_id: str) -> None:
        """Delete a bot (needs the bot's token); its past matches stay"""
        bot_accounts.delete(runtime(), bot_id, presented_token())


@blp.route("/<bot_id:bot_id>/secret")
class BotSecret(MethodView):
    @bot_owner_only(blp)
    @blp.response(200, BotSecretSchema)
    def post(self, bot_id: str) -> dict[str, str]:
        """Replace the bot's signing secret (needs the bot's token); the answer holds the new one, once

        The referee signs every later request with the new secret; a bot still checking the old one
        answers 401 (a fault) until it is given the new one.
        """
        return {"secret": bot_accounts.new_secret_for(runtime(), bot_id, presented_token())}
