"""The continuous ladder end to end on the embedded platform: its scheduler thread makes matches at
each tick of the clock, the in-process Celery worker plays them, the ladder moves; turned off, it stops
cleanly. The test steps the clock a tick at a time and waits only for the worker's threads."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from arena.api import create_app
from arena.ladders.matchmaking import STOPPED, iso_time
from arena.settings import Settings
from arena.worker.embedded import EmbeddedPlatform
from tests.platform.conftest import ADMIN, LOOPBACK, BotServer, register_bot
from tests.platform.manual_clock import ManualClock
from tests.platform.waiting import wait_until

URL = "/api/v1/ladders/nim/standard/matchmaking"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def embedded(toy_games: None, clock: ManualClock) -> Iterator[EmbeddedPlatform]:
    platform = EmbeddedPlatform(Settings(admin_token=ADMIN, policy=LOOPBACK), concurrency=4, clock=clock)
    yield platform
    platform.close()


def tick(embedded: EmbeddedPlatform, clock: ManualClock) -> None:
    """One tick's time on: the scheduler thread ticks, and has made and queued its matches on return."""
    clock.until_asleep("arena-matchmaking")
    clock.advance(embedded.settings.matchmaking_tick_s)
    clock.until_asleep("arena-matchmaking")


def settled(client: FlaskClient) -> None:
    """Wait for the worker's threads to end what is in flight."""
    wait_until(lambda: client.get(URL).get_json()["in_flight"] == 0, 60, "the matches in flight did not end")


def test_matchmaking_plays_the_ladder_and_stops_cleanly(
    embedded: EmbeddedPlatform, clock: ManualClock, bots: BotServer
) -> None:
    client = create_app(embedded.runtime).test_client()
    admin = {"Authorization": f"Bearer {ADMIN}"}
    for path in ("/first/m1", "/last/m2", "/first/m3", "/last/m4"):
        register_bot(client, bots, path, path, ["nim"])
    answer = client.put(URL, json={"matches_per_minute": 120, "max_in_flight": 2}, headers=admin)
    assert answer.status_code == 200 and answer.get_json()["enabled"] is True

    def finished() -> int:
        page = client.get("/api/v1/matches?game=nim&status=finished")
        return int(json.loads(page.headers["X-Pagination"])["total"])

    assert finished() == 0, "nothing is made before the first tick"
    for ticks in (1, 2):
        tick(embedded, clock)
        settled(client)
        assert finished() == 2 * ticks, "each tick pairs the four free bots, up to the two in flight"
    ladder = client.get("/api/v1/ladders/nim").get_json()["entries"]
    assert len(ladder) == 4 and sum(row["games"] for row in ladder) == 8
    assert client.get(URL).get_json()["last_tick_at"] == iso_time(clock.time())

    tick(embedded, clock)
    stopped = client.delete(URL, headers=admin).get_json()
    assert stopped["enabled"] is False
    settled(client)  # what was in flight ends: played or cancelled
    made = client.get("/api/v1/matches?game=nim").get_json()
    assert len(made) == 6
    for _ in range(3):
        tick(embedded, clock)
    after = client.get("/api/v1/matches?game=nim").get_json()
    assert [m["id"] for m in after] == [m["id"] for m in made], "no match made after stop"
    for match in after:
        assert match["status"] == "finished" or match["error"] == STOPPED
    assert {match["id"] for match in after} >= set(stopped["cancelled"])
