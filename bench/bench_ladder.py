"""Ladder pages under load: the API under gunicorn on a Redis of its own, 10,000 bots in a ladder.

What it does, all on loopback:

1. starts ``redis-server`` on a free port (never 6379), with nothing saved to disk;
2. registers ``--bots`` bots (records as the API writes them) and gives each a row in the
   ``vulkan``/``competitive`` ladder (random skills, Elo ratings and counts; their ranking keys as
   :func:`arena.ladders.rows.rank_key` computes them);
3. starts the API under gunicorn (``deploy/gunicorn.conf.py``, ``arena.wsgi:app``) in its own
   process group;
4. runs a load generator in another process: an open loop at a fixed ``--rate`` (requests are sent
   on schedule whether or not earlier ones have answered; latency is counted from the scheduled
   time, so a stalled server is not hidden), ``--seconds`` long, over ``--connections`` kept-alive
   connections. Each run loads either ``GET /api/v1/health`` (the baseline: Flask, gunicorn and one
   Redis round trip) or ``GET /api/v1/ladders/vulkan?variant=competitive&page=N&page_size=50``
   with ``N`` drawn over the whole ladder. The two alternate, ``--runs`` times each.

It prints each run's p50, p99 and achieved rate, then min/median/max over the runs, and the ratio
of the ladder's p50 and p99 to the baseline's. The goal is a ladder p99 under 20 ms at 200/s.

Before the load, it also times one page read in-process (``arena.ladders.ladder.page``, no HTTP) on the
full ladder and on a ladder of 100 rows, to show a page's cost does not grow with the ladder.

    python bench/bench_ladder.py [--bots 10000] [--rate 200] [--seconds 5] [--runs 3]
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import queue
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from redis import Redis
from redis.exceptions import RedisError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.ladders import ladder  # noqa: E402
from arena.ladders.counting import LadderCount
from arena.ladders.rows import new_row, rank_key  # noqa: E402
from arena.records import BotRecord, MatchRecord, MatchStatus, now_iso
from arena.storage import MatchEnd, Store
from bench import rig  # noqa: E402
from referee.match import MatchSpec
from referee.registry import get_game
from referee.replay import MatchResult

ROOT = Path(__file__).resolve().parents[1]
ADMIN = "bench-organizer"
GAME, VARIANT = "vulkan", "competitive"
PAGE_SIZE = 50


def wait_for(check, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (OSError, RedisError):
            pass
        time.sleep(0.1)
    raise SystemExit(f"bench_ladder: {what} did not come up in {seconds:.0f} s")


def seed(store: Store, bots: int, game: str, variant: str, rng: random.Random) -> None:
    """``bots`` bot records and one ladder row each (a pipeline per thousand)."""
    spec = get_game(game).variant(variant)
    created = now_iso()
    for start in range(0, bots, 1000):
        rows, names = {}, {}
        with store.redis.pipeline(transaction=False) as pipe:
            for index in range(start, min(start + 1000, bots)):
                bot = BotRecord(
                    id=f"b-{index:016x}",
                    name=f"bot {index}",
                    endpoint=f"http://127.0.0.1:9/{index}",
                    games=(game,),
                    token_hash="x" * 64,
                    secret="s" * 43,
                    created_at=created,
                    created_ts=time.time(),
                    updated_at=created,
                )
                pipe.set(store.key("bot", bot.id), json.dumps(bot.to_json()))
                pipe.zadd(store.key("bots"), {bot.id: bot.created_ts})
                games = rng.randint(1, 200)
                wins = rng.randint(0, games)
                row = {
                    **new_row(spec),
                    "rating": rng.gauss(1500, 150),
                    "rated_games": games,
                    "mu": rng.gauss(25, 5),
                    "sigma": rng.uniform(0.8, 8.3),
                    "games": games,
                    "wins": wins,
                    "losses": games - wins,
                    "score_sum": float(rng.randint(0, 40 * games)),
                    "last_match": f"m-{index:016x}",
                }
                rows[bot.id] = {**row, "key": rank_key(row, spec)}
                names[bot.id] = bot.name
            pipe.execute()
        store.ladders.put_rows(game, variant, rows, names)


def time_page_reads(
    store: Store, game: str, variant: str, size: int, reads: int, rng: random.Random
) -> float:
    """Mean microseconds of one in-process page read at random offsets."""
    spec = get_game(game).variant(variant)
    pages = max(1, size // PAGE_SIZE)
    began = time.perf_counter()
    for _ in range(reads):
        ladder.page(store, game, variant, spec, rng.randrange(pages) * PAGE_SIZE, PAGE_SIZE)
    return (time.perf_counter() - began) / reads * 1e6


def time_finishes(
    store: Store, game: str, variant: str, bots: int, matches: int, rng: random.Random
) -> float:
    """Mean microseconds of :meth:`arena.storage.finishing.Finishing.finish_match` for four-seat matches
    among ``bots`` bots."""
    spec = get_game(game).variant(variant)
    pending = []
    for _ in range(matches):
        seats = [f"b-{index:016x}" for index in rng.sample(range(bots), 4)]
        match_id = f"m-{rng.getrandbits(64):016x}"
        match = MatchRecord.new(match_id, game, variant, tuple(seats), tuple(seats), rated=True)
        store.matches.add([(match, MatchSpec.build(game=game, bots=seats, seed=1, variant=variant))])
        result = MatchResult(tuple(rng.sample([1, 2, 3, 4], 4)), (1.0, 2.0, 3.0, 4.0), "end")
        pending.append((match, seats, result))
    began = time.perf_counter()
    for match, seats, result in pending:
        count = LadderCount(game, variant, spec, tuple(seats), result, match.id)
        end = MatchEnd(match.id, MatchStatus.FINISHED, b"", 10, result=result, ladder=count)
        assert store.finishing.finish_match(end)
    return (time.perf_counter() - began) / matches * 1e6


def start_api(redis_url: str, port: int) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": ADMIN,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_LOGLEVEL": "warning",
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen(
        [str(gunicorn), "-c", str(ROOT / "deploy" / "gunicorn.conf.py"), "arena.wsgi:app"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )

    def answers() -> bool:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", "/api/v1/health")
        return connection.getresponse().status == 200

    wait_for(answers, 30, "gunicorn")
    return server


# -- the load generator (runs in its own process) -----------------------------------------------


def generate(port: int, paths: list[str], rate: float, seconds: float, connections: int, out: object) -> None:
    """Send ``rate`` requests a second for ``seconds`` (an open loop); put the figures on ``out``."""
    total = int(rate * seconds)
    work: queue.Queue[tuple[float, str] | None] = queue.Queue()
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def worker() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while (item := work.get()) is not None:
            due, path = item
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)
            try:
                connection.request("GET", path)
                answer = connection.getresponse()
                answer.read()
                ok = answer.status == 200
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                ok = False
            done = time.perf_counter()
            with lock:
                if ok:
                    latencies.append(done - due)
                else:
                    errors[0] += 1

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(connections)]
    for thread in threads:
        thread.start()
    began = time.perf_counter() + 0.05
    for index in range(total):
        due = began + index / rate
        pause = due - time.perf_counter() - 0.002
        if pause > 0:
            time.sleep(pause)
        work.put((due, paths[index % len(paths)]))
    for _ in threads:
        work.put(None)
    for thread in threads:
        thread.join()
    ended = time.perf_counter()
    out.put({"latencies": latencies, "errors": errors[0], "elapsed": ended - began})  # type: ignore[attr-defined]


def load(port: int, paths: list[str], args: argparse.Namespace) -> dict[str, float]:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    process = context.Process(
        target=generate, args=(port, paths, args.rate, args.seconds, args.connections, out)
    )
    process.start()
    figures = out.get(timeout=args.seconds * 10 + 60)
    process.join()
    latencies = sorted(figures["latencies"])
    if not latencies:
        raise SystemExit("bench_ladder: no request succeeded")
    return {
        "p50": statistics.quantiles(latencies, n=100)[49] * 1000,
        "p99": statistics.quantiles(latencies, n=100)[98] * 1000,
        "rate": len(latencies) / figures["elapsed"],
        "errors": figures["errors"],
    }


def one_at_a_time(port: int, paths: list[str], requests: int) -> float:
    """Median milliseconds of ``requests`` sequential requests on one connection (no queueing)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    took = []
    for index in range(requests):
        began = time.perf_counter()
        connection.request("GET", paths[index % len(paths)])
        answer = connection.getresponse()
        answer.read()
        took.append((time.perf_counter() - began) * 1000)
    connection.close()
    return statistics.median(took)


