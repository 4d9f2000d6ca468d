"""Making the next round of a Swiss or knockout tournament once the previous one has ended.

The worker calls :func:`advance` after storing a match's end; creation calls :func:`make_round` for
round 1. A round is made only when every match of the previous round has ended (finished or
aborted), and exactly once: a ``SET NX`` mark per round lets only the first of two concurrent
callers make it. The worker calls :func:`advance` whenever a tournament's match ends, finished or
aborted, so a round whose last match is aborted is followed all the same. Which bots meet in the
next round is :func:`arena.tournaments.rounds.next_round`.

A knockout replaying tied pods (``pod_ties: "replay"``) first plays the replays the round owes
(:func:`arena.tournaments.rounds.replays_due`), each behind a mark of its own
(:func:`make_replays`); the next round follows once no pod is tied any more or its replays are
used up.

A knockout is seeded by rating (:func:`knockout_seeds`): the ladder's conservative estimate of the
game and variant, best first, bots without a rating last, in entry order.
Nothing here imports the API.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena import scheduling
from arena.ladders import skill
from arena.records import MatchRecord, TournamentRecord, round_match_ids
from arena.runtime import Runtime
from arena.tournaments import knockout
from arena.tournaments.knockout import PodReplay
from arena.tournaments.rounds import ROUND_FORMATS, next_round, replays_due
from referee.game import SetupError
from referee.match import MatchSpec
from referee.registry import get_game
from referee.rng import derive_seed


def make_round(
    runtime: Runtime,
    tournament: TournamentRecord,
    round_no: int,
    pods: Sequence[Sequence[str]],
    byes: Sequence[str],
    template: MatchSpec,
) -> list[str]:
    """Store and queue one round (the caller holds the round's mark); the new match ids."""
    matches: list[tuple[MatchRecord, MatchSpec]] = []
    for index, pod in enumerate(pods):
        spec = template.reseated(tuple(pod), derive_seed(tournament.seed, "round", round_no, "pod", index))
        matches.append((_tournament_match(tournament, spec), spec))
    add_round = runtime.store.tournaments.add_round
    return scheduling.schedule(
        runtime, matches, lambda made: add_round(tournament.id, round_no, made, byes), abort_refused=False
    )


def make_replays(
    runtime: Runtime, tournament: TournamentRecord, due: Sequence[PodReplay], template: MatchSpec
) -> list[str]:
    """Store and queue each replay owed that no other caller made first (a ``SET NX`` mark per pod
    and replay): the pod's bots in the same seats, a seed derived from the tournament's, the round,
    the pod and the replay's number. The new match ids."""
    made: list[str] = []
    for replay in due:
        if not runtime.store.tournaments.take_replay_mark(tournament.id, replay.match, replay.number):
            continue
        seed = derive_seed(tournament.seed, "round", replay.round, "pod", replay.pod, "replay", replay.number)
        spec = template.reseated(replay.bots, seed)
        record = _tournament_match(tournament, spec)

        def add_replay(made: scheduling.Scheduled, replay: PodReplay = replay) -> None:
            (record, spec), *_ = made
            runtime.store.tournaments.add_replay(tournament.id, replay.match, replay.earlier, record, spec)

        made.extend(scheduling.schedule(runtime, [(record, spec)], add_replay, abort_refused=False))
    return made


def _tournament_match(tournament: TournamentRecord, spec: MatchSpec) -> MatchRecord:
    return MatchRecord.new(
        scheduling.new_match_id(),
        spec.game,
        spec.variant,
        spec.bots,
        tuple(tournament.names.get(bot, bot) for bot in spec.bots),
        rated=tournament.rated,
        tournament=tournament.id,
    )


def knockout_seeds(runtime: Runtime, tournament: TournamentRecord) -> tuple[str, ...]:
    """The tournament's bots in seed order: by their conservative rating on the game and variant's
    ladder (:func:`arena.tournaments.knockout.seed_by_rating`); an unrated variant seeds in entry order."""
    try:
        rated = get_game(tournament.game).variant(tournament.variant).rated
    except SetupError:
        rated = False
    rows = (
        runtime.store.ladders.rows_of(tournament.game, tournament.variant, tournament.bots) if rated else {}
    )
    ratings: dict[str, float | None] = {}
    for bot, row in rows.items():
        if row.get("mu") is not None and row.get("sigma") is not None:
            ratings[bot] = round(skill.Skill(float(row["mu"]), float(row["sigma"])).conservative, 3)
    return tuple(knockout.seed_by_rating(tournament.bots, ratings))


def advance(runtime: Runtime, tournament_id: str) -> bool:
    """Once every match of the last round has ended, make and queue the replays it owes or else the
    next round; True if this call made any."""
    store = runtime.store
    tournament = store.tournaments.get(tournament_id)
    if tournament is None or tournament.format not in ROUND_FORMATS or tournament.cancelled_at:
        return False
    made = store.tournaments.rounds(tournament_id)
    if not made:
        return False
    ids = [match_id for round_ in made for match_id in round_match_ids(round_)]
    matches = {match.id: match for match in store.matches.get_many(ids)}
    if any(not matches[match_id].status.ended for match_id in round_match_ids(made[-1])):
        return False
    template = store.matches.spec(ids[0])
    if template is None:
        return False
    due = replays_due(tournament, made, matches)
    if due:
        return bool(make_replays(runtime, tournament, due, template))
    planned = next_round(tournament, made, matches)
    if planned is None:
        return False
    pods, byes = planned
    round_no = len(made) + 1
    if not store.tournaments.take_round_mark(tournament_id, round_no):
        return False
    make_round(runtime, tournament, round_no, pods, byes, template)
    return True
