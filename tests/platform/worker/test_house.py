"""House bots: the reference bots the embedded platform registers as opponents and plays in-process."""

from __future__ import annotations

from dataclasses import replace

from arena.api import create_app
from arena.runtime import Runtime
from arena.worker.execution import RunOutcome, execute
from arena.worker.house import house_agents, register_house_bots
from bots.registry import bots_for
from referee.agents import HttpAgent, LocalAgent
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
    assert isinstance(runtime.agent(house[0]), LocalAgent)
    client = create_app(runtime).test_client()
    admin = {"Authorization": f"Bearer {ADMIN}"}
    body = {"game": "volcano", "bots": [bot.id for bot in house], "seed": 3}
    match = client.post("/api/v1/matches", json=body, headers=admin).get_json()
    assert execute(runtime, match["id"]) is RunOutcome.FINISHED
    record = runtime.store.get_match(match["id"])
    assert record is not None and all(not seat.faults for seat in record.seats)
    assert client.post(f"/api/v1/bots/{house[0].id}/ping", headers=admin).get_json()["ok"] is True


def test_other_bots_are_still_called_over_http() -> None:
    runtime = _runtime()
    bot = register_house_bots(runtime.store)[0]
    assert isinstance(runtime.agent(replace(bot, endpoint="http://127.0.0.1:9/")), HttpAgent)
