"""The continuous ladder end to end on the embedded platform: its scheduler thread makes matches,
the in-process Celery worker plays them, the ladder moves; turned off, it stops cleanly."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from arena.api import create_app
from arena.settings import Settings
from arena.worker.embedded import EmbeddedPlatform
from tests.platform.conftest import ADMIN, LOOPBACK, BotServer, register_bot

URL = "/api/v1/ladders/nim/standard/matchmaking"


@pytest.fixture
def embedded(toy_games: None) -> Iterator[EmbeddedPlatform]:
    settings = Settings(admin_token=ADMIN, policy=LOOPBACK, matchmaking_tick_s=1)
    platform = EmbeddedPlatform(settings, concurrency=4)
    yield platform
    platform.close()


def wait_for(read: Callable[[], Any], done: Callable[[Any], bool], timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if done(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.1)


def test_matchmaking_plays_the_ladder_and_stops_cleanly(embedded: EmbeddedPlatform, bots: BotServer) -> None:
    client = create_app(embedded.runtime).test_client()
    admin = {"Authorization": f"Bearer {ADMIN}"}
    for path in ("/first/m1", "/last/m2", "/first/m3", "/last/m4"):
        register_bot(client, bots, path, path, ["nim"])
    answer = client.put(URL, json={"matches_per_minute": 120, "max_in_flight": 2}, headers=admin)
    assert answer.status_code == 200 and answer.get_json()["enabled"] is True

    def finished() -> int:
        page = client.get("/api/v1/matches?game=nim&status=finished")
        return int(json.loads(page.headers["X-Pagination"])["total"])

    assert wait_for(finished, lambda count: count >= 4) >= 4, (
        "the scheduler makes matches and they are played"
    )
    ladder = client.get("/api/v1/ladders/nim").get_json()["entries"]
    assert len(ladder) == 4 and sum(row["games"] for row in ladder) >= 8

    stopped = client.delete(URL, headers=admin).get_json()
    assert stopped["enabled"] is False
    # what was in flight ends (played or cancelled); then nothing more is made
    settled = wait_for(lambda: client.get(URL).get_json(), lambda shown: shown["in_flight"] == 0)
    assert settled["in_flight"] == 0
    made = client.get("/api/v1/matches?game=nim").get_json()
    time.sleep(2.5)  # more than two ticks
    after = client.get("/api/v1/matches?game=nim").get_json()
    assert [m["id"] for m in after] == [m["id"] for m in made], "no match made after stop"
    for match in after:
        assert match["status"] == "finished" or match["error"] == "matchmaking stopped"
    assert {match["id"] for match in after} >= set(stopped["cancelled"])
