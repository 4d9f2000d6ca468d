"""A scheduled open tournament on the embedded platform: entered through the API by the bots' own
tokens, started by the worker's own tournament thread within one of its ticks of ``starts_at`` (a
clock the test steps), checked in, played through the Celery queue to its end."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from arena.api import create_app
from arena.settings import Settings
from arena.worker.celery_app import START_EVERY_S
from arena.worker.embedded import EmbeddedPlatform
from tests.platform.conftest import ADMIN, LOOPBACK, BotServer, register_bot
from tests.platform.manual_clock import ManualClock
from tests.platform.waiting import wait_until

ADMIN_HEADERS = {"Authorization": f"Bearer {ADMIN}"}
THREAD = "arena-tournaments"


@pytest.fixture
def stepped() -> ManualClock:
    return ManualClock()


@pytest.fixture
def embedded(toy_games: None, stepped: ManualClock) -> Iterator[EmbeddedPlatform]:
    platform = EmbeddedPlatform(Settings(admin_token=ADMIN, policy=LOOPBACK), concurrency=2, clock=stepped)
    yield platform
    platform.close()


def test_an_open_tournament_starts_on_time_once_and_plays_without_the_bot_that_missed_check_in(
    embedded: EmbeddedPlatform, bots: BotServer, stepped: ManualClock
) -> None:
    client = create_app(embedded.runtime).test_client()
    club = client.post("/api/v1/organizers", json={"name": "Club"}, headers=ADMIN_HEADERS).get_json()
    entrants = [register_bot(client, bots, p, p, ["nim"]) for p in ("/first/s1", "/last/s2", "/first/s3")]
    starts_ts = stepped.time() + 7
    body = {
        "name": "Saturday open",
        "game": "nim",
        "format": "round_robin",
        "seats_per_match": 2,
        "entry": "open",
        "starts_at": datetime.fromtimestamp(starts_ts, UTC).isoformat(),
    }
    made = client.post("/api/v1/tournaments", json=body, headers={"Authorization": f"Bearer {club['token']}"})
    assert made.status_code == 202, made.get_json()
    url = f"/api/v1/tournaments/{made.get_json()['id']}"
    for bot in entrants:
        entered = client.post(
            f"{url}/entries", json={"bot": bot["id"]}, headers={"Authorization": f"Bearer {bot['token']}"}
        )
        assert entered.status_code == 201, entered.get_json()
    bots.secrets["/first/s3"] = "a secret it was never given"  # it fails the check-in ping

    stepped.until_asleep(THREAD)
    stepped.advance(START_EVERY_S)  # a tick before the start: nothing starts
    stepped.until_asleep(THREAD)
    assert client.get(url).get_json()["status"] == "scheduled"
    stepped.advance(START_EVERY_S)  # the first tick at or after starts_at starts it
    stepped.until_asleep(THREAD)
    assert stepped.time() - starts_ts < 10
    started = client.get(url).get_json()
    assert started["status"] in ("queued", "running", "finished")
    assert sorted(started["bots"]) == sorted(b["id"] for b in entrants[:2])
    assert started["progress"]["total"] == 2
    missed = next(e for e in started["entries"] if e["bot"] == entrants[2]["id"])
    assert (missed["status"], missed["reason"]) == (
        "withdrawn",
        "did not answer the check-in ping: answered 401",
    )

    done = wait_until(
        lambda: (t := client.get(url).get_json())["status"] == "finished" and t, 60, "unfinished"
    )
    assert done["organizer"]["name"] == "Club" and sum(row["points"] for row in done["standings"]) == 2.0
