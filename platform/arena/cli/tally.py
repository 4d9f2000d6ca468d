"""``arena play``'s results over many games: wins, draws and losses per bot, overall and per seat.

Pure counting, no play and no printing, so that every rule is a row of a table test:

- A seat **wins** when it is first alone, **draws** when it shares first place (a match cut at its
  move limit puts every seat first: a draw for all), and **loses** otherwise: the words of the
  ladders and tournament standings (:func:`arena.ladders.scoring.seat_verdicts`). In a team game
  the team's result is counted apart, as **team wins** (games the team won); a win is then a first
  place alone in a game the team won (the game's own ranking, as the most renowned player), and a
  game the team lost is a loss for every seat.
- A bot's **score** counts a win 1, a draw 1/2 and a loss 0 (as chess does); its win rate is its
  score over its games, with the 95% Wilson score interval of that rate.
- Seats are **rotated** across games (:func:`rotation`): game ``g`` seats the bots given in the
  order ``g, g+1, ...`` (modulo their number), so that over a multiple of that number of games each
  bot held each seat equally often, and a seat's advantage is shared out rather than given to
  whoever was named first.

Bots are counted by their place in the list given (an *entry*), not by name: ``random,random``
is two entries.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from referee.protocol import Fault
from referee.replay import FaultRecord, Replay

DRAW_SCORE = 0.5
"""What a draw counts in a bot's score and win rate (a win counts 1, a loss 0)."""


class Outcome(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


def seat_outcome(places: Sequence[int], team_won: bool | None, seat: int) -> Outcome:
    """How the game went for ``seat``: first alone a win, first shared a draw, else a loss; in a
    team game (``team_won`` set) the team lost, a loss for every seat.

    >>> seat_outcome([1, 1], None, 0), seat_outcome([1, 2], None, 1), seat_outcome([1, 1], False, 0)
    (<Outcome.DRAW: 'draw'>, <Outcome.LOSS: 'loss'>, <Outcome.LOSS: 'loss'>)
    """
    if team_won is False or places[seat] != 1:
        return Outcome.LOSS
    return Outcome.DRAW if sum(1 for place in places if place == 1) > 1 else Outcome.WIN


def rotation(game: int, entries: int, rotate: bool = True) -> tuple[int, ...]:
    """The entry (index in the bots as given) that holds each seat in game ``game`` (from 0).

    >>> rotation(0, 3), rotation(1, 3), rotation(4, 3), rotation(4, 3, rotate=False)
    ((0, 1, 2), (1, 2, 0), (1, 2, 0), (0, 1, 2))
    """
    shift = game % entries if rotate else 0
    return tuple((seat + shift) % entries for seat in range(entries))


def wilson_interval(successes: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``successes`` in ``games`` (95% for z = 1.96). Unlike
    the normal approximation it stays inside [0, 1] and is sound at a few games and at 0 or all
    successes. ``successes`` may be fractional (draws counted as :data:`DRAW_SCORE`)."""
    if games <= 0:
        return 0.0, 1.0
    rate = successes / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (rate + z2 / (2 * games)) / denominator
    half = z * math.sqrt(max(0.0, rate * (1 - rate)) / games + z2 / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Record:
    """Wins, draws and losses, and the game scores summed, of one bot (overall or in one seat)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    score_total: float = 0.0
    forfeits: int = 0
    team_games: int = 0
    team_wins: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """Wins, plus draws at :data:`DRAW_SCORE` each."""
        return self.wins + DRAW_SCORE * self.draws

    @property
    def win_rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.points, self.games)

    @property
    def mean_score(self) -> float:
        return self.score_total / self.games if self.games else 0.0

    def add(self, outcome: Outcome, score: float, forfeited: bool, team_won: bool | None = None) -> None:
        if team_won is not None:
            self.team_games += 1
            self.team_wins += team_won
        if outcome is Outcome.WIN:
            self.wins += 1
        elif outcome is Outcome.DRAW:
            self.draws += 1
        else:
            self.losses += 1
        self.score_total += score
        self.forfeits += forfeited


@dataclass(frozen=True)
class FirstFault:
    """A bot's earliest fault: the game (from 0) and its seed, the turn, and what the replay kept."""

    game: int
    seed: int
    seat: int
    turn: int
    fault: FaultRecord


@dataclass
class EntryTally:
    """One bot as given on the command line: its record overall and in each seat it held, its
    faults by kind, and its first fault."""

    entry: int
    name: str
    overall: Record = field(default_factory=Record)
    by_seat: dict[int, Record] = field(default_factory=dict)
    fault_kinds: Counter[str] = field(default_factory=Counter)
    first_fault: FirstFault | None = None


def tally(names: Sequence[str], replays: Sequence[Replay], rotate: bool = True) -> list[EntryTally]:
    """Each entry's record over ``replays``, game ``g`` seated by :func:`rotation`, in entry order."""
    tallies = [EntryTally(entry, name) for entry, name in enumerate(names)]
    for game, replay in enumerate(replays):
        result = replay.result
        holders = rotation(game, len(names), rotate)
        for seat, record in enumerate(replay.seats):
            entry = tallies[holders[seat]]
            outcome = seat_outcome(result.places, result.team_won, seat)
            for counted in (entry.overall, entry.by_seat.setdefault(seat, Record())):
                counted.add(outcome, result.scores[seat], record.forfeited, result.team_won)
            entry.fault_kinds.update(record.faults)
        for move in replay.moves:
            entry = tallies[holders[move.seat]]
            if move.fault is None or move.fault.kind == Fault.FORFEITED or entry.first_fault is not None:
                continue
            entry.first_fault = FirstFault(game, replay.spec.seed, move.seat, move.turn, move.fault)
    return tallies


__all__ = [
    "DRAW_SCORE",
    "EntryTally",
    "FirstFault",
    "Outcome",
    "Record",
    "rotation",
    "seat_outcome",
    "tally",
    "wilson_interval",
]
