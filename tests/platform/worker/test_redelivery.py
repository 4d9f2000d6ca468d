"""A dead worker's messages are handed out again after the visibility timeout, on a real Redis with
real ``arena worker`` processes.

A worker takes a match's message and is killed (SIGKILL: nothing of it acknowledges or gives back
the message) before the match starts: the message stays among the broker's unacknowledged ones
(``unacked``). Another worker must be handed it once ``ARENA_VISIBILITY_TIMEOUT`` has passed and
play the match. The sweeper is kept out of it (the test holds its lock): the message itself comes
back, nobody queues the match again.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.api import create_app
from arena.settings import Settings
from arena.worker.celery_app import redis_runtime
from tests.platform.conftest import ADMIN, BotServer, register_bot
from tests.platform.own_redis import own_redis_server
from tests.platform.waiting import wait_until

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]
VISIBILITY_TIMEOUT_S = 2

TAKE_AND_HANG = textwrap.dedent(
    """
    import sys, time
    from arena.settings import Settings
    from arena.worker.celery_app import make_celery

    app = make_celery(Settings.from_env(), lambda app: None)
    with app.connection_for_read() as connection:
        channel = connection.default_channel
        message = None
        while message is None:
            message = channel.basic_get(sys.argv[1], no_ack=False)
            time.sleep(0.05)
        print("taken", flush=True)
        time.sleep(600)
    """
)
"""A worker that takes one message without acknowledging it and then hangs, to be killed."""


@pytest.fixture
def redis_url() -> Iterator[str]:
    with own_redis_server("redelivery-test") as url:
        yield url


def test_a_killed_workers_match_is_handed_out_again_after_the_visibility_timeout(
    redis_url: str, toy_games: None, bots: BotServer, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": ADMIN,
        "ARENA_QUEUE": "redelivery",
        "ARENA_ENDPOINT_ALLOWLIST": "127.0.0.0/8",
        "ARENA_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT_S),
        "ARENA_WORKER_CONCURRENCY": "4",
    }
    settings = Settings.from_env(env)
    runtime = redis_runtime(settings)
    assert runtime.store.queue.take_sweeper_lock("the test", 3600)  # no worker sweeps meanwhile
    client = create_app(runtime).test_client()
    ids = [register_bot(client, bots, name, f"/first/{name}", ["nim"])["id"] for name in ("r1", "r2")]
    answer = client.post(
        "/api/v1/matches",
        json={"game": "nim", "bots": ids, "seed": 1},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    assert answer.status_code == 202, answer.get_json()
    match_id = answer.get_json()["id"]

    processes: list[subprocess.Popen[bytes]] = []
    try:
        dead = subprocess.Popen(
            [sys.executable, "-c", TAKE_AND_HANG, settings.queue],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
        )
        processes.append(dead)
        assert dead.stdout is not None and dead.stdout.readline() == b"taken\n"
        dead.send_signal(signal.SIGKILL)
        dead.wait(10)
        broker = runtime.store.redis
        assert broker.hlen("unacked") == 1  # the dead worker's message, and nothing in the queue
        assert runtime.queue.waiting() == 0

        log = tmp_path / "worker.log"
        with log.open("w") as sink:
            processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "tests.platform.nim_worker", "--loglevel=INFO"],
                    cwd=ROOT,
                    env=env,
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                )
            )
        wait_until(lambda: "ready." in log.read_text(), 30, f"the worker did not start:\n{log.read_text()}")
        # the deadline only keeps a broken run from hanging: redelivery is due after 2 s
        match = wait_until(
            lambda: (found := runtime.store.matches.get(match_id)) and found.status.ended and found,
            30,
            f"the dead worker's match was not handed out again:\n{log.read_text()}",
        )
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    assert match.status.value == "finished" and match.attempts == 1
    assert broker.hlen("unacked") == 0


TAKE_PREFETCH_AND_DIE = textwrap.dedent(
    """
    import sys, time
    from redis import Redis
    from arena.settings import Settings
    from arena.worker.celery_app import make_celery

    settings = Settings.from_env()
    app = make_celery(settings, lambda app: None)
    with app.connection_for_read() as connection:
        channel = connection.default_channel
        taken = []
        while len(taken) < int(sys.argv[1]):  # prefetched: recorded among the unacknowledged
            message = channel.basic_get(settings.queue, no_ack=False)
            if message is not None:
                taken.append(message)
            time.sleep(0.05)
        # the next one as kombu's consumer takes it: off the queue, and killed before it is recorded
        assert Redis.from_url(settings.redis_url).brpop([settings.queue], timeout=30) is not None
        print("taken", flush=True)
        time.sleep(600)
    """
)
"""A worker killed holding prefetched messages, and one more taken between kombu's BRPOP and its
record among the unacknowledged."""


def test_a_killed_workers_prefetched_and_half_taken_messages_all_come_back(
    redis_url: str, toy_games: None, bots: BotServer, tmp_path: Path
) -> None:
    """Every match of a worker killed (SIGKILL) with messages prefetched, and one taken off the queue
    but not yet recorded as unacknowledged, is played once, without the sweeper (the test holds its
    lock): the recorded ones come back after the visibility timeout, the lost one is queued again."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": ADMIN,
        "ARENA_QUEUE": "prefetched",
        "ARENA_KEY_PREFIX": "prefetched:",
        "ARENA_ENDPOINT_ALLOWLIST": "127.0.0.0/8",
        "ARENA_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT_S),
        "ARENA_WORKER_CONCURRENCY": "4",
    }
    settings = Settings.from_env(env)
    runtime = redis_runtime(settings)
    assert runtime.store.queue.take_sweeper_lock("the test", 3600)  # no worker sweeps meanwhile
    client = create_app(runtime).test_client()
    ids = [register_bot(client, bots, name, f"/first/{name}", ["nim"])["id"] for name in ("p1", "p2")]
    match_ids = []
    for seed in range(3):
        answer = client.post(
            "/api/v1/matches",
            json={"game": "nim", "bots": ids, "seed": seed},
            headers={"Authorization": f"Bearer {ADMIN}"},
        )
        assert answer.status_code == 202, answer.get_json()
        match_ids.append(answer.get_json()["id"])

    processes: list[subprocess.Popen[bytes]] = []
    try:
        dead = subprocess.Popen(
            [sys.executable, "-c", TAKE_PREFETCH_AND_DIE, "2"], cwd=ROOT, env=env, stdout=subprocess.PIPE
        )
        processes.append(dead)
        assert dead.stdout is not None and dead.stdout.readline() == b"taken\n"
        dead.send_signal(signal.SIGKILL)
        dead.wait(10)
        broker = runtime.store.redis
        assert broker.hlen("unacked") == 2 and runtime.queue.waiting() == 0, "the third is nowhere"

        log = tmp_path / "worker.log"
        with log.open("w") as sink:
            processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "tests.platform.nim_worker", "--loglevel=INFO"],
                    cwd=ROOT,
                    env=env,
                    stdout=sink,
                    stderr=subprocess.STDOUT,
                )
            )
        wait_until(lambda: "ready." in log.read_text(), 30, f"the worker did not start:\n{log.read_text()}")

        def every_match_ended() -> bool:
            found = [runtime.store.matches.get(match_id) for match_id in match_ids]
            return all(match is not None and match.status.ended for match in found)

        # the bound only keeps a broken run from hanging: all are due within a few seconds
        wait_until(every_match_ended, 60, f"a dead worker's match never came back:\n{log.read_text()}")
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    ended = [runtime.store.matches.get(match_id) for match_id in match_ids]
    assert [(match.status.value, match.attempts) for match in ended if match] == [("finished", 1)] * 3
    assert broker.hlen("unacked") == 0
