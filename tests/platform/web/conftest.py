"""A served platform with finished matches and tournaments, and a headless Chromium to look at it.

The platform is the embedded one (in-memory store, Celery worker thread) with the Nim test game and
loopback test bots; the Flask app is served by werkzeug on a loopback port in a thread, so the
browser talks HTTP to it like any visitor. Board frames are drawn by a stand-in for
``arena.boards`` that writes the move count, so the viewer can be checked frame by frame; the
``real_boards`` fixture puts the real drawings back, for the finished match of every real game
that ``game_matches`` plays between its reference bots.

The browser tests need Debian's ``chromium`` and ``chromium-driver``; without them they are skipped,
except under CI (``CI`` set), where their absence fails the run.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sys
import threading
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
from werkzeug.serving import make_server

import arena.boards
from arena.api import create_app
from arena.settings import Settings
from arena.worker.embedded import EmbeddedPlatform
from bots.server import serve_in_thread
from referee import registry
from referee.protocol import new_secret
from tests.platform import bot_server
from tests.platform.conftest import ADMIN, LOOPBACK
from tests.platform.waiting import wait_until

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,900",
)


# -- a stand-in for arena.boards: the board after n moves is the number n --------------------


def _position_after(replay: dict[str, Any], n: int) -> dict[str, Any]:
    if not 0 <= n <= len(replay["moves"]):
        raise ValueError(f"no position after {n} moves")
    return {"game": replay["game"], "moves": n}


def _render_svg(game_id: str, state: dict[str, Any], *, reveal: bool = True) -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">'
        '<rect width="400" height="400" fill="#f4efe9"/>'
        f'<text x="200" y="210" font-size="36" text-anchor="middle">'
        f"{game_id}: after {state['moves']} moves{'' if reveal else ' (hidden)'}</text>"
        "</svg>"
    )


REAL_BOARDS = arena.boards
"""The real drawings, imported before the stand-in takes their name."""

STAND_IN_SEAT_COLOURS = ("#0a8f7e", "#b5179e", "#f5f5f5", "#4d7c0f")
"""The stand-in's seat colours, none of them the page's own palette (a light one among them)."""


def _seat_colours(game_id: str, seats: int) -> list[str]:
    if game_id != "nim":
        raise LookupError(f"no board drawing for game {game_id!r}")
    return list(STAND_IN_SEAT_COLOURS[:seats])


@pytest.fixture(autouse=True)
def stand_in_boards(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """The stand-in in ``arena.boards``'s place for each test of the pages (the pages import it at
    each frame), and only there: the tests of the real drawings run in the same process."""
    module = types.ModuleType("arena.boards")
    module.position_after = _position_after  # type: ignore[attr-defined]
    module.render_svg = _render_svg  # type: ignore[attr-defined]
    module.seat_colours = _seat_colours  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "arena.boards", module)
    return module


@pytest.fixture
def real_boards(stand_in_boards: types.ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real board drawings for one test, in place of the stand-in."""
    monkeypatch.setitem(sys.modules, "arena.boards", REAL_BOARDS)


# -- the served platform ----------------------------------------------------------------------


@dataclass
class Site:
    """The platform served on loopback, its bots by name, and helpers to drive it over HTTP."""

    base: str
    platform: EmbeddedPlatform
    bot_base: str
    secrets: dict[str, str]
    bots: dict[str, str] = field(default_factory=dict)
    tournament: str = ""
    faulty_match: str = ""

    def url(self, path: str) -> str:
        return self.base + path

    def api(self, method: str, path: str, **kwargs: Any) -> Any:
        answer = requests.request(
            method, self.url(path), headers={"Authorization": f"Bearer {ADMIN}"}, timeout=10, **kwargs
        )
        assert answer.status_code < 300, answer.text
        return answer.json()

    def register(self, name: str, path: str) -> str:
        self.bots[name] = self.register_bot(name, path, "nim")
        return self.bots[name]

    def register_bot(self, name: str, path: str, game: str) -> str:
        """Register the bot at ``path`` with a fresh secret, given to the bot server first (the
        registration pings it); returns its id."""
        self.secrets[path] = secret = new_secret()
        body = {"name": name, "endpoint": self.bot_base + path, "games": [game], "secret": secret}
        return str(self.api("POST", "/api/v1/bots", json=body)["id"])

    def wait(self, path: str, done: Callable[[dict[str, Any]], bool], timeout: float = 60) -> dict[str, Any]:
        """The body of ``path`` once ``done`` says so (the platform's worker thread plays meanwhile)."""
        shown: dict[str, Any] = wait_until(
            lambda: done(body := self.api("GET", path)) and body, timeout, f"{path} did not get there"
        )
        return shown


