"""The pages, their SVG boards and Swagger UI under the platform's Content-Security-Policy, in Chromium.

Each page is loaded with a listener for ``securitypolicyviolation`` put in before any of its own
scripts run (DevTools' ``addScriptToEvaluateOnNewDocument``), so a violation is seen whatever the
console shows; the console must stay clean too. The pages must still work: the viewer steps through
moves, Swagger UI lists every operation and sends a request.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.platform.web.conftest import Site, Visitor
from tests.platform.web.test_viewer import a_tournament_match, assert_shows, click

pytestmark = pytest.mark.integration

RECORDER = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__violations.push(event.violatedDirective + " " + (event.blockedURI || "inline") + " "
    + (event.sourceFile || "") + ":" + event.lineNumber);
}, true);
"""


class Watched:
    """The visitor, with each page's policy violations at hand."""

    def __init__(self, visitor: Visitor) -> None:
        self.visitor = visitor
        self.driver = visitor.driver

    def visit(self, path: str) -> None:
        self.visitor.visit(path)
        assert self.driver.execute_script("return Array.isArray(window.__violations)"), "no recorder"

    def violations(self) -> list[str]:
        found: list[str] = self.driver.execute_script("return window.__violations || []")
        return found

    def assert_clean(self, where: str, *, page: bool = True) -> None:
        """No violation on the page, no error in the console since the last look. A document that
        is no page (an SVG frame opened on its own) has no icon link, so the browser's look for
        ``/favicon.ico`` (which the platform does not serve) is no error there."""
        assert self.violations() == [], where
        errors = self.visitor.console_errors()
        if not page:
            errors = [entry for entry in errors if "/favicon.ico " not in entry["message"]]
        assert errors == [], where


@pytest.fixture
def watched(visitor: Visitor) -> Iterator[Watched]:
    driver = visitor.driver
    added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER})
    try:
        yield Watched(visitor)
    finally:
        removed = {"identifier": added["identifier"]}
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", removed)


def test_a_violation_would_be_seen(watched: Watched) -> None:
    """The check below sees what the policy refuses: an inline script and a style attribute."""
    watched.visit("/")
    ran = watched.driver.execute_script(
        """
        window.inlineRan = false;
        const script = document.createElement("script");
        script.textContent = "window.inlineRan = true;";
        document.body.appendChild(script);
        document.body.insertAdjacentHTML("beforeend", '<p id="styled" style="color: rgb(255, 0, 0)">x</p>');
        return window.inlineRan;
        """
    )
    assert ran is False
    styled = watched.driver.find_element(By.ID, "styled")
    assert styled.value_of_css_property("color") != "rgba(255, 0, 0, 1)"
    watched.visitor.wait_until(timeout=5, condition=lambda _: len(watched.violations()) >= 2)
    directives = " ".join(watched.violations())
    assert "script-src" in directives and "style-src" in directives
    console = " ".join(entry["message"] for entry in watched.visitor.console_errors())
    assert "Content Security Policy" in console


def test_the_home_and_tournament_pages_load_without_a_violation(watched: Watched, site: Site) -> None:
    watched.visit("/")
    assert watched.driver.find_elements(By.CSS_SELECTOR, ".card.game h3")
    watched.assert_clean("home")
    watched.visit(f"/tournaments/{site.tournament}")
    assert watched.driver.find_element(By.TAG_NAME, "h1").text == "Nim cup"
    assert watched.driver.find_elements(By.CSS_SELECTOR, "[data-standings] tr")
    bar = watched.driver.find_element(By.CSS_SELECTOR, "#tournament progress.progress")
    assert bar.get_property("value") == bar.get_property("max")  # finished: all done
    watched.assert_clean("tournament")


