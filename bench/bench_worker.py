"""One worker playing many matches at once against bots that answer in 100 ms.

A Redis of the benchmark's own (a free port, never the one at 6379), a bot in its own process (the
first legal move after ``--delay-ms``, the bot SDK's keep-alive server on gevent, so the waits
overlap without a thread each; see ``bench/instant_bot.py``), one ``arena worker`` (``--pool``,
concurrency the largest load in each of its ``--processes``, default 1), and the API in this
process requesting the matches. The worker stops
taking matches while a load is queued, and the timing runs from the first match's start to the last
one's end (``--while-queuing``: the worker takes them as they come, timed from the first request). The bot is
``--bot raw`` by default: it checks the signature and reads the first legal move off the request's
bytes, so it costs next to nothing and leaves the cores to the worker, as a bot on another machine
would; ``--bot sdk`` is a bot written with the SDK, which decodes every request in full. For each
load (``--loads``, matches queued at once) it prints:

- moves/s over the whole load, and its ratio to the smallest load's moves/s times the load ratio
  (1.00 is perfectly linear growth; the goal is within 20% until the worker's CPU is the limit);
- the worker's CPU per move (goal at most 0.5 ms) and the worker's CPU use (1.00 is one core full);
  with ``--processes N`` the worker is its supervisor and all N worker processes, added up;
- the worker's resident memory per match in flight (peak RSS over its idle RSS, divided by the load;
  goal at most 0.5 MB; all its processes added up);
- matches played more than once (goal 0);
- the CPU use of every process on the machine's cores: the worker, the bot, the Redis and this
  process (the API and the load generator), and their sum; where one nears 1.00 (a core) or the sum
  nears the cores (``os.cpu_count()``), that process or the machine, not the worker, is the limit;
- ``waited``: the share of the time the worker was ready to run but waited for a core (Linux
  schedstat; each process's main thread, added up over the worker's processes): above a few
  hundredths, other processes on the machine, not the worker's own work, hold its moves back;
- the load average before the first load, after each round and at the end: other work on the
  machine takes cores from all of these.
- how long queuing the load through the API took (outside the timing unless ``--while-queuing``),
  when the matches started (median and last, seconds after the timing started) and the most that
  ran at once: a load of 500 is 500 matches at once only if the worker starts them all before the
  first ones end;
- ``split``: how many of the load's matches each worker process played (Celery's per-node task
  counts), the first process's share first.

Loads alternate over ``--rounds`` rounds (default 2); figures are min / median / max over rounds
(CPU and memory figures: the median).

    python bench/bench_worker.py [--loads 50,100,250,500] [--rounds 2] [--processes 1] [--bot raw|sdk]
                                 [--delay-ms 100]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import rig  # noqa: E402
from bench.machine import load as load_average  # noqa: E402

CPU_PER_MOVE_GOAL_MS = 0.5
MEMORY_PER_MATCH_GOAL_MB = 0.5


def timeline(records: list, origin: float | None) -> dict[str, float]:
    """When the matches started (seconds after ``origin``, a wall-clock time, or after the first
    start when None), the time from there to the last end (``span_s``), and how many ran at once at
    most.

    A load of 500 is only 500 matches at once if they all start before the first ones end: these
    figures show whether the worker (or the queuing) let them."""
    spans = [
        (datetime.fromisoformat(r.started_at).timestamp(), datetime.fromisoformat(r.finished_at).timestamp())
        for r in records
        if r.started_at and r.finished_at
    ]
    if not spans:
        return {"start_median_s": 0.0, "start_last_s": 0.0, "span_s": 0.0, "peak": 0}
    events = sorted([(start, 1) for start, _ in spans] + [(end, -1) for _, end in spans])
    running = peak = 0
    for _, step in events:
        running += step
        peak = max(peak, running)
    first = min(start for start, _ in spans) if origin is None else origin
    starts = sorted(start - first for start, _ in spans)
    return {
        "start_median_s": statistics.median(starts),
        "start_last_s": starts[-1],
        "span_s": max(end for _, end in spans) - first,
        "peak": peak,
    }


def played(control, nodes: list[str]) -> dict[str, int]:
    """Match tasks each worker process has received so far (Celery's ``inspect stats``)."""
    stats = control.inspect(destination=nodes, timeout=10).stats() or {}
    return {node: int(stats.get(node, {}).get("total", {}).get("arena.run_match", 0)) for node in nodes}


def run_load(
    client,
    runtime,
    nodes: list[str],
    pids: dict[str, int],
    bots: list[str],
    game: str,
    variant: str,
    load: int,
    options: dict,
    while_queuing: bool,
) -> dict:
    admin = {"Authorization": f"Bearer {rig.ADMIN}"}
    worker_pid = pids["worker"]
    idle_rss = rig.tree_rss_bytes(worker_pid)
    peak = [idle_rss]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.2):
            peak[0] = max(peak[0], rig.tree_rss_bytes(worker_pid))

    def cpu(name: str, pid: int) -> float:
        return rig.tree_cpu_seconds(pid) if name == "worker" else rig.cpu_seconds(pid)

    def counters() -> tuple[dict[str, float], float]:
        """Each process's CPU seconds (the worker's: all its processes), and the worker's wait for a
        core, so far."""
        return {name: cpu(name, pid) for name, pid in pids.items()}, rig.tree_run_queue_seconds(worker_pid)

    control, queue = runtime.queue.app.control, runtime.queue.queue

    def every_node(replies: list | None) -> bool:
        return {node for reply in replies or [] for node in reply} == set(nodes)

    tasks_before = played(control, nodes)
    if not while_queuing:  # the worker stops taking matches until all of this load is queued
        replies = control.cancel_consumer(queue, destination=nodes, reply=True, timeout=10)
        assert every_node(replies), f"not every worker process answered: {replies}"
        # a BRPOP already waiting on the queue (kombu's last second) would still take a match
        time.sleep(3)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    posting = time.perf_counter()
    before = counters() if while_queuing else None  # CPU counted from the first request...
    ids = []
    for index in range(load):
        body = {
            "game": game,
            "variant": variant,
            "bots": bots,
            "seed": index,
            "options": options,
            "time": {"move_ms": 5000},
        }
        answer = client.post("/api/v1/matches", json=body, headers=admin)
        assert answer.status_code == 202, answer.get_json()
        ids.append(answer.get_json()["id"])
    queued_s = time.perf_counter() - posting
    if before is None:  # ... or from when the worker may take the queued load
        before = counters()
    cpu_before, waited_before = before
    posting_wall = time.time() - (time.perf_counter() - posting)
    if not while_queuing:
        replies = control.add_consumer(queue, destination=nodes, reply=True, timeout=10)
        assert every_node(replies), f"not every worker process answered: {replies}"

    def ended() -> list:
        records = runtime.store.matches.get_many(ids)
        return records if all(record.status.ended for record in records) else []

    records = rig.wait_until(ended, 900, f"{load} matches")
    # timed from the first request when the worker takes matches as they come; otherwise from the
    # first start, the worker taking a second or two to come back to a queue it had left
    times = timeline(records, posting_wall if while_queuing else None)
    elapsed = times["span_s"]
    used = {name: cpu(name, pid) - cpu_before[name] for name, pid in pids.items()}
    waited = rig.tree_run_queue_seconds(worker_pid) - waited_before
    done.set()
    sampler.join()
    moves = sum(record.moves for record in records)
    tasks_after = played(control, nodes)
    return {
        "moves_s": moves / elapsed,
        "cpu_ms_per_move": 1000.0 * used["worker"] / max(1, moves),
        **{f"{name}_cpu": seconds / elapsed for name, seconds in used.items()},
        "split": [tasks_after[node] - tasks_before[node] for node in nodes],
        "waited": waited / elapsed,
        "mb_per_match": (peak[0] - idle_rss) / load / 1e6,
        "queued_s": queued_s,
        **times,
        "twice": sum(1 for record in records if record.attempts != 1 or record.status.value != "finished"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", default="50,100,250,500", help="matches queued at once, comma-separated")
    parser.add_argument("--delay-ms", type=float, default=100.0, help="the bot's answer time (default 100)")
    parser.add_argument(
        "--bot",
        choices=("raw", "sdk"),
        default="raw",
        help="raw: reads the first legal move off the bytes (default); sdk: the SDK's app, decoding all",
    )
    parser.add_argument("--game", default="volcano", help="game (default volcano, 2 seats)")
    parser.add_argument("--turn-limit", type=int, default=20, help="volcano's turn_limit option (default 20)")
    parser.add_argument("--pool", choices=("gevent", "threads"), default="gevent")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="worker processes of the one `arena worker` (its --processes; default 1)",
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--while-queuing",
        action="store_true",
        help="let the worker take matches while the load is being queued, timing from the first request "
        "(by default the worker waits until all of them are queued, timed from the first start)",
    )
    args = parser.parse_args()
    loads = [int(text) for text in args.loads.split(",")]
    from arena.api import create_app
    from arena.settings import Settings
    from arena.worker.celery_app import redis_runtime
    from arena.worker.processes import expand_host, node_names
    from referee.registry import get_game

    engine = get_game(args.game)
    variant = engine.default_variant
    options = {"turn_limit": args.turn_limit} if args.game == "volcano" else {}
    results: dict[int, list[dict]] = {load: [] for load in loads}
    averages = [f"start {load_average()}"]
    with rig.redis_server() as redis_url, rig.bot_server(args.delay_ms, args.bot) as bot_url:
        env = rig.platform_env(
            redis_url, ARENA_WORKER_POOL=args.pool, ARENA_WORKER_CONCURRENCY=str(max(loads))
        )
        runtime = redis_runtime(Settings.from_env(env))
        client = create_app(runtime).test_client()
        bots = rig.register_bots(client, runtime, bot_url, args.game, 2)
        nodes = [expand_host(node) for node in node_names(args.processes)]
        command = [sys.executable, "-m", "arena.cli.main", "worker", "--loglevel=INFO"]
        command.append(f"--processes={args.processes}")
        with rig.process(command, env, f"{nodes[-1]} ready.") as worker:
            control = runtime.queue.app.control
            rig.wait_until(  # every process, not only the one whose line came first
                lambda: len(control.ping(destination=nodes, timeout=2)) == len(nodes), 60, "every process"
            )
            time.sleep(2)  # the worker settles (imports, connections) before the first load
            pids = {"worker": worker.pid, "bot": bot_url.pid, "redis": redis_url.pid, "api": os.getpid()}
            for round_number in range(args.rounds):
                for load in loads:
                    results[load].append(
                        run_load(
                            client,
                            runtime,
                            nodes,
                            pids,
                            bots,
                            args.game,
                            variant,
                            load,
                            options,
                            args.while_queuing,
                        )
                    )
                averages.append(f"after round {round_number + 1} {load_average()}")
    base_load = loads[0]
    base = statistics.median(r["moves_s"] for r in results[base_load])
    averages.append(f"end {load_average()}")
    print(
        f"one worker, {args.processes} process(es) ({args.pool}), {args.bot} bot answering in "
        f"{args.delay_ms:.0f} ms, {args.game}, "
        f"{args.rounds} rounds, {os.cpu_count()} cores"
    )
    print("load average (1, 5, 15 min): " + "; ".join(averages))
    print(
        f"{'load':>5} {'moves/s min/med/max':>24} {'linear':>7} {'CPU ms/move':>12} "
        f"{'CPU: worker':>11} {'bot':>5} {'redis':>5} {'api':>5} {'sum':>5} "
        f"{'waited':>6} {'MB/match':>9} {'twice':>6} {'queued s':>8} {'start med/last s':>16} {'peak':>5} "
        f"{'split':>9}"
    )
    for load in loads:
        runs = results[load]
        moves = [r["moves_s"] for r in runs]
        linear = statistics.median(moves) / (base * load / base_load)
        shares = {name: statistics.median(r[f"{name}_cpu"] for r in runs) for name in pids}
        print(
            f"{load:>5} {rig.spread(moves):>24} {linear:>7.2f} "
            f"{statistics.median(r['cpu_ms_per_move'] for r in runs):>12.3f} "
            f"{shares['worker']:>11.2f} {shares['bot']:>5.2f} {shares['redis']:>5.2f} {shares['api']:>5.2f} "
            f"{sum(shares.values()):>5.2f} {statistics.median(r['waited'] for r in runs):>6.2f} "
            f"{statistics.median(r['mb_per_match'] for r in runs):>9.3f} {sum(r['twice'] for r in runs):>6} "
            f"{statistics.median(r['queued_s'] for r in runs):>8.1f} "
            f"{statistics.median(r['start_median_s'] for r in runs):>7.1f} / "
            f"{statistics.median(r['start_last_s'] for r in runs):<6.1f} "
            f"{statistics.median(r['peak'] for r in runs):>5.0f} "
            f"{'/'.join(str(sum(r['split'][i] for r in runs)) for i in range(len(nodes))):>9}"
        )
    print(
        "goals: linear within 20% (0.80) until CPU is the limit; "
        f"CPU at most {CPU_PER_MOVE_GOAL_MS} ms a move; "
        f"at most {MEMORY_PER_MATCH_GOAL_MB} MB a match; no match played twice"
    )


if __name__ == "__main__":
    main()
