"""Pages that follow play: a tournament page updates its progress while the tournament runs, and
a match page follows its match to the end, both by polling the JSON API (no reload in between,
checked by a marker the page would lose)."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from selenium.webdriver.common.by import By

from arena.matches.moves import with_words
from arena.web import data
from referee.registry import get_game
from tests.platform.web.conftest import Site, Visitor

pytestmark = pytest.mark.integration


def register(site: Site, name: str, path: str, game: str) -> str:
    return site.register_bot(name, path, game)


def mark_page(visitor: Visitor) -> None:
    visitor.driver.execute_script("window.arenaTestMarker = 'same page';")


def same_page(visitor: Visitor) -> bool:
    return visitor.driver.execute_script("return window.arenaTestMarker") == "same page"


def progress_text(visitor: Visitor) -> str:
    return visitor.driver.find_element(By.CSS_SELECTOR, "#tournament [data-progress-text]").text


def test_the_tournament_page_updates_its_progress_while_the_tournament_runs(
    visitor: Visitor, site: Site
) -> None:
    bots = [register(site, f"sleepy {n}", f"/sleepy/p{n}", "party") for n in range(4)]
    tournament = site.api(
        "POST",
        "/api/v1/tournaments",
        json={
            "name": "Crew night",
            "game": "party",
            "variant": "crew",
            "format": "round_robin",
            "bots": bots,
            "seats_per_match": 3,
            "seed": 1,
        },
    )
    total = tournament["match_count"]
    visitor.visit(f"/tournaments/{tournament['id']}")
    mark_page(visitor)
    visitor.screenshot("tournament-running")
    first = progress_text(visitor)
    assert first.endswith(f"/ {total} matches done") and not first.startswith(f"{total} /")
    seen = {first}
    driver = visitor.driver

    def finished(_: object) -> bool:
        seen.add(progress_text(visitor))
        return progress_text(visitor) == f"{total} / {total} matches done"

    visitor.wait_until(timeout=90, poll=0.2, condition=finished)
    assert same_page(visitor)
    assert len(seen) >= 2  # it moved on the page itself
    assert driver.find_element(By.CSS_SELECTOR, "#tournament .facts [data-status]").text == "finished"
    bar = driver.find_element(By.CSS_SELECTOR, "#tournament progress.progress")
    assert (bar.get_property("value"), bar.get_property("max")) == (total, total)
    standings = driver.find_elements(By.CSS_SELECTOR, "[data-standings] tr")
    played = [int(row.find_elements(By.TAG_NAME, "td")[2].text) for row in standings]
    assert sum(played) == total * 3  # three seats a match
    statuses = {e.text for e in driver.find_elements(By.CSS_SELECTOR, "table.matches [data-status]")}
    assert statuses == {"finished"}
    assert visitor.console_errors() == []

    # a team variant's ladder shows the team win rate
    visitor.visit("/games/party/ladder?variant=crew")
    headers = [th.text.lower() for th in driver.find_elements(By.CSS_SELECTOR, "table.ladder th")]
    assert "team win rate" in headers
    assert len(driver.find_elements(By.CSS_SELECTOR, "table.ladder tbody tr")) == 4


def test_a_match_page_follows_its_match_until_the_replay(visitor: Visitor, site: Site) -> None:
    bots = [register(site, name, f"/sleepy/{name}", "nim") for name in ("sam", "sue")]
    match = site.api(
        "POST",
        "/api/v1/matches",
        json={"game": "nim", "bots": bots, "options": {"stones": 24}, "rated": False},
    )
    site.wait(
        f"/api/v1/matches/{match['id']}", lambda body: body["status"] == "running" and body["moves"] >= 1
    )
    visitor.visit(f"/matches/{match['id']}")
    driver = visitor.driver
    assert driver.find_element(By.CSS_SELECTOR, "#viewer h2").text == "Live"
    visitor.screenshot("match-running")
    mark_page(visitor)
    count = int(driver.find_element(By.CSS_SELECTOR, "[data-live-count]").text)
    visitor.wait_until(
        timeout=30,
        poll=0.2,
        condition=lambda d: (
            not same_page(visitor) or int(d.find_element(By.CSS_SELECTOR, "[data-live-count]").text) > count
        ),
    )
    assert same_page(visitor)  # the count went up without a reload
    visitor.wait_until(
        timeout=60,
        poll=0.3,
        condition=lambda d: d.find_element(By.CSS_SELECTOR, "#viewer h2").text == "Replay",
    )
    assert (
        len(driver.find_elements(By.CSS_SELECTOR, "table.moves tbody tr")) == 24
    )  # first legal: one stone a move
    assert driver.find_element(By.CSS_SELECTOR, "a.download")
    assert visitor.console_errors() == []


def test_a_match_page_shows_live_moves_and_board_once_the_store_keeps_them(
    visitor: Visitor, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store keeps only a count of a running match's moves; here a stand-in for
    ``data.live_moves`` makes them up from that count, as the bots of this test play: each takes one
    stone (its first legal move), seats in turn."""

    def moves_so_far(runtime: object, match_id: str, start: int) -> list[dict[str, Any]]:
        played = site.platform.runtime.store.progress.played([match_id]).get(match_id, 0)
        return with_words(
            "nim",
            [
                {
                    "turn": n,
                    "seat": n % 2,
                    "move": {"take": 1},
                    "source": "bot",
                    "fault": fault(n),
                    "think_ms": 300.0,
                }
                for n in range(start, played)
            ],
        )

    def fault(turn: int) -> dict[str, str] | None:  # now and then, to see faults shown as they come
        return {"kind": "timeout", "detail": "no answer in 2000 ms"} if turn % 5 == 4 else None

    monkeypatch.setattr(data, "live_moves", moves_so_far)
    bots = [register(site, name, f"/sleepy/{name}", "nim") for name in ("tim", "tom")]
    match = site.api(
        "POST",
        "/api/v1/matches",
        json={"game": "nim", "bots": bots, "options": {"stones": 30}, "rated": False},
    )
    site.wait(
        f"/api/v1/matches/{match['id']}", lambda body: body["status"] == "running" and body["moves"] >= 2
    )
    visitor.visit(f"/matches/{match['id']}")
    driver = visitor.driver
    mark_page(visitor)
    shown = len(driver.find_elements(By.CSS_SELECTOR, "table.moves tbody tr"))
    assert shown >= 2
    board = driver.find_element(By.ID, "board")
    assert board.get_attribute("src").endswith(f"/board/{shown}.svg")  # it opens on the latest position
    frame = requests.get(site.url(f"/matches/{match['id']}/board/1.svg"), timeout=10)
    # a match in play (30 moves of 0.3 s: still playing) hides what its seats cannot see
    assert (
        frame.text.endswith("after 1 moves (hidden)</text></svg>")
        and frame.headers["Cache-Control"] == "no-cache"
    )

    def moved_on(_: object) -> bool:
        rows = len(driver.find_elements(By.CSS_SELECTOR, "table.moves tbody tr"))
        return (
            same_page(visitor)
            and rows > shown
            and driver.find_element(By.ID, "board").get_attribute("src").endswith(f"/board/{rows}.svg")
        )

    visitor.wait_until(timeout=30, poll=0.2, condition=moved_on)
    rows = driver.find_elements(By.CSS_SELECTOR, "table.moves tbody tr")
    assert (
        rows[-1].find_elements(By.TAG_NAME, "td")[1].text
        == f"{(len(rows) - 1) % 2} {('tim', 'tom')[(len(rows) - 1) % 2]}"
    )
    # rows added while watching look like the page's own: the seat's colour, the fault under the move
    assert rows[-1].find_elements(By.CSS_SELECTOR, f"td.who .seat-dot.seat-{(len(rows) - 1) % 2}")
    words = rows[-1].find_element(By.CSS_SELECTOR, "td.move .words")
    assert words.text == get_game("nim").describe_move({"take": 1})
    assert rows[-1].find_element(By.CSS_SELECTOR, "td.move").get_attribute("title") == '{"take":1}'
    faults = [row.find_elements(By.CSS_SELECTOR, "td.move .fault") for row in rows]
    assert [bool(shown) for shown in faults] == [n % 5 == 4 for n in range(len(rows))]
    assert all(shown[0].text == "timeout no answer in 2000 ms" for shown in faults if shown)
    visitor.wait_until(
        timeout=60,
        poll=0.3,
        condition=lambda d: d.find_element(By.CSS_SELECTOR, "#viewer h2").text == "Replay",
    )
    assert visitor.console_errors() == []
