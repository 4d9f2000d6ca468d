"""Tournaments with a start time and an entry list: making, changing and starting them.

A tournament posted with ``starts_at`` in the future (or with ``entry`` ``open``) waits,
``scheduled``, with its request kept on its record (``plan``) and its entrants in the store
(:mod:`arena.storage.entries`). At its start, whichever process notices first
(:func:`start_due`: the workers' and the embedded platform's tournament ticker, Celery beat's task)
takes the tournament's start mark, so it starts exactly once: the check-in
(:mod:`arena.tournaments.checkin`) withdraws the entrants that do not answer, a field below
``min_entrants`` cancels it with the reason, a field the format cannot hold is cut to one it can
(:mod:`arena.tournaments.fields`), and the rest is what a tournament posted with its bots does
(:func:`arena.tournaments.tournament_requests.create`). A tournament posted without ``starts_at``
and with invited bots starts at once, as it always did.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from arena import scheduling
from arena.accounts.organizers import Manager
from arena.errors import Conflict, InvalidRequest, field_error, merge_errors
from arena.match_bounds import bound_errors
from arena.matches import match_requests
from arena.records import GAME_ENTRANT, EntryRecord, EntryStatus, TournamentRecord, now_iso
from arena.runtime import Runtime
from arena.tournaments import checkin, fields, knockout, progress, swiss, tournament_requests

log = logging.getLogger(__name__)

ENTRY_KINDS = ("invited", "open", "ladder")

EDITABLE = (
    "name",
    "starts_at",
    "min_entrants",
    "max_entrants",
    "top",
    "options",
    "time",
    "games_per_pairing",
    "rated",
    "max_faults",
    "rounds",
    "advance",
    "pod_ties",
)
"""What the organizer may change before the start."""


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds")


def _plan(data: Mapping[str, Any]) -> dict[str, Any]:
    """The request as kept for the start: all of it but the bots, the start time and the entry rules."""
    skip = {"bots", "starts_at", "entry", "top", "min_entrants", "max_entrants"}
    return {key: value for key, value in data.items() if key not in skip}


def _organizer_fields(who: Manager) -> dict[str, Any]:
    found = who.organizer
    return {
        "organizer": None if found is None else found.id,
        "organizer_name": None if found is None else found.name,
    }


def create(runtime: Runtime, data: Mapping[str, Any], who: Manager) -> TournamentRecord:
    """Make a tournament: at once with its bots as before, or scheduled with its entry rules."""
    entry = data.get("entry") or "invited"
    starts: datetime | None = data.get("starts_at")
    now = runtime.clock.time()
    at_once = starts is None or starts.timestamp() <= now
    organizer = _organizer_fields(who)
    if at_once and entry == "invited":
        made = tournament_requests.create(
            runtime, data, {**organizer, "starts_at": iso(now), "starts_ts": now, "min_entrants": 0}
        )
        when, ts = now_iso(), time.time()
        invited = [EntryRecord(bot, made.names[bot], when, ts + i * 1e-6) for i, bot in enumerate(made.bots)]
        runtime.store.entries.put(made.id, invited)  # so each bot's page lists it
        return made
    starts_ts = now if starts is None or at_once else starts.timestamp()
    record = _scheduled_record(runtime, data, organizer, starts_ts)
    entries: list[EntryRecord] = []
    if entry != "ladder" and data.get("bots"):
        bots, errors = match_requests.check_bots(runtime, data["game"], data["bots"])
        if len(set(data["bots"])) != len(data["bots"]):
            merge_errors(errors, field_error("bots", "each bot may enter a tournament once"))
        if len(data["bots"]) > record.max_entrants:
            merge_errors(errors, field_error("bots", f"more than max_entrants ({record.max_entrants})"))
        if errors:
            raise InvalidRequest("The request has invalid fields.", errors)
        entries = [
            EntryRecord(bot_id, bots[bot_id].name, now_iso(), time.time() + index * 1e-6)
            for index, bot_id in enumerate(data["bots"])
        ]
    runtime.store.entries.schedule(record, entries)
    if at_once:  # a ladder final without a start time: its field is the ladder's best now
        started = start(runtime, record.id)
        return started or record
    return record


def _scheduled_record(
    runtime: Runtime, data: Mapping[str, Any], organizer: Mapping[str, Any], starts_ts: float
) -> TournamentRecord:
    """The record of a tournament waiting for its start, its request checked as far as it can be
    without its field."""
    entry = data.get("entry") or "invited"
    errors: dict[str, Any] = {}
    seed = data["seed"] if data.get("seed") is not None else scheduling.new_seed()
    spec = tournament_requests.check_plan(runtime, data, seed, errors)
    if entry == "open" and starts_ts <= runtime.clock.time():
        merge_errors(
            errors, field_error("starts_at", "an open tournament needs a start time to enter before")
        )
    if entry == "invited" and not data.get("bots"):
        merge_errors(errors, field_error("bots", "an invited tournament needs its bots"))
    if entry == "ladder":
        if data.get("bots"):
            merge_errors(
                errors, field_error("bots", "a ladder tournament's field is the ladder's best: no bots")
            )
        if not data.get("top"):
            merge_errors(
                errors, field_error("top", "a ladder tournament needs top: how many of the ladder's best")
            )
    elif data.get("top") is not None:
        merge_errors(errors, field_error("top", "ladder entry only"))
    limits = _entrant_limits(runtime, data, errors)
    if errors or spec is None:
        raise InvalidRequest("The request has invalid fields.", errors)
    now = runtime.clock.time()
    least, most = limits
    return TournamentRecord(
        id=tournament_requests.new_tournament_id(),
        name=data["name"],
        game=spec.game,
        variant=spec.variant,
        format=data["format"],
        bots=(),
        names={},
        seats_per_match=data["seats_per_match"],
        games_per_pairing_requested=data["games_per_pairing"],
        games_per_pairing=data["games_per_pairing"],
        seed=seed,
        options=spec.config.options,
        time=spec.time.to_json(),
        rated=data["rated"],
        max_faults=spec.max_faults,
        match_count=0,
        created_at=now_iso(),
        created_ts=now,
        **organizer,
        starts_at=iso(starts_ts),
        starts_ts=starts_ts,
        entry=entry,
        top=data.get("top") or 0,
        min_entrants=least,
        max_entrants=most,
        scheduled=True,
        plan={**_plan(data), "seed": seed, "variant": spec.variant},
    )


def _entrant_limits(runtime: Runtime, data: Mapping[str, Any], errors: dict[str, Any]) -> tuple[int, int]:
    """``min_entrants`` and ``max_entrants``, defaulting to the least the format plays with and the
    most it holds (a ladder final's ``top``)."""
    seats = data["seats_per_match"]
    least = fields.least_entrants(data["format"], seats)
    most = fields.most_entrants(
        data["format"], seats, data["games_per_pairing"], runtime.settings.max_tournament_matches
    )
    lower = data.get("min_entrants") or least
    upper = data.get("max_entrants") or (data.get("top") or most)
    if lower < least:
        merge_errors(errors, field_error("min_entrants", f"a {data['format']} needs at least {least} bots"))
    if upper > most:
        merge_errors(
            errors, field_error("max_entrants", f"a {data['format']} of this size holds at most {most} bots")
        )
    if upper < lower:
        merge_errors(errors, field_error("max_entrants", f"less than min_entrants ({lower})"))
    return lower, upper


def edit(runtime: Runtime, tournament: TournamentRecord, changes: Mapping[str, Any]) -> TournamentRecord:
    """Change a scheduled tournament's name, start, limits or options before it starts (409 after)."""
    if not tournament.scheduled or tournament.cancelled_at:
        raise Conflict("the tournament has started (or was cancelled): it can no longer be changed")
    entry_rules = ("starts_at", "top", "min_entrants", "max_entrants")
    plan = {
        **(tournament.plan or {}),
        **{key: value for key, value in changes.items() if key in EDITABLE and key not in entry_rules},
    }
    data = {
        **plan,
        "entry": tournament.entry,
        "top": changes.get("top", tournament.top or None),
        "min_entrants": changes.get("min_entrants", tournament.min_entrants),
        "max_entrants": changes.get("max_entrants", tournament.max_entrants),
    }
    starts = changes.get("starts_at")
    starts_ts = tournament.starts_ts if starts is None else starts.timestamp()
    errors: dict[str, Any] = {}
    if starts is not None and starts_ts <= runtime.clock.time():
        merge_errors(errors, field_error("starts_at", "must be in the future"))
    tournament_requests.check_plan(runtime, data, tournament.seed, errors)
    merge_errors(errors, bound_errors(runtime.settings, data))
    least, most = _entrant_limits(runtime, data, errors)
    if errors:
        raise InvalidRequest("The request has invalid fields.", errors)
    changed = replace(
        tournament,
        name=plan["name"],
        starts_at=iso(starts_ts),
        starts_ts=starts_ts,
        top=data["top"] or 0,
        min_entrants=least,
        max_entrants=most,
        plan=plan,
    )
    if not runtime.store.entries.change_scheduled(changed):
        raise Conflict("the tournament has started (or was cancelled): it can no longer be changed")
    return changed


def cancel_scheduled(runtime: Runtime, tournament: TournamentRecord, reason: str | None) -> TournamentRecord:
    """Cancel a tournament that has not started (by its organizer, or at its start with ``reason``)."""
    cancelled = replace(tournament, scheduled=False, cancelled_at=now_iso(), cancel_reason=reason)
    runtime.store.tournaments.mark_cancelled(cancelled)
    runtime.store.entries.unschedule(tournament.id)
    return cancelled


def start_due(runtime: Runtime) -> list[str]:
    """Start every scheduled tournament whose time has come and that no other process is starting;
    the ids this call started (or cancelled at the start)."""
    started = []
    for tournament_id in runtime.store.entries.due_ids(runtime.clock.time()):
        if start(runtime, tournament_id) is not None:
            started.append(tournament_id)
    return started


def start(runtime: Runtime, tournament_id: str) -> TournamentRecord | None:
    """Start one scheduled tournament if this caller takes its start mark; None if another has it."""
    store = runtime.store
    if not store.entries.take_start_mark(tournament_id):
        return None
    tournament = store.tournaments.get(tournament_id)
    if tournament is None or not tournament.scheduled or tournament.cancelled_at:
        store.entries.unschedule(tournament_id)
        return tournament
    entries = _field(runtime, tournament)
    bots = store.bots.get_many([entry.bot for entry in entries if entry.status is EntryStatus.ENTERED])
    answers = checkin.check_in(runtime, [bots[entry.bot] for entry in entries if entry.bot in bots])
    settled: list[EntryRecord] = []
    for entry in entries:
        if entry.status is not EntryStatus.ENTERED:
            settled.append(entry)
        elif entry.bot not in bots or tournament.game not in bots[entry.bot].games:
            settled.append(_withdrawn(entry, "the bot was deleted, or no longer plays the game"))
        elif answers.get(entry.bot):
            settled.append(_withdrawn(entry, answers[entry.bot] or ""))
        else:
            settled.append(entry)
    field_ids = [entry.bot for entry in settled if entry.status is EntryStatus.ENTERED]
    plan = dict(tournament.plan or {})
    advance = plan.get("advance") or knockout.knockout_advance_default(tournament.seats_per_match)
    size, why = fields.held_field(
        tournament.format, len(field_ids), tournament.seats_per_match, advance, tournament.max_entrants
    )
    if why is not None and size >= tournament.min_entrants:
        if tournament.entry != "ladder" and tournament.format != "gauntlet":  # by seed, the lowest last
            field_ids = list(progress.knockout_seeds(runtime, replace(tournament, bots=tuple(field_ids))))
        left_out = set(field_ids[size:])
        settled = [
            _withdrawn(e, f"left out as a lowest seed: {why}") if e.bot in left_out else e for e in settled
        ]
        field_ids = field_ids[:size]
    store.entries.put(tournament_id, settled)
    if len(field_ids) < tournament.min_entrants:
        count = len(field_ids)
        reason = (
            f"{count} entrant{'' if count == 1 else 's'} at the start (after the check-in); it needs at "
            f"least {tournament.min_entrants}"
        )
        return cancel_scheduled(runtime, tournament, reason)
    if tournament.format == "swiss" and plan.get("rounds"):
        plan["rounds"] = min(plan["rounds"], swiss.max_rounds(len(field_ids), tournament.seats_per_match))
    event = {
        name: getattr(tournament, name)
        for name in (
            "id",
            "created_at",
            "created_ts",
            "organizer",
            "organizer_name",
            "starts_at",
            "starts_ts",
            "entry",
            "top",
            "min_entrants",
            "max_entrants",
            "plan",
        )
    }
    try:
        started = tournament_requests.create(
            runtime, {**plan, "bots": field_ids}, {**event, "scheduled": False}
        )
    except InvalidRequest as refused:
        reason = f"{refused.message} {refused.errors}"
        return cancel_scheduled(runtime, tournament, f"the field could not be played: {reason}")
    store.entries.unschedule(tournament_id)
    if store.entries.cancel_asked(tournament_id):  # cancelled while it was starting: its matches stop too
        return tournament_requests.cancel(runtime, tournament_id)
    return started


def _withdrawn(entry: EntryRecord, reason: str) -> EntryRecord:
    return replace(entry, status=EntryStatus.WITHDRAWN, reason=reason)


def _field(runtime: Runtime, tournament: TournamentRecord) -> list[EntryRecord]:
    """The entries to check in: those made; for a ladder final, the ladder's best ``top`` now (those
    the organizer removed left out), then any the organizer added."""
    made = runtime.store.entries.of_tournament(tournament.id)
    if tournament.entry != "ladder":
        return made
    listed = {entry.bot for entry in made}
    store = runtime.store
    page = store.ladders.page(tournament.game, tournament.variant, 0, tournament.top + len(listed) + 10)
    found = store.bots.get_many([row.bot_id for row in page.entries])
    ranked = [row for row in page.entries if row.bot_id != GAME_ENTRANT and row.bot_id in found]
    best = [row for row in ranked if row.bot_id not in listed][: tournament.top]
    now = time.time()  # the machine's: entries in the order made
    picked = [EntryRecord(row.bot_id, row.name, now_iso(), now + i * 1e-6) for i, row in enumerate(best)]
    return picked + made
