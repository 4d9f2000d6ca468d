"""Board frames of a long replay: stepping with :class:`arena.boards.Positions` against re-playing
each frame from the start, and the cost of drawing a frame.

A random 4-seat Catan game (about a thousand moves and more) is the longest replay the platform
keeps; a spectator steps through it frame by frame. The baseline, measured in the same run, is the
simple way: start the game from the replay's seed and apply the first n moves for frame n. Runs of
the two are interleaved and repeated; each line prints min / median / max over the runs.

    python bench/bench_boards.py [--runs 3] [--frames 200] [--seed 11]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from arena.boards import Positions, render_svg, render_text
from bots.base import RandomBot
from referee.match import MatchSpec
from referee.registry import get_game
from referee.runner import Player, run_match
from referee.transport.agents import LocalAgent


def random_replay(game_id: str, variant: str, seats: int, seed: int) -> dict[str, Any]:
    spec = MatchSpec.build(game=game_id, variant=variant, bots=[f"r{s}" for s in range(seats)], seed=seed)
    players = [Player(f"r{s}", LocalAgent(RandomBot(seed * 10 + s))) for s in range(seats)]
    document: dict[str, Any] = run_match("bench", spec, players).to_json()
    return document


def from_start(document: dict[str, Any], n: int) -> Any:
    state = get_game(document["game"]).start(
        document["variant"],
        seats=len(document["seats"]),
        seed=document["seed"],
        options=document["options"],
        setup=document["setup"],
    )
    for record in document["moves"][:n]:
        state.apply(record["move"])
    return state


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def spread(values: list[float], scale: float, unit: str) -> str:
    return (
        f"min {min(values) * scale:8.3f} {unit}  median {statistics.median(values) * scale:8.3f} {unit}  "
        f"max {max(values) * scale:8.3f} {unit}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--frames", type=int, default=200, help="consecutive frames stepped per run")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    document = random_replay("catan-volcano", "gold", 4, args.seed)
    total = len(document["moves"])
    start = total // 2
    frames = range(start, min(total, start + args.frames) + 1)
    print(
        f"catan-volcano / gold, 4 random seats, seed {args.seed}: {total} moves; "
        f"frames {frames.start} to {frames.stop - 1}, one after the other, {args.runs} runs"
    )

    stepped: list[float] = []
    replayed: list[float] = []
    for _ in range(args.runs):
        stepped.append(timed(lambda: _step(document, frames)) / len(frames))
        replayed.append(timed(lambda: [from_start(document, n) for n in frames]) / len(frames))
    print(f"re-played from the start (baseline) per frame  {spread(replayed, 1000, 'ms')}")
    print(f"Positions, stepping forward, per frame         {spread(stepped, 1000, 'ms')}")
    ratios = [r / s for r, s in zip(replayed, stepped, strict=True)]
    print(
        f"baseline / Positions                           min {min(ratios):6.1f}x  "
        f"median {statistics.median(ratios):6.1f}x  max {max(ratios):6.1f}x"
    )

    state = from_start(document, start)
    render_svg("catan-volcano", state), render_text("catan-volcano", state)  # imports and caches warm
    for kind, draw in (("svg", render_svg), ("text", render_text)):
        costs = [timed(partial(draw, "catan-volcano", state)) for _ in range(5 * args.runs)]
        print(f"drawing one frame as {kind:<4}                       {spread(costs, 1000, 'ms')}")


def _step(document: dict[str, Any], frames: range) -> None:
    """What a page showing frames one after the other does: one walker, each frame in turn (the walk
    to the first frame included)."""
    positions = Positions(document)
    for n in frames:
        positions.after(n)


if __name__ == "__main__":
    main()
