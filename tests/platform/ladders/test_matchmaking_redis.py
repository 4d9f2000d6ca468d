"""The continuous ladder on a real Redis. Ticks driven by the test: two schedulers ticking each period
make one tick's matches, six a minute at most. As deployed: two ``celery beat`` processes and an
``arena worker`` keep the ladder playing; turned off, nothing more is made.

Uses the isolated platform of :mod:`tests.platform.test_integration` (its own key prefix and queue).
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from arena.ladders import matchmaking
from arena.records import MatchStatus
from tests.platform.conftest import ADMIN, BotServer
from tests.platform.manual_clock import ManualClock
from tests.platform.test_integration import ROOT, Platform, platform, redis_server
from tests.platform.waiting import wait_until

pytestmark = pytest.mark.integration
__all__ = ["platform", "redis_server"]  # fixtures, used by name

URL = "/api/v1/ladders/nim/standard/matchmaking"
ADMIN_HEADERS = {"Authorization": f"Bearer {ADMIN}"}


def register_four(platform: Platform, bots: BotServer) -> None:
    for path in ("/first/r1", "/last/r2", "/first/r3", "/last/r4"):
        platform.register(path, bots.url(path), bots, path)


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
    return [
        match_id for match_id in store.matches.recent_ids(1000) if store.matches.get(match_id).game == "nim"
    ]


def test_two_schedulers_ticking_every_period_make_six_matches_a_minute(
    platform: Platform, bots: BotServer
) -> None:
    runtime = platform.runtime
    runtime.clock = clock = ManualClock(start=1_000_000.0)  # a period starts here
    tick_s = runtime.settings.matchmaking_tick_s
    register_four(platform, bots)
    answer = platform.client.put(URL, json={"matches_per_minute": 6}, headers=ADMIN_HEADERS)
    assert answer.status_code == 200, answer.get_json()
    first_beat, second_beat = [], []
    for period in range(12):
        clock.move_to(1_000_000.0 + period * tick_s)
        made = matchmaking.tick_all(runtime)["nim/standard"]
        clock.advance(tick_s / 2)
        made_again = matchmaking.tick_all(runtime)["nim/standard"]
        first_beat.append(len(made))
        second_beat.append(len(made_again))
        for match_id in made + made_again:  # played at once: the bots are free again, the rate alone holds
            runtime.store.matches.abort(match_id, "played")
    assert second_beat == [0] * 12, "one tick's matches a period, two beats or not"
    assert first_beat == [1] * 6 + [0] + [1] * 5, (
        "a tick's share of 6 a minute, every 10 s, is one; at the seventh, six were made within a minute"
    )


def test_two_beats_and_a_worker_keep_the_ladder_playing_until_turned_off(
    platform: Platform, bots: BotServer
) -> None:
    platform.env["ARENA_MATCHMAKING_SECONDS"] = "1"
    register_four(platform, bots)
    platform.start_worker()
    start_beat(platform, "beat-1")
    start_beat(platform, "beat-2")
    answer = platform.client.put(
        URL, json={"matches_per_minute": 6, "max_in_flight": 2}, headers=ADMIN_HEADERS
    )
    assert answer.status_code == 200, answer.get_json()
    wait_until(
        lambda: sum(row["games"] for row in platform.get("/api/v1/ladders/nim")["entries"]) >= 2,
        60,
        "the scheduler made no match, or it was not played",
    )
    shown = platform.get(URL)
    assert shown["enabled"] and shown["last_tick_at"] is not None

    stopped = platform.client.delete(URL, headers=ADMIN_HEADERS).get_json()
    stopped_at = time.time()
    assert stopped["enabled"] is False
    before = made(platform)
    wait_until(lambda: platform.get(URL)["in_flight"] == 0, 30, "what was in flight did not end")
    store = platform.runtime.store
    wait_until(lambda: (store.matchmaking.last_tick() or 0) > stopped_at, 30, "no tick came after the stop")
    assert made(platform) == before, "nothing is made once turned off"
    for match_id in before:
        match = store.matches.get(match_id)
        assert match.status is MatchStatus.FINISHED or match.error == matchmaking.STOPPED