def test_a_match_page_steps_its_board_without_a_violation(watched: Watched, site: Site) -> None:
    replay = a_tournament_match(site)
    total = len(replay["moves"])
    watched.visit(f"/matches/{replay['match_id']}")
    assert_shows(watched.visitor, total, total)
    click(watched.visitor, "first")
    assert_shows(watched.visitor, 0, total)
    for n in range(1, 4):
        click(watched.visitor, "next")
        assert_shows(watched.visitor, n, total)
    watched.assert_clean("match")
    for width in (1400, 400):
        with watched.visitor.width(width):
            watched.visit(f"/matches/{replay['match_id']}#move=2")
            assert_shows(watched.visitor, 2, total)
            watched.visitor.screenshot(f"csp-match-{width}")
            watched.assert_clean(f"match at {width} px")
    watched.driver.find_element(By.CSS_SELECTOR, '[data-zoom="1"]').click()  # sizes the board by script
    assert watched.driver.find_element(By.ID, "viewer").get_attribute("data-zoom") == "1.5"
    watched.driver.find_element(By.CSS_SELECTOR, '[data-zoom="-1"]').click()
    watched.assert_clean("match, the board zoomed")


@pytest.mark.usefixtures("real_boards")
def test_the_real_boards_show_without_a_violation(
    watched: Watched, site: Site, game_matches: dict[str, str]
) -> None:
    """On their match page, and opened on their own (an SVG document under the policy itself)."""
    for game, match_id in game_matches.items():
        watched.visit(f"/matches/{match_id}#move=1")
        board = watched.driver.find_element(By.ID, "board")
        watched.visitor.wait_until(
            timeout=10,
            condition=lambda d, board=board: d.execute_script(
                "return arguments[0].complete && arguments[0].naturalWidth > 0", board
            ),
        )
        watched.visitor.screenshot(f"csp-match-{game}")
        watched.assert_clean(game)
        watched.visit(f"/matches/{match_id}/board/1.svg")
        assert watched.driver.execute_script("return document.documentElement.localName") == "svg", game
        watched.assert_clean(f"{game}'s frame", page=False)


def operations(site: Site) -> list[tuple[str, str]]:
    spec: dict[str, Any] = requests.get(site.url("/api/v1/openapi.json"), timeout=10).json()
    methods = {"get", "put", "post", "delete", "patch"}
    return [(m.upper(), path) for path, item in spec["paths"].items() for m in item if m in methods]


def test_swagger_ui_lists_every_operation_and_sends_requests_without_a_violation(
    watched: Watched, site: Site
) -> None:
    expected = operations(site)
    driver = watched.driver
    for width in (1400, 400):
        with watched.visitor.width(width):
            watched.visit("/api/v1/swagger-ui")
            watched.visitor.wait_until(
                timeout=20,
                condition=lambda d: len(d.find_elements(By.CSS_SELECTOR, ".opblock")) == len(expected),
            )
            shown = [
                (
                    block.find_element(By.CSS_SELECTOR, ".opblock-summary-method").text,
                    block.find_element(By.CSS_SELECTOR, ".opblock-summary-path").get_attribute("data-path"),
                )
                for block in driver.find_elements(By.CSS_SELECTOR, ".opblock")
            ]
            assert sorted(shown) == sorted(expected)
            watched.visitor.screenshot(f"csp-swagger-ui-{width}")
            watched.assert_clean(f"Swagger UI at {width} px")
    (games,) = (
        block
        for block in driver.find_elements(By.CSS_SELECTOR, ".opblock-get")
        if block.find_element(By.CSS_SELECTOR, ".opblock-summary-path").get_attribute("data-path")
        == "/api/v1/games"
    )
    games.find_element(By.CSS_SELECTOR, ".opblock-summary").click()
    watched.visitor.wait_until(
        timeout=5, condition=lambda _: games.find_elements(By.CSS_SELECTOR, ".try-out")
    )
    games.find_element(By.CSS_SELECTOR, ".try-out__btn").click()
    games.find_element(By.CSS_SELECTOR, ".execute").click()
    answered = ".live-responses-table tbody .response-col_status"
    status = watched.visitor.wait_until(
        timeout=10, condition=lambda _: games.find_elements(By.CSS_SELECTOR, answered)
    )
    assert status[0].text.strip().startswith("200")
    watched.visitor.screenshot("csp-swagger-ui-executed")
    watched.assert_clean("Swagger UI after a request")
