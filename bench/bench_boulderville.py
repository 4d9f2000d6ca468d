"""Boulderville's engine under random play: games and moves per second, against a bare driver loop.

Random playouts of the standard four-seat game, timing ``legal_moves`` + ``apply`` (what a playout
needs), and apart from them ``observation`` (which the match runner adds on every move) and a state
JSON round trip (``to_json`` then ``load_state``, as the replay checker and the conformance test do).
It also prints how long random games last and how far the eruption counter climbs.

The baseline is measured in the same run: after every game, the same driver loop runs for as many
moves against a stand-in state that lists a fixed 30 small placement-like moves and applies
nothing, the least any engine behind this interface can cost a move. ``x baseline`` is how many of
those bare moves one Boulderville move costs, a figure that carries across machines better than
raw speed.

    python bench/bench_boulderville.py [--games 100]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

import playout

from referee.boulderville.edition import EDITION
from referee.registry import get_game
from referee.rng import Rng

GAME_ID = "boulderville"
BARE_MOVES = [{"type": "place", "space": f"space_{i}"} for i in range(30)]


@dataclass
class Tally(playout.Tally):
    round_trip_s: float = 0.0
    round_trips: int = 0
    legal_counts: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    final_counter: list[int] = field(default_factory=list)
    eruption_turn: list[int] = field(default_factory=list)
    eruption_counter: list[int] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)


def bare_moves() -> list[dict]:
    """What the stand-in state lists each time: the same 30 moves, fresh copies."""
    return [dict(move) for move in BARE_MOVES]


def play(tally: Tally, seed: int) -> None:
    game = get_game(GAME_ID)
    state = game.start(game.default_variant, seats=4, seed=seed)
    erupted = False

    def each_move(state, legal: list[dict]) -> None:
        nonlocal erupted
        tally.legal_counts.append(len(legal))
        if not erupted and EDITION.eruption_card in state.table.revealed:
            erupted = True
            tally.eruption_turn.append(state.table.turn)
            tally.eruption_counter.append(state.table.eruption)
        if tally.moves % 25 == 0:
            started = time.perf_counter()
            game.load_state(state.to_json())
            tally.round_trip_s += time.perf_counter() - started
            tally.round_trips += 1

    outcome = playout.timed_playout(state, Rng(seed + 99_991), tally, bare_moves, each_move)
    tally.turns.append(state.table.turn)
    tally.final_counter.append(state.table.eruption)
    tally.endings[f"{outcome.reason}/{'won' if outcome.team_won else 'lost'}"] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    tally = Tally()
    for seed in range(args.games):
        play(tally, seed)
    us = tally.per_move_us
    print(f"{GAME_ID}: random play, {tally.games} games of the standard variant (4 seats)")
    print(f"  games/s            {tally.games / tally.play_s:10.1f}")
    print(f"  moves/s            {tally.moves / tally.play_s:10.0f}")
    print(f"  moves/game         {tally.moves / tally.games:10.1f}")
    print(f"  legal moves/ask    {statistics.fmean(tally.legal_counts):10.1f}")
    print(f"  legal_moves us     {us(tally.legal_s):10.1f}")
    print(f"  apply us           {us(tally.apply_s):10.1f}")
    print(f"  observation us     {us(tally.observe_s):10.1f}")
    print(f"  JSON round trip us {tally.round_trip_s * 1e6 / max(1, tally.round_trips):10.1f}")
    print(f"  bare loop us       {us(tally.baseline_s):10.2f}")
    print(f"  x baseline         {tally.x_baseline:10.1f}   (legal_moves + apply) / bare loop")
    mean = statistics.fmean
    print(f"  turns/game         {mean(tally.turns):10.1f}   (longest {max(tally.turns)})")
    then = mean(tally.eruption_counter)
    print(f"  Eruption card turn {mean(tally.eruption_turn):10.1f}   (counter then {then:.1f})")
    counters = tally.final_counter
    print(f"  final counter      {mean(counters):10.1f}   ({min(counters)} to {max(counters)})")
    print(
        "  endings            "
        + ", ".join(f"{name} {count}" for name, count in sorted(tally.endings.items()))
    )


if __name__ == "__main__":
    main()
