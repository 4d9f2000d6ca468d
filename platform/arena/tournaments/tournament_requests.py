"""Creating tournaments (every match checked, stored and queued at once) and their progress.

The schedule (:mod:`arena.tournaments.formats`) and the result (:mod:`arena.tournaments.results`) are
pure functions; this module checks the request, turns the schedule into matches (each a
:class:`referee.match.MatchSpec` beside its status record) and reads them back for ``GET``
(:func:`view`).
"""

from __future__ import annotations

import secrets
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from arena import scheduling
from arena.errors import InvalidRequest, NotFound, field_error, merge_errors
from arena.match_bounds import bound_errors
from arena.matches import match_requests
from arena.records import BotRecord, EntryRecord, MatchRecord, TournamentRecord, now_iso
from arena.runtime import Runtime
from arena.tournaments import formats, knockout, progress, results, swiss
from arena.tournaments.rounds import ROUND_FORMATS, is_team, more_to_play
from referee.match import MatchSpec

CANCELLED = "tournament cancelled"


def check_plan(
    runtime: Runtime, data: Mapping[str, Any], seed: int, errors: dict[str, Any]
) -> MatchSpec | None:
    """What a tournament asks of its matches, checked without its bots (a scheduled tournament's
    bots enter later): the spec every match shares but for its seats and seed, errors added to
    ``errors``; and the options only one format takes."""
    bot_ids: list[str] = data.get("bots") or []
    seats: int = data["seats_per_match"]
    placeholder = [bot_ids[0] if bot_ids else "?"] * seats
    spec_errors: dict[str, Any] = {}
    spec = match_requests.build_spec({**data, "setup": None}, placeholder, seed, spec_errors)
    if "bots" in spec_errors:  # the seat-count check names "bots" for a match; here it is seats_per_match
        spec_errors["seats_per_match"] = spec_errors.pop("bots")
    merge_errors(errors, spec_errors)
    merge_errors(errors, bound_errors(runtime.settings, data))
    for name, only in (("rounds", "swiss"), ("advance", "knockout"), ("pod_ties", "knockout")):
        if data.get(name) is not None and data["format"] != only:
            merge_errors(errors, field_error(name, f"{only} only; a {data['format']} does not take it"))
    return spec


def _check(runtime: Runtime, data: Mapping[str, Any], seed: int) -> tuple[MatchSpec, dict[str, BotRecord]]:
    """The spec every match of the tournament shares but for its seats and seed, and the bots."""
    bot_ids: list[str] = data["bots"]
    seats: int = data["seats_per_match"]
    errors: dict[str, Any] = {}
    spec = check_plan(runtime, data, seed, errors)
    if len(set(bot_ids)) != len(bot_ids):
        merge_errors(errors, field_error("bots", "each bot may enter a tournament once"))
    elif len(bot_ids) < max(seats, 2) and "seats_per_match" not in errors:
        merge_errors(errors, field_error("bots", f"needs at least {max(seats, 2)} bots"))
    bots, bot_errors = match_requests.check_bots(runtime, data["game"], bot_ids)
    merge_errors(errors, bot_errors)
    if data["format"] in ROUND_FORMATS:
        _check_rounds(data, errors)
    elif not errors:
        count = formats.match_count(data["format"], len(bot_ids), seats, data["games_per_pairing"])
        limit = runtime.settings.max_tournament_matches
        if count > limit:
            message = f"this tournament would have {count} matches; the limit is {limit}"
            merge_errors(errors, field_error("games_per_pairing", message))
    if errors or spec is None:
        raise InvalidRequest("The request has invalid fields.", errors)
    return spec, bots


def _check_rounds(data: Mapping[str, Any], errors: dict[str, Any]) -> None:
    seats: int = data["seats_per_match"]
    if "seats_per_match" in errors:
        return
    if not 2 <= seats <= 4:
        merge_errors(errors, field_error("seats_per_match", "swiss and knockout take pods of 2 to 4 seats"))
        return
    if data["format"] == "knockout":
        advance = data.get("advance") or knockout.knockout_advance_default(seats)
        problem = knockout.knockout_field_error(len(data["bots"]), seats, advance)
        if problem is not None:
            merge_errors(errors, field_error("advance" if problem.startswith("must") else "bots", problem))
    elif len(data["bots"]) < seats:
        merge_errors(errors, field_error("bots", f"needs at least {seats} bots"))
    elif data.get("rounds") is not None:
        most = swiss.max_rounds(len(data["bots"]), seats)
        if data["rounds"] > most:
            message = (
                f"a swiss of {len(data['bots'])} bots in pods of {seats} can pair at most {most} rounds "
                "without a rematch"
            )
            merge_errors(errors, field_error("rounds", message))


