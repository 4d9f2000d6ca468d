"""The embedded default end to end: API, Celery task and queue, worker thread, in-memory Redis."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from arena.api import create_app
from arena.settings import Settings
from arena.worker.celery_app import CeleryQueue
from arena.worker.embedded import EmbeddedPlatform
from referee.replay import verify_replay
from tests.platform import bot_server
from tests.platform.conftest import ADMIN, LOOPBACK, BotServer, register_bot
from tests.platform.waiting import wait_until


@pytest.fixture
def embedded(toy_games: None) -> Iterator[EmbeddedPlatform]:
    platform = EmbeddedPlatform(Settings(admin_token=ADMIN, policy=LOOPBACK), concurrency=4)
    yield platform
    platform.close()


def test_a_tournament_runs_through_the_celery_queue_in_process(
    embedded: EmbeddedPlatform, bots: BotServer
) -> None:
    assert isinstance(embedded.runtime.queue, CeleryQueue) and embedded.celery.conf.broker_url.startswith(
        "memory://"
    )
    client = create_app(embedded.runtime).test_client()
    admin = {"Authorization": f"Bearer {ADMIN}"}
    ids = []
    for path in ("/first/e1", "/last/e2", "/sleepy/e3"):
        ids.append(register_bot(client, bots, path, path, ["nim"])["id"])
    answer = client.post(
        "/api/v1/tournaments",
        json={
            "name": "e2e",
            "game": "nim",
            "format": "round_robin",
            "bots": ids,
            "seats_per_match": 2,
            "seed": 3,
        },
        headers=admin,
    )
    assert answer.status_code == 202
    url = answer.headers["Location"]
    done = wait_until(
        lambda: (body := client.get(url).get_json())["status"] == "finished" and body,
        30,
        "the tournament did not finish",
    )
    assert done["progress"]["finished"] == done["progress"]["total"] == 6
    assert sum(row["points"] for row in done["standings"]) == 6.0
    ladder = client.get("/api/v1/ladders/nim").get_json()["entries"]
    assert sorted(entry["games"] for entry in ladder) == [4, 4, 4]
    rows = embedded.runtime.store.ladders.rows("nim", "standard").values()
    assert sum(row["rating"] for row in rows) == pytest.approx(4500.0)  # K 40 on both sides: zero-sum
    for match in done["matches"]:
        replay = client.get(f"/api/v1/matches/{match['id']}/replay").get_json()
        assert verify_replay(replay) == []
        assert all(move["source"] == "bot" for move in replay["moves"])  # every request was signed right


def test_a_single_match_reports_running_then_finished(embedded: EmbeddedPlatform, bots: BotServer) -> None:
    """The gated bot holds the match after its first move until the test opens the gate."""
    bot_server.GATE.clear()
    client = create_app(embedded.runtime).test_client()
    ids = []
    for path in ("/gated/s1", "/gated/s2"):
        ids.append(register_bot(client, bots, path, path, ["nim"])["id"])
    answer = client.post(
        "/api/v1/matches",
        json={"game": "nim", "bots": ids, "options": {"stones": 6}},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    url = answer.headers["Location"]
    try:
        running = wait_until(
            lambda: (
                (body := client.get(url).get_json())["status"] == "running" and body["moves"] >= 1 and body
            ),
            30,
            "the match did not get going",
        )
        assert running["status"] == "running" and running["started_at"] and running["moves"] == 1
        live = embedded.runtime.store.progress.live_moves(running["id"])
        assert [move["seat"] for move in live] == [0] and live[0]["source"] == "bot"
    finally:
        bot_server.GATE.set()
    finished = wait_until(
        lambda: (body := client.get(url).get_json())["status"] == "finished" and body,
        30,
        "the match did not finish",
    )
    assert finished["moves"] == 6 and finished["attempts"] == 1
