"""A scheduled open tournament on a real Redis: two ``arena worker`` processes and a Celery beat all
look for it every few seconds; it starts once, checks its entrants in and is played to its end."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import UTC, datetime

import pytest

from tests.platform.conftest import ADMIN, BotServer
from tests.platform.test_integration import ROOT, Platform, platform, redis_server  # noqa: F401 (fixtures)
from tests.platform.waiting import wait_until

pytestmark = pytest.mark.integration


def test_an_open_tournament_starts_once_with_two_workers_and_beat_and_drops_a_silent_entrant(
    platform: Platform,  # noqa: F811 (the fixture imported above)
    bots: BotServer,
) -> None:
    platform.start_worker()
    platform.start_worker()
    beat_log = platform.logs / "beat.log"
    with beat_log.open("w") as sink:
        beat = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "arena.worker.celery_app", "beat", "--loglevel=INFO"]
            + ["--schedule", str(platform.logs / "beat-schedule")],
            cwd=ROOT,
            env=platform.env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        made = platform.client.post(
            "/api/v1/organizers", json={"name": "Club"}, headers={"Authorization": f"Bearer {ADMIN}"}
        )
        club = made.get_json()["token"]
        paths = ["/first/r1", "/last/r2", "/first/r3", "/first/r4"]
        ids = [platform.register(p, bots.url(p), bots, p) for p in paths]
        body = {
            "name": "Redis open",
            "game": "nim",
            "format": "round_robin",
            "seats_per_match": 2,
            "entry": "open",
            "options": {"stones": 7},
            "starts_at": datetime.fromtimestamp(time.time() + 3, UTC).isoformat(),
        }
        answer = platform.client.post(
            "/api/v1/tournaments", json=body, headers={"Authorization": f"Bearer {club}"}
        )
        assert answer.status_code == 202, answer.get_json()
        url = f"/api/v1/tournaments/{answer.get_json()['id']}"
        for bot_id in ids:
            entered = platform.client.post(
                f"{url}/entries", json={"bot": bot_id}, headers={"Authorization": f"Bearer {ADMIN}"}
            )
            assert entered.status_code == 201, entered.get_json()
        bots.secrets["/first/r4"] = "never given to it"

        done = wait_until(
            lambda: (t := platform.get(url))["status"] in ("finished", "cancelled") and t, 90, "not played"
        )
        assert done["status"] == "finished", done.get("cancel_reason")
        assert sorted(done["bots"]) == sorted(ids[:3])
        assert done["progress"]["total"] == done["progress"]["finished"] == 6  # 3 pairings x 2: made once
        dropped = next(e for e in done["entries"] if e["bot"] == ids[3])
        assert dropped["reason"] == "did not answer the check-in ping: answered 401"
        assert platform.runtime.store.entries.due_ids(time.time()) == []
    finally:
        beat.terminate()
        beat.wait(15)
