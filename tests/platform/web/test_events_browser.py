"""Scheduled tournaments in a real browser: upcoming apart on /tournaments and home, a scheduled
tournament's page with its entry rules, entrants, local start time, countdown and the curl to enter,
and a bot's page listing what it entered; none wider than a phone."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from selenium.webdriver.common.by import By

from tests.platform.web.conftest import Site, Visitor

pytestmark = pytest.mark.integration

WIDTHS = (1400, 400)


@pytest.fixture(scope="module")
def upcoming(site: Site) -> str:
    """An open Nim tournament two hours ahead, with alice entered (by the organizer's token)."""
    starts = datetime.fromtimestamp(time.time() + 2 * 3600 + 90, UTC).isoformat()
    body = {
        "name": "Saturday open",
        "game": "nim",
        "format": "swiss",
        "seats_per_match": 2,
        "entry": "open",
        "starts_at": starts,
        "options": {"stones": 11},
    }
    made = site.api("POST", "/api/v1/tournaments", json=body)
    site.api("POST", f"/api/v1/tournaments/{made['id']}/entries", json={"bot": site.bots["alice"]})
    return str(made["id"])


def test_upcoming_running_and_finished_are_apart(visitor: Visitor, site: Site, upcoming: str) -> None:
    visitor.visit("/tournaments")
    sections = {
        name: visitor.driver.find_element(By.CSS_SELECTOR, f"[data-{name}]").text
        for name in ("upcoming", "running", "finished")
    }
    assert "Saturday open" in sections["upcoming"] and "Saturday open" not in sections["finished"]
    assert "Nim cup" in sections["finished"] and "Nim cup" not in sections["upcoming"]
    visitor.visit("/")
    assert "Saturday open" in visitor.driver.find_element(By.CSS_SELECTOR, "[data-upcoming]").text
    assert visitor.console_errors() == []


def test_a_scheduled_tournaments_page_says_how_to_enter(visitor: Visitor, site: Site, upcoming: str) -> None:
    visitor.visit(f"/tournaments/{upcoming}")
    driver = visitor.driver
    curl = driver.find_element(By.CSS_SELECTOR, "[data-curl]").text
    assert curl.startswith(f"curl -X POST {site.base}/api/v1/tournaments/{upcoming}/entries")
    assert "Bearer <your bot token>" in curl and '"bot": "<your bot id>"' in curl
    assert "alice" in driver.find_element(By.CSS_SELECTOR, "[data-entrants]").text
    start = driver.find_element(By.CSS_SELECTOR, "time[data-local]")
    assert start.get_attribute("title").endswith("UTC")  # the UTC time the HTML carried
    visitor.wait_until(
        lambda d: d.find_element(By.CSS_SELECTOR, "[data-countdown]").text.startswith("(in 2 h"), 10
    )
    assert visitor.console_errors() == []


def test_a_bots_page_lists_what_it_entered(visitor: Visitor, site: Site, upcoming: str) -> None:
    visitor.visit(f"/bots/{site.bots['alice']}")
    listed = visitor.driver.find_element(By.CSS_SELECTOR, "table.entered").text
    assert "Saturday open" in listed and "Nim cup" in listed


@pytest.mark.parametrize("width", WIDTHS)
def test_no_event_page_scrolls_sideways(visitor: Visitor, site: Site, upcoming: str, width: int) -> None:
    pages = {"tournaments": "/tournaments", "scheduled": f"/tournaments/{upcoming}", "home-events": "/"}
    with visitor.width(width):
        for name, path in pages.items():
            visitor.visit(path)
            assert visitor.horizontal_overflow() == 0, f"{path} scrolls sideways at {width} px"
            visitor.screenshot(f"{name}-{width}")
