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

from referee.boulderville.edition import EDITION
from referee.registry import get_game
from referee.rng import Rng

GAME_ID = "boulderville"
BARE_MOVES = [{"type": "place", "space": f"space_{i}"} for i in range(30)]


@dataclass
class Tally:
    games: int = 0
    moves: int = 0
    legal_s: float = 0.0
    apply_s: float = 0.0
    observe_s: float = 0.0
    round_trip_s: float = 0.0
    round_trips: int = 0
    baseline_s: float = 0.0
    legal_counts: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    final_counter: list[int] = field(default_factory=list)
    eruption_turn: list[int] = field(default_factory=list)
    eruption_counter: list[int] = field(default_factory=list)
    endings: Counter[str] = field(default_factory=Counter)

    @property
    def play_s(self) -> float:
        return self.legal_s + self.apply_s


class BareState:
    """Lists the same 30 moves every time and applies nothing: the driver loop's own cost."""

    def legal_moves(self) -> list[dict]:
        return [dict(move) for move in BARE_MOVES]

    def apply(self, move: dict) -> None:
        if "type" not in move:
            raise ValueError(move)


def bare_loop(moves: int) -> float:
    state, chooser = BareState(), Rng(1)
    started = time.perf_counter()
    for _ in range(moves):
        state.apply(chooser.choice(state.legal_moves()))
    return time.perf_counter() - started


def play(tally: Tally, seed: int) -> None:
    game = get_game(GAME_ID)
    state = game.new_state(game.default_variant, seats=4, seed=seed)
    chooser = Rng(seed + 99_991)
    moves_before = tally.moves
    erupted = False
    while state.outcome() is None:
        started = time.perf_counter()
        legal = state.legal_moves()
        middle = time.perf_counter()
        state.apply(chooser.choice(legal))
        ended = time.perf_counter()
        if state.current_seat is not None:
            state.observation(state.current_seat)
        observed = time.perf_counter()
        tally.legal_s += middle - started
        tally.apply_s += ended - middle
        tally.observe_s += observed - ended
        tally.legal_counts.append(len(legal))
        if not erupted and EDITION.eruption_card in state.table.revealed:
            erupted = True
            tally.eruption_turn.append(state.table.turn)
            tally.eruption_counter.append(state.table.eruption)
        tally.moves += 1
        if tally.moves % 25 == 0:
            game.load_state(state.to_json())
            tally.round_trip_s += time.perf_counter() - observed
            tally.round_trips += 1
    tally.games += 1
    tally.turns.append(state.table.turn)
    tally.final_counter.append(state.table.eruption)
    outcome = state.outcome()
    assert outcome is not None
    tally.endings[f"{outcome.reason}/{'won' if outcome.team_won else 'lost'}"] += 1
    tally.baseline_s += bare_loop(tally.moves - moves_before)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    tally = Tally()
    for seed in range(args.games):
        play(tally, seed)
    per_move = 1e6 / tally.moves
    print(f"{GAME_ID}: random play, {tally.games} games of the standard variant (4 seats)")
    print(f"  games/s            {tally.games / tally.play_s:10.1f}")
    print(f"  moves/s            {tally.moves / tally.play_s:10.0f}")
    print(f"  moves/game         {tally.moves / tally.games:10.1f}")
    print(f"  legal moves/ask    {statistics.fmean(tally.legal_counts):10.1f}")
    print(f"  legal_moves us     {tally.legal_s * per_move:10.1f}")
    print(f"  apply us           {tally.apply_s * per_move:10.1f}")
    print(f"  observation us     {tally.observe_s * per_move:10.1f}")
    print(f"  JSON round trip us {tally.round_trip_s * 1e6 / max(1, tally.round_trips):10.1f}")
    print(f"  bare loop us       {tally.baseline_s * per_move:10.2f}")
    print(f"  x baseline         {tally.play_s / tally.baseline_s:10.1f}   (legal_moves + apply) / bare loop")
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
