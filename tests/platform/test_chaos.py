"""Chaos: a tournament on a real Redis (append-only file on) with real ``arena worker`` processes,
while every worker is killed with SIGKILL mid-match, again and again, Redis is stopped and started
again, and the bots' server is killed and started again mid-match.

Whatever happens, every match ends exactly once: all finished, each counted once in the ladder and
the standings, every replay verifies, and nothing is left ``running``. The Redis is this test's own
(a free port, a temporary directory), never the one at 6379.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from redis import Redis
from redis.exceptions import RedisError

from arena.api import create_app
from arena.records import MatchStatus
from arena.settings import Settings
from arena.worker.celery_app import redis_runtime
from referee.replay import verify_replay
from tests.platform import bot_server
from tests.platform.conftest import ADMIN, BotServer, register_bot
from tests.platform.own_redis import free_port
from tests.platform.waiting import wait_until

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
MATCHES = 12
"""A round robin of four bots, each pairing twice."""
WORKERS = 2
STORMS = 3
"""Rounds of killing every worker: one more run than ``ARENA_MAX_ATTEMPTS`` failed runs allow."""


class RedisProcess:
    """A redis-server of the test's own, persisting every write to its append-only file."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(self.answers, 15, "redis-server did not start")

    def answers(self) -> bool:
        try:
            return bool(Redis.from_url(self.url, socket_connect_timeout=0.5).ping())
        except RedisError:
            return False

    def stop(self) -> None:
        """A clean stop (SIGTERM): Redis flushes its append-only file and exits."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(15)


@pytest.fixture
def redis_process(tmp_path: Path) -> Iterator[RedisProcess]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisProcess(tmp_path)
    server.start()
    yield server
    server.stop()


@dataclass
class RestartableBots(BotServer):
    """Loopback bots of the test's own, which it may kill and start again on the same port."""

    server: Any = None

    def restart(self, away_s: float) -> None:
        """Go away as a killed bot does (every connection dropped), and be back ``away_s`` later."""
        port = int(self.base.rsplit(":", 1)[1])
        self.server.go_away()
        time.sleep(away_s)
        self.server = bot_server.start(self.secrets, port)[0]


@pytest.fixture
def restartable_bots() -> Iterator[RestartableBots]:
    secrets: dict[str, str] = {}
    server, base = bot_server.start(secrets)
    bots = RestartableBots(base, secrets, server)
    yield bots
    bots.server.shutdown()


