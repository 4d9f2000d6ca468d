"""What the pages show of tournaments people enter: upcoming, running and finished apart, a scheduled
tournament's entry rules with the exact ``curl`` that enters a bot, and the tournaments a bot entered."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from arena.runtime import Runtime

UPCOMING = ("scheduled",)
RUNNING = ("queued", "running")


def apart(tournaments: Sequence[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Upcoming (soonest first), running and finished or cancelled (as listed: newest first)."""
    upcoming = sorted((t for t in tournaments if t["status"] in UPCOMING), key=lambda t: t["starts_at"] or "")
    return {
        "upcoming": upcoming,
        "running": [t for t in tournaments if t["status"] in RUNNING],
        "finished": [t for t in tournaments if t["status"] not in UPCOMING + RUNNING],
    }


ENTRY_RULES = {
    "open": "Open: any bot registered for the game enters itself with its own token, until the start.",
    "invited": "Invited: the organizer chose the field (and may add or remove bots until the start).",
    "ladder": "Ladder final: the best {top} of the ladder at the start enter, seeded by it.",
}


def entry_info(view: Mapping[str, Any], root_url: str) -> dict[str, Any]:
    """The entry rules in words, the limits, and the commands a bot's owner runs to enter and withdraw."""
    url = f"{root_url.rstrip('/')}/api/v1/tournaments/{view['id']}/entries"
    enter = (
        f"curl -X POST {shlex.quote(url)} -H 'Authorization: Bearer <your bot token>' "
        "-H 'Content-Type: application/json' -d '{\"bot\": \"<your bot id>\"}'"
    )
    bearer = "-H 'Authorization: Bearer <your bot token>'"
    withdraw = f"curl -X DELETE {shlex.quote(url + '/<your bot id>')} {bearer}"
    entered = [e for e in view["entries"] if e["status"] == "entered"]
    return {
        "rules": ENTRY_RULES[view["entry"]].format(top=view["top"]),
        "open": view["entry"] == "open",
        "entered": len(entered),
        "min": view["min_entrants"],
        "max": view["max_entrants"],
        "full": len(entered) >= view["max_entrants"],
        "curl": enter,
        "withdraw": withdraw,
    }


def entered(runtime: Runtime, bot_id: str, limit: int = 50) -> list[dict[str, Any]]:
    """The tournaments the bot entered, the latest entry first, with where its entry stands."""
    store = runtime.store
    shown = []
    for tournament_id in store.entries.tournament_ids_of(bot_id, limit):
        tournament = store.tournaments.get(tournament_id)
        if tournament is None:
            continue
        mine = next((e for e in store.entries.of_tournament(tournament_id) if e.bot == bot_id), None)
        status = "scheduled" if tournament.scheduled else "started"
        if tournament.cancelled_at:
            status = "cancelled"
        shown.append(
            {
                "id": tournament.id,
                "name": tournament.name,
                "game": tournament.game,
                "variant": tournament.variant,
                "format": tournament.format,
                "starts_at": tournament.starts_at,
                "tournament_status": status,
                "entry_status": None if mine is None else mine.status.value,
                "reason": None if mine is None else mine.reason,
            }
        )
    return shown
