"""Catan against Catanatron in machine instructions: the work each engine does, apart from the CPU.

``bench_catan.py`` judges the 4x goal on the clock, and the same code has printed about 3.5 on one
machine and about 4.2 on another: the CPU (and the interpreter's build) runs the two engines'
instructions at different rates. This script counts the instructions each side executes for the
same random games with valgrind's callgrind, which does not depend on the CPU's speed, its caches
or other load (the count repeats for the same interpreter, code and seeds, to within 0.3% seen),
and sets them beside a short clock run on this machine, so that a ratio can be split into work done
and speed of doing it.

Each side plays in a child process under callgrind twice: a warm-up game alone, then the warm-up
and ``--games`` seeded games; the difference, over those games, is the count a game (the
interpreter's start, the imports and what the first game builds cancel out). Our side is
``bench_catan.referee_path`` (new state; per move the observation of the seat to move, its legal
moves, ``apply``), Catanatron's ``bench_catan.catanatron_runner``: the benchmark's own code. Games
vary in length, so the count a turn is printed beside the count a game. The children run with
``PYTHONHASHSEED=0`` (Catanatron's games from a seed otherwise change from one process to the
next). The clock part alternates blocks of the same games in this process, as ``bench_catan.py``
does.

    python bench/catan_instructions.py [--games 20] [--clock-rounds 10]

Needs valgrind (Debian's package) and Catanatron (``pip install -e ".[bench]"``). Under callgrind a
Catanatron game takes about two seconds, so the default run takes about a minute.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass

import bench_catan
from machine import describe

WARM_UP_SEED = 10_000
"""The game played first in every child, so that what a first game builds is not counted."""

SIDES = ("ours", "catanatron")

Runner = Callable[[range, bench_catan.Tally], None]


def play(side: str, games: int) -> bench_catan.Tally:
    """The warm-up game, then seeds ``0 .. games - 1``, on one side, the way ``bench_catan`` plays them."""
    run = bench_catan.referee_path if side == "ours" else bench_catan.catanatron_runner()
    if run is None:
        raise SystemExit("catanatron is not installed: pip install -e '.[bench]'")
    run(range(WARM_UP_SEED, WARM_UP_SEED + 1), bench_catan.Tally("warm-up"))
    tally = bench_catan.Tally(side)
    run(range(games), tally)
    return tally


@dataclass
class Count:
    """One side's instructions for its games, and the games' length."""

    instructions: int
    games: int
    turns: int


_COLLECTED = re.compile(r"Collected : (\d+)")


def counted(side: str, games: int, workdir: str) -> tuple[int, dict[str, int]]:
    """Instructions callgrind counted for a child playing ``games`` games after the warm-up, and
    what the child reported of them."""
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={os.path.join(workdir, f'{side}-{games}.out')}",
        sys.executable,
        os.path.abspath(__file__),
        "--child",
        side,
        "--games",
        str(games),
    ]
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    found = _COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        failure = f"the {side} child under callgrind failed ({done.returncode}):\n{done.stderr[-2000:]}"
        raise SystemExit(failure)
    return int(found.group(1)), json.loads(done.stdout.strip().splitlines()[-1])


def count(side: str, games: int) -> Count:
    with tempfile.TemporaryDirectory() as workdir:
        alone, _ = counted(side, 0, workdir)
        total, played = counted(side, games, workdir)
    return Count(total - alone, played["games"], played["turns"])


def clock(rounds: int, games: int, theirs: Runner) -> dict[str, bench_catan.Tally]:
    """Both sides' games on the clock in this process, in alternating blocks of the same seeds."""
    tallies = {side: bench_catan.Tally(side) for side in SIDES}
    runners = {"ours": bench_catan.referee_path, "catanatron": theirs}
    for _ in range(rounds):
        for side in SIDES:
            runners[side](range(games), tallies[side])
    return tallies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeded games a side, after a warm-up game")
    parser.add_argument("--clock-rounds", type=int, default=10, help="alternating clock rounds")
    parser.add_argument("--child", choices=SIDES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # (0 games: the warm-up alone)
        tally = play(args.child, args.games)
        print(json.dumps({"games": tally.games, "turns": tally.turns}))
        return
    if args.games < 1:
        parser.error("--games must be at least 1")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    theirs = bench_catan.catanatron_runner()
    if theirs is None:
        raise SystemExit("catanatron is not installed: pip install -e '.[bench]'")

    print(f"random play, {bench_catan.SEATS} seats, variant {bench_catan.VARIANT}, trades between seats off")
    print(f"engine: {bench_catan.engine_source()}, version {bench_catan.GAME.version}")
    print(describe())
    counts = {side: count(side, args.games) for side in SIDES}
    print(f"\ninstructions (callgrind), seeds 0 to {args.games - 1} after a warm-up game, PYTHONHASHSEED=0:")
    for side, found in counts.items():
        print(
            f"  {side:<11} {found.instructions / found.games / 1e6:8.1f} M a game"
            f" {found.instructions / found.turns / 1e3:8.1f} k a turn"
            f"   ({found.turns / found.games:.1f} turns a game)"
        )
    mine, rival = counts["ours"], counts["catanatron"]
    per_game = (rival.instructions / rival.games) / (mine.instructions / mine.games)
    per_turn = (rival.instructions / rival.turns) / (mine.instructions / mine.turns)
    print(f"  catanatron / ours: {per_game:.2f}x a game, {per_turn:.2f}x a turn")

    tallies = clock(args.clock_rounds, args.games, theirs)
    rates = {side: bench_catan.turn_rate(tally) for side, tally in tallies.items()}
    print(f"\nclock here, the same seeds, {args.clock_rounds} alternating rounds:")
    for side, found in counts.items():
        per_second = rates[side] * found.instructions / found.turns
        print(f"  {side:<11} {rates[side]:8.0f} turns/s   {per_second / 1e9:5.2f} G instructions/s")
    speed = rates["ours"] / rates["catanatron"]
    print(
        f"  ours / catanatron: {speed:.2f}x in turns per second; the instructions alone would give"
        f" {per_turn:.2f}x, so this CPU runs Catanatron's instructions"
        f" {per_turn / speed:.2f}x as fast as ours"
    )


if __name__ == "__main__":
    main()