def test_a_tournament_survives_redis_restarts_a_worker_crash_storm_and_a_bot_restart(
    redis_process: RedisProcess, toy_games: None, restartable_bots: RestartableBots, tmp_path: Path
) -> None:
    """Twelve matches, all held in play by gated bots (each waits after its first move until the
    test opens the gate), so that every fault lands on matches under way, whatever the machine's
    load: every worker killed three times over (a crash storm: each match's runs ended by its
    workers' deaths are more than the failed runs a match may have), Redis stopped and started,
    and the bots' server killed and back on its port within the moves' time. Then the gate opens:
    every match finishes, none is aborted, none charged a fault, and each counts once."""
    bots = restartable_bots
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "REDIS_URL": redis_process.url,
        "ARENA_ADMIN_TOKEN": ADMIN,
        "ARENA_KEY_PREFIX": "chaos:",
        "ARENA_QUEUE": "chaos",
        "ARENA_ENDPOINT_ALLOWLIST": "127.0.0.0/8",
        "ARENA_LEASE_SECONDS": "2",
        "ARENA_SWEEP_SECONDS": "2",
        "ARENA_VISIBILITY_TIMEOUT": "5",
        # ARENA_MAX_ATTEMPTS and ARENA_MAX_WORKER_DEATHS at their defaults (3 and 10)
        "ARENA_WORKER_CONCURRENCY": str(MATCHES // WORKERS),  # every match in play at once
    }
    runtime = redis_runtime(Settings.from_env(env))
    assert runtime.settings.max_attempts < STORMS + 1 <= runtime.settings.max_worker_deaths
    client = create_app(runtime).test_client()
    workers: list[subprocess.Popen[bytes]] = []

    def start_workers() -> None:
        logs = []
        for _ in range(WORKERS):
            log = tmp_path / f"worker-{len(workers)}.log"
            with log.open("w") as sink:
                workers.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "tests.platform.nim_worker", "--loglevel=INFO"],
                        cwd=ROOT,
                        env=env,
                        stdout=sink,
                        stderr=subprocess.STDOUT,
                    )
                )
            logs.append(log)
        for log in logs:
            wait_until(
                lambda log=log: "ready." in log.read_text(), 60, f"a worker did not start: {log.read_text()}"
            )

    def kill_every_worker() -> None:
        for worker in workers:
            if worker.poll() is None:
                worker.send_signal(signal.SIGKILL)
                worker.wait(10)

    def get(url: str) -> dict[str, Any] | None:
        answer = client.get(url)
        return answer.get_json() if answer.status_code == 200 else None  # 503 while Redis is away

    def every_match_in_play(runs: int) -> bool:
        """Every match is running its ``runs``-th run (the deadlines of the waits below only keep
        a broken run from hanging: nothing is timed)."""
        matches = runtime.store.matches.get_many(ids_of_matches())
        return len(matches) == MATCHES and all(
            match.status is MatchStatus.RUNNING and match.attempts == runs for match in matches
        )

    def ids_of_matches() -> list[str]:
        tournament = get(url)
        return [match["id"] for match in tournament["matches"]] if tournament else []

    bot_server.GATE.clear()
    try:
        ids = []
        for name in ("c1", "c2", "c3", "c4"):
            path = f"/gated/{name}"
            ids.append(register_bot(client, bots, name, path, ["nim"])["id"])
        start_workers()
        answer = client.post(
            "/api/v1/tournaments",
            json={
                "name": "chaos",
                "game": "nim",
                "format": "round_robin",
                "bots": ids,
                "seats_per_match": 2,
                "games_per_pairing": 2,
                "seed": 5,
                "options": {"stones": 5},
                # a move held at the gate waits within its time, whatever the test does meanwhile
                "time": {"move_ms": 60_000, "bank_ms": 0},
            },
            headers={"Authorization": f"Bearer {ADMIN}"},
        )
        assert answer.status_code == 202, answer.get_json()
        url = answer.headers["Location"]
        wait_until(lambda: every_match_in_play(1), 60, "not every match got going")

        for storm in range(STORMS):
            kill_every_worker()
            start_workers()
            # the sweeper queues the dead workers' matches again once their leases lapse
            wait_until(
                lambda runs=storm + 2: every_match_in_play(runs), 90, f"storm {storm}: not played again"
            )

        redis_process.stop()
        time.sleep(3)
        redis_process.start()
        wait_until(lambda: get(url), 30, "the API did not find Redis again")

        bots.restart(away_s=0.5)  # every match has a move under way: each waits for the bots

        bot_server.GATE.set()
        done = wait_until(lambda: (t := get(url)) and t["status"] == "finished" and t, 180, "unfinished")
    finally:
        bot_server.GATE.set()
        for worker in workers:
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
        for worker in workers:
            try:
                worker.wait(15)
            except subprocess.TimeoutExpired:
                worker.kill()

    total = done["progress"]["total"]
    assert total == MATCHES
    assert done["progress"] == {
        "done": MATCHES,
        "total": MATCHES,
        "finished": MATCHES,
        "aborted": 0,
        "cancelled": 0,
        "running": 0,
        "queued": 0,
    }
    assert sum(row["played"] for row in done["standings"]) == 2 * total
    ladder = get("/api/v1/ladders/nim")
    assert ladder is not None and sum(entry["games"] for entry in ladder["entries"]) == 2 * total
    assert runtime.store.queue.running_ids() == []
    for match in done["matches"]:
        assert runtime.store.finishing.is_applied(match["id"])
        record = get(f"/api/v1/matches/{match['id']}")
        assert record is not None and record["status"] == "finished"
        assert record["attempts"] > STORMS  # every storm ended one of its runs
        replay = client.get(f"/api/v1/matches/{match['id']}/replay").get_json()
        assert verify_replay(replay) == []
        # the bots' restart cost no seat a fault: their moves waited for them
        assert [(seat["faults"], seat["forfeited"]) for seat in replay["seats"]] == [(0, False)] * 2
        assert {move["source"] for move in replay["moves"]} == {"bot"}
