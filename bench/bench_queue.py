"""Matches per second through the platform's queue, next to Celery no-op tasks per second on the same
broker: how close the whole match path comes to what the queue alone can carry.

Everything runs in processes of its own on a Redis of the benchmark's own (a free port, never the
one at 6379): instant bots (the first legal move, signatures checked, the bot SDK's keep-alive
server on gevent; see ``bench/instant_bot.py``), one worker process (``arena worker``, or the no-op
worker for the baseline: the same Celery app, broker settings, pool and concurrency), and the API in
this process, through which every match is requested. Each round times, from the first request to
the last stored end:

- ``noop``: ``--matches`` Celery tasks that only count themselves in Redis (the baseline);
- ``matches``: ``--matches`` two-seat Vulkan! matches (``--game``), each about 20-40 bot calls,
  against each bot of ``--bots``: ``sdk``, a bot written with the SDK (it decodes every request in
  full, hundreds of legal moves, as such a bot does), and ``raw``, a bot that reads the first legal
  move off the request's bytes and so costs next to nothing: the bots share the machine's cores
  with the worker, and the second leaves them to the platform, as bots elsewhere would.

``--protocols 1,2`` plays each bot's matches twice a round, its bots registered once in protocol
version 1 and once in version 2 (move requests without ``legal_moves``); the bots are then started
for version 2 (which answer version 1 requests as before). The ``raw`` bot, with no list to read in
version 2, rebuilds the legal moves from the observation with the engine (see
``bench/instant_bot.py``).

Rounds alternate and repeat (``--rounds``, default 3); the figures are min / median / max, and the
ratio is of the medians. The goal: matches/s at least 25% of no-op tasks/s.

    python bench/bench_queue.py [--matches 60] [--rounds 3] [--game vulkan] [--pool gevent] [--bots sdk,raw]
        [--protocols 1,2]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import rig  # noqa: E402

GOAL = 0.25


def seats_of(game_id: str) -> tuple[str, int]:
    from referee.registry import get_game

    game = get_game(game_id)
    spec = game.variant(game.default_variant)
    return spec.name, 2 if 2 in spec.seats else min(spec.seats)


def noop_round(redis_url: str, env: dict[str, str], count: int) -> tuple[float, float]:
    """No-op tasks per second, and the worker's CPU milliseconds per task."""
    from redis import Redis

    from arena.settings import Settings
    from bench.noop_worker import NOOP, app

    settings = Settings.from_env(env)
    celery = app(settings)
    counter = Redis.from_url(redis_url)
    key = f"{settings.key_prefix}noop-count"
    counter.delete(key)
    with rig.process([sys.executable, "-m", "bench.noop_worker"], env) as worker:
        cpu_before = rig.cpu_seconds(worker.pid)
        started = time.perf_counter()
        for _ in range(count):
            celery.tasks[NOOP].apply_async(args=(key,), queue=settings.queue)
        rig.wait_until(lambda: int(counter.get(key) or 0) >= count, 300, "the no-op tasks")
        rate = count / (time.perf_counter() - started)
        return rate, 1000.0 * (rig.cpu_seconds(worker.pid) - cpu_before) / count


