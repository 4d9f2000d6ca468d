"""Creating tournaments (every match checked, stored and queued at once) and their progress.

The schedule and the standings are pure functions in :mod:`arena.tournaments`; this module checks
the request, turns the schedule into match records and reads them back for ``GET``.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Mapping
from typing import Any

from arena import match_requests, tournaments
from arena.errors import InvalidRequest, NotFound, field_error, merge_errors
from arena.runtime import Runtime, stamp
from arena.store import Record
from referee.game import SetupError
from referee.registry import get_game
from referee.runner import check_match_request


def _check(runtime: Runtime, data: Mapping[str, Any]) -> tuple[str, dict[str, Any], dict[str, Record]]:
    _, variant = match_requests.resolve_game(data["game"], data.get("variant"))
    bot_ids: list[str] = data["bots"]
    seats: int = data["seats_per_match"]
    errors: dict[str, Any] = {}
    resolved: dict[str, Any] = {}
    try:
        resolved = check_match_request(data["game"], variant, seats, data.get("options"), None)
    except SetupError as error:
        # the seat-count check names "bots" for a match; here the count is seats_per_match
        name = "seats_per_match" if error.field_name == "bots" else error.field_name
        merge_errors(errors, field_error(name, str(error)))
    if len(set(bot_ids)) != len(bot_ids):
        merge_errors(errors, field_error("bots", "each bot may enter a tournament once"))
    elif len(bot_ids) < max(seats, 2) and "seats_per_match" not in errors:
        merge_errors(errors, field_error("bots", f"needs at least {max(seats, 2)} bots"))
    bots, bot_errors = match_requests.check_bots(runtime, data["game"], bot_ids)
    merge_errors(errors, bot_errors)
    if not errors:
        count = tournaments.match_count(data["format"], len(bot_ids), seats, data["games_per_pairing"])
        limit = runtime.settings.max_tournament_matches
        if count > limit:
            message = f"this tournament would have {count} matches; the limit is {limit}"
            merge_errors(errors, field_error("games_per_pairing", message))
    if errors:
        raise InvalidRequest("The request has invalid fields.", errors)
    return variant, resolved, bots


def create(runtime: Runtime, data: Mapping[str, Any]) -> Record:
    """Check the request, store the tournament and all its matches, and queue them in order."""
    variant, resolved, bots = _check(runtime, data)
    seed = data["seed"] if data.get("seed") is not None else match_requests.new_seed()
    seats = data["seats_per_match"]
    tournament = {
        "id": "t-" + secrets.token_hex(8),
        "name": data["name"],
        "game": data["game"],
        "variant": variant,
        "format": data["format"],
        "bots": list(data["bots"]),
        "names": {bot_id: bot["name"] for bot_id, bot in bots.items()},
        "seats_per_match": seats,
        "games_per_pairing_requested": data["games_per_pairing"],
        "games_per_pairing": tournaments.games_per_pairing(data["games_per_pairing"], seats),
        "seed": seed,
        "options": resolved,
        "time": data["time"],
        "rated": data["rated"],
        "max_faults": data["max_faults"],
        **stamp(),
    }
    matches = [
        match_requests.new_record(
            game_id=data["game"],
            variant=variant,
            bots=[bots[bot_id] for bot_id in planned.bots],
            seed=planned.seed,
            options=resolved,
            setup=None,
            time=data["time"],
            rated=data["rated"],
            max_faults=data["max_faults"],
            tournament=tournament["id"],
        )
        for planned in tournaments.schedule(
            data["format"], data["bots"], seats, data["games_per_pairing"], seed
        )
    ]
    tournament["match_count"] = len(matches)
    runtime.store.add_tournament(tournament, matches)
    match_requests.enqueue(runtime, [match["id"] for match in matches])
    return tournament


def get(runtime: Runtime, tournament_id: str) -> Record:
    tournament = runtime.store.get_tournament(tournament_id)
    if tournament is None:
        raise NotFound(f"no tournament with id {tournament_id!r}")
    return tournament


def public_view(runtime: Runtime, tournament: Record) -> dict[str, Any]:
    """The tournament with its progress, standings and matches."""
    matches = runtime.store.get_matches(runtime.store.tournament_match_ids(tournament["id"]))
    statuses = Counter(match["status"] for match in matches)
    done = statuses["finished"] + statuses["aborted"]
    total = len(matches)
    try:
        team = get_game(tournament["game"]).variant(tournament["variant"]).team
    except SetupError:  # the game or variant left the registry since: its results still stand
        team = False
    status = "finished" if done == total else "running" if done or statuses["running"] else "queued"
    view = {name: value for name, value in tournament.items() if name not in ("created_ts", "names")}
    return {
        **view,
        "status": status,
        "progress": {
            "done": done,
            "total": total,
            "finished": statuses["finished"],
            "aborted": statuses["aborted"],
            "running": statuses["running"],
            "queued": statuses["queued"],
        },
        "points": "one point per match, shared equally by the seats in first place; "
        + ("a game the team lost gives no points" if team else "a shared first place splits it"),
        "standings": tournaments.standings(tournament["bots"], tournament["names"], matches, team),
        "matches": [
            {
                "id": match["id"],
                "status": match["status"],
                "bots": match["bots"],
                "seed": match["seed"],
                "result": match["result"],
            }
            for match in matches
        ],
    }