def spread(values: list[float]) -> str:
    return f"{min(values):7.2f} {statistics.median(values):7.2f} {max(values):7.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=10_000)
    parser.add_argument("--rate", type=float, default=200.0, help="requests per second (default 200)")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run (default 5)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each kind, alternating (default 3)")
    parser.add_argument("--connections", type=int, default=16, help="generator connections (default 16)")
    args = parser.parse_args()
    rng = random.Random(2026)

    with rig.redis_server() as redis_url:
        api = None
        try:
            store = Store.connect(redis_url)
            began = time.perf_counter()
            seed(store, args.bots, GAME, VARIANT, rng)
            small = Store.connect(redis_url, prefix="small:")
            seed(small, 100, GAME, VARIANT, rng)
            print(f"seeded {args.bots} bots with ladder rows in {time.perf_counter() - began:.1f} s")
            memory = Redis.from_url(redis_url).info("memory")["used_memory"] / 2**20
            print(f"redis memory with bot records and ladder rows: {memory:.1f} MiB")

            print("\nin-process page read (50 rows), mean over 300 reads, 3 runs interleaved:")
            big_us, small_us = [], []
            for _ in range(3):
                small_us.append(time_page_reads(small, GAME, VARIANT, 100, 300, rng))
                big_us.append(time_page_reads(store, GAME, VARIANT, args.bots, 300, rng))
            print(f"  {'ladder of':<22} {'min':>7} {'median':>7} {'max':>7}  (µs)")
            print(f"  {'100 rows':<22} {spread(small_us)}")
            print(f"  {f'{args.bots} rows':<22} {spread(big_us)}")
            ratio = statistics.median(big_us) / statistics.median(small_us)
            print(f"  ratio {args.bots} / 100 rows (medians): {ratio:.2f}")

            print("\nfinish_match of a 4-seat match (Elo, skill, rows, results), mean over 100, 3 runs:")
            big_us, small_us = [], []
            for _ in range(3):
                small_us.append(time_finishes(small, GAME, VARIANT, 100, 100, rng))
                big_us.append(time_finishes(store, GAME, VARIANT, args.bots, 100, rng))
            print(f"  {'ladder of':<22} {'min':>7} {'median':>7} {'max':>7}  (µs)")
            print(f"  {'100 rows':<22} {spread(small_us)}")
            print(f"  {f'{args.bots} rows':<22} {spread(big_us)}")
            ratio = statistics.median(big_us) / statistics.median(small_us)
            print(f"  ratio {args.bots} / 100 rows (medians): {ratio:.2f}")

            port = rig.free_port()
            api = start_api(redis_url, port)
            pages = max(1, args.bots // PAGE_SIZE)
            base = f"/api/v1/ladders/{GAME}?variant={VARIANT}&page_size={PAGE_SIZE}&page="
            ladder_paths = [base + str(rng.randrange(pages) + 1) for _ in range(1000)]
            kinds = {"health (baseline)": ["/api/v1/health"], "ladder page": ladder_paths}
            load(port, ["/api/v1/health"], argparse.Namespace(**{**vars(args), "seconds": 1.0}))  # warm-up
            print("\nunder gunicorn, one request at a time (200 per run, median ms), 3 runs interleaved:")
            alone: dict[str, list[float]] = {kind: [] for kind in kinds}
            for _ in range(3):
                for kind, paths in kinds.items():
                    alone[kind].append(one_at_a_time(port, paths, 200))
            print(f"  {'':<22} {'min':>7} {'median':>7} {'max':>7}")
            for kind, values in alone.items():
                print(f"  {kind:<22} {spread(values)}")
            ratio = statistics.median(alone["ladder page"]) / statistics.median(alone["health (baseline)"])
            print(f"  ratio ladder / health (medians): {ratio:.2f}")
            results: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
            print(f"\nunder gunicorn, open loop at {args.rate:.0f}/s for {args.seconds:.0f} s per run:")
            for run in range(args.runs):
                for kind, paths in kinds.items():
                    figures = load(port, paths, args)
                    results[kind].append(figures)
                    print(
                        f"  run {run + 1} {kind:<18} p50 {figures['p50']:6.2f} ms"
                        f"  p99 {figures['p99']:6.2f} ms  {figures['rate']:6.1f}/s"
                        f"  errors {figures['errors']:.0f}"
                    )
            print(f"\n  {'':<30} {'min':>7} {'median':>7} {'max':>7}")
            for kind, runs in results.items():
                for figure, unit in (("p50", "ms"), ("p99", "ms"), ("rate", "/s")):
                    label = f"{kind} {figure} ({unit})"
                    print(f"  {label:<30} {spread([r[figure] for r in runs])}")
            health, page = results["health (baseline)"], results["ladder page"]
            for figure in ("p50", "p99"):
                ratio = statistics.median(r[figure] for r in page) / statistics.median(
                    r[figure] for r in health
                )
                print(f"  ladder / health {figure} (medians): {ratio:.2f}")
            worst = max(r["p99"] for r in page)
            print(
                f"\n  goal: ladder p99 < 20 ms at {args.rate:.0f}/s: {'met' if worst < 20 else 'NOT met'}"
                f" (worst run {worst:.2f} ms)"
            )
        finally:
            if api is not None:
                os.killpg(api.pid, signal.SIGTERM)
                api.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