@pytest.fixture(scope="package")
def site() -> Iterator[Site]:
    """The served platform, for the tests of this package only: the toy games it registers leave the
    registry when they end, before other tests (the board drawings' among them) run."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.EXTRA, "nim", "tests.referee.toy_game")
        patch.setitem(registry.EXTRA, "party", "tests.platform.party_game")
        registry.get_game.cache_clear()
        patch.setattr(logging.getLogger("werkzeug"), "level", logging.WARNING)  # no line per request
        secrets: dict[str, str] = {}
        bots, bot_base = bot_server.start(secrets)
        settings = Settings(
            admin_token=ADMIN,
            policy=LOOPBACK,
            registration_limit="1000 per minute",
            ping_limit="1000 per minute",
            ping_host_limit="1000 per minute",  # every bot is on loopback
        )
        platform = EmbeddedPlatform(settings, concurrency=2)
        server = make_server("127.0.0.1", 0, create_app(platform.runtime), threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        site = Site(f"http://127.0.0.1:{server.server_port}", platform, bot_base, secrets)
        try:
            _play_some_matches(site)
            yield site
        finally:
            server.shutdown()
            platform.close()
            bots.shutdown()
            registry.get_game.cache_clear()


def _play_some_matches(site: Site) -> None:
    """A finished round robin of three bots, and a match where one seat faults until it forfeits."""
    ids = [
        site.register(name, f"/{kind}/{name}")
        for name, kind in (("alice", "first"), ("bob", "last"), ("carol", "first"))
    ]
    tournament = site.api(
        "POST",
        "/api/v1/tournaments",
        json={
            "name": "Nim cup",
            "game": "nim",
            "format": "round_robin",
            "bots": ids,
            "seats_per_match": 2,
            "seed": 5,
            "options": {"stones": 11},
        },
    )
    site.tournament = tournament["id"]
    faulty = site.register("dave", "/superscript-status/dave")
    match = site.api(
        "POST",
        "/api/v1/matches",
        json={"game": "nim", "bots": [ids[0], faulty], "options": {"stones": 15}, "seed": 2},
    )
    site.faulty_match = match["id"]
    site.wait(f"/api/v1/tournaments/{site.tournament}", lambda body: body["status"] == "finished")
    site.wait(f"/api/v1/matches/{site.faulty_match}", lambda body: body["status"] == "finished")


REFERENCE_SEATS: dict[str, tuple[str, ...]] = {
    "vulkan": ("greedy", "random"),
    "volcano": ("greedy", "random"),
    "catan-volcano": ("heuristic", "random", "heuristic"),
    "boulderville": ("heuristic", "random", "search", "random"),
}
"""The reference bots seated in each real game's match, by seat."""


@pytest.fixture(scope="package")
def game_matches(site: Site) -> dict[str, str]:
    """Game id -> a finished match of that game between its reference bots, served over HTTP as
    any author's bot is (the bot server keeps one secret a path: a bot in two seats is registered
    once)."""
    secrets: dict[str, str] = {}
    server, base = serve_in_thread(secrets=secrets)
    try:
        found = {}
        registered: dict[str, str] = {}
        for game, names in REFERENCE_SEATS.items():
            for path in sorted({f"{game}/{name}" for name in names}):
                secrets[path] = secret = new_secret()  # the bot knows it first: registration pings
                body = {"name": path, "endpoint": f"{base}/{path}", "games": [game], "secret": secret}
                registered[path] = site.api("POST", "/api/v1/bots", json=body)["id"]
            bots = [registered[f"{game}/{name}"] for name in names]
            match = {"game": game, "bots": bots, "seed": 11, "rated": False}
            found[game] = site.api("POST", "/api/v1/matches", json=match)["id"]
        for match_id in found.values():
            site.wait(f"/api/v1/matches/{match_id}", lambda body: body["status"] == "finished", timeout=120)
        return found
    finally:
        server.shutdown()


# -- the browser --------------------------------------------------------------------------------


def _chromium() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    found = _chromium()
    if found is None:
        reason = (
            "the browser tests need Debian's chromium and chromium-driver "
            "(apt-get install chromium chromium-driver)"
        )
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI must have them (.ci/run installs them)")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = found[0]
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=found[1]))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


@dataclass
class Visitor:
    """The browser on the served site: visit pages, read the console, take screenshots."""

    driver: Any
    site: Site
    shots: Path

    def visit(self, path: str) -> None:
        self.driver.get(self.site.url(path))

    def wait_until(self, condition: Callable[[Any], Any], timeout: float, poll: float = 0.5) -> Any:
        """Poll ``condition(driver)`` until it is truthy. A page that re-renders replaces the elements
        a condition reads, so an element gone stale between finding and reading is one more poll."""
        from selenium.common.exceptions import StaleElementReferenceException

        def read() -> Any:
            try:
                return condition(self.driver)
            except StaleElementReferenceException:
                return None

        return wait_until(read, timeout, f"{self.driver.current_url}: the page did not get there", poll)

    def console_errors(self) -> list[dict[str, Any]]:
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    @contextlib.contextmanager
    def width(self, pixels: int) -> Iterator[None]:
        """The window ``pixels`` wide (a phone's at 400) for the block's length."""
        size = self.driver.get_window_size()
        self.driver.set_window_size(pixels, size["height"])
        try:
            yield
        finally:
            self.driver.set_window_size(size["width"], size["height"])

    def horizontal_overflow(self) -> int:
        """How many pixels the page is wider than the window's width less its scroll bar (0: no
        sideways scrolling; stricter than ``scrollWidth <= innerWidth``, which counts the bar)."""
        script = "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        return int(self.driver.execute_script(script))

    def screenshot(self, name: str) -> Path:
        """The whole page (the window grown to the page's height for the shot), as ``name``.png."""
        path = self.shots / f"{name}.png"
        size = self.driver.get_window_size()
        height = self.driver.execute_script("return document.documentElement.scrollHeight")
        self.driver.set_window_size(size["width"], min(max(height, size["height"]), 4000))
        try:
            self.driver.save_screenshot(str(path))
        finally:
            self.driver.set_window_size(size["width"], size["height"])
        return path


@pytest.fixture
def visitor(browser: Any, site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Visitor]:
    shots = Path(os.environ.get("ARENA_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    browser.get_log("browser")  # start each test with an empty console
    yield Visitor(browser, site, shots)
