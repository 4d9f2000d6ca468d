"""Registering, changing and removing bots, and what there is to see of one.

A bot record holds its name, endpoint, games, protocol version, the hash of its token and its signing
secret. The
secret is the author's choice, sent with the registration (the bot must know it before the
platform's first request, like a webhook's secret): the registration is accepted only once a ping
signed with it passed (:mod:`arena.accounts.bot_ping`), and so is a new secret, a new endpoint or a new
protocol version (the ping is sent in the version that is to be in force). The
endpoint policy is checked by that ping (and again by the agent at every connection).

:func:`view` gathers what may be shown of a bot, endpoint included; which of it whom sees is the
API schemas' business (``dump_only``/``load_only`` fields). The token hash and the secret are never
part of a view.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from arena.accounts import bot_ping
from arena.accounts.auth import hash_token, new_token, same_token, token_matches
from arena.accounts.ping_gate import PingGate
from arena.errors import Conflict, InvalidRequest, NotFound, Unauthorized, field_error, merge_errors
from arena.ladders import matchmaking, rows
from arena.records import BotRecord, now_iso
from arena.runtime import Runtime
from arena.storage.bots import BotChanged
from referee.game import SetupError
from referee.protocol import PROTOCOL_VERSION
from referee.registry import get_game
from referee.transport.endpoints import EndpointRefused, parse_endpoint


@dataclass(frozen=True)
class BotView:
    """Everything the API may show of a bot; the schemas choose the fields (the endpoint only to its
    owner)."""

    id: str
    name: str
    endpoint: str
    games: list[str]
    protocol: int
    created_at: str
    updated_at: str
    faults: dict[str, Any]
    ratings: list[dict[str, Any]]
    resting: list[dict[str, Any]]
    """The ladders on which it rests (:func:`arena.ladders.matchmaking.rests_of`)."""
    house: bool


def _check_games(games: list[str]) -> dict[str, Any]:
    errors: dict[str, Any] = {}
    for index, game_id in enumerate(games):
        try:
            get_game(game_id)
        except SetupError as error:
            errors.setdefault("games", {})[str(index)] = [str(error)]
    if len(set(games)) != len(games):
        merge_errors(errors, field_error("games", "each game may be named once"))
    return errors


def _check_endpoint_form(endpoint: str) -> dict[str, Any]:
    """The URL's form only (no network): a request that fails here is refused before any ping."""
    try:
        parse_endpoint(endpoint)
    except EndpointRefused as refused:
        return field_error("endpoint", str(refused))
    return {}


def _refuse_if(errors: dict[str, Any]) -> None:
    if errors:
        raise InvalidRequest("The request has invalid fields.", errors)


def register(runtime: Runtime, pings: PingGate, data: Mapping[str, Any]) -> tuple[BotRecord, str]:
    """Create a bot once it answered a ping signed with the secret it sent; returns the bot with
    its token in the clear (shown this once, stored as a hash)."""
    errors = merge_errors(_check_games(data["games"]), _check_endpoint_form(data["endpoint"]))
    _refuse_if(errors)
    protocol = data.get("protocol", PROTOCOL_VERSION)
    bot_id = "b-" + secrets.token_hex(8)  # before the ping: the address it passes at is the bot's own
    bot_ping.check(pings, data["endpoint"], data["secret"], protocol, vouch_for=bot_id)
    token = new_token()
    created = now_iso()
    bot = BotRecord(
        id=bot_id,
        name=data["name"],
        endpoint=data["endpoint"],
        games=tuple(data["games"]),
        token_hash=hash_token(token),
        secret=data["secret"],
        created_at=created,
        created_ts=time.time(),
        updated_at=created,
        protocol=protocol,
    )
    runtime.store.bots.put(bot)
    return bot, token


def get(runtime: Runtime, bot_id: str) -> BotRecord:
    bot = runtime.store.bots.get(bot_id)
    if bot is None:
        raise NotFound(f"no bot with id {bot_id!r}")
    return bot


def owned(runtime: Runtime, bot_id: str, token: str | None) -> BotRecord:
    """The bot, for what only its owner (its token) or the organizer may do: change, ping or delete it.

    The token is judged before the bot's existence: any other token, or none, is a 401 whether or
    not the bot exists, so nobody without a right to a bot learns from the answer whether its id
    does (a deleted bot's id included). Only the organizer gets the 404 of an unknown bot."""
    bot = runtime.store.bots.get(bot_id)
    if same_token(token, runtime.settings.admin_token):
        if bot is None:
            raise NotFound(f"no bot with id {bot_id!r}")
        return bot
    if bot is None or not token_matches(token, bot.token_hash):
        raise Unauthorized("this needs the bot's token: Authorization: Bearer <token>")
    return bot


def by_organizer(runtime: Runtime, token: str | None) -> bool:
    """Whether ``token`` is the organizer's: what it has a bot pinged counts against no bot's limit."""
    return same_token(token, runtime.settings.admin_token)


