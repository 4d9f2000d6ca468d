"""Matches per second through the platform's queue, next to the same matches played directly.

Instant bots (the first legal move, over loopback HTTP, signatures checked) play ``--matches``
matches of one game three ways, at the same concurrency:

- ``direct``: ``referee.runner.run_match`` in a pool of threads, no API, store or queue (baseline);
- ``embedded``: requested through the API, queued through Celery's memory broker, played by the
  in-process worker, stored in the in-memory Redis (``arena serve`` without ``REDIS_URL``);
- ``redis``: requested through the API on a real Redis, played by an ``arena worker`` process
  (only when a Redis answers at ``--redis``; database 14, keys and queue of its own, removed after).

Each figure is matches per second from the first request to the last stored result; the ratio is
to ``direct`` (1.0 would mean the queue costs nothing).

    python bench/bench_queue.py [--game volcano] [--matches 100] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from flask.testing import FlaskClient
from redis import Redis
from redis.exceptions import RedisError

from arena.api import create_app
from arena.celery_app import redis_runtime
from arena.embedded import EmbeddedPlatform
from arena.records import MatchStatus
from arena.runtime import Runtime
from arena.settings import Settings
from bots.sdk import create_bot_app, serve_app_in_thread
from referee.agents import HttpAgent
from referee.endpoints import EndpointPolicy
from referee.match import MatchSpec, TimeControl
from referee.registry import get_game
from referee.runner import Player, run_match

ROOT = Path(__file__).resolve().parents[1]
ADMIN = "bench-organizer"
LOOPBACK = EndpointPolicy.from_text("127.0.0.0/8")
SECRET = "bench-secret"


def first_legal(request: dict) -> dict:
    return request["legal_moves"][0]


def seats_of(game_id: str) -> tuple[str, int]:
    game = get_game(game_id)
    spec = game.variant(game.default_variant)
    return spec.name, 2 if 2 in spec.seats else min(spec.seats)


def direct(game_id: str, url: str, matches: int, concurrency: int) -> float:
    variant, seats = seats_of(game_id)

    def play(index: int) -> None:
        players = [Player("instant", HttpAgent(url, SECRET, LOOPBACK)) for _ in range(seats)]
        bots = [f"b{seat}" for seat in range(seats)]
        spec = MatchSpec.build(game=game_id, variant=variant, bots=bots, seed=index, time=TimeControl(5000))
        run_match(f"direct-{index}", spec, players)

    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(play, range(matches)))
    return time.perf_counter() - started


def through_api(runtime: Runtime, client: FlaskClient, game_id: str, url: str, matches: int) -> float:
    """Register the bots (with the bench's secret), request every match, wait for all to end."""
    variant, seats = seats_of(game_id)
    bot_ids = []
    for seat in range(seats):
        answer = client.post(
            "/api/v1/bots", json={"name": f"instant-{seat}", "endpoint": url, "games": [game_id]}
        )
        bot = runtime.store.get_bot(answer.get_json()["id"])
        assert bot is not None
        runtime.store.put_bot(replace(bot, secret=SECRET))  # one bot server path, one secret
        bot_ids.append(bot.id)
    headers = {"Authorization": f"Bearer {ADMIN}"}
    started = time.perf_counter()
    ids = []
    for index in range(matches):
        body = {
            "game": game_id,
            "variant": variant,
            "bots": bot_ids,
            "seed": index,
            "time": {"move_ms": 5000},
        }
        answer = client.post("/api/v1/matches", json=body, headers=headers)
        assert answer.status_code == 202, answer.get_json()
        ids.append(answer.get_json()["id"])
    while True:
        records = runtime.store.get_matches(ids)
        if all(record.status.ended for record in records):
            break
        time.sleep(0.02)
    elapsed = time.perf_counter() - started
    aborted = [record for record in records if record.status is MatchStatus.ABORTED]
    if aborted:
        raise SystemExit(f"{len(aborted)} matches aborted: {aborted[0].error}")
    return elapsed


def embedded(game_id: str, url: str, matches: int, concurrency: int) -> float:
    settings = Settings(admin_token=ADMIN, policy=LOOPBACK)
    with EmbeddedPlatform(settings, concurrency=concurrency) as platform:
        return through_api(
            platform.runtime, create_app(platform.runtime).test_client(), game_id, url, matches
        )


def with_redis(redis_url: str, game_id: str, url: str, matches: int, concurrency: int) -> float | None:
    try:
        Redis.from_url(redis_url, socket_connect_timeout=1).ping()
    except RedisError:
        return None
    tag = uuid.uuid4().hex[:8]
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": ADMIN,
        "ARENA_KEY_PREFIX": f"arena-bench-{tag}:",
        "ARENA_QUEUE": f"arena-bench-{tag}",
        "ARENA_ENDPOINT_ALLOWLIST": "127.0.0.0/8",
        "ARENA_WORKER_CONCURRENCY": str(concurrency),
    }
    settings = Settings.from_env(env)
    runtime = redis_runtime(settings)
    with tempfile.TemporaryFile("w+") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "arena.cli", "worker", "--loglevel=INFO"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                log.seek(0)
                if "ready." in log.read():
                    break
                if time.monotonic() > deadline or worker.poll() is not None:
                    raise SystemExit("the worker did not start")
                time.sleep(0.1)
            return through_api(runtime, create_app(runtime).test_client(), game_id, url, matches)
        finally:
            worker.terminate()
            worker.wait(30)
            redis = runtime.store.redis
            keys = list(redis.scan_iter(match=f"{settings.key_prefix}*", count=1000))
            keys += [
                f"{name}{settings.queue}" for name in ("", "_kombu.binding.", "_kombu.binding_permanent.")
            ]
            redis.delete(*keys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="volcano")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    args = parser.parse_args()

    server, base = serve_app_in_thread(create_bot_app(first_legal, secret=SECRET))
    url = f"{base}/"
    variant, seats = seats_of(args.game)
    print(
        f"{args.matches} matches of {args.game}/{variant}, {seats} instant bots over loopback HTTP, "
        f"{args.concurrency} at once"
    )
    runs: list[tuple[str, Callable[[], float | None]]] = [
        ("direct", lambda: direct(args.game, url, args.matches, args.concurrency)),
        ("embedded", lambda: embedded(args.game, url, args.matches, args.concurrency)),
        ("redis", lambda: with_redis(args.redis, args.game, url, args.matches, args.concurrency)),
    ]
    baseline = None
    print(f"{'mode':<10} {'seconds':>8} {'matches/s':>10} {'ratio':>6}")
    try:
        for name, run in runs:
            seconds = run()
            if seconds is None:
                print(f"{name:<10} {'-':>8} {'-':>10} {'-':>6}  (no Redis at {args.redis})")
                continue
            rate = args.matches / seconds
            baseline = baseline or rate
            print(f"{name:<10} {seconds:>8.2f} {rate:>10.1f} {rate / baseline:>6.2f}")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
