"""House bots: the reference bots the embedded platform registers as opponents and plays in-process."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

import pytest

from arena.api import create_app
from arena.runtime import Runtime
from arena.settings import Settings
from arena.storage import off_loop
from arena.worker.celery_app import redis_runtime
from arena.worker.execution import RunOutcome, execute
from arena.worker.house import OffLoopAgent, house_agents, house_endpoint, register_house_bots
from bots.registry import bots_for
from referee.transport.agents import HttpAgent, LocalAgent
from tests.platform.conftest import ADMIN, ListQueue, make_runtime


def _runtime() -> Runtime:
    runtime = make_runtime(ListQueue())
    runtime.agent_for = house_agents(runtime.settings)
    return runtime


def test_every_reference_bot_is_registered_once_and_listed_as_a_house_bot() -> None:
    runtime = _runtime()
    created = register_house_bots(runtime.store)
    assert {bot.name for bot in created if bot.games == ("vulkan",)} == {
        f"vulkan/{n} (house)" for n in bots_for("vulkan")
    }
    assert register_house_bots(runtime.store) == []
    client = create_app(runtime).test_client()
    listed = client.get("/api/v1/bots?game=vulkan&page_size=100").get_json()
    assert len(listed) == len(bots_for("vulkan")) and all(bot["house"] for bot in listed)
    assert "house bot" in client.get(f"/bots/{listed[0]['id']}").get_data(as_text=True)


def test_house_bots_play_in_process_and_pass_a_ping() -> None:
    runtime = _runtime()
    house = [bot for bot in register_house_bots(runtime.store) if bot.games == ("volcano",)][:2]
    assert isinstance(runtime.agent(house[0]), OffLoopAgent)
    client = create_app(runtime).test_client()
    admin = {"Authorization": f"Bearer {ADMIN}"}
    body = {"game": "volcano", "bots": [bot.id for bot in house], "seed": 3}
    match = client.post("/api/v1/matches", json=body, headers=admin).get_json()
    assert execute(runtime, match["id"]) is RunOutcome.FINISHED
    record = runtime.store.matches.get(match["id"])
    assert record is not None and all(not seat.faults for seat in record.seats)
    assert client.post(f"/api/v1/bots/{house[0].id}/ping", headers=admin).get_json()["ok"] is True


def test_other_bots_are_still_called_over_http() -> None:
    runtime = _runtime()
    bot = register_house_bots(runtime.store)[0]
    assert isinstance(runtime.agent(replace(bot, endpoint="http://127.0.0.1:9/")), HttpAgent)


def test_processes_starting_together_register_each_house_bot_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes that both looked before either registered (each saw no house bot) still add
    each house bot once: the second finds the first's records by their ids."""
    runtime = _runtime()
    monkeypatch.setattr(runtime.store.bots, "list_all", lambda: [])  # what both saw: none yet
    first = register_house_bots(runtime.store)
    assert first and register_house_bots(runtime.store) == []
    monkeypatch.undo()
    listed = runtime.store.bots.list_all()
    assert sorted(bot.endpoint for bot in listed) == sorted(bot.endpoint for bot in first)
    assert len({bot.endpoint for bot in listed}) == len(listed)
    assert runtime.store.bots.ids_of_game("vulkan") == [bot.id for bot in first if bot.games == ("vulkan",)]


def test_a_store_with_house_bots_of_an_earlier_version_gets_no_second_copy() -> None:
    """House bots registered with random ids (a store kept in a data directory) are found by endpoint."""
    runtime = _runtime()
    (bot,) = [bot for bot in register_house_bots(runtime.store) if bot.name == "vulkan/random (house)"]
    runtime.store.bots.delete(bot.id, (), bot.games)
    runtime.store.bots.put(replace(bot, id="b-0123456789abcdef"))
    assert register_house_bots(runtime.store) == []
    endpoints = [bot.endpoint for bot in runtime.store.bots.list_all()]
    assert endpoints.count(house_endpoint("vulkan", "random")) == 1


def test_a_workers_runtime_on_redis_plays_house_bots_in_process() -> None:
    runtime = redis_runtime(Settings(redis_url="redis://127.0.0.1:1/0", admin_token=ADMIN))
    house = register_house_bots(_runtime().store)[0]
    assert isinstance(runtime.agent(house), OffLoopAgent)
    assert isinstance(runtime.agent(replace(house, endpoint="http://203.0.113.5/bot")), HttpAgent)


class _WaitsForTheLoop:
    """A bot that thinks until another greenlet of its process has run (or 10 s, a broken run's
    bound): on gevent's own loop that greenlet cannot run while it thinks."""

    def __init__(self, ran: threading.Event) -> None:
        self.ran = ran

    def choose(self, request: dict[str, Any]) -> Any:
        return {"saw_the_loop": self.ran.wait(10)}


def test_a_house_bot_thinks_off_a_gevent_workers_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    gevent = pytest.importorskip("gevent")
    monkeypatch.setattr(off_loop, "_patched_by_gevent", lambda: True)  # as in a gevent worker
    ran = threading.Event()
    agent = OffLoopAgent(LocalAgent(_WaitsForTheLoop(ran)))
    other_match = gevent.spawn(ran.set)  # another match's greenlet, on the loop
    reply = agent.ask({"type": "move"}, timeout_s=30)
    other_match.join()
    assert reply.move == {"saw_the_loop": True}