def update(
    runtime: Runtime, pings: PingGate, bot_id: str, token: str | None, changes: Mapping[str, Any]
) -> BotRecord:
    """Change the fields of ``changes`` (name, endpoint, games, protocol), a new endpoint or
    protocol once it passed a ping; only those fields are written (:func:`_change`)."""
    bot = owned(runtime, bot_id, token)
    errors: dict[str, Any] = {}
    if "games" in changes:
        merge_errors(errors, _check_games(changes["games"]))
    if "endpoint" in changes:
        merge_errors(errors, _check_endpoint_form(changes["endpoint"]))
    _refuse_if(errors)
    fields: dict[str, Any] = {}
    if "name" in changes:
        fields["name"] = changes["name"]
    if "games" in changes:
        fields["games"] = tuple(changes["games"])
    for name in ("endpoint", "protocol"):  # the same value again changes nothing and needs no ping
        if name in changes and changes[name] != getattr(bot, name):
            fields[name] = changes[name]
    expected: dict[str, Any] = {}
    if "endpoint" in fields or "protocol" in fields:
        endpoint = fields.get("endpoint", bot.endpoint)
        protocol = fields.get("protocol", bot.protocol)
        bot_ping.check(
            pings, endpoint, bot.secret, protocol, owner=bot.id, counted=not by_organizer(runtime, token)
        )
        # the ping vouched for this endpoint, secret and protocol together
        expected = {"endpoint": bot.endpoint, "secret": bot.secret, "protocol": bot.protocol}
    changed = _change(runtime, bot_id, expected, fields)
    if "name" in changes:
        runtime.store.ladders.rename(changed.id, changed.name)
    return changed


def replace_secret(
    runtime: Runtime, pings: PingGate, bot_id: str, token: str | None, secret: str
) -> BotRecord:
    """Make ``secret`` the bot's signing secret (its token's owner, or the organizer), once a ping
    signed with it passed, so a leaked secret can be replaced and a mistyped one never takes over.
    The bot must already check the new secret (a bot that accepts both while it changes over misses
    no request). The token is unchanged: it is not a signing key."""
    bot = owned(runtime, bot_id, token)
    counted = not by_organizer(runtime, token)
    bot_ping.check(pings, bot.endpoint, secret, bot.protocol, owner=bot.id, counted=counted)
    expected = {"endpoint": bot.endpoint, "secret": bot.secret, "protocol": bot.protocol}
    return _change(runtime, bot_id, expected, {"secret": secret})


def _change(
    runtime: Runtime, bot_id: str, expected: Mapping[str, Any], fields: Mapping[str, Any]
) -> BotRecord:
    """Write ``fields`` into the stored bot if what ``expected`` says still holds (see
    :meth:`arena.storage.bots.Bots.change`): a request whose ping vouched for an endpoint, secret
    and protocol that another request replaced meanwhile is a 409, to be tried again on the bot as
    it is now, rather than a write that undoes the other (a new secret silently reverted)."""
    try:
        changed = runtime.store.bots.change(bot_id, expected, {**fields, "updated_at": now_iso()})
    except BotChanged as moved:
        raise Conflict(
            f"the bot's {' and '.join(moved.fields)} changed while this request was checked: "
            "read the bot again and send the request again if it still applies"
        ) from None
    if changed is None:
        raise NotFound(f"no bot with id {bot_id!r}")
    return changed


def _ladders_of(bot: BotRecord) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for game_id in bot.games:
        try:
            game = get_game(game_id)
        except SetupError:
            continue
        found.extend((game_id, variant) for variant in game.variants)
    return found


def delete(runtime: Runtime, bot_id: str, token: str | None) -> None:
    bot = owned(runtime, bot_id, token)
    runtime.store.ladders.forget(bot_id, _ladders_of(bot))
    runtime.store.history.forget(bot_id, _ladders_of(bot))
    runtime.store.bots.delete(bot_id, _ladders_of(bot), bot.games)


def view(runtime: Runtime, bot: BotRecord) -> BotView:
    """The bot with its faults by kind, its row in each ladder it has played in and the ladders on
    which it rests."""
    faults = runtime.store.bots.faults(bot.id)
    ratings = []
    found: dict[tuple[str, str], rows.Row] = {}
    for game_id, variant in _ladders_of(bot):
        row = runtime.store.ladders.row(game_id, variant, bot.id)
        if row is not None:
            found[game_id, variant] = row
            spec = get_game(game_id).variant(variant)
            ratings.append(
                {"game": game_id, "variant": variant, **rows.display_row(bot.id, bot.name, row, spec)}
            )
    return BotView(
        id=bot.id,
        name=bot.name,
        endpoint=bot.endpoint,
        games=list(bot.games),
        protocol=bot.protocol,
        created_at=bot.created_at,
        updated_at=bot.updated_at,
        faults={"total": sum(faults.values()), "by_kind": faults},
        ratings=ratings,
        resting=[asdict(rest) for rest in matchmaking.rests_of(runtime, bot, found)],
        house=bot.house,
    )


def history(runtime: Runtime, bot_id: str, game_id: str | None, variant: str | None) -> dict[str, Any]:
    """The bot's rating points on one ladder (its first game's default variant unless named)."""
    bot = get(runtime, bot_id)
    game_id = game_id or bot.games[0]
    if game_id not in bot.games:
        raise InvalidRequest(
            "The request has invalid fields.",
            field_error("game", f"the bot plays {', '.join(bot.games)}, not {game_id!r}"),
        )
    game = get_game(game_id)
    variant = variant or game.default_variant
    if variant not in game.variants:
        raise InvalidRequest(
            "The request has invalid fields.",
            field_error("variant", f"{game_id} has the variants {', '.join(game.variants)}, not {variant!r}"),
        )
    return {
        "bot_id": bot.id,
        "game": game_id,
        "variant": variant,
        "rated": game.variant(variant).rated,
        "kept": runtime.settings.history_points,
        "points": runtime.store.history.ratings(game_id, variant, bot.id),
    }
