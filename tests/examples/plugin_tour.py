"""Everything the platform does with a game, done with a game it does not ship: run in a process
whose ``sys.path`` holds a game package installed on its own (``tests/examples/test_plugin_game.py``
installs ``examples/connect_four`` into a temporary directory and runs this with it on
``PYTHONPATH``).

Run as ``python -m tests.examples.plugin_tour GAME-ID`` from the repository root: it lists the game
through the API, plays it from the command line, registers its reference bots as house bots, plays
a tournament of every format with them on the embedded platform, and reads the ladder, a match page
and its board. It prints one JSON line of what it saw and exits 0, or fails an assertion.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import sys
from typing import Any

from flask.testing import FlaskClient

from arena.api import create_app
from arena.cli.main import main as arena_main
from arena.settings import Settings
from arena.tournaments.formats import FORMATS
from arena.worker.embedded import EmbeddedPlatform
from arena.worker.house import register_house_bots
from referee.registry import game_ids, get_game
from tests.platform.waiting import wait_until

ADMIN = "organizer-token-for-the-plugin-tour"


def _get(client: FlaskClient, url: str, status: int = 200) -> Any:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code, response.get_data(as_text=True)[:300])
    return response.get_json() if response.is_json else response.get_data(as_text=True)


def _play_from_the_command_line(game_id: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = arena_main(["play", game_id, "--bots", "random,random", "--games", "2", "--seed", "3"])
    assert status == 0, out.getvalue()
    return out.getvalue()


def _tournament(
    client: FlaskClient, game_id: str, variant: str, bots: list[str], format_name: str
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": f"{game_id} {format_name}",
        "game": game_id,
        "variant": variant,
        "format": format_name,
        "bots": bots,
        "seats_per_match": 2,
        "games_per_pairing": 2,
        "seed": 11,
        "time": {"move_ms": 2000, "bank_ms": 0},
    }
    created = client.post("/api/v1/tournaments", json=body, headers={"Authorization": f"Bearer {ADMIN}"})
    assert created.status_code == 202, created.get_data(as_text=True)
    url = f"/api/v1/tournaments/{created.get_json()['id']}"

    def finished() -> dict[str, Any] | None:
        found: dict[str, Any] = _get(client, url)
        return found if found["status"] == "finished" else None

    done: dict[str, Any] = wait_until(
        finished, 120, f"the {format_name} tournament of {game_id} did not finish"
    )
    return done


def tour(game_id: str) -> dict[str, Any]:
    assert game_id in game_ids(), f"{game_id} is not among the installed games {game_ids()}"
    game = get_game(game_id)
    variant = game.default_variant
    seen: dict[str, Any] = {"cli": _play_from_the_command_line(game_id).splitlines()[0]}
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with EmbeddedPlatform(Settings(admin_token=ADMIN), concurrency=2) as platform:
        client = create_app(platform.runtime).test_client()
        seen["listed"] = [g["id"] for g in _get(client, "/api/v1/games")]
        schemas = _get(client, f"/api/v1/games/{game_id}/schema")
        seen["schema_keys"] = sorted(schemas)
        seen["rules"] = _get(client, f"/api/v1/games/{game_id}/rules").splitlines()[0]
        house = [bot for bot in register_house_bots(platform.runtime.store) if bot.games == (game_id,)]
        seen["house_bots"] = sorted(bot.name for bot in house)
        ids = [bot.id for bot in house]
        seen["formats"] = {}
        match_id = ""
        for format_name in FORMATS:
            done = _tournament(client, game_id, variant, ids, format_name)
            finished = [m for m in done["matches"] if m["status"] == "finished"]
            seen["formats"][format_name] = len(finished)
            match_id = finished[0]["id"]
        ladder = _get(client, f"/api/v1/ladders/{game_id}?variant={variant}")
        seen["ladder"] = sorted((entry["name"], entry["rated_games"] > 0) for entry in ladder["entries"])
        page = _get(client, f"/matches/{match_id}")
        seen["match_page_has_board"] = 'id="board"' in page
        board = client.get(f"/matches/{match_id}/board/3.svg")
        seen["board"] = (board.status_code, board.mimetype, board.get_data(as_text=True).startswith("<svg"))
        seen["game_page_links"] = [
            link in _get(client, f"/games/{game_id}")
            for link in (f"/games/{game_id}/rules", f"/{game_id}/schema")
        ]
        seen["rules_page"] = _get(client, f"/games/{game_id}/rules").count("<pre")
    return seen


if __name__ == "__main__":
    print(json.dumps(tour(sys.argv[1])))
