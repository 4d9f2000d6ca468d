"""Screenshots of the web pages with real games, for the README.

Run as ``python -m tests.platform.web.screenshots DIR`` (default ``docs/images``).

Runs the embedded platform with every reference bot of Volcano and Vulkan! (two copies of each, each
copy served by its own bot server so it keeps its own secret), plays a round robin per game, starts
a Boulderville tournament so that something is in progress, and saves ``home.png``, ``ladder.png``
and ``match.png`` in DIR, as headless Chromium shows them; then plays one match of every game between
its reference bots and saves ``viewer-<game>.png``, the replay viewer opened half way through
(``#move=N``).
"""

from __future__ import annotations

import logging
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import requests
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from werkzeug.serving import make_server

from arena.api import create_app
from arena.settings import Settings
from arena.worker.embedded import EmbeddedPlatform
from bots.registry import bots_for
from bots.server import serve_in_thread
from referee.protocol import new_secret
from referee.transport.endpoints import EndpointPolicy
from tests.platform.web.conftest import CHROMIUM_FLAGS, _chromium

ADMIN = "screenshots-organizer-token"
SIZE = (1400, 1000)


def main(out: Path) -> int:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    settings = Settings(
        admin_token=ADMIN,
        policy=EndpointPolicy.from_text("127.0.0.0/8"),
        registration_limit="10000 per minute",
        ping_host_limit="10000 per minute",  # every bot is on loopback
    )
    with EmbeddedPlatform(settings, concurrency=4) as platform:
        copies = []
        for _ in range(2):
            secrets: dict[str, str] = {}
            server, base = serve_in_thread(secrets=secrets)
            copies.append((server, base, secrets))
        app_server = make_server("127.0.0.1", 0, create_app(platform.runtime), threaded=True)
        threading.Thread(target=app_server.serve_forever, daemon=True).start()
        site = f"http://127.0.0.1:{app_server.server_port}"
        admin = {"Authorization": f"Bearer {ADMIN}"}

        def call(method: str, path: str, **kwargs: Any) -> Any:
            answer = requests.request(method, site + path, headers=admin, timeout=30, **kwargs)
            answer.raise_for_status()
            return answer.json()

        def register(game: str) -> list[str]:
            ids = []
            for copy, (_, base, secrets) in enumerate(copies):
                for name in sorted(bots_for(game)):
                    path = f"{game}/{name}"
                    label = path if copy == 0 else f"{path} #{copy + 1}"
                    secrets[path] = secret = new_secret()  # the bot knows it first: registration pings
                    body = {"name": label, "endpoint": f"{base}/{path}", "games": [game], "secret": secret}
                    ids.append(call("POST", "/api/v1/bots", json=body)["id"])
            return ids

        def tournament(game: str, seats: int, title: str) -> str:
            body = {
                "name": title,
                "game": game,
                "format": "round_robin",
                "bots": register(game),
                "seats_per_match": seats,
                "games_per_pairing": 2,
                "seed": 7,
            }
            return call("POST", "/api/v1/tournaments", json=body)["id"]

        played = [
            tournament("volcano", 2, "Fiesta Caldera open"),
            tournament("vulkan", 2, "Vulkan! spring cup"),
        ]
        for tid in played:
            while call("GET", f"/api/v1/tournaments/{tid}")["status"] != "finished":
                time.sleep(0.3)
        tournament("boulderville", 4, "Boulderville evacuation drill")
        volcano = call("GET", f"/api/v1/tournaments/{played[0]}")
        match_id = volcano["matches"][0]["id"]
        showcase = {}
        for game, seats in (("vulkan", 4), ("volcano", 3), ("catan-volcano", 4), ("boulderville", 4)):
            bots = register(game)
            body = {"game": game, "bots": (bots * seats)[:seats], "seed": 11, "rated": False}
            showcase[game] = call("POST", "/api/v1/matches", json=body)["id"]
        for shown in showcase.values():
            while call("GET", f"/api/v1/matches/{shown}")["status"] not in ("finished", "aborted"):
                time.sleep(0.3)

        found = _chromium()
        if found is None:
            print("needs chromium and chromium-driver", file=sys.stderr)
            return 1
        options = webdriver.ChromeOptions()
        options.binary_location = found[0]
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='chromium-')}")
        driver = webdriver.Chrome(options=options, service=Service(executable_path=found[1]))
        try:
            driver.set_window_size(*SIZE)
            out.mkdir(parents=True, exist_ok=True)
            for name, path in (
                ("home", "/"),
                ("ladder", "/games/volcano/ladder?variant=fiesta-caldera"),
                ("match", f"/matches/{match_id}"),
            ):
                driver.set_window_size(*SIZE)
                driver.get(site + path)
                time.sleep(0.5)
                height = driver.execute_script("return document.documentElement.scrollHeight")
                driver.set_window_size(SIZE[0], min(height, SIZE[1]))
                driver.save_screenshot(str(out / f"{name}.png"))
                print(out / f"{name}.png")
            for game, shown in showcase.items():
                driver.set_window_size(*SIZE)
                half = call("GET", f"/api/v1/matches/{shown}")["moves"] // 2
                driver.get(f"{site}/matches/{shown}#move={half}")
                time.sleep(1.5)
                tall = driver.execute_script("return document.getElementById('viewer').offsetHeight")
                driver.set_window_size(SIZE[0], min(tall + 40, 1500))  # the whole board, its legend too
                driver.execute_script("document.getElementById('viewer').scrollIntoView();")
                time.sleep(0.3)
                driver.save_screenshot(str(out / f"viewer-{game}.png"))
                print(out / f"viewer-{game}.png")
        finally:
            driver.quit()
            app_server.shutdown()
            for server, _, _ in copies:
                server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")))
