"""What a bot of protocol version 2 spends per Vulkan! move request to have its legal moves.

Matches are played by the referee (:func:`referee.runner.run_match`) with seats that answer the
first legal move, as ``bench/instant_bot.py`` does, and every move request is recorded as the bytes
a version 2 bot would get (the version 1 request less ``legal_moves``, saying ``"protocol": 2``).
Then every recorded request, in match order, is decoded and its legal moves rebuilt with
:func:`bots.sdk.legal_moves_from_request`, as the SDK does for a bot started with ``protocol=2``,
after a check that every rebuilt list is the one the referee sent.

The requests are taken in match order, one pass a round, each pass starting without the engine's
caches (layouts, path tables, flights' JSON), which the referee filled while recording: a bot
process has its own, filled by its own requests (the classic layout's once per process, a random
layout's once per match), and each pass pays for that as a bot would.

The baseline, timed in the same rounds and taking turns with it (which goes first alternates), is
what a version 1 bot spends to have the same lists: decoding the same requests as version 1 sends
them, ``legal_moves`` included. The script prints both, min / median / max over the rounds, and
the ratio of the medians.

    python bench/bench_v2_rebuild.py [--matches 20] [--rounds 5]    # CPU time, µs per request
    python bench/bench_v2_rebuild.py --case N --without-baseline --rounds 0 / --rounds 1
        for instruction counts: run both under ``valgrind --tool=callgrind``; the difference is
        one pass over the case's requests (``--rounds 0`` records them and checks the rebuilt
        lists, then stops)
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import rig  # noqa: E402
from bench.machine import load  # noqa: E402
from bots.sdk import legal_moves_from_request  # noqa: E402
from referee.match import MatchSpec  # noqa: E402
from referee.protocol import PROTOCOL_V2, decode, encode  # noqa: E402
from referee.rng import Rng  # noqa: E402
from referee.runner import Player, run_match  # noqa: E402
from referee.transport.agents import Reply  # noqa: E402
from referee.vulkan import hexes, paths  # noqa: E402

CASES = [
    ("2 seats, classic, first move", 2, "classic", False),
    ("4 seats, classic, first move", 4, "classic", False),
    ("2 seats, classic, random moves", 2, "classic", True),
    ("2 seats, random layout, random moves", 2, "random", True),
]
"""(label, seats, layout option, whether the seats pick a seeded random legal move, else the first)."""


Recorded = tuple[bytes, list[Any], bytes]
"""A move request as version 2 sends it, its legal moves, and the request as version 1 sends it."""


class _Recorder:
    """A seat that answers the first legal move (or, given an ``rng``, a random one), keeping each
    request it gets (:data:`Recorded`)."""

    def __init__(self, kept: list[Recorded], rng: Rng | None) -> None:
        self.kept = kept
        self.rng = rng

    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        legal = request["legal_moves"]
        v2 = {key: value for key, value in request.items() if key != "legal_moves"}
        v2["protocol"] = PROTOCOL_V2
        self.kept.append((encode(v2), decode(encode(legal)), encode(request)))
        move = legal[0] if self.rng is None else self.rng.choice(legal)
        return Reply.from_answer({"move": move}, 0.0)

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        return None


def recorded(seats: int, layout: str, random_moves: bool, matches: int) -> list[Recorded]:
    """The move requests of ``matches`` seeded competitive matches, in the order they were sent."""
    kept: list[Recorded] = []
    for seed in range(matches):
        spec = MatchSpec.build(
            game="vulkan",
            variant="competitive",
            bots=[f"b{seat}" for seat in range(seats)],
            seed=seed,
            options={"layout": layout},
        )
        agent = _Recorder(kept, Rng(seed) if random_moves else None)
        run_match(f"m-{seed}", spec, [Player(f"b{seat}", agent) for seat in range(seats)])
    return kept


def forget_engine_caches() -> None:
    """Empty what the engine keeps between positions, as in a process that has not played yet."""
    hexes._BY_CELLS.clear()
    hexes._layout.cache_clear()
    paths._table.cache_clear()
    paths._FLIGHTS.clear()


def one_pass(bodies: list[bytes]) -> float:
    """CPU seconds to decode every body and rebuild its legal moves, from empty engine caches."""
    forget_engine_caches()
    started = time.process_time()
    for body in bodies:
        legal_moves_from_request(decode(body))
    return time.process_time() - started


def baseline_pass(bodies: list[bytes]) -> float:
    """CPU seconds to decode every version 1 body, the legal moves read off it."""
    started = time.process_time()
    for body in bodies:
        decode(body)["legal_moves"]
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20, help="matches per case (default 20)")
    parser.add_argument("--rounds", type=int, default=5, help="passes over the requests (default 5)")
    parser.add_argument("--case", type=int, help="only this case (0-based index into CASES)")
    parser.add_argument(
        "--without-baseline",
        action="store_true",
        help="leave out the version 1 decoding (for instruction counts of the rebuild alone)",
    )
    args = parser.parse_args()
    print(f"load average {load()} at the start")
    cases = [
        (label, recorded(seats, layout, random_moves, args.matches))
        for number, (label, seats, layout, random_moves) in enumerate(CASES)
        if args.case in (None, number)
    ]
    # what the script holds (every recorded request and list) out of the garbage collector's
    # walks: decoding allocates thousands of objects a request, and a full collection over all of
    # this made some rounds several times slower than the others, which no bot process pays
    gc.collect()
    gc.freeze()
    for label, kept in cases:
        bodies = [body for body, _, _ in kept]
        forget_engine_caches()
        for body, legal, _ in kept:
            assert legal_moves_from_request(decode(body)) == legal, label
        if args.rounds == 0:
            print(f"{label}: {len(bodies)} requests recorded and checked")
            continue
        v1_bodies = [v1 for _, _, v1 in kept]
        rebuilt: list[float] = []
        decoded: list[float] = []
        baseline_first = False  # taking turns: the baseline goes first every other round
        for _ in range(args.rounds):
            if not args.without_baseline and baseline_first:
                decoded.append(1e6 * baseline_pass(v1_bodies) / len(bodies))
            rebuilt.append(1e6 * one_pass(bodies) / len(bodies))
            if not args.without_baseline and not baseline_first:
                decoded.append(1e6 * baseline_pass(v1_bodies) / len(bodies))
            baseline_first = not baseline_first
        print(f"{label}: {len(bodies)} requests, µs of CPU per request, min / median / max")
        print(f"  version 2, decode + rebuild             {rig.spread(rebuilt)}")
        if decoded:
            ratio = statistics.median(rebuilt) / statistics.median(decoded)
            print(f"  version 1, decode (baseline)            {rig.spread(decoded)}")
            print(f"  ratio of medians v2 / v1                {ratio:.2f}")
    print(f"load average {load()} at the end")


if __name__ == "__main__":
    main()
