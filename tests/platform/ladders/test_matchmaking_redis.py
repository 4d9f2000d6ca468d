"""The continuous ladder as deployed: two ``celery beat`` processes and an ``arena worker`` on a real
Redis. The beats send the tick; the worker makes and plays the matches; with two beats the rate still
holds; turned off, nothing more is made.

Uses the isolated platform of :mod:`tests.platform.test_integration` (its own key prefix and queue).
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.platform.conftest import ADMIN, BotServer
from tests.platform.test_integration import ROOT, Platform, platform, redis_server, wait_until

pytestmark = pytest.mark.integration
__all__ = ["platform", "redis_server"]  # fixtures, used by name

URL = "/api/v1/ladders/nim/standard/matchmaking"
ADMIN_HEADERS = {"Authorization": f"Bearer {ADMIN}"}


def start_beat(platform: Platform, name: str) -> subprocess.Popen:
    log = platform.logs / f"{name}.log"
    schedule = platform.logs / f"{name}-schedule"
    with log.open("w") as sink:
        beat = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "arena.worker.celery_app",
                "beat",
                "--loglevel=INFO",
                "--schedule",
                str(schedule),
            ],
            cwd=ROOT,
            env=platform.env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    platform.workers.append(beat)  # stopped with the workers
    return beat


def made(platform: Platform) -> list[str]:
    store = platform.runtime.store
    return [match_id for match_id in store.recent_match_ids(1000) if store.get_match(match_id).game == "nim"]


def test_two_beats_and_a_worker_keep_the_ladder_playing_within_the_rate(
    platform: Platform, bots: BotServer
) -> None:
    platform.env["ARENA_MATCHMAKING_SECONDS"] = "1"
    for path in ("/first/r1", "/last/r2", "/first/r3", "/last/r4"):
        platform.register(path, bots.url(path), bots, path)
    platform.start_worker()
    start_beat(platform, "beat-1")
    start_beat(platform, "beat-2")
    answer = platform.client.put(
        URL, json={"matches_per_minute": 6, "max_in_flight": 2}, headers=ADMIN_HEADERS
    )
    assert answer.status_code == 200, answer.get_json()
    first_seen = wait_until(lambda: made(platform), 60, "the scheduler made no match")
    started = time.monotonic()
    wait_until(lambda: len(made(platform)) >= 6, 40, "fewer than 6 matches in 40 s")
    time.sleep(max(0.0, 8 - (time.monotonic() - started)))  # more ticks than the rate allows
    assert first_seen and len(made(platform)) == 6, "6 a minute, two beats or not"
    shown = platform.get(URL)
    assert shown["enabled"] and shown["last_tick_at"] is not None
    wait_until(lambda: platform.get(URL)["in_flight"] == 0, 30, "the matches were not played")
    ladder = platform.get("/api/v1/ladders/nim")["entries"]
    assert sum(row["games"] for row in ladder) == 12

    stopped = platform.client.delete(URL, headers=ADMIN_HEADERS).get_json()
    assert stopped["enabled"] is False and stopped["cancelled"] == []
    before = made(platform)
    time.sleep(3)  # three ticks
    assert made(platform) == before