def new_tournament_id() -> str:
    return "t-" + secrets.token_hex(8)


def create(
    runtime: Runtime, data: Mapping[str, Any], event: Mapping[str, Any] | None = None
) -> TournamentRecord:
    """Check the request, store the tournament and all its matches, and queue them in order.

    ``event`` sets record fields the request does not make: who organizes it, and for a scheduled
    tournament starting now its id, creation time and entry rules (:mod:`arena.tournaments.scheduled`).
    """
    seed = data["seed"] if data.get("seed") is not None else scheduling.new_seed()
    template, bots = _check(runtime, data, seed)
    seats = data["seats_per_match"]
    event = event or {}
    tournament_id = event.get("id") or new_tournament_id()
    matches: list[tuple[MatchRecord, MatchSpec]] = []
    in_rounds = data["format"] in ROUND_FORMATS
    requested = data["games_per_pairing"]
    planned_matches = (
        [] if in_rounds else formats.schedule(data["format"], data["bots"], seats, requested, seed)
    )
    for planned in planned_matches:
        spec = template.reseated(planned.bots, planned.seed)
        matches.append((match_requests.new_match(spec, bots, data["rated"], tournament_id), spec))
    tournament = TournamentRecord(
        id=tournament_id,
        name=data["name"],
        game=template.game,
        variant=template.variant,
        format=data["format"],
        bots=tuple(data["bots"]),
        names={bot_id: bot.name for bot_id, bot in bots.items()},
        seats_per_match=seats,
        games_per_pairing_requested=data["games_per_pairing"],
        # a Swiss or knockout pod meets once a round, whatever was asked for
        games_per_pairing=1 if in_rounds else formats.games_per_pairing(data["games_per_pairing"], seats),
        seed=seed,
        options=template.config.options,
        time=template.time.to_json(),
        rated=data["rated"],
        max_faults=template.max_faults,
        match_count=len(matches),
        created_at=now_iso(),
        created_ts=time.time(),
    )
    tournament = replace(tournament, **event)
    if in_rounds:
        return _create_in_rounds(runtime, tournament, data, template)
    scheduling.schedule(runtime, matches, lambda planned: runtime.store.tournaments.add(tournament, planned))
    return tournament


def _create_in_rounds(
    runtime: Runtime, tournament: TournamentRecord, data: Mapping[str, Any], template: MatchSpec
) -> TournamentRecord:
    """Swiss and knockout: store the tournament and queue round 1; later rounds follow results."""
    seats, count = tournament.seats_per_match, len(tournament.bots)
    if tournament.format == "swiss":
        planned = data.get("rounds") or min(swiss.swiss_rounds_default(count), swiss.max_rounds(count, seats))
        tournament = replace(tournament, rounds=planned, match_count=0)
        first = swiss.swiss_pairing(tournament.bots, seats, {}, [], {})
        pods, byes = first.pods, first.byes
    else:
        advance = data.get("advance") or knockout.knockout_advance_default(seats)
        planned = knockout.knockout_round_count(count, seats, advance)
        seeds = progress.knockout_seeds(runtime, tournament)
        tournament = replace(
            tournament,
            rounds=planned,
            advance=advance,
            match_count=0,
            seeds=seeds,
            pod_ties=data.get("pod_ties") or "seed",
        )
        knock = knockout.knockout_round(seeds, seats, advance)
        pods, byes = knock.pods, knock.byes
    runtime.store.tournaments.add(tournament, [])
    runtime.store.tournaments.take_round_mark(tournament.id, 1)
    progress.make_round(runtime, tournament, 1, pods, byes, template)
    return tournament


def get(runtime: Runtime, tournament_id: str) -> TournamentRecord:
    tournament = runtime.store.tournaments.get(tournament_id)
    if tournament is None:
        raise NotFound(f"no tournament with id {tournament_id!r}")
    return tournament


