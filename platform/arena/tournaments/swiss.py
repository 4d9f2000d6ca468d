"""A Swiss tournament, pure: the pairing of each round, and the standings with their tie-breaks.

Pairing (:func:`swiss_pairing`): pods of ``seats`` by points so far with as few repeated pairs as
any pairing of the round has (none while that can be), byes to bots with the fewest byes (the
lowest on points when that costs no rematch); a bye scores as a win (one point).

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
from collections.abc import Iterable, Iterator, Mapping, Sequence
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


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


PATIENCE = 300
"""How many sets of bots left the ranking-order pass of :class:`_PodSearch` may try at one allowance
before the most-constrained-first pass takes over."""
EFFORT = 5_000
"""How many sets of bots left the most-constrained-first pass may try at an allowance of one repeat or
more before a larger allowance is tried (with no repeat allowed, it runs to the end). A pass that
proved its allowance too small moves up by one; each that ran out of steps doubles the move, so a
late round of a large field, where repeats are many and hard to minimise, stays quick."""


class _OutOfSteps(Exception):
    """A pass has tried as many sets of bots left as it may."""


class _PodSearch:
    """The pods (and the byes among ``eligible``) of one round with the fewest repeated pairs.

    Bots are numbers in ranking order (0 is the top); a set of bots is a bitmask; ``met[i]`` is the
    set that bot ``i`` has met. :meth:`solve` is exact: it asks for a pairing with at most
    ``allowance`` repeated pairs for ``allowance`` = a lower bound, then one more, and so on, so the
    first pairing found has the fewest repeats there are (a straight cut of the ranking always
    exists, so it ends). At each allowance two passes place one bot after the other, each bot's
    pod made of the bots nearest to it in the ranking that fit, a bye being its last choice:

    1. the ranking-order pass places the top bot left first. Its pairing is the one closest to
       cutting the ranking from the top (the Swiss's score groups kept together), the byes at the
       bottom when they can be; it has :data:`PATIENCE` steps, since deep in a late round it can
       loop over the top pods for a conflict among the last bots that only a change far above
       could solve;
    2. if that pass ran out of steps, the most-constrained-first pass places first the bot with
       the fewest partners left that it has not met (the top one of those), so conflicts are met
       while there is room to solve them. It runs to the end: it finds a pairing within the
       allowance if one exists, or proves there is none.

    Both prune with a lower bound (:meth:`_bound`): a bot with ``d`` bots left that it has not met
    meets at least ``size - 1 - d`` again in any pod (none if it may take a bye), and each repeated
    pair counts for two bots; and with a table of the sets of bots left proved unpairable within an
    allowance (the same rest is reached from many different first pods).
    """

    def __init__(self, size: int, met: Sequence[int], eligible: int, byes: int) -> None:
        self.size = size
        self.met = met
        self.eligible = eligible
        self.byes = byes
        self.failed: dict[int, int] = {}
        self.constrained_first = False
        self.steps = 0
        self.limit: int | None = PATIENCE

    def solve(self, everyone: int) -> tuple[list[tuple[int, ...]], list[int]]:
        """The pods and the byes (bot numbers) of the pairing with the fewest repeated pairs."""
        allowance, step = self._bound(everyone), 1
        while True:
            found = self._pass(everyone, allowance)
            if found is not None:
                pods = [pod for pod in found if len(pod) == self.size]
                return pods, [pod[0] for pod in found if len(pod) == 1 and self.size != 1]
            proved = self.failed.get(everyone, -1) >= allowance
            allowance += step
            step = 1 if proved else step * 2

    def _pass(self, everyone: int, allowance: int) -> list[tuple[int, ...]] | None:
        self.constrained_first, self.steps, self.limit = False, 0, PATIENCE
        try:
            return self._fill(everyone, allowance)
        except _OutOfSteps:
            pass
        self.constrained_first, self.steps = True, 0
        self.limit = EFFORT if allowance else None
        try:
            return self._fill(everyone, allowance)
        except _OutOfSteps:
            return None

    def _byes_left(self, left: int) -> int:
        return left.bit_count() % self.size if self.byes else 0

    def _fresh(self, bot: int, left: int) -> int:
        """How many bots of ``left`` (other than ``bot``) ``bot`` has not met."""
        return (~self.met[bot] & left).bit_count() - 1

    def _bound(self, left: int) -> int:
        """At least this many repeated pairs in any pairing of ``left``."""
        byes = self._byes_left(left)
        deficits, spared = [], []
        for bot in _bits(left):
            deficit = max(0, self.size - 1 - self._fresh(bot, left))
            deficits.append(deficit)
            if byes and self.eligible >> bot & 1:
                spared.append(deficit)
        relief = sum(sorted(spared, reverse=True)[:byes])
        return (sum(deficits) - relief + 1) // 2

    def _fill(self, left: int, allowance: int) -> list[tuple[int, ...]] | None:
        """A pairing of ``left`` with at most ``allowance`` repeated pairs, ``None`` if there is none."""
        if not left:
            return []
        self.steps += 1
        if self.limit is not None and self.steps > self.limit:
            raise _OutOfSteps
        if self.failed.get(left, -1) >= allowance or self._bound(left) > allowance:
            self.failed[left] = max(self.failed.get(left, -1), allowance)
            return None
        head = self._head(left)
        rest = left ^ (1 << head)
        byes = self._byes_left(left)
        found = self._pods_of(head, rest, allowance, byes)
        if found is None and byes and self.eligible >> head & 1:
            tail = self._fill(rest, allowance)
            found = None if tail is None else [(head,), *tail]
        if found is None:
            self.failed[left] = max(self.failed.get(left, -1), allowance)
        return found

    def _head(self, left: int) -> int:
        """The bot to place next: the top one, or in the second pass the most constrained."""
        top = (left & -left).bit_length() - 1
        if not self.constrained_first:
            return top
        return min(_bits(left), key=lambda bot: (self._fresh(bot, left), bot))

    def _pods_of(self, head: int, rest: int, allowance: int, byes: int) -> list[tuple[int, ...]] | None:
        """The first pairing whose first pod is ``head`` with bots of ``rest``, the nearest first."""

        def extend(
            pod: tuple[int, ...], mask: int, candidates: list[int], spent: int
        ) -> list[tuple[int, ...]] | None:
            if len(pod) == self.size:
                left = rest & ~mask
                if byes and (left & self.eligible).bit_count() < byes:
                    return None
                tail = self._fill(left, allowance - spent)
                return None if tail is None else [pod, *tail]
            for place, bot in enumerate(candidates):
                cost = spent + (self.met[bot] & mask).bit_count()
                if cost <= allowance and len(candidates) - place >= self.size - len(pod):
                    found = extend((*pod, bot), mask | 1 << bot, candidates[place + 1 :], cost)
                    if found is not None:
                        return found
            return None

        nearest = sorted(_bits(rest), key=lambda bot: (abs(bot - head), bot))
        return extend((head,), 1 << head, nearest, 0)


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

    - Byes: ``len(bots) % size`` bots sit out, all among the bots with the fewest byes so far (no
      bot sits out twice before every bot has once). Which of them is part of the pairing: the
      lowest on points (registration order breaks ties, the later bot first) unless another bot
      with as few byes lets the round repeat fewer pairs (FIDE's C.04 puts no rematch first too).
    - Pods: the others, ranked by points then registration order, fill pods from the top with the
      fewest pairs that met before that any pairing has: none while a rematch-free pairing
      exists (:class:`_PodSearch`, which never gives up on one), else the fewest it finds (exact
      for small fields; the search's steps are bounded only past the first repeat).
    - Seats: in each pod the bots take in turn the seat each has held least (``history`` gives the
      past seat orders).
    """
    history = [tuple(pod) for pod in history]
    rank = {bot: index for index, bot in enumerate(bots)}
    sitting_out = len(bots) % size
    bye_order = sorted(bots, key=lambda bot: (byes.get(bot, 0), points.get(bot, 0.0), -rank[bot]))
    fewest = byes.get(bye_order[sitting_out - 1], 0) if sitting_out else 0
    forced = [bot for bot in bye_order[:sitting_out] if byes.get(bot, 0) < fewest]
    order = sorted(
        (bot for bot in bots if bot not in forced), key=lambda bot: (-points.get(bot, 0.0), rank[bot])
    )
    index = {bot: number for number, bot in enumerate(order)}
    met = [0] * len(order)
    for pod in history:
        for a, b in combinations((index[bot] for bot in pod if bot in index), 2):
            met[a] |= 1 << b
            met[b] |= 1 << a
    eligible = sum(1 << index[bot] for bot in order if byes.get(bot, 0) == fewest)
    search = _PodSearch(size, met, eligible, sitting_out - len(forced))
    numbered_pods, numbered_byes = search.solve((1 << len(order)) - 1)
    pods = [tuple(order[number] for number in pod) for pod in numbered_pods]
    chosen = {*forced, *(order[number] for number in numbered_byes)}
    bye_bots = tuple(bot for bot in bye_order if bot in chosen)
    seat_counts: dict[str, list[int]] = {bot: [0] * size for bot in bots}
    for pod in history:
        for seat, bot in enumerate(pod):
            if bot in seat_counts and seat < size:
                seat_counts[bot][seat] += 1
    return SwissRound(pods=tuple(_seat_order(pod, seat_counts) for pod in pods), byes=bye_bots)


def max_rounds(bots: int, seats: int) -> int:
    """The most rounds a Swiss of ``bots`` in pods of ``seats`` could pair without anyone meeting
    anyone twice: past it a rematch is certain (a bot meets ``seats - 1`` new opponents in each
    round it plays, and the ``bots % seats`` byes of a round spread the playing rounds over
    everyone). It is an upper bound, not a promise: round 2 of 6 bots in pods of 3, or of 8 or 12
    in pods of 4, repeats a pair whatever the pairing (two or three pods of round 1 cannot fill a
    pod of 4 with bots from different pods); such rounds repeat as few pairs as they can.

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
