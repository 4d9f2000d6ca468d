"""A knockout, pure: seeds, each round's pods and byes, who goes on, the winner and every bot's rank.

- **Seeds** by rating, best first (:func:`seed_by_rating`).
- **Rounds**: pods of ``seats`` (a duel, or a pod of 3 or 4 for a multiplayer variant), each sending
  its best ``advance`` on. A field between two full bracket sizes plays just enough pods among its
  lowest seeds to come down to the full size below: the best seeds have **byes**
  (:func:`knockout_round`). Survivors are re-seeded by their original seed each round.
- **Who goes on** from a pod (:func:`pod_ranking`): its places, then the score, then the better seed
  (the declared tie rule); a pod whose match was aborted or cancelled sends its best seeds.
- **Ties for going on** (``pod_ties``, :func:`settle_pod`): ``"seed"`` leaves them to the declared
  rule. ``"replay"`` plays the pod's match again, same bots, new seed, while the last bot going on
  and the first left out share their place (in the final: first place), up to
  :data:`MAX_POD_REPLAYS` replays; after that, or when a replay could not be played, the declared
  rule decides on the last match played.
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

POD_TIES = ("seed", "replay")
"""How a knockout settles a pod tied for going on: ``seed``, the declared rule (score, then seed),
the default; ``replay``, the pod's match played again (:func:`settle_pod`)."""

MAX_POD_REPLAYS = 2
"""The most times one pod's match is replayed; a pod still tied after that goes by the declared rule."""


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


def tied_for_going_on(
    pod: Sequence[str], match: MatchRecord, seeds: Mapping[str, int], going_on: int
) -> bool:
    """Whether the finished ``match`` leaves the last of the ``going_on`` best and the next bot in
    the same place: only the declared rule (score, then seed) would part them.

    >>> from dataclasses import replace
    >>> from referee.replay import MatchResult
    >>> drawn = replace(MatchRecord.new("m", "g", "v", ("a", "b"), ("a", "b"), rated=True),
    ...                 status=MatchStatus.FINISHED, result=MatchResult((1, 1), (3.0, 2.0), "end"))
    >>> tied_for_going_on(("a", "b"), drawn, {"a": 0, "b": 1}, 1)
    True
    """
    result = match.result
    if match.status is not MatchStatus.FINISHED or result is None or not 0 < going_on < len(pod):
        return False
    seat_of = {bot: seat for seat, bot in enumerate(match.bots)}
    ranked = pod_ranking(pod, match, seeds)
    return result.places[seat_of[ranked[going_on - 1]]] == result.places[seat_of[ranked[going_on]]]


@dataclass(frozen=True)
class PodOutcome:
    """Where one pod stands: decided (its ranking, and the match that decided it: ``None`` when it
    went by seed for want of a result), or waiting for a match to end or for a replay owed."""

    ranking: tuple[str, ...]
    decided: bool
    decided_by: str | None = None
    replay_due: bool = False


def settle_pod(
    pod: Sequence[str],
    played: Sequence[MatchRecord | None],
    seeds: Mapping[str, int],
    going_on: int,
    pod_ties: str,
) -> PodOutcome:
    """The pod's outcome from its match and its replays so far (``played``, in play order; ``None``
    for one not stored), ``going_on`` of it going on.

    With ``pod_ties="seed"`` the first match decides by the declared rule (its places, then score,
    then seed). With ``"replay"``, a finished match that leaves the places deciding who goes on tied
    owes a replay, up to :data:`MAX_POD_REPLAYS`; the first match not tied there, or the last one
    allowed, decides. A replay aborted or cancelled leaves the pod to the declared rule on the last
    match that finished (the seeds, if none did).
    """
    decided_by: MatchRecord | None = None
    for index, match in enumerate(played):
        if match is None or not match.status.ended:
            return PodOutcome((), decided=False)
        if match.status is not MatchStatus.FINISHED or match.result is None:
            break
        decided_by = match
        if index >= MAX_POD_REPLAYS or pod_ties != "replay":
            break
        if not tied_for_going_on(pod, match, seeds, going_on):
            break
        if index + 1 == len(played):
            return PodOutcome((), decided=False, replay_due=True)
    ranking = tuple(pod_ranking(pod, decided_by, seeds))
    return PodOutcome(ranking, decided=True, decided_by=None if decided_by is None else decided_by.id)


@dataclass(frozen=True)
class Pod:
    """One pod of the bracket: its match, its bots in seat order, best first once decided, and who
    went on; with ``pod_ties="replay"``, its match's replays and whether one is owed."""

    match: str
    bots: tuple[str, ...]
    ranking: tuple[str, ...]
    advanced: tuple[str, ...]
    ended: bool
    """Decided: its match (or the replay that settled it) has ended and no replay is owed."""
    replays: tuple[str, ...] = ()
    """The match played again, in order: each after a tie for going on in the one before."""
    replay_due: bool = False
    """Its last match left a tie for going on that a replay settles: the pod waits for one."""
    decided_by: str | None = None
    """The match whose result decided it (``None`` while undecided, or when it went by seed)."""

    @property
    def played(self) -> tuple[str, ...]:
        """Its match and its replays, in play order."""
        return (self.match, *self.replays)


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
    pod_ties: str = "seed",
) -> Bracket:
    """The bracket so far from the rounds made and their matches, replays among them (``seeds``
    best first; ``pod_ties`` as :func:`settle_pod` takes it)."""
    seed_of = {bot: index for index, bot in enumerate(seeds)}
    rounds = []
    for number, round_ in enumerate(made, start=1):
        final = not round_["byes"] and len(round_["matches"]) == 1
        going_on = 1 if final else advance
        replays_of = round_.get("replays", {})
        pods = []
        for match_id in round_["matches"]:
            match = matches.get(match_id)
            bots = match.bots if match is not None else ()
            replays = tuple(replays_of.get(match_id, ()))
            played = [match, *(matches.get(replay) for replay in replays)]
            outcome = settle_pod(bots, played, seed_of, going_on, pod_ties)
            ranking = outcome.ranking
            pods.append(
                Pod(
                    match_id,
                    bots,
                    ranking,
                    ranking[:advance],
                    outcome.decided,
                    replays,
                    outcome.replay_due,
                    outcome.decided_by,
                )
            )
        rounds.append(BracketRound(number, tuple(pods), tuple(round_["byes"])))
    return Bracket(tuple(seeds), tuple(rounds), knockout_round_count(len(seeds), seats, advance))


@dataclass(frozen=True)
class PodReplay:
    """A replay owed: pod ``pod`` (0-based) of round ``round`` plays its match again, as replay
    ``number`` (1 for the first), with the same bots in the same seats."""

    round: int
    pod: int
    match: str
    """The pod's first match: the replays are filed under it."""
    number: int
    bots: tuple[str, ...]
    earlier: tuple[str, ...]
    """The pod's replays before this one."""


def replays_due(result: Bracket) -> list[PodReplay]:
    """Every replay the bracket owes now, in bracket order."""
    return [
        PodReplay(round_.number, index, pod.match, len(pod.replays) + 1, pod.bots, pod.replays)
        for round_ in result.rounds
        for index, pod in enumerate(round_.pods)
        if pod.replay_due
    ]


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
    """The bracket as the API shows it: every round made (pods with their match, its replays, the
    match that decided the pod, bots, ranking and who went on; byes), how many rounds there will
    be, and the winner's path (the matches it won)."""
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
                        "replays": list(pod.replays),
                        "replay_due": pod.replay_due,
                        "decided_by": pod.decided_by,
                    }
                    for pod in round_.pods
                ],
            }
            for round_ in result.rounds
        ],
    }
