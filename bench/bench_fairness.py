"""Whether a saturated worker charges bots for its own lag: think time recorded against the bot's own.

One referee process on gevent (``bench/fairness_referee.py``) keeps ``--loads`` two-seat Volcano
matches in flight at once against one bot in its own process (``bench/stamped_bot.py``) that
answers every move after ``--delay-ms`` and reports its own think time, timed from the kernel's
arrival time of the request to its answer's write. The referee burns ``--burn-us`` of CPU before
every move (a worker's work beside the exchange and the engine), so that a move costs it about
0.3 ms of CPU, as in a worker: at these loads it wants more than the one core its event loop can
have, and answers wait in socket buffers until the loop comes round to them.

Each load is played twice, in separate referee processes: with the kernel's arrival times (as
the referee now times a move), then with them off (``read run``: timed and judged by the read, as
before; ``--no-read-run`` leaves it out). For every move answered in the measured ``--seconds``
(after a 3 s warm-up) it prints, per load and timing:

- p50 / p99 / max of the think time the replay records minus the bot's own, in ms;
- ``over``: answers recorded with more think time than ``--move-ms`` (taken without a fault, the
  excess charged to the seat's bank), and ``timeouts``: the timeout faults counted;
- ``read, same``: the arrival run's exchanges timed as before, ``perf_counter`` around the exchange
  (ending when the answer was read); which of them the old referee would have cut is not known
  from them (``-``);
- moves/s over the window against the ideal (every match's move taking the bot's delay), the
  referee's CPU a move and its CPU use (1.00: a core), the bot's, and the bot's own think p50 / p99.

Matches in flight need two sockets a seat (one each side): the open-file limit is raised to its
hard limit, and loads above what it allows are lowered.

    python bench/bench_fairness.py [--loads 500,1000] [--seconds 15] [--delay-ms 100] [--move-ms 150]
                                   [--burn-us 150] [--no-read-run] [--short]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import rig  # noqa: E402
from bench.machine import load as load_average  # noqa: E402

GOAL_P99_MS = 5.0


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextlib.contextmanager
def stamped_bot(delay_ms: float) -> Iterator[rig.ServerProcess]:
    """The self-timing bot in its own process; yields its URL (``.pid``: its process)."""
    port = rig.free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.stamped_bot", str(port), str(delay_ms), rig.SECRET],
        cwd=rig.ROOT,
        stdout=subprocess.DEVNULL,
    )
    url = rig.ServerProcess(f"http://127.0.0.1:{port}/")
    url.pid = process.pid
    try:
        rig.wait_until(lambda: process.poll() is not None or listening(port), 20, "the bot to start")
        if process.poll() is not None:
            raise SystemExit("the bot exited")
        yield url
    finally:
        process.terminate()
        process.wait(15)


def raise_open_files() -> int:
    """Raise this process's (and its children's) open-file limit to the hard one; returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard if hard != resource.RLIM_INFINITY else 1 << 20


def play(url: rig.ServerProcess, load: int, args: argparse.Namespace, timing: str) -> dict:
    command = [
        sys.executable,
        "-m",
        "bench.fairness_referee",
        url,
        rig.SECRET,
        f"--load={load}",
        f"--seconds={args.seconds}",
        f"--move-ms={args.move_ms}",
        f"--burn-us={args.burn_us}",
        f"--timing={timing}",
        f"--turn-limit={args.turn_limit}",
    ]
    bot_cpu = rig.cpu_seconds(url.pid)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=rig.ROOT, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"the referee failed: {done.stderr[-3000:]}")
    figures: dict = json.loads(done.stdout.strip().splitlines()[-1])
    # the bot's CPU over the whole run (warm-up and tail included), a share of a core
    figures["bot_cpu_share"] = (rig.cpu_seconds(url.pid) - bot_cpu) / (time.perf_counter() - started)
    return figures


def row(label: str, load: int, figures: dict, key: str, args: argparse.Namespace) -> str:
    part = figures[key]
    ideal = load / (args.delay_ms / 1000.0)
    timeouts = "-" if part["timeouts"] is None else str(part["timeouts"])
    return (
        f"{load:>5} {label:<12} {part['p50']:>8.2f} {part['p99']:>8.2f} {part['max']:>8.2f} "
        f"{part['over']:>7} {timeouts:>8} {figures['moves']:>7} {figures['moves_s']:>8.0f} {ideal:>6.0f} "
        f"{figures['moves_s'] / ideal:>6.2f} {figures['cpu_ms_per_move']:>7.3f} {figures['cpu_share']:>5.2f} "
        f"{figures['bot_cpu_share']:>5.2f} {figures['own_p50']:>7.1f} / {figures['own_p99']:<6.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", default="500,1000", help="matches in flight, comma-separated")
    parser.add_argument(
        "--seconds", type=float, default=15.0, help="measured seconds a run, after a 3 s warm-up (default 15)"
    )
    parser.add_argument("--delay-ms", type=float, default=100.0, help="the bot's answer time (default 100)")
    parser.add_argument("--move-ms", type=int, default=150, help="the matches' move_ms (default 150)")
    parser.add_argument(
        "--burn-us", type=float, default=150.0, help="referee CPU burnt a move beside its own (default 150)"
    )
    parser.add_argument("--turn-limit", type=int, default=20, help="volcano's turn_limit option (default 20)")
    parser.add_argument("--no-read-run", action="store_true", help="play each load with arrival times only")
    parser.add_argument("--short", action="store_true", help="6 measured seconds a run, no read run")
    args = parser.parse_args()
    if args.short:
        args.seconds, args.no_read_run = 6.0, True
    limit = raise_open_files()
    # each match holds two sockets in the referee and two in the bot; keep a margin for the rest
    most = max(1, (limit - 200) // 2)
    asked = [int(text) for text in args.loads.split(",")]
    loads = [min(load, most) for load in asked]
    if loads != asked:
        print(f"open-file limit {limit}: loads lowered to {loads}")
    averages = [f"start {load_average()}"]
    results: list[tuple[str, int, dict, str]] = []
    with stamped_bot(args.delay_ms) as url:
        for load in loads:
            figures = play(url, load, args, "arrival")
            results += [("arrival", load, figures, "recorded"), ("read, same", load, figures, "read")]
            if not args.no_read_run:
                results.append(("read run", load, play(url, load, args, "read"), "recorded"))
            averages.append(f"after {load} {load_average()}")
    print(
        f"one referee process (gevent), {args.delay_ms:.0f} ms bot, move_ms {args.move_ms}, "
        f"{args.burn_us:.0f} us burnt a move, {args.seconds:.0f} s measured a run, {os.cpu_count()} cores"
    )
    print("load average (1, 5, 15 min): " + "; ".join(averages))
    print(
        f"{'load':>5} {'timing':<12} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'over':>7} {'timeouts':>8} "
        f"{'moves':>7} {'moves/s':>8} {'ideal':>6} {'ratio':>6} {'CPU ms':>7} {'CPU':>5} {'bot':>5} "
        f"{'own p50 / p99':>16}"
    )
    for label, load, figures, key in results:
        print(row(label, load, figures, key, args))
    print(
        "p50/p99/max: recorded think minus the bot's own; goal: p99 within "
        f"{GOAL_P99_MS:.0f} ms, none over move_ms and no timeouts with arrival times, at every load"
    )
    runs = [
        f"{label} {load}: {figures['faults'] or 'none'}"
        for label, load, figures, key in results
        if key == "recorded"
    ]
    print("faults: " + "; ".join(runs))


if __name__ == "__main__":
    main()
