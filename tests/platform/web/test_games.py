"""The match page of every real game, with its real board: moves in words, an address for each
position, a board that reads on a wide screen and, zoomed, on a phone.

Each game's match is played by its reference bots (``game_matches``); screenshots of each page at
1400 and 400 px go where ``ARENA_SCREENSHOTS`` says, for a person to look at.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import requests
from selenium.webdriver.common.by import By

from referee.registry import get_game
from tests.platform.web.conftest import REFERENCE_SEATS, Site, Visitor

pytestmark = pytest.mark.integration

GAMES = sorted(REFERENCE_SEATS)
WIDTHS = (1400, 400)
LEGIBLE_SCALE = 0.8
"""The least scale a board is drawn at to read: its words are 9 to 13 units, its legends' 12 and 13,
so at 0.8 a legend's line is 10 px high or more."""

MOVE_CELLS = (
    "return [...document.querySelectorAll('table.moves td.move')]"
    ".map(td => [td.querySelector('.words').textContent, td.title, td.textContent])"
)


def replay(site: Site, match_id: str) -> dict[str, Any]:
    document: dict[str, Any] = site.api("GET", f"/api/v1/matches/{match_id}/replay")
    return document


def position(visitor: Visitor) -> int:
    return int(visitor.driver.find_element(By.ID, "viewer").get_attribute("data-position"))


def board_loaded(visitor: Visitor, n: int) -> Any:
    """The board's image once it shows the position after ``n`` moves."""
    board = visitor.driver.find_element(By.ID, "board")
    assert board.get_attribute("src").endswith(f"/board/{n}.svg")
    visitor.wait_until(
        timeout=20,
        condition=lambda d: d.execute_script(
            "return arguments[0].complete && arguments[0].naturalWidth > 0", board
        ),
    )
    return board


def drawn_width(site: Site, match_id: str, n: int) -> float:
    """The width of the board's own drawing (its viewBox), in its units."""
    svg = requests.get(site.url(f"/matches/{match_id}/board/{n}.svg"), timeout=20).text
    found = re.search(r'viewBox="0 0 ([\d.]+) [\d.]+"', svg)
    assert found, "the drawing has a viewBox"
    return float(found.group(1))


@pytest.mark.usefixtures("real_boards")
@pytest.mark.parametrize("game", GAMES)
def test_the_move_list_reads_in_words_with_the_json_beside(
    visitor: Visitor, site: Site, game_matches: dict[str, str], game: str
) -> None:
    match_id = game_matches[game]
    moves = replay(site, match_id)["moves"]
    visitor.visit(f"/matches/{match_id}")
    cells = visitor.driver.execute_script(MOVE_CELLS)
    assert len(cells) == len(moves)
    for (words, title, whole), move in zip(cells, moves, strict=True):
        assert words == get_game(game).describe_move(move["move"])
        assert json.loads(title) == move["move"]  # the JSON on hover
        assert '{"type"' not in whole and not words.startswith("{"), whole
    caption = visitor.driver.find_element(By.CSS_SELECTOR, "[data-current-move]").text
    assert caption.endswith(get_game(game).describe_move(moves[-1]["move"]))
    shown = visitor.driver.find_element(By.CSS_SELECTOR, "[data-current-json]").get_attribute("textContent")
    assert json.loads(shown) == moves[-1]["move"]
    assert visitor.console_errors() == []


@pytest.mark.usefixtures("real_boards")
@pytest.mark.parametrize("game", GAMES)
def test_a_link_to_a_move_opens_there_and_the_address_follows(
    visitor: Visitor, site: Site, game_matches: dict[str, str], game: str
) -> None:
    match_id = game_matches[game]
    half = len(replay(site, match_id)["moves"]) // 2
    visitor.visit("/")
    visitor.visit(f"/matches/{match_id}#move={half}")
    assert position(visitor) == half
    board_loaded(visitor, half)
    current = visitor.driver.find_elements(By.CSS_SELECTOR, "table.moves tr.current")
    assert [row.get_attribute("data-n") for row in current] == [str(half)]
    visitor.driver.find_element(By.CSS_SELECTOR, '[data-go="next"]').click()
    assert position(visitor) == half + 1
    assert visitor.driver.execute_script("return window.location.hash") == f"#move={half + 1}"
    board_loaded(visitor, half + 1)
    visitor.driver.back()
    visitor.wait_until(timeout=5, condition=lambda _: position(visitor) == half)
    assert visitor.driver.execute_script("return window.location.hash") == f"#move={half}"
    board_loaded(visitor, half)
    assert visitor.console_errors() == []


@pytest.mark.usefixtures("real_boards")
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_the_board_fits_the_page_and_reads(
    visitor: Visitor, site: Site, game_matches: dict[str, str], game: str, width: int
) -> None:
    """At 1400 px the board fits its column at a legible scale; at 400 px it fits the screen and
    zooms in to a legible scale, scrolling inside its frame, never the page sideways."""
    match_id = game_matches[game]
    half = len(replay(site, match_id)["moves"]) // 2
    own_width = drawn_width(site, match_id, half)
    with visitor.width(width):
        visitor.visit("/")
        visitor.visit(f"/matches/{match_id}#move={half}")
        board = board_loaded(visitor, half)
        frame = visitor.driver.find_element(By.CSS_SELECTOR, "[data-board-frame]")
        assert board.size["width"] <= frame.size["width"]
        assert visitor.horizontal_overflow() == 0
        if width == 400:
            for _ in range(4):
                visitor.driver.find_element(By.CSS_SELECTOR, '[data-zoom="1"]').click()
            assert visitor.driver.execute_script(
                "return arguments[0].scrollWidth > arguments[0].clientWidth", frame
            )
            assert visitor.horizontal_overflow() == 0
        assert board.size["width"] / own_width >= LEGIBLE_SCALE
        visitor.screenshot(f"match-{game}-{width}")
    assert visitor.console_errors() == []
