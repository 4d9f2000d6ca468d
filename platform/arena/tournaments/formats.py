"""Tournament schedules and standings, pure functions.

Formats:

- ``round_robin``: every combination of ``seats_per_match`` bots plays.
- ``gauntlet``: the first bot plays every combination of ``seats_per_match - 1`` of the others
  (with two seats: the first bot against each other bot).

Each combination (a *pairing*) plays ``games_per_pairing`` games, rounded up to a multiple of the
seat count, with the seat order rotating one step each game: over a pairing every bot sits in every
seat equally often, and so over the whole tournament. The games of one rotation cycle share a seed,
so each bot plays the same deal from every seat.

Standings use :mod:`arena.ladders.scoring`: one point per match, shared by the seats in first place;
ranked by points, then wins, then the sum of scores. Each row also has its Buchholz score: the sum,
over the bot's finished matches, of its opponents' points; a Swiss ranks ties on points by it
first (who drew the harder opponents), then wins, then scores.

>>> [m.bots for m in schedule("round_robin", ["a", "b", "c"], 2, 1, seed=1)]
[('a', 'b'), ('b', 'a'), ('a', 'c'), ('c', 'a'), ('b', 'c'), ('c', 'b')]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from arena.ladders.scoring import seat_points, seat_verdicts
from arena.records import MatchRecord, MatchStatus
from referee.rng import derive_seed

FORMATS = ("round_robin", "gauntlet", "swiss", "knockout")


@dataclass(frozen=True)
class ScheduledMatch:
    pairing: int
    game: int
    bots: tuple[str, ...]
    seed: int


def games_per_pairing(requested: int, seats: int) -> int:
    """``requested`` rounded up to a multiple of ``seats`` (so seats rotate evenly).

    >>> games_per_pairing(2, 3), games_per_pairing(4, 2), games_per_pairing(1, 1)
    (3, 4, 1)
    """
    return max(1, math.ceil(requested / seats)) * seats


def pairings(format_name: str, bots: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """The groups of bots that meet, each in its starting seat order."""
    if format_name == "round_robin":
        return list(combinations(bots, seats))
    if format_name == "gauntlet":
        first, others = bots[0], bots[1:]
        return [(first, *group) for group in combinations(others, seats - 1)]
    raise ValueError(f"unknown tournament format {format_name!r} (formats: {', '.join(FORMATS)})")


def schedule(
    format_name: str, bots: Sequence[str], seats: int, requested_games: int, seed: int
) -> list[ScheduledMatch]:
    """Every match of the tournament, in play order."""
    per_pairing = games_per_pairing(requested_games, seats)
    matches = []
    for index, group in enumerate(pairings(format_name, bots, seats)):
        for game in range(per_pairing):
            turn = game % seats
            matches.append(
                ScheduledMatch(
                    pairing=index,
                    game=game,
                    bots=group[turn:] + group[:turn],
                    seed=derive_seed(seed, "pairing", index, "cycle", game // seats),
                )
            )
    return matches


def match_count(format_name: str, bots: int, seats: int, requested_games: int) -> int:
    """How many matches :func:`schedule` would make, without making them."""
    groups = math.comb(bots - 1, seats - 1) if format_name == "gauntlet" else math.comb(bots, seats)
    return groups * games_per_pairing(requested_games, seats)


def standings(
    bots: Sequence[str],
    names: Mapping[str, str],
    matches: Iterable[MatchRecord],
    team: bool,
    buchholz_first: bool = False,
    byes: Mapping[str, int] | None = None,
) -> list[dict[str, Any]]:
    """Points, wins, draws, losses, byes, score sums and Buchholz of each bot over the finished matches.

    ``buchholz_first`` (a Swiss) breaks ties on points by Buchholz before wins. ``byes`` counts the
    Swiss rounds each bot sat out: a bye scores a point, as the pairing already counts it, so the
    standings and the next round's pairing agree; it has no opponent, so it adds nothing to Buchholz
    (the opponents' points, byes included, are summed over the matches played).
    """
    table: dict[str, dict[str, Any]] = {
        bot: {
            "bot_id": bot,
            "name": names.get(bot, bot),
            "played": 0,
            "points": 0.0,
            "wins": 0,
            "draws": 0,
            "losses": 0,
            "score_sum": 0.0,
            "byes": (byes or {}).get(bot, 0),
            "buchholz": 0.0,
        }
        for bot in bots
    }
    for row in table.values():
        row["points"] += float(row["byes"])
    opponents: dict[str, list[str]] = {bot: [] for bot in bots}
    for match in matches:
        result = match.result
        if match.status is not MatchStatus.FINISHED or result is None:
            continue
        verdicts = seat_verdicts(result, team)
        points = seat_points(result, team)
        for seat, bot in enumerate(match.bots):
            row = table[bot]
            row["played"] += 1
            row["points"] += points[seat]
            row[{"win": "wins", "draw": "draws", "loss": "losses"}[verdicts[seat]]] += 1
            row["score_sum"] += result.scores[seat]
            opponents[bot] += [other for other in match.bots if other != bot]
    for bot, row in table.items():
        row["buchholz"] = sum(table[other]["points"] for other in opponents[bot] if other in table)

    def order(row: dict[str, Any]) -> tuple[Any, ...]:
        tiebreak = -round(row["buchholz"], 4) if buchholz_first else 0.0
        return (-row["points"], tiebreak, -row["wins"], -row["score_sum"], row["name"])

    rows = sorted(table.values(), key=order)
    for position, row in enumerate(rows):
        row["points"] = round(row["points"], 4)
        row["score_sum"] = round(row["score_sum"], 4)
        row["buchholz"] = round(row["buchholz"], 4)
        row["rank"] = position + 1
    return rows


# -- Swiss pairing ------------------------------------------------------------------------------


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


# -- knockout -----------------------------------------------------------------------------------


def seed_by_rating(bots: Sequence[str], ratings: Mapping[str, float | None]) -> list[str]:
    """A knockout's seeds, best first: by rating (the ladder's conservative estimate), highest
    first; bots without a rating after every rated one; ties, and the unrated, in entry order.

    >>> seed_by_rating(["a", "b", "c", "d"], {"a": 1.0, "b": None, "c": 7.5, "d": 1.0})
    ['c', 'a', 'd', 'b']
    """
    entry = {bot: index for index, bot in enumerate(bots)}

    def key(bot: str) -> tuple[bool, float, int]:
        rating = ratings.get(bot)
        return (rating is None, -(rating or 0.0), entry[bot])

    return sorted(bots, key=key)


def knockout_advance_default(seats: int) -> int:
    """How many of a pod go on when the request does not say: 1 of a duel or a pod of 3, 2 of 4."""
    return 2 if seats == 4 else 1


def knockout_field_error(bots: int, seats: int, advance: int) -> str | None:
    """Why ``bots`` cannot fill a knockout of pods of ``seats`` sending ``advance`` on, or ``None``.

    Every pod is full (a variant has a fixed seat count) and each pod removes ``seats - advance``
    bots, so the field must come down to exactly one final pod: ``bots ≡ seats (mod seats -
    advance)``. ``advance`` must divide ``seats`` so that after the first round the bracket is full.

    >>> knockout_field_error(5, 2, 1) is None, knockout_field_error(5, 4, 2)
    (True, 'a knockout of pods of 4 sending 2 on needs a field of 4, 6, 8, 10, ... bots')
    """
    if not 1 <= advance < seats:
        return f"must be at least 1 and less than seats_per_match ({seats})"
    if seats % advance:
        return f"must divide seats_per_match ({seats})"
    if bots < seats or (bots - seats) % (seats - advance):
        sizes = ", ".join(str(seats + i * (seats - advance)) for i in range(4))
        return f"a knockout of pods of {seats} sending {advance} on needs a field of {sizes}, ... bots"
    return None


@dataclass(frozen=True)
class KnockoutRound:
    """One knockout round: the pods (in seed order, best seed in the first seat) and the byes."""

    pods: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


def knockout_round(entrants: Sequence[str], seats: int, advance: int) -> KnockoutRound:
    """Pods for ``entrants`` (best seed first; the field is valid for :func:`knockout_field_error`).

    The bracket is *full* at ``seats * r**j`` entrants (``r = seats / advance``). A field between
    two full sizes plays just enough pods, among its lowest seeds, to come down to the full size
    below; the top seeds have byes. Pods are dealt in a snake over the seeds that play (with duels:
    best against worst), so the top seeds meet as late as possible. Survivors are re-seeded each
    round by their original seed.

    >>> knockout_round(["1", "2", "3", "4", "5"], 2, 1)
    KnockoutRound(pods=(('4', '5'),), byes=('1', '2', '3'))
    >>> knockout_round(list("abcdefgh"), 4, 2).pods
    (('a', 'd', 'e', 'h'), ('b', 'c', 'f', 'g'))
    """
    count = len(entrants)
    if count <= seats:
        return KnockoutRound(pods=(tuple(entrants),), byes=())
    ratio = seats // advance
    full = seats
    while full * ratio < count:
        full *= ratio
    if full * ratio == count:
        full = count
        playing = count
    else:
        playing = (count - full) // (seats - advance) * seats
    byes = tuple(entrants[: count - playing])
    players = list(entrants[count - playing :])
    pod_count = playing // seats
    pods: list[list[str]] = [[] for _ in range(pod_count)]
    for index, bot in enumerate(players):
        lap, step = divmod(index, pod_count)
        pods[step if lap % 2 == 0 else pod_count - 1 - step].append(bot)
    return KnockoutRound(pods=tuple(tuple(pod) for pod in pods), byes=byes)


def knockout_round_count(bots: int, seats: int, advance: int) -> int:
    """How many rounds a valid field plays down to its final pod."""
    rounds, entrants = 1, bots
    while entrants > seats:
        made = knockout_round([str(i) for i in range(entrants)], seats, advance)
        entrants = len(made.byes) + len(made.pods) * advance
        rounds += 1
    return rounds


def pod_ranking(pod: Sequence[str], match: MatchRecord | None, seeds: Mapping[str, int]) -> list[str]:
    """The pod's bots best first: by place, then score, then seed; by seed alone without a result."""
    result = match.result if match is not None and match.status is MatchStatus.FINISHED else None
    if result is None or match is None:
        return sorted(pod, key=lambda bot: seeds[bot])
    seat_of = {bot: seat for seat, bot in enumerate(match.bots)}
    return sorted(
        pod,
        key=lambda bot: (result.places[seat_of[bot]], -result.scores[seat_of[bot]], seeds[bot]),
    )
