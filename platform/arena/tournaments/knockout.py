"""A knockout, pure: seeds, each round's pods and byes, who goes on, the winner and every bot's rank.

- **Seeds** by rating, best first (:func:`seed_by_rating`).
- **Rounds**: pods of ``seats`` (a duel, or a pod of 3 or 4 for a multiplayer variant), each sending
  its best ``advance`` on. A field between two full bracket sizes plays just enough pods among its
  lowest seeds to come down to the full size below: the best seeds have **byes**
  (:func:`knockout_round`). Survivors are re-seeded by their original seed each round.
- **Who goes on** from a pod (:func:`pod_ranking`): its places, then the score, then the better seed
  (the declared tie rule); a pod whose match was aborted or cancelled sends its best seeds.
- **The winner** is the best of the final pod. The others rank by the round they went out in (the
  later, the better), then by their place in that pod, then by seed; the final pod is ranked by its
  own places. While it runs, the bots still in rank first, by seed.

The scheduler (:mod:`arena.tournaments.rounds`) makes the next round from :func:`bracket`'s
survivors, so the bracket shown and the one played are the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.records import MatchRecord, MatchStatus, RoundRecord
from arena.tournaments.tally import Row, assign_ranks, tally


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


def knockout_shape(bots: int, seats: int, advance: int) -> list[tuple[int, int]]:
    """Each round's number of pods and of byes for a valid field, down to the final pod: the bracket
    drawn before its rounds are made.

    >>> knockout_shape(6, 2, 1), knockout_shape(9, 2, 1)
    ([(2, 2), (2, 0), (1, 0)], [(1, 7), (4, 0), (2, 0), (1, 0)])
    """
    shape, entrants = [], bots
    while True:
        made = knockout_round([str(i) for i in range(entrants)], seats, advance)
        shape.append((len(made.pods), len(made.byes)))
        if entrants <= seats:
            return shape
        entrants = len(made.byes) + len(made.pods) * advance


def knockout_round_count(bots: int, seats: int, advance: int) -> int:
    """How many rounds a valid field plays down to its final pod."""
    return len(knockout_shape(bots, seats, advance))


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


@dataclass(frozen=True)
class Pod:
    """One match of the bracket: its bots in seat order, best first once ended, and who went on."""

    match: str
    bots: tuple[str, ...]
    ranking: tuple[str, ...]
    advanced: tuple[str, ...]
    ended: bool


@dataclass(frozen=True)
class BracketRound:
    number: int
    pods: tuple[Pod, ...]
    byes: tuple[str, ...]

    @property
    def is_final(self) -> bool:
        return not self.byes and len(self.pods) == 1

    def survivors(self, seeds: Mapping[str, int]) -> list[str]:
        """Who plays the next round, in seed order: the byes and each ended pod's best."""
        return sorted(
            [*self.byes, *(bot for pod in self.pods for bot in pod.advanced)], key=seeds.__getitem__
        )


@dataclass(frozen=True)
class Bracket:
    seeds: tuple[str, ...]
    rounds: tuple[BracketRound, ...]
    planned: int

    @property
    def finished(self) -> bool:
        return (
            bool(self.rounds) and self.rounds[-1].is_final and all(pod.ended for pod in self.rounds[-1].pods)
        )

    @property
    def winner(self) -> str | None:
        """The best of the final pod once it has ended; ``None`` before."""
        return self.rounds[-1].pods[0].ranking[0] if self.finished else None

    def order(self) -> list[str]:
        """Every bot best first (see the module doc)."""
        seed_of = {bot: index for index, bot in enumerate(self.seeds)}
        out_in: dict[str, tuple[int, int]] = {}
        for round_ in self.rounds:
            for pod in round_.pods:
                if pod.ended:
                    for place, bot in enumerate(pod.ranking):
                        if bot not in pod.advanced or round_.is_final:
                            out_in[bot] = (round_.number, place)
        last = len(self.rounds) + 1

        def key(bot: str) -> tuple[int, int, int]:
            round_no, place = out_in.get(bot, (last, 0))
            return (-round_no, place, seed_of[bot])

        return sorted(self.seeds, key=key)


def bracket(
    seeds: Sequence[str],
    seats: int,
    advance: int,
    made: Sequence[RoundRecord],
    matches: Mapping[str, MatchRecord],
) -> Bracket:
    """The bracket so far from the rounds made and their matches (``seeds`` best first)."""
    seed_of = {bot: index for index, bot in enumerate(seeds)}
    rounds = []
    for number, round_ in enumerate(made, start=1):
        pods = []
        for match_id in round_["matches"]:
            match = matches.get(match_id)
            bots = match.bots if match is not None else ()
            ended = match is not None and match.status.ended
            ranking = tuple(pod_ranking(bots, match, seed_of)) if ended else ()
            pods.append(Pod(match_id, bots, ranking, ranking[:advance], ended))
        rounds.append(BracketRound(number, tuple(pods), tuple(round_["byes"])))
    return Bracket(tuple(seeds), tuple(rounds), knockout_round_count(len(seeds), seats, advance))


def standings(
    result: Bracket, names: Mapping[str, str], matches: Sequence[MatchRecord], team: bool
) -> list[Row]:
    """Rows in bracket order with ``seed`` (1 = best) and ``out_in`` (the round a bot went out in,
    ``None`` while still in or for the winner); ranks follow :meth:`Bracket.order`, one each."""
    rows = tally(result.seeds, names, matches, team)
    seed_of = {bot: index + 1 for index, bot in enumerate(result.seeds)}
    position = {bot: index for index, bot in enumerate(result.order())}
    winner = result.winner
    for bot, row in rows.items():
        row["seed"] = seed_of[bot]
        row["out_in"] = None
    for round_ in result.rounds:
        for pod in round_.pods:
            for bot in pod.ranking:
                if bot != winner and (bot not in pod.advanced or round_.is_final):
                    rows[bot]["out_in"] = round_.number
    return assign_ranks(rows.values(), lambda row: (float(position[row["bot_id"]]),))


def bracket_json(result: Bracket) -> dict[str, object]:
    """The bracket as the API shows it: every round made (pods with their match, bots, ranking and who
    went on; byes), how many rounds there will be, and the winner's path (the matches it won)."""
    winner = result.winner
    return {
        "planned_rounds": result.planned,
        "winner": winner,
        "rounds": [
            {
                "round": round_.number,
                "byes": list(round_.byes),
                "pods": [
                    {
                        "match": pod.match,
                        "bots": list(pod.bots),
                        "ranking": list(pod.ranking),
                        "advanced": list(pod.ranking[:1] if round_.is_final else pod.advanced),
                        "winner_path": winner is not None and winner in pod.bots,
                    }
                    for pod in round_.pods
                ],
            }
            for round_ in result.rounds
        ],
    }
