"""A Swiss tournament, pure: the pairing of each round, and the standings with their tie-breaks.

Pairing (:func:`swiss_pairing`): pods of ``seats`` by points so far, nobody meeting anyone twice
while that can be avoided, byes to the lowest without one; a bye scores as a win (one point).

Standings (:func:`standings`), as lichess and FIDE rank a Swiss, generalised to pods:

- **points**: one a match, shared by the seats in first place, one for each bye;
- **Buchholz**: the sum of the final points of every opponent met, one term per opponent per match
  (in a pod of four, three terms); a bye adds nothing;
- **Sonneborn-Berger**: the sum, over every opponent met in every match, of what the bot scored
  against that opponent there (:func:`arena.tournaments.tally.pairwise`: 1 placed ahead, ½ level,
  0 behind) times that opponent's final points. In a duel: the points of the opponents beaten plus
  half those of the opponents drawn, the chess definition;
- then wins, then the sum of scores. Bots equal on all of them share a rank.

The scheduler pairs the next round by :func:`points_so_far`, the same points the standings show.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from arena.records import MatchRecord, RoundRecord
from arena.tournaments.tally import Row, assign_ranks, meetings, rounded, tally


@dataclass(frozen=True)
class SwissRound:
    """One Swiss round: the pods in seat order, and the bots sitting out with a bye (a win)."""

    pods: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


def swiss_rounds_default(bots: int) -> int:
    """``ceil(log2(bots))``: enough rounds for one bot to stay unbeaten alone (at least 1).

    >>> swiss_rounds_default(2), swiss_rounds_default(5), swiss_rounds_default(8)
    (1, 3, 3)
    """
    return max(1, math.ceil(math.log2(max(bots, 2))))


def _met(history: Iterable[Sequence[str]]) -> set[frozenset[str]]:
    return {frozenset((a, b)) for pod in history for a, b in combinations(pod, 2)}


def _fill_pods(
    order: list[str], size: int, met: set[frozenset[str]], budget: list[int]
) -> list[tuple[str, ...]] | None:
    """Pods of ``size`` from ``order`` (best first) where nobody meets again; ``None`` if none found.

    Depth-first: the top unpaired bot takes the highest-ranked bots it has not met, backtracking
    when the rest cannot be filled; ``budget`` bounds the search so large fields stay quick.
    """
    if not order:
        return []
    head, rest = order[0], order[1:]

    def extend(pod: list[str], start: int) -> list[tuple[str, ...]] | None:
        if len(pod) == size:
            left = [bot for bot in rest if bot not in pod]
            tail = _fill_pods(left, size, met, budget)
            return None if tail is None else [tuple(pod), *tail]
        for index in range(start, len(rest)):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            candidate = rest[index]
            if all(frozenset((candidate, member)) not in met for member in pod):
                found = extend([*pod, candidate], index + 1)
                if found is not None:
                    return found
        return None

    return extend([head], 0)


def _seat_order(pod: Sequence[str], seat_counts: Mapping[str, Sequence[int]]) -> tuple[str, ...]:
    """Seat the pod so that each bot takes the seat it has held least (ties: pod order)."""
    left = list(pod)
    seated = []
    for seat in range(len(pod)):
        chosen = min(left, key=lambda bot: (seat_counts.get(bot, [0] * len(pod))[seat], left.index(bot)))
        seated.append(chosen)
        left.remove(chosen)
    return tuple(seated)


def swiss_pairing(
    bots: Sequence[str],
    size: int,
    points: Mapping[str, float],
    history: Iterable[Sequence[str]],
    byes: Mapping[str, int],
) -> SwissRound:
    """The next Swiss round.

    - Byes: ``len(bots) % size`` bots sit out, chosen among those with the fewest byes so far, the
      lowest on points first (registration order breaks ties, the later bot first).
    - Pods: the others, ranked by points then registration order, fill pods from the top; no two
      bots meet again while that is possible, otherwise the pods are cut straight down the ranking.
    - Seats: in each pod the bots take in turn the seat each has held least (``history`` gives the
      past seat orders).
    """
    rank = {bot: index for index, bot in enumerate(bots)}
    history = [tuple(pod) for pod in history]
    sitting_out = len(bots) % size
    bye_order = sorted(bots, key=lambda bot: (byes.get(bot, 0), points.get(bot, 0.0), -rank[bot]))
    bye_bots = tuple(bye_order[:sitting_out])
    order = sorted(
        (bot for bot in bots if bot not in bye_bots), key=lambda bot: (-points.get(bot, 0.0), rank[bot])
    )
    pods = _fill_pods(order, size, _met(history), [20_000])
    if pods is None:
        pods = [tuple(order[i : i + size]) for i in range(0, len(order), size)]
    seat_counts: dict[str, list[int]] = {bot: [0] * size for bot in bots}
    for pod in history:
        for seat, bot in enumerate(pod):
            if bot in seat_counts and seat < size:
                seat_counts[bot][seat] += 1
    return SwissRound(pods=tuple(_seat_order(pod, seat_counts) for pod in pods), byes=bye_bots)


def max_rounds(bots: int, seats: int) -> int:
    """The most rounds a Swiss of ``bots`` in pods of ``seats`` can pair without anyone meeting
    anyone twice (a bound: a bot meets ``seats - 1`` new opponents in each round it plays, and the
    ``bots % seats`` byes of a round spread the playing rounds over everyone).

    >>> max_rounds(8, 2), max_rounds(7, 2), max_rounds(8, 4), max_rounds(16, 4)
    (7, 7, 2, 5)
    """
    per_bot = (bots - 1) // (seats - 1)
    playing = bots - bots % seats
    return per_bot * bots // playing if playing else 0


def byes_given(made: Sequence[RoundRecord]) -> Counter[str]:
    """How many byes each bot has had over the rounds made."""
    return Counter(bot for round_ in made for bot in round_["byes"])


def points_so_far(
    bots: Sequence[str], made: Sequence[RoundRecord], matches: Mapping[str, MatchRecord], team: bool
) -> dict[str, float]:
    """Each bot's points over the rounds made: what the next round is paired by."""
    played = [matches[match_id] for round_ in made for match_id in round_["matches"] if match_id in matches]
    rows = tally(bots, {}, played, team, byes_given(made))
    return {bot: row["points"] for bot, row in rows.items()}


def standings(
    bots: Sequence[str],
    names: Mapping[str, str],
    made: Sequence[RoundRecord],
    matches: Mapping[str, MatchRecord],
    team: bool,
) -> list[Row]:
    """The rows with ``byes``, ``buchholz`` and ``sonneborn_berger``, ranked as the module doc says."""
    byes = byes_given(made)
    played = [matches[match_id] for round_ in made for match_id in round_["matches"] if match_id in matches]
    rows = tally(bots, names, played, team, byes)
    for bot, row in rows.items():
        row["byes"] = byes[bot]
        row["buchholz"] = 0.0
        row["sonneborn_berger"] = 0.0
    for bot, other, share in meetings(played, team):
        rows[bot]["buchholz"] += rows[other]["points"]
        rows[bot]["sonneborn_berger"] += share * rows[other]["points"]

    def key(row: Row) -> tuple[float, ...]:
        return (
            -rounded(row["points"]),
            -rounded(row["buchholz"]),
            -rounded(row["sonneborn_berger"]),
            -row["wins"],
            -rounded(row["score_sum"]),
        )

    return assign_ranks(rows.values(), key)