def cancel(runtime: Runtime, tournament_id: str) -> TournamentRecord:
    """Cancel a tournament: no new round is made, queued matches are cancelled (no worker starts
    them), running ones stop before their next move (their worker reads the tournament's mark).

    The record and the mark are stored first, so a match a worker takes meanwhile stops at once and
    a round being made meanwhile is stopped the same way; cancelling twice changes nothing more.
    """
    tournament = get(runtime, tournament_id)
    if tournament.cancelled_at is None:
        tournament = replace(tournament, cancelled_at=now_iso())
    runtime.store.tournaments.mark_cancelled(tournament)
    for match_id in runtime.store.tournaments.match_ids(tournament_id):
        runtime.store.matches.cancel_if_queued(match_id, CANCELLED)
    return tournament


@dataclass(frozen=True)
class TournamentView:
    """A tournament with its progress, result (:mod:`arena.tournaments.results`), rounds and matches
    as they stand now.

    :meth:`to_json` gives all of it; which of it the public sees is the API's ``TournamentSchema``
    (its fields), which dumps this, so no field is hidden by hand here.
    """

    record: TournamentRecord
    status: str
    progress: Mapping[str, int]
    points: str
    result: results.Result
    rounds_made: list[dict[str, Any]]
    matches: list[dict[str, Any]]
    entries: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        winners = self.result.winners
        record = self.record
        return {
            **record.to_json(),
            "organizer": None
            if record.organizer is None
            else {"id": record.organizer, "name": record.organizer_name},
            "entries": self.entries,
            "pod_ties": self.record.pod_ties if self.record.format == "knockout" else None,
            "status": self.status,
            "progress": dict(self.progress),
            "points": self.points,
            "winner": winners[0] if len(winners) == 1 else None,
            "winners": winners,
            "standings": self.result.standings,
            "bracket": self.result.bracket,
            "cross_table": self.result.cross_table,
            "challenger": self.result.challenger,
            "rounds_made": self.rounds_made,
            "matches": self.matches,
        }


def view(runtime: Runtime, tournament: TournamentRecord) -> TournamentView:
    """The tournament with its progress, result and matches, read from the store."""
    match_ids = runtime.store.tournaments.match_ids(tournament.id)
    matches = runtime.store.matches.get_many(match_ids)
    specs = runtime.store.matches.specs(match_ids)
    statuses = Counter(match.status.value for match in matches)
    done = statuses["finished"] + statuses["aborted"] + statuses["cancelled"]
    total = len(matches)
    team = is_team(tournament)
    status = "finished" if done == total else "running" if done or statuses["running"] else "queued"
    rounds_made = runtime.store.tournaments.rounds(tournament.id)
    if (
        status == "finished"
        and matches
        and more_to_play(tournament, rounds_made, {match.id: match for match in matches})
    ):
        status = "running"  # every match made has ended, and the next round (or a replay) is owed
    if tournament.scheduled:
        status = "scheduled"
    if tournament.cancelled_at:
        status = "cancelled"
    outcome = results.result(tournament, rounds_made, matches, team, finished=status == "finished")
    return TournamentView(
        record=tournament,
        status=status,
        progress={
            "done": done,
            "total": total,
            "finished": statuses["finished"],
            "aborted": statuses["aborted"],
            "cancelled": statuses["cancelled"],
            "running": statuses["running"],
            "queued": statuses["queued"],
        },
        points="one point per match, shared equally by the seats in first place; "
        + ("a game the team lost gives no points" if team else "a shared first place splits it"),
        result=outcome,
        rounds_made=[
            {
                "round": number + 1,
                "matches": made["matches"],
                "byes": made["byes"],
                "replays": made.get("replays", {}),
            }
            for number, made in enumerate(rounds_made)
        ],
        matches=[
            {
                "id": match.id,
                "round": outcome.rounds_of.get(match.id),
                "replay_of": outcome.replay_of.get(match.id),
                "status": match.status.value,
                "bots": list(match.bots),
                "seed": specs[match.id].seed if match.id in specs else None,
                "result": None if match.result is None else match.result.to_json(),
            }
            for match in matches
        ],
        entries=_entries(runtime, tournament),
    )


def _entries(runtime: Runtime, tournament: TournamentRecord) -> list[dict[str, Any]]:
    """Who entered (a tournament made with its bots at once: those bots, entered when it was made)."""
    stored = runtime.store.entries.of_tournament(tournament.id)
    if stored:
        return [entry.to_json() for entry in stored]
    return [
        EntryRecord(
            bot, tournament.names.get(bot, bot), tournament.created_at, tournament.created_ts
        ).to_json()
        for bot in tournament.bots
    ]