def match_round(
    env: dict[str, str],
    game_id: str,
    bot_url: rig.ServerProcess,
    redis_url: rig.ServerProcess,
    count: int,
    protocol: int = 1,
) -> tuple[float, int, dict[str, float]]:
    """Matches per second, moves played, and CPU milliseconds per match of each process: the worker,
    the bot, Redis and this one (the API taking the requests, and the wait for the ends)."""
    from arena.api import create_app
    from arena.settings import Settings
    from arena.worker.celery_app import redis_runtime

    variant, seats = seats_of(game_id)
    runtime = redis_runtime(Settings.from_env(env))
    client = create_app(runtime).test_client()
    admin = {"Authorization": f"Bearer {rig.ADMIN}"}
    bots = rig.register_bots(client, runtime, bot_url, game_id, seats, protocol)
    with rig.process([sys.executable, "-m", "arena.cli.main", "worker", "--loglevel=INFO"], env) as worker:
        pids = {"worker": worker.pid, "bot": bot_url.pid, "redis": redis_url.pid, "api": os.getpid()}
        cpu_before = {name: rig.cpu_seconds(pid) for name, pid in pids.items()}
        started = time.perf_counter()
        ids = []
        for index in range(count):
            body = {
                "game": game_id,
                "variant": variant,
                "bots": bots,
                "seed": index,
                "time": {"move_ms": 5000},
            }
            answer = client.post("/api/v1/matches", json=body, headers=admin)
            assert answer.status_code == 202, answer.get_json()
            ids.append(answer.get_json()["id"])

        def ended() -> list:
            records = runtime.store.matches.get_many(ids)
            return records if all(record.status.ended for record in records) else []

        records = rig.wait_until(ended, 600, "the matches")
        rate = count / (time.perf_counter() - started)
        cpu = {name: 1000.0 * (rig.cpu_seconds(pid) - cpu_before[name]) / count for name, pid in pids.items()}
    moves = sum(record.moves for record in records)
    bad = [record for record in records if record.status.value != "finished" or record.attempts != 1]
    if bad:
        raise SystemExit(f"{len(bad)} matches not finished once: {bad[0]}")
    return rate, moves, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="vulkan", help="game of the matches (default vulkan, 2 seats)")
    parser.add_argument("--matches", type=int, default=60, help="matches (and no-op tasks) per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each, alternating (default 3)")
    parser.add_argument("--pool", choices=("gevent", "threads"), default="gevent", help="worker pool")
    parser.add_argument("--concurrency", type=int, default=64, help="worker concurrency (default 64)")
    parser.add_argument(
        "--bots", default="sdk,raw", help="instant bots to play against, in turn: sdk, raw or both (default)"
    )
    parser.add_argument(
        "--protocols",
        default="1",
        help="protocol versions to register the bots with, in turn: 1 (default), 2 or 1,2",
    )
    args = parser.parse_args()
    kinds = [kind.strip() for kind in args.bots.split(",") if kind.strip()]
    if not kinds or set(kinds) - {"sdk", "raw"}:
        parser.error("--bots takes sdk, raw or sdk,raw")
    versions = [version.strip() for version in args.protocols.split(",") if version.strip()]
    if not versions or set(versions) - {"1", "2"} or len(set(versions)) != len(versions):
        parser.error("--protocols takes 1, 2 or 1,2")
    protocols = [int(version) for version in versions]
    # a bot started for version 2 answers version 1 requests as well: one process per kind
    started_for = max(protocols)
    labels = [(kind, protocol) for kind in kinds for protocol in protocols]

    def label(kind: str, protocol: int) -> str:
        return f"{kind} bot" if protocols == [1] else f"{kind} bot v{protocol}"

    noop: list[float] = []
    noop_cpu: list[float] = []
    matches: dict[tuple[str, int], list[float]] = {key: [] for key in labels}
    cpu: dict[tuple[str, int], list[dict[str, float]]] = {key: [] for key in labels}
    calls = 0
    with contextlib.ExitStack() as stack:
        redis_url = stack.enter_context(rig.redis_server())
        bot_urls = {
            kind: stack.enter_context(rig.bot_server(kind=kind, protocol=started_for)) for kind in kinds
        }
        for _ in range(args.rounds):
            extra = {"ARENA_WORKER_POOL": args.pool, "ARENA_WORKER_CONCURRENCY": str(args.concurrency)}
            rate, task_cpu = noop_round(redis_url, rig.platform_env(redis_url, **extra), args.matches)
            noop.append(rate)
            noop_cpu.append(task_cpu)
            for kind, protocol in labels:
                env = rig.platform_env(redis_url, **extra)
                rate, moves, used = match_round(
                    env, args.game, bot_urls[kind], redis_url, args.matches, protocol
                )
                matches[kind, protocol].append(rate)
                cpu[kind, protocol].append(used)
                calls = moves // args.matches
    print(
        f"queue throughput: {args.matches} per round, {args.rounds} rounds, one worker ({args.pool}, "
        f"concurrency {args.concurrency}), Redis of its own"
    )
    print(f"  Celery no-op tasks/s (baseline)        min/median/max {rig.spread(noop)}")
    for key in labels:
        ratio = statistics.median(matches[key]) / statistics.median(noop)
        verdict = "met" if ratio >= GOAL else "not met"
        print(
            f"  {args.game} 2-seat matches/s, {label(*key)}  min/median/max {rig.spread(matches[key])}"
            f"  (~{calls} moves each)  ratio of medians {ratio:.3f}  goal at least {GOAL:.2f}: {verdict}"
        )
    print("CPU per match, ms (medians over rounds; the no-op worker's per task for comparison):")
    print(f"  no-op worker per task {statistics.median(noop_cpu):7.2f}")
    for key in labels:
        shares = {name: statistics.median(run[name] for run in cpu[key]) for name in cpu[key][0]}
        print(
            f"  {label(*key)}: worker {shares['worker']:7.2f}  bot {shares['bot']:7.2f}  "
            f"redis {shares['redis']:6.2f}  api+driver {shares['api']:6.2f}  "
            f"all {sum(shares.values()):7.2f}"
        )
    budget = 1000.0 / (GOAL * statistics.median(noop))
    print(
        f"at the goal ({GOAL:.2f} of the no-op rate) a match may take {budget:.1f} ms of wall time "
        f"end to end on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
