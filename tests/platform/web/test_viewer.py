"""The replay viewer of a match page, stepped in a real browser frame by frame.

Frames come from the stand-in for ``arena.boards`` (conftest), which writes "after N moves": the
frame the viewer shows, the highlighted move, the slider and the address's ``#move=N`` must agree
at every step.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
import requests
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from referee.registry import get_game
from tests.platform.web.conftest import Site, Visitor

pytestmark = pytest.mark.integration


def a_tournament_match(site: Site) -> dict[str, Any]:
    """The longest match of the finished tournament, with its replay."""
    tournament = site.api("GET", f"/api/v1/tournaments/{site.tournament}")
    replays = [site.api("GET", f"/api/v1/matches/{m['id']}/replay") for m in tournament["matches"]]
    return max(replays, key=lambda replay: len(replay["moves"]))


def position(visitor: Visitor) -> int:
    return int(visitor.driver.find_element(By.ID, "viewer").get_attribute("data-position"))


def fragment(visitor: Visitor) -> str:
    return str(visitor.driver.execute_script("return window.location.hash"))


def assert_shows(visitor: Visitor, n: int, total: int) -> None:
    """Frame, move list, slider and label all at position ``n``, and the frame loaded."""
    driver = visitor.driver
    board = driver.find_element(By.ID, "board")
    assert board.get_attribute("src").endswith(f"/board/{n}.svg")
    visitor.wait_until(
        timeout=10,
        condition=lambda d: d.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth > 0", board
        ),
    )
    assert driver.find_element(By.CSS_SELECTOR, "[data-slider]").get_attribute("value") == str(n)
    assert driver.find_element(By.CSS_SELECTOR, "[data-position-label]").text == str(n)
    assert driver.find_element(By.CSS_SELECTOR, "[data-total-label]").text == str(total)
    current = driver.find_elements(By.CSS_SELECTOR, "table.moves tr.current")
    assert [row.get_attribute("data-n") for row in current] == ([str(n)] if n else [])


def click(visitor: Visitor, action: str) -> None:
    visitor.driver.find_element(By.CSS_SELECTOR, f'[data-go="{action}"]').click()


def test_the_viewer_steps_through_a_whole_replay(visitor: Visitor, site: Site) -> None:
    replay = a_tournament_match(site)
    total = len(replay["moves"])
    assert total >= 3
    visitor.visit(f"/matches/{replay['match_id']}")
    rows = visitor.driver.find_elements(By.CSS_SELECTOR, "table.moves tbody tr")
    assert len(rows) == total
    for row, move in zip(rows, replay["moves"], strict=True):
        cells = row.find_elements(By.TAG_NAME, "td")
        assert cells[1].text == f"{move['seat']} {replay['seats'][move['seat']]['name']}"
        assert cells[2].text == get_game("nim").describe_move(move["move"])  # the toy game's words: JSON
        assert json.loads(cells[2].get_attribute("title")) == move["move"]
    assert_shows(visitor, total, total)  # a finished match opens at its end
    click(visitor, "first")
    assert_shows(visitor, 0, total)
    for n in range(1, total + 1):
        click(visitor, "next")
        assert_shows(visitor, n, total)
    click(visitor, "next")  # past the end: stays on the last position
    assert_shows(visitor, total, total)
    click(visitor, "first")
    assert_shows(visitor, 0, total)
    click(visitor, "last")
    assert_shows(visitor, total, total)
    click(visitor, "prev")
    assert_shows(visitor, total - 1, total)
    assert visitor.console_errors() == []


def test_the_viewer_preloads_the_next_frames(visitor: Visitor, site: Site) -> None:
    replay = a_tournament_match(site)
    total = len(replay["moves"])
    script = "return performance.getEntriesByType('resource').map(e => e.name)"
    for opened, around in ((total, range(total - 3, total + 1)), (2, range(6))):
        visitor.visit(f"/matches/{replay['match_id']}#move={opened}")
        visitor.driver.refresh()  # a new document, its own resource timings
        wanted = {site.url(f"/matches/{replay['match_id']}/board/{n}.svg") for n in around}
        visitor.wait_until(
            timeout=10, condition=lambda d, wanted=wanted: wanted <= set(d.execute_script(script))
        )


def test_without_board_drawings_the_moves_still_step(
    visitor: Visitor, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "arena.boards", None)  # importing it now fails
    replay = a_tournament_match(site)
    visitor.visit(f"/matches/{replay['match_id']}")
    driver = visitor.driver
    assert driver.find_elements(By.ID, "board") == []
    assert "not available" in driver.find_element(By.CSS_SELECTOR, ".board-missing").text
    click(visitor, "first")
    click(visitor, "next")
    click(visitor, "next")
    current = driver.find_elements(By.CSS_SELECTOR, "table.moves tr.current")
    assert [row.get_attribute("data-n") for row in current] == ["2"]
    frame = requests.get(site.url(f"/matches/{replay['match_id']}/board/0.svg"), timeout=10)
    assert frame.status_code == 404
    assert visitor.console_errors() == []


def test_each_frame_is_the_position_after_its_moves(site: Site) -> None:
    replay = a_tournament_match(site)
    base = site.url(f"/matches/{replay['match_id']}/board")
    for n in (0, len(replay["moves"])):
        frame = requests.get(f"{base}/{n}.svg", timeout=10)
        assert frame.status_code == 200 and frame.headers["Content-Type"].startswith("image/svg+xml")
        assert f"nim: after {n} moves" in frame.text
        assert "immutable" in frame.headers["Cache-Control"]
        again = requests.get(f"{base}/{n}.svg", headers={"If-None-Match": frame.headers["ETag"]}, timeout=10)
        assert again.status_code == 304
    beyond = requests.get(f"{base}/{len(replay['moves']) + 1}.svg", timeout=10)
    assert beyond.status_code == 404


def test_keyboard_arrows_home_and_end_step_the_viewer(visitor: Visitor, site: Site) -> None:
    replay = a_tournament_match(site)
    total = len(replay["moves"])
    visitor.visit(f"/matches/{replay['match_id']}")
    body = visitor.driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    for _ in range(3):
        body.send_keys(Keys.ARROW_RIGHT)
    assert_shows(visitor, 3, total)
    body.send_keys(Keys.ARROW_LEFT)
    assert_shows(visitor, 2, total)
    body.send_keys(Keys.END)
    assert_shows(visitor, total, total)
    body.send_keys(Keys.ARROW_RIGHT)
    assert_shows(visitor, total, total)
    body.send_keys(Keys.HOME)
    assert_shows(visitor, 0, total)
    body.send_keys(Keys.ARROW_LEFT)
    assert_shows(visitor, 0, total)
    click(visitor, "next")  # the button keeps the focus; the arrows still step
    ActionChains(visitor.driver).send_keys(Keys.ARROW_RIGHT).perform()
    assert_shows(visitor, 2, total)


def test_play_slider_and_move_list_move_the_board(visitor: Visitor, site: Site) -> None:
    replay = a_tournament_match(site)
    total = len(replay["moves"])
    visitor.visit(f"/matches/{replay['match_id']}")
    driver = visitor.driver
    Select(driver.find_element(By.CSS_SELECTOR, "[data-speed]")).select_by_value("100")
    click(visitor, "play")
    assert driver.find_element(By.CSS_SELECTOR, '[data-go="play"]').get_attribute("aria-label") == "pause"
    visitor.wait_until(timeout=30, condition=lambda _: position(visitor) == total)
    visitor.wait_until(
        timeout=5,
        condition=lambda d: (
            d.find_element(By.CSS_SELECTOR, '[data-go="play"]').get_attribute("aria-label") == "play"
        ),
    )
    assert_shows(visitor, total, total)

    slider = driver.find_element(By.CSS_SELECTOR, "[data-slider]")
    driver.execute_script(
        "arguments[0].value = 2; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));", slider
    )
    assert_shows(visitor, 2, total)
    driver.find_element(By.CSS_SELECTOR, 'table.moves tr[data-n="3"] td').click()
    assert_shows(visitor, 3, total)
    assert visitor.console_errors() == []


def test_the_address_names_the_position_and_back_and_forward_retrace_it(visitor: Visitor, site: Site) -> None:
    replay = a_tournament_match(site)
    total = len(replay["moves"])
    assert total >= 6
    page = f"/matches/{replay['match_id']}"
    visitor.visit("/")
    visitor.visit(f"{page}#move=3")  # a link to move 3, opened afresh
    assert_shows(visitor, 3, total)
    click(visitor, "next")
    assert_shows(visitor, 4, total)
    assert fragment(visitor) == "#move=4"
    visitor.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert_shows(visitor, 5, total)
    assert fragment(visitor) == "#move=5"
    visitor.driver.back()
    assert_shows(visitor, 4, total)
    assert fragment(visitor) == "#move=4"
    visitor.driver.back()
    assert_shows(visitor, 3, total)
    visitor.driver.forward()
    assert_shows(visitor, 4, total)

    visitor.driver.find_element(By.CSS_SELECTOR, 'table.moves tr[data-n="1"] td').click()
    assert_shows(visitor, 1, total)
    slider = visitor.driver.find_element(By.CSS_SELECTOR, "[data-slider]")
    visitor.driver.execute_script(  # one drag through three positions: one entry of the history
        "for (const n of [2, 3, 4]) {"
        "  arguments[0].value = n; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));"
        "}"
        "arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
        slider,
    )
    assert_shows(visitor, 4, total)
    assert fragment(visitor) == "#move=4"
    visitor.driver.back()
    assert_shows(visitor, 1, total)

    visitor.driver.execute_script("window.location.hash = '#move=2'")  # an address typed in
    visitor.wait_until(timeout=5, condition=lambda _: position(visitor) == 2)
    assert_shows(visitor, 2, total)
    assert visitor.console_errors() == []


def test_a_playback_is_one_step_back(visitor: Visitor, site: Site) -> None:
    replay = a_tournament_match(site)
    total = len(replay["moves"])
    visitor.visit(f"/matches/{replay['match_id']}#move=1")
    visitor.driver.refresh()
    Select(visitor.driver.find_element(By.CSS_SELECTOR, "[data-speed]")).select_by_value("100")
    click(visitor, "play")
    visitor.wait_until(timeout=30, condition=lambda _: position(visitor) == total)
    assert fragment(visitor) == f"#move={total}"
    visitor.driver.back()
    assert_shows(visitor, 1, total)


def test_an_address_past_the_end_opens_at_the_end_and_says_so(visitor: Visitor, site: Site) -> None:
    replay = a_tournament_match(site)
    total = len(replay["moves"])
    visitor.visit("/")
    visitor.visit(f"/matches/{replay['match_id']}#move={total + 50}")
    assert_shows(visitor, total, total)
    assert fragment(visitor) == f"#move={total}"
    visitor.visit("/")
    visitor.visit(f"/matches/{replay['match_id']}")  # no address: the end, and the address left alone
    assert_shows(visitor, total, total)
    assert fragment(visitor) == ""
