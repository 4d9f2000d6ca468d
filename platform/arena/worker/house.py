"""House bots: every game's reference bots, registered by the platform so that a new author's bot
has opponents at once (``GET /api/v1/bots?game=<id>`` lists them).

``ARENA_HOUSE_BOTS`` (:attr:`arena.settings.Settings.registers_house_bots`) says whether the platform
registers them when it starts, named ``<game>/<bot> (house)``: by default the embedded platform does
(``arena serve``, ``arena demo --serve``; ``arena serve --no-house-bots`` leaves them out) and a
deployment on Redis does not; with the setting on, every process of the API under gunicorn registers
them at its start, each house bot once however many start together (its id is derived from its
endpoint, and the store adds a record with a given id once: :meth:`arena.storage.bots.Bots.add_once`).

A house bot's endpoint is ``house:<game>/<bot>`` (:data:`arena.records.HOUSE_ENDPOINT`), which no
registration through the API can give (endpoints are http or https URLs): every worker plays it
in-process (:class:`referee.transport.agents.LocalAgent`, the request and the move through JSON as on
the wire), so it needs no server, no port and no loopback exception to the endpoint policy. On a gevent worker
its thinking runs in gevent's thread pool (:func:`arena.storage.off_loop.call_off_loop`), so the other
matches of the process keep their event loop meanwhile. Its token is thrown away: only the organizer
may change or delete it. The pages and the API mark it (``house``).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import Any

from arena.accounts.auth import hash_token, new_token
from arena.records import HOUSE_ENDPOINT, BotRecord, now_iso
from arena.runtime import AgentFactory, http_agent_for
from arena.settings import Settings
from arena.storage import Store
from arena.storage.off_loop import call_off_loop
from bots.registry import bots_for, make_bot
from referee.registry import game_ids
from referee.transport.agents import Agent, LocalAgent, Reply


def house_endpoint(game_id: str, name: str) -> str:
    return f"{HOUSE_ENDPOINT}{game_id}/{name}"


def house_bot_id(endpoint: str) -> str:
    """A house bot's id, the same in every process: the one that adds it first wins, the others
    find it there. Shaped like any bot's id (``b-`` and 16 hex digits)."""
    return "b-" + hashlib.sha256(endpoint.encode()).hexdigest()[:16]


def register_house_bots(store: Store) -> list[BotRecord]:
    """Register every game's reference bots that are not house bots of the store yet; the ones this
    call added (none that another process, starting at the same time, added first)."""
    present = {bot.endpoint for bot in store.bots.list_all() if bot.house}
    created: list[BotRecord] = []
    for game_id in game_ids():
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
                id=house_bot_id(endpoint),
                name=f"{game_id}/{name} (house)",
                endpoint=endpoint,
                games=(game_id,),
                token_hash=hash_token(new_token()),
                secret=secrets.token_hex(32),
                created_at=stamp,
                created_ts=time.time(),
                updated_at=stamp,
            )
            if store.bots.add_once(bot):
                created.append(bot)
    return created


def house_agents(settings: Settings) -> AgentFactory:
    """House bots in-process, every other bot over HTTP as :func:`arena.runtime.http_agent_for` calls it."""
    over_http = http_agent_for(settings)

    def build(bot: BotRecord) -> Agent:
        if not bot.house:
            return over_http(bot)
        game_id, _, name = bot.endpoint.removeprefix(HOUSE_ENDPOINT).partition("/")
        return OffLoopAgent(LocalAgent(make_bot(game_id, name, secrets.randbelow(2**62))))

    return build


class OffLoopAgent:
    """An in-process agent whose bot thinks off gevent's event loop when the process runs on it.

    A reference bot computes for up to its share of ``move_ms`` without yielding: on a gevent worker's
    loop that would stand every other match of the process still (their bots' answers read late,
    timed as slower than they were). Elsewhere (threads, the embedded platform) it simply calls."""

    def __init__(self, agent: LocalAgent) -> None:
        self.agent = agent

    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        return call_off_loop(self.agent.ask, request, timeout_s)

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        call_off_loop(self.agent.notify, request, timeout_s)
