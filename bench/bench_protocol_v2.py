"""What protocol version 2 costs and saves per move request, game by game: the bytes sent, the
referee's CPU to encode and sign them, and the bot's CPU to have the legal moves.

Positions come from seeded random games (the game's default variant; Vulkan! with 2 and 4 seats).
For every position the version 1 request (with ``legal_moves``) and the version 2 request (without)
are built as the referee builds them. Timed, per request, in rounds that alternate (the figures are
min / median / max of the rounds' means; ratios are of the medians, measured in the same run):

- referee: ``encode`` then ``sign`` the request (what the worker spends on it besides the engine);
- bot, version 1: decode the body (what a bot written with the SDK does; orjson);
- bot, version 2: decode the body, then rebuild the legal moves from the observation with the
  game's engine (:func:`bots.sdk.legal_moves_from_request`), as the SDK does for a bot started with
  ``protocol=2``.

CPU time of this process (``time.process_time``), so that other work on the machine slows the
figures less than it would wall time; still print ``uptime`` beside them.

    python bench/bench_protocol_v2.py [--rounds 5] [--positions 200]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.machine import load  # noqa: E402
from bots.sdk import legal_moves_from_request  # noqa: E402
from referee.protocol import (  # noqa: E402
    PROTOCOL_V2,
    PROTOCOL_VERSION,
    decode,
    encode,
    request_base,
    sign,
    with_legal_moves,
)
from referee.registry import get_game  # noqa: E402
from referee.rng import Rng  # noqa: E402

CASES = [("vulkan", 2), ("vulkan", 4), ("volcano", 3), ("boulderville", 4), ("catan-volcano", 4)]
SECRET = "bench-secret-of-at-least-32-characters"


def positions(game_id: str, seats: int, wanted: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(version 1 request, version 2 request) for ``wanted`` positions of seeded random games."""
    game = get_game(game_id)
    variant = game.default_variant
    found: list[tuple[dict[str, Any], dict[str, Any]]] = []
    seed = 0
    while len(found) < wanted:
        state = game.start(variant, seats=seats, seed=seed)
        rng = Rng(seed)
        turn = 0
        while state.outcome() is None and len(found) < wanted:
            seat = state.current_seat
            assert seat is not None
            legal = state.legal_moves()
            pair = []
            for version in (PROTOCOL_VERSION, PROTOCOL_V2):
                request = with_legal_moves(
                    request_base(
                        kind="move",
                        match_id="m-bench",
                        game=game_id,
                        variant=variant,
                        seat=seat,
                        seats=seats,
                        turn=turn,
                        time={"move_ms": 2000, "bank_ms": 0},
                        observation=state.observation(seat),
                        protocol=version,
                    ),
                    legal,
                )
                pair.append(request)
            found.append((pair[0], pair[1]))
            state.apply(rng.choice(legal))
            turn += 1
        seed += 1
    return found


def per_item_us(work: Callable[[Any], object], items: list[Any]) -> float:
    started = time.process_time()
    for item in items:
        work(item)
    return 1e6 * (time.process_time() - started) / len(items)


def referee_side(request: dict[str, Any]) -> object:
    body = encode(request)
    return sign(SECRET, body)


def bot_v1(body: bytes) -> object:
    return decode(body)["legal_moves"]


def bot_v2(body: bytes) -> object:
    return legal_moves_from_request(decode(body))


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{ordered[0]:7.1f} {statistics.median(ordered):7.1f} {ordered[-1]:7.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--positions", type=int, default=200, help="positions per game (default 200)")
    args = parser.parse_args()
    print(f"load average {load()} at the start")
    for game_id, seats in CASES:
        pairs = positions(game_id, seats, args.positions)
        v1 = [request for request, _ in pairs]
        v2 = [request for _, request in pairs]
        bodies1 = [encode(request) for request in v1]
        bodies2 = [encode(request) for request in v2]
        for one, two in zip(bodies1, bodies2, strict=True):  # the rebuild is the list, before timing
            assert decode(one)["legal_moves"] == bot_v2(two), game_id
        # what the script holds (every position's requests, thousands of objects each) out of the
        # garbage collector's walks: decoding allocates enough to set off full collections over all
        # of it, which made the timed rounds several times slower than a bot process would be
        gc.collect()
        gc.freeze()
        timings: dict[str, list[float]] = {name: [] for name in ("ref1", "ref2", "bot1", "bot2")}
        for _ in range(args.rounds):
            timings["ref1"].append(per_item_us(referee_side, v1))
            timings["ref2"].append(per_item_us(referee_side, v2))
            timings["bot1"].append(per_item_us(bot_v1, bodies1))
            timings["bot2"].append(per_item_us(bot_v2, bodies2))
        size1 = statistics.mean(len(body) for body in bodies1) / 1000
        size2 = statistics.mean(len(body) for body in bodies2) / 1000
        median = {name: statistics.median(values) for name, values in timings.items()}
        print(
            f"{game_id}, {seats} seats: {len(pairs)} positions, request {size1:.1f} kB (v1) / "
            f"{size2:.1f} kB (v2) on average"
        )
        print("  µs per request (CPU)                        min  median     max")
        print(f"  referee encode+sign, v1              {spread(timings['ref1'])}")
        print(f"  referee encode+sign, v2              {spread(timings['ref2'])}")
        print(f"  bot decode, v1                       {spread(timings['bot1'])}")
        print(f"  bot decode + engine rebuild, v2      {spread(timings['bot2'])}")
        print(
            f"  ratios of medians v2/v1: referee {median['ref2'] / median['ref1']:.2f}, "
            f"bot {median['bot2'] / median['bot1']:.2f}"
        )
    print(f"load average {load()} at the end")


if __name__ == "__main__":
    main()
