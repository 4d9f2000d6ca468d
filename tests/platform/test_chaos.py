"""Chaos: a tournament on a real Redis (append-only file on) with real ``arena worker`` processes,
while Redis is stopped and started again and workers are killed with SIGKILL mid-match.

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
from pathlib import Path
from typing import Any

import pytest
from redis import Redis
from redis.exceptions import RedisError

from arena.api import create_app
from arena.settings import Settings
from arena.worker.celery_app import redis_runtime
from referee.replay import verify_replay
from tests.platform.conftest import ADMIN, BotServer, register_bot
from tests.platform.own_redis import free_port
from tests.platform.waiting import wait_until

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]


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


def test_a_tournament_survives_redis_restarts_and_killed_workers(
    redis_process: RedisProcess, toy_games: None, bots: BotServer, tmp_path: Path
) -> None:
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
        "ARENA_MAX_ATTEMPTS": "20",
        "ARENA_WORKER_CONCURRENCY": "4",
    }
    runtime = redis_runtime(Settings.from_env(env))
    client = create_app(runtime).test_client()
    workers: list[subprocess.Popen[bytes]] = []

    def start_worker() -> subprocess.Popen[bytes]:
        log = tmp_path / f"worker-{len(workers)}.log"
        with log.open("w") as sink:
            worker = subprocess.Popen(
                [sys.executable, "-m", "tests.platform.nim_worker", "--loglevel=INFO"],
                cwd=ROOT,
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        workers.append(worker)
        wait_until(lambda: "ready." in log.read_text(), 30, f"a worker did not start: {log.read_text()}")
        return worker

    def get(url: str) -> dict[str, Any] | None:
        answer = client.get(url)
        return answer.get_json() if answer.status_code == 200 else None  # 503 while Redis is away

    def kill_a_worker_mid_match() -> None:
        wait_until(lambda: runtime.store.running_match_ids(), 30, "no match got going")
        victim = next(w for w in workers if w.poll() is None)
        victim.send_signal(signal.SIGKILL)
        victim.wait(10)
        start_worker()

    try:
        ids = []
        for name in ("c1", "c2", "c3", "c4"):
            path = f"/sleepy/{name}"
            ids.append(register_bot(client, bots, name, path, ["nim"])["id"])
        start_worker()
        start_worker()
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
            },
            headers={"Authorization": f"Bearer {ADMIN}"},
        )
        assert answer.status_code == 202, answer.get_json()
        url = answer.headers["Location"]

        kill_a_worker_mid_match()
        wait_until(lambda: runtime.store.running_match_ids(), 30, "no match got going after the kill")
        redis_process.stop()
        time.sleep(3)
        redis_process.start()
        kill_a_worker_mid_match()
        kill_a_worker_mid_match()

        done = wait_until(lambda: (t := get(url)) and t["status"] == "finished" and t, 180, "unfinished")
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
        for worker in workers:
            try:
                worker.wait(15)
            except subprocess.TimeoutExpired:
                worker.kill()

    total = done["progress"]["total"]
    assert total == 12
    assert done["progress"] == {
        "done": 12,
        "total": 12,
        "finished": 12,
        "aborted": 0,
        "cancelled": 0,
        "running": 0,
        "queued": 0,
    }
    assert sum(row["played"] for row in done["standings"]) == 2 * total
    ladder = get("/api/v1/ladders/nim")
    assert ladder is not None and sum(entry["games"] for entry in ladder["entries"]) == 2 * total
    assert runtime.store.running_match_ids() == []
    attempts = []
    for match in done["matches"]:
        assert runtime.store.is_applied(match["id"])
        record = get(f"/api/v1/matches/{match['id']}")
        assert record is not None and record["status"] == "finished"
        attempts.append(record["attempts"])
        replay = client.get(f"/api/v1/matches/{match['id']}/replay").get_json()
        assert verify_replay(replay) == []
    assert max(attempts) >= 2, "the chaos should have interrupted at least one match"
