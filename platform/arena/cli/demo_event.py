"""The demo's open tournament: the way people run a competition, end to end.

An organizer (made by the admin) schedules an open round robin a few seconds ahead; every reference
bot of a game of duels (else of the first game) enters itself through
``POST /api/v1/tournaments/<id>/entries`` with its own token, and so does one more bot whose server
is then stopped; at the start the platform's check-in pings every entrant, withdraws the stopped one
with the reason, and plays the others.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol, TextIO

LEAD_S = 3.0
"""How far ahead the demo schedules its open tournament."""


class Api(Protocol):
    admin: dict[str, str]

    def call(self, method: str, url: str, expect: int, **kwargs: Any) -> Any: ...


def run_open_event(
    api: Api,
    game_id: str,
    variant: str,
    seats: int,
    entrants: dict[str, str],
    stopped_bot: Callable[[], tuple[str, str, Callable[[], None]]],
    move_ms: int,
    timeout_s: float,
    out: TextIO,
) -> dict[str, Any] | None:
    """Schedule, enter, check in and play the open tournament; the tournament as it ended (None if
    it did not end within ``timeout_s``). ``entrants`` maps bot ids to their tokens;
    ``stopped_bot`` registers one more bot and answers its id, token and what stops its server."""
    organizer = api.call("POST", "/api/v1/organizers", 201, json={"name": "Demo club"}, headers=api.admin)
    club = {"Authorization": f"Bearer {organizer['token']}"}
    starts = datetime.fromtimestamp(time.time() + LEAD_S, UTC)
    body = {
        "name": "Demo open",
        "game": game_id,
        "variant": variant,
        "format": "round_robin",
        "seats_per_match": seats,
        "games_per_pairing": 1,
        "entry": "open",
        "starts_at": starts.isoformat(),
        "time": {"move_ms": move_ms, "bank_ms": 0},
    }
    made = api.call("POST", "/api/v1/tournaments", 202, json=body, headers=club)
    url = f"/api/v1/tournaments/{made['id']}"
    stopped_id, stopped_token, stop = stopped_bot()
    for bot_id, token in [*entrants.items(), (stopped_id, stopped_token)]:
        api.call(
            "POST", f"{url}/entries", 201, json={"bot": bot_id}, headers={"Authorization": f"Bearer {token}"}
        )
    stop()  # it entered, then went away: the check-in finds it gone
    print(
        f"\n== open tournament {made['name']!r} by {organizer['name']}: {len(entrants) + 1} bots entered "
        f"through the entry route; it starts at {made['starts_at']}",
        file=out,
        flush=True,
    )
    deadline = time.monotonic() + timeout_s
    while True:
        shown: dict[str, Any] = api.call("GET", url, 200)
        if shown["status"] in ("finished", "cancelled"):
            break
        if time.monotonic() > deadline:
            print(f"the open tournament did not end within {timeout_s:.0f}s", file=out)
            return None
        time.sleep(0.2)
    for entry in shown["entries"]:
        if entry["status"] == "withdrawn":
            print(f"check-in withdrew {entry['name']}: {entry['reason']}", file=out)
    if shown["status"] == "cancelled":
        print(f"cancelled at its start: {shown['cancel_reason']}", file=out)
        return shown
    for row in shown["standings"]:
        print(f"  {row['rank']}. {row['name']}: {row['points']} points", file=out)
    print(f"standings as CSV: {url}/standings.csv", file=out)
    return shown
