"""House bots: every game's reference bots, registered by the embedded platform so that a new
author's bot has opponents at once (``GET /api/v1/bots?game=vulkan`` lists them).

``arena serve`` on its embedded default registers them when it starts, named ``<game>/<bot> (house)``
(``--no-house-bots`` leaves them out); a deployment on Redis never does. A house bot's endpoint is
``house:<game>/<bot>`` (:data:`arena.records.HOUSE_ENDPOINT`): the worker plays it in-process
(:class:`referee.agents.LocalAgent`, the request and the move through JSON as on the wire), so it
needs no server, no port and no loopback exception to the endpoint policy. Its token is thrown away:
only the organizer may change it. The pages and the API mark it (``house``).
"""

from __future__ import annotations

import secrets
import time

from arena.accounts.auth import hash_token, new_token
from arena.records import HOUSE_ENDPOINT, BotRecord, now_iso
from arena.runtime import AgentFactory, http_agent_for
from arena.settings import Settings
from arena.storage import Store
from bots.registry import bots_for, make_bot
from referee.agents import Agent, LocalAgent
from referee.registry import GAME_MODULES


def house_endpoint(game_id: str, name: str) -> str:
    return f"{HOUSE_ENDPOINT}{game_id}/{name}"


def register_house_bots(store: Store) -> list[BotRecord]:
    """Register every game's reference bots that are not house bots of the store yet; the new ones."""
    present = {bot.endpoint for bot in store.list_bots() if bot.house}
    created: list[BotRecord] = []
    for game_id in sorted(GAME_MODULES):
        try:
            names = sorted(bots_for(game_id))
        except Exception:  # a game whose bots do not load has no house bots; the others still do
            continue
        for name in names:
            endpoint = house_endpoint(game_id, name)
            if endpoint in present:
                continue
            stamp = now_iso()
            bot = BotRecord(
                id="b-" + secrets.token_hex(8),
                name=f"{game_id}/{name} (house)",
                endpoint=endpoint,
                games=(game_id,),
                token_hash=hash_token(new_token()),
                secret=secrets.token_hex(32),
                created_at=stamp,
                created_ts=time.time(),
                updated_at=stamp,
            )
            store.put_bot(bot)
            created.append(bot)
    return created


def house_agents(settings: Settings) -> AgentFactory:
    """House bots in-process, every other bot over HTTP as :func:`arena.runtime.http_agent_for` calls it."""
    over_http = http_agent_for(settings)

    def build(bot: BotRecord) -> Agent:
        if not bot.house:
            return over_http(bot)
        game_id, _, name = bot.endpoint.removeprefix(HOUSE_ENDPOINT).partition("/")
        return LocalAgent(make_bot(game_id, name, secrets.randbelow(2**62)))

    return build
