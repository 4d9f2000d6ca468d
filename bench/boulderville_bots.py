"""Boulderville's bots: how often four of a kind save the town, and who leads when two kinds mix.

Lines of four of one bot (``--bots``): the edition is balanced when four ``heuristic`` bots win as a
team clearly more often than four ``random`` bots and neither line wins always or never; the
``search`` bot plans, and should save the town more often than the heuristic. For each line the
script plays ``--games`` games (a match seed and bot seeds per game, so the figures are
reproducible) and prints the team win rate with its 95% Wilson interval, the mean rescue track,
townspeople saved and lost, turns and cashed renown per seat, how often each seat was pre-eminent
alone in a won game, and where the scientists are placed by their place in the turn's order (the
lead first, the last to place last).

Mixed games (``--mixed search heuristic``): two seats of each bot, alternating (seats 0 and 2 the
first bot in even games, seats 1 and 3 in odd ones, so neither gains from the seats). It prints the
team win rate, each bot's cashed renown per seat and how often it was pre-eminent alone in a won
game, with the Wilson interval of its share of those games.

The search bot is given a fixed number of guesses per decision (``--guesses``, default 6) rather
than a time budget, so its play is the same on any machine; ``--first-lead`` gives the first turn's
lead to another seat (the rules' "youngest player" is seat 0).

    python bench/boulderville_bots.py [--games 500] [--first-lead 0] [--bots heuristic random]
    python bench/boulderville_bots.py --games 200 --bots search heuristic --mixed search heuristic
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from arena.cli.tally import wilson_interval as wilson
from bots.base import BotFactory
from bots.boulderville import BOTS
from bots.boulderville_search import SearchBot
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


TIME = {"move_ms": 2000, "bank_ms": 0}
"""The protocol's default time control, sent with every request as a match would."""


def play(seed: int, factories: list[BotFactory], first_lead: int, line: Line) -> Outcome:
    setup = None if first_lead == EDITION.rules.first_lead else {"lead": first_lead}
    state = GAME.start("standard", seats=4, seed=seed, setup=setup)
    bots = [factory(derive_seed(seed, "bench-bot", seat)) for seat, factory in enumerate(factories)]
    while (seat := state.current_seat) is not None:
        request = {
            "seat": seat,
            "observation": state.observation(seat),
            "legal_moves": state.legal_moves(),
            "time": TIME,
        }
        move = bots[seat].choose(request)
        if move["type"] in ("place", "clear"):
            line.placed[(seat - state.table.lead) % 4][kind_of_place(move["space"])] += 1
        state.apply(move)
    outcome = state.outcome()
    assert outcome is not None
    return outcome


def run(bot: str, factory: BotFactory, games: int, first_lead: int) -> Line:
    line = Line(bot)
    started = time.perf_counter()
    for index in range(games):
        outcome = play(derive_seed(2024, "boulderville-balance", index), [factory] * 4, first_lead, line)
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


@dataclass
class Mixed:
    """Games of two bots, two seats each."""

    bots: tuple[str, str]
    games: int = 0
    wins: int = 0
    renown: dict[str, list[float]] = field(default_factory=dict)
    first_alone: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0


def run_mixed(bots: tuple[str, str], factories: dict[str, BotFactory], games: int, first_lead: int) -> Mixed:
    mixed = Mixed(bots, renown={bot: [] for bot in bots})
    started = time.perf_counter()
    for index in range(games):
        order = [bots[(seat + index) % 2] for seat in range(4)]
        seed = derive_seed(2024, "boulderville-mixed", index)
        outcome = play(seed, [factories[bot] for bot in order], first_lead, Line("mixed"))
        mixed.games += 1
        mixed.wins += bool(outcome.team_won)
        for seat, bot in enumerate(order):
            mixed.renown[bot].append(outcome.scores[seat])
        if outcome.team_won and list(outcome.places).count(1) == 1:
            mixed.first_alone[order[outcome.places.index(1)]] += 1
    mixed.seconds = time.perf_counter() - started
    return mixed


def report_mixed(mixed: Mixed) -> None:
    low, high = wilson(mixed.wins, mixed.games)
    a, b = mixed.bots
    print(
        f"2 x {a} + 2 x {b}  team wins {mixed.wins:4d}/{mixed.games} = {mixed.wins / mixed.games:6.1%}"
        f"  (95% {low:.1%}-{high:.1%})   ({mixed.seconds:.1f} s)"
    )
    led = sum(mixed.first_alone.values())
    for bot in mixed.bots:
        renown = statistics.fmean(mixed.renown[bot])
        share = ""
        if led:
            low, high = wilson(mixed.first_alone[bot], led)
            share = f" = {mixed.first_alone[bot] / led:.1%} (95% {low:.1%}-{high:.1%})"
        print(
            f"    {bot:<9} cashed renown per seat {renown:5.2f}"
            f"   pre-eminent alone in {mixed.first_alone[bot]:3d} of {led} won games with one leader{share}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--first-lead", type=int, default=EDITION.rules.first_lead, choices=range(4))
    parser.add_argument("--bots", nargs="*", default=["heuristic", "random"], choices=sorted(BOTS))
    parser.add_argument("--mixed", nargs=2, metavar=("BOT", "OTHER"), choices=sorted(BOTS))
    parser.add_argument("--guesses", type=int, default=6, help="the search bot's guesses per decision")
    args = parser.parse_args()
    if args.guesses < 1:
        parser.error("--guesses must be at least 1")
    factories = dict(BOTS)
    factories["search"] = lambda seed: SearchBot(seed, guesses=args.guesses)
    if "search" in args.bots or (args.mixed and "search" in args.mixed):
        print(f"search: {args.guesses} guesses per decision")
    if args.first_lead != EDITION.rules.first_lead:
        print(f"seat {args.first_lead} leads the first turn")
    lines = [run(bot, factories[bot], args.games, args.first_lead) for bot in args.bots]
    for line in lines:
        report(line)
    rates = {line.bot: line.wins / line.games for line in lines}
    for better, worse in (("heuristic", "random"), ("search", "heuristic")):
        if {better, worse} <= set(rates):
            print(f"{better} - {worse}: {rates[better] - rates[worse]:+.1%} of games")
    if args.mixed:
        report_mixed(run_mixed(tuple(args.mixed), factories, args.games, args.first_lead))


if __name__ == "__main__":
    main()
