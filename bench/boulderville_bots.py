"""Boulderville's balance: how often four heuristic bots save the town, against four random bots.

The edition is balanced when four ``heuristic`` bots win as a team clearly more often than four
``random`` bots and neither line wins always or never. For each line the script plays ``--games``
games (a match seed and bot seeds per game, so the figures are reproducible) and prints the team
win rate with its 95% Wilson interval, the mean rescue track, townspeople saved and lost, turns and
cashed renown per seat, how often each seat was pre-eminent alone in a won game, and where the
scientists are placed by their place in the turn's order (the lead first, the last to place last).

``--first-lead`` gives the first turn's lead to another seat (the rules' "youngest player" is seat
0), to see whether an edge of one seat follows the seat or its place in the order; ``--bots`` plays
only the named lines.

    python bench/boulderville_bots.py [--games 500] [--first-lead 0] [--bots heuristic random]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from winrate import wilson

from bots.base import BotFactory
from bots.boulderville import BOTS
from referee.boulderville import GAME
from referee.boulderville.edition import EDITION
from referee.game import Outcome
from referee.rng import derive_seed

PLACES = ("Town Hall", "science", "elsewhere")
"""Where a placed scientist stands: the Town Hall, a science location, or anywhere else."""


@dataclass
class Line:
    bot: str
    games: int = 0
    wins: int = 0
    rescue: list[int] = field(default_factory=list)
    saved: list[int] = field(default_factory=list)
    dead: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    renown: list[float] = field(default_factory=list)
    first_alone: Counter[int] = field(default_factory=Counter)
    placed: dict[int, Counter[str]] = field(default_factory=lambda: {n: Counter() for n in range(4)})
    """By place in the turn's order (0: the lead), how often a scientist went to each of PLACES."""
    seconds: float = 0.0


def kind_of_place(space: str) -> str:
    location = EDITION.board.location_of(space)
    if location == "town_hall":
        return PLACES[0]
    return PLACES[1] if location in EDITION.rules.science_locations else PLACES[2]


def play(seed: int, factory: BotFactory, first_lead: int, line: Line) -> Outcome:
    setup = None if first_lead == EDITION.rules.first_lead else {"lead": first_lead}
    state = GAME.start("standard", seats=4, seed=seed, setup=setup)
    bots = [factory(derive_seed(seed, "bench-bot", seat)) for seat in range(4)]
    while (seat := state.current_seat) is not None:
        request = {"seat": seat, "observation": state.observation(seat), "legal_moves": state.legal_moves()}
        move = bots[seat].choose(request)
        if move["type"] in ("place", "clear"):
            line.placed[(seat - state.table.lead) % 4][kind_of_place(move["space"])] += 1
        state.apply(move)
    outcome = state.outcome()
    assert outcome is not None
    return outcome


def run(bot: str, games: int, first_lead: int) -> Line:
    line = Line(bot)
    started = time.perf_counter()
    for index in range(games):
        outcome = play(derive_seed(2024, "boulderville-balance", index), BOTS[bot], first_lead, line)
        details = outcome.details
        line.games += 1
        line.wins += bool(outcome.team_won)
        line.rescue.append(details["rescue"])
        line.saved.append(len(details["saved"]))
        line.dead.append(len(details["dead"]))
        line.turns.append(details["turns"])
        line.renown.append(statistics.fmean(outcome.scores))
        if outcome.team_won and list(outcome.places).count(1) == 1:
            line.first_alone[outcome.places.index(1)] += 1
    line.seconds = time.perf_counter() - started
    return line


def report(line: Line) -> None:
    low, high = wilson(line.wins, line.games)
    mean = statistics.fmean
    print(
        f"4 x {line.bot:<9}  team wins {line.wins:4d}/{line.games} = {line.wins / line.games:6.1%}"
        f"  (95% {low:.1%}-{high:.1%})"
    )
    print(
        f"    rescue track {mean(line.rescue):+.1f}  saved {mean(line.saved):.1f}  lost {mean(line.dead):.1f}"
        f"  turns {mean(line.turns):.1f}  cashed renown per seat {mean(line.renown):.1f}"
    )
    seats = ", ".join(f"seat {seat}: {line.first_alone[seat]}" for seat in range(4))
    print(f"    pre-eminent alone in won games: {seats}   ({line.seconds:.1f} s)")
    for order, placed in line.placed.items():
        total = sum(placed.values()) or 1
        shares = "  ".join(f"{name} {placed[name] / total:4.0%}" for name in PLACES)
        print(f"    placing {ORDINALS[order]}: {shares}")


ORDINALS = ("1st (lead)", "2nd       ", "3rd       ", "4th (last)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--first-lead", type=int, default=EDITION.rules.first_lead, choices=range(4))
    parser.add_argument("--bots", nargs="+", default=["heuristic", "random"], choices=sorted(BOTS))
    args = parser.parse_args()
    if args.first_lead != EDITION.rules.first_lead:
        print(f"seat {args.first_lead} leads the first turn")
    lines = [run(bot, args.games, args.first_lead) for bot in args.bots]
    for line in lines:
        report(line)
    rates = {line.bot: line.wins / line.games for line in lines}
    if {"heuristic", "random"} <= set(rates):
        print(f"heuristic - random: {rates['heuristic'] - rates['random']:+.1%} of games")


if __name__ == "__main__":
    main()
