"""Every page in a real browser: it renders, its console stays clean, its links lead where they say."""

from __future__ import annotations

from urllib.parse import urljoin, urlparse

import pytest
import requests
from selenium.webdriver.common.by import By

from arena.web import data
from tests.platform.web.conftest import STAND_IN_SEAT_COLOURS, Site, Visitor

pytestmark = pytest.mark.integration


def pages(site: Site) -> dict[str, str]:
    """Every kind of page, by a name for its screenshot."""
    return {
        "home": "/",
        "games": "/games",
        "game": "/games/nim",
        "ladder": "/games/nim/ladder?variant=standard",
        "matches": "/matches",
        "matches-filtered": f"/matches?game=nim&bot={site.bots['alice']}&status=finished",
        "match": f"/matches/{site.faulty_match}",
        "tournaments": "/tournaments",
        "tournament": f"/tournaments/{site.tournament}",
        "bot": f"/bots/{site.bots['dave']}",
    }


def internal_links(visitor: Visitor) -> dict[str, str]:
    """href -> link text of every link on the page that stays on the site."""
    found = {}
    for link in visitor.driver.find_elements(By.CSS_SELECTOR, "a[href]"):
        href = link.get_attribute("href")
        if urlparse(href).netloc == urlparse(visitor.site.base).netloc:
            found[href] = link.text
    return found


def test_every_page_renders_with_a_clean_console(visitor: Visitor, site: Site) -> None:
    for name, path in pages(site).items():
        answer = requests.get(site.url(path), timeout=10)
        assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("text/html"), path
        visitor.visit(path)
        assert visitor.driver.find_element(By.TAG_NAME, "h1").text, path
        assert visitor.driver.title.endswith("Volcano Arena"), path
        visitor.screenshot(name)
        assert visitor.console_errors() == [], path


@pytest.mark.parametrize("width", [1400, 400])
def test_no_page_scrolls_sideways_on_a_phone_or_a_wide_screen(
    visitor: Visitor, site: Site, width: int
) -> None:
    """A table wider than the screen scrolls inside itself; the page stays as wide as the window."""
    shown = {**pages(site), "error": "/no/such/page"}
    with visitor.width(width):
        assert visitor.driver.execute_script("return window.innerWidth") == width
        for name, path in shown.items():
            visitor.visit(path)
            assert visitor.horizontal_overflow() == 0, f"{path} at {width} px"
            visitor.screenshot(f"{name}-{width}")


def test_every_link_on_every_page_answers(visitor: Visitor, site: Site) -> None:
    checked: set[str] = set()
    for path in pages(site).values():
        visitor.visit(path)
        for href in internal_links(visitor):
            if href in checked:
                continue
            checked.add(href)
            answer = requests.get(href, timeout=10)
            assert answer.status_code == 200, f"{href} (linked from {path}) answered {answer.status_code}"
    assert any("/api/v1/matches/" in href and href.endswith("/replay") for href in checked)
    assert any("/bots/" in href for href in checked) and any("/games/nim/ladder" in href for href in checked)


def follow(visitor: Visitor, selector: str) -> str:
    """Click the first link matching ``selector``; returns the link's text."""
    link = visitor.driver.find_element(By.CSS_SELECTOR, selector)
    text = link.text
    link.click()
    return text


def heading(visitor: Visitor) -> str:
    return visitor.driver.find_element(By.TAG_NAME, "h1").text


def test_links_lead_where_they_say(visitor: Visitor, site: Site) -> None:
    visitor.visit("/")
    assert follow(visitor, ".card.game h3 a[href='/games/nim']") == heading(visitor) == "Nim (test game)"
    name = follow(visitor, "table.ladder a.bot")
    assert heading(visitor) == name and name in site.bots
    match_id = follow(visitor, "table.matches a.match")
    assert heading(visitor) == f"Match {match_id}"
    bot_name = follow(visitor, "table.seats-table a.bot")
    assert heading(visitor) == bot_name
    visitor.visit("/tournaments")
    assert follow(visitor, f"a[href='/tournaments/{site.tournament}']") == heading(visitor) == "Nim cup"
    visitor.visit("/")
    visitor.driver.find_element(By.LINK_TEXT, "API").click()
    assert urlparse(visitor.driver.current_url).path == "/api/v1/swagger-ui"


@pytest.mark.parametrize(
    "path",
    [
        "/matches/m-nothing",
        "/bots/b-nothing",
        "/tournaments/t-nothing",
        "/games/chess",
        "/games/nim/ladder?variant=misere",
        "/no/such/page",
        "/matches/m-nothing/board/0.svg",
    ],
)
def test_unknown_ids_and_paths_are_an_html_404(visitor: Visitor, site: Site, path: str) -> None:
    answer = requests.get(site.url(path), timeout=10)
    assert answer.status_code == 404 and answer.headers["Content-Type"].startswith("text/html")
    visitor.visit(path)
    visitor.screenshot("not-found")
    assert heading(visitor).startswith("404")
    assert visitor.driver.find_element(By.LINK_TEXT, "Back to the arena").get_attribute("href") == site.url(
        "/"
    )


def test_live_moves_are_null_while_the_store_keeps_only_a_count(site: Site) -> None:
    answer = requests.get(site.url(f"/matches/{site.faulty_match}/live.json?start=0"), timeout=10)
    assert answer.json() == {"status": "finished", "start": 0, "moves": None}
    assert requests.get(site.url("/matches/m-nothing/live.json"), timeout=10).status_code == 404


def test_names_are_shown_as_text_never_as_markup(visitor: Visitor, site: Site) -> None:
    name = "<img src=x onerror=\"document.title='owned'\"> O'Brien & co"
    bot_id = site.register_bot(name, "/first/x", "nim")
    visitor.visit(f"/bots/{bot_id}")
    assert heading(visitor) == name
    assert visitor.driver.title == f"{name} · Volcano Arena"
    assert visitor.driver.find_elements(By.CSS_SELECTOR, "main img") == []
    visitor.visit(f"/matches?bot={bot_id}")
    selected = visitor.driver.find_element(By.CSS_SELECTOR, "select[name=bot] option[selected]")
    assert selected.text == name
    assert visitor.console_errors() == []


def test_a_fault_shows_what_the_bot_sent_as_text(
    visitor: Visitor, site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replay that keeps what a faulty bot sent (``fault.sent``) shows it under the fault, as text."""
    document = site.api("GET", f"/api/v1/matches/{site.faulty_match}/replay")
    faulty = next(index for index, move in enumerate(document["moves"]) if move["fault"])
    sent = '{"take":"<b>all</b> & more","note":"caf\\u00e9"}'
    document["moves"][faulty]["fault"]["sent"] = sent
    read = data.replay_document
    monkeypatch.setattr(
        data,
        "replay_document",
        lambda runtime, match_id: document if match_id == site.faulty_match else read(runtime, match_id),
    )
    visitor.visit(f"/matches/{site.faulty_match}")
    row = visitor.driver.find_element(By.CSS_SELECTOR, f'table.moves tr[data-n="{faulty + 1}"]')
    assert row.find_element(By.CSS_SELECTOR, ".sent code").text == sent
    assert row.find_elements(By.CSS_SELECTOR, ".sent b") == []
    assert len(visitor.driver.find_elements(By.CSS_SELECTOR, "table.moves .sent")) == 1
    assert visitor.console_errors() == []


def test_the_api_keeps_its_json_errors(site: Site) -> None:
    for path in ("/api/v1/nothing-here", "/api/v1/matches/m-nothing"):
        answer = requests.get(site.url(path), timeout=10)
        assert answer.status_code == 404 and answer.json()["code"] == 404


@pytest.mark.parametrize("query", ["offset=-1", "limit=0", "limit=lots", "status=sleeping"])
def test_bad_paging_and_filters_are_a_clear_400(site: Site, query: str) -> None:
    answer = requests.get(site.url(f"/matches?{query}"), timeout=10)
    assert answer.status_code == 400 and answer.headers["Content-Type"].startswith("text/html")
    name = query.split("=")[0]
    assert f"{name} must be" in answer.text


def test_the_ladder_shows_the_api_ladder_and_pages(visitor: Visitor, site: Site) -> None:
    expected = site.api("GET", "/api/v1/ladders/nim?variant=standard")["entries"]
    visitor.visit("/games/nim/ladder?variant=standard")
    rows = visitor.driver.find_elements(By.CSS_SELECTOR, "table.ladder tbody tr")
    shown = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")] for row in rows]

    def shown_number(value: float) -> str:  # the page's `num` filter: integers bare, else 2 decimals
        return str(int(value)) if float(value).is_integer() else f"{value:.2f}"

    assert [row[:9] for row in shown] == [
        [
            str(e["rank"]),
            e["name"],
            shown_number(e["conservative"]),
            f"{shown_number(e['mu'])} ± {shown_number(e['sigma'])}",
            f"{e['rating']:.1f}",
            str(e["games"]),
            str(e["wins"]),
            str(e["draws"]),
            str(e["losses"]),
        ]
        for e in expected
    ]
    headers = [th.text.lower() for th in visitor.driver.find_elements(By.CSS_SELECTOR, "table.ladder th")]
    assert headers[:9] == ["rank", "bot", "skill", "μ ± σ", "elo", "games", "wins", "draws", "losses"]
    assert "team win rate" not in [h.lower() for h in headers]  # nim has no team variant

    visitor.visit("/games/nim/ladder?variant=standard&limit=2")
    assert len(visitor.driver.find_elements(By.CSS_SELECTOR, "table.ladder tbody tr")) == 2
    visitor.driver.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
    rows = visitor.driver.find_elements(By.CSS_SELECTOR, "table.ladder tbody tr")
    assert [row.find_element(By.TAG_NAME, "td").text for row in rows] == [
        str(e["rank"]) for e in expected[2:4]
    ]
    assert "offset=2" in visitor.driver.current_url


def test_the_match_list_filters(visitor: Visitor, site: Site) -> None:
    dave = site.bots["dave"]
    visitor.visit(f"/matches?bot={dave}")
    rows = visitor.driver.find_elements(By.CSS_SELECTOR, "table.matches tbody tr")
    assert [row.get_attribute("data-match-id") for row in rows] == [site.faulty_match]
    visitor.visit("/matches?status=aborted")
    assert visitor.driver.find_elements(By.CSS_SELECTOR, "table.matches tbody tr") == []
    visitor.visit("/matches?limit=3")
    assert len(visitor.driver.find_elements(By.CSS_SELECTOR, "table.matches tbody tr")) == 3
    assert visitor.driver.find_element(By.CSS_SELECTOR, "a[rel=next]")


def test_the_match_page_shows_seats_time_result_and_faults_by_kind(visitor: Visitor, site: Site) -> None:
    replay = requests.get(site.url(f"/api/v1/matches/{site.faulty_match}/replay"), timeout=10).json()
    kinds: dict[int, dict[str, int]] = {}
    shown_in_moves = sum(1 for move in replay["moves"] if move["fault"])
    for move in replay["moves"]:
        if move["fault"] and move["fault"]["kind"] != "forfeited":  # after a forfeit: not a fault of its own
            seat_kinds = kinds.setdefault(move["seat"], {})
            seat_kinds[move["fault"]["kind"]] = seat_kinds.get(move["fault"]["kind"], 0) + 1
    assert kinds and 0 not in kinds  # alice plays well; dave's answers are all faults
    visitor.visit(f"/matches/{site.faulty_match}")
    facts = visitor.driver.find_element(By.CSS_SELECTOR, "dl.facts").text
    assert (
        f"{replay['time']['move_ms']} ms a move" in facts
        and replay["result"]["reason"].replace("_", " ") in facts
    )
    assert visitor.driver.find_element(By.CSS_SELECTOR, "[data-origin]").text == "the organizer"
    rows = visitor.driver.find_elements(By.CSS_SELECTOR, "table.seats-table tbody tr")
    for seat, row in enumerate(rows):
        cells = [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
        assert cells[2] == str(replay["result"]["places"][seat])
        assert cells[4] == str(replay["seats"][seat]["faults"]) == str(sum(kinds.get(seat, {}).values()))
        for kind, count in kinds.get(seat, {}).items():
            assert f"{kind} ×{count}" in cells[5]
    assert "forfeited" in rows[1].text
    faults_shown = visitor.driver.find_elements(By.CSS_SELECTOR, "table.moves td.move .fault")
    assert len(faults_shown) == shown_in_moves
    # the moves' pane scrolls only up and down: faults sit under their move, long names are cut
    pane = visitor.driver.find_element(By.CSS_SELECTOR, ".moves-pane")
    overflow = "return arguments[0].scrollWidth - arguments[0].clientWidth"
    assert visitor.driver.execute_script(overflow, pane) <= 1


def test_the_bot_page_shows_its_ladders_matches_and_faults(visitor: Visitor, site: Site) -> None:
    bot = site.api("GET", f"/api/v1/bots/{site.bots['dave']}")
    visitor.visit(f"/bots/{bot['id']}")
    protocol = visitor.driver.find_element(By.CSS_SELECTOR, "dd.protocol").text
    assert protocol.startswith(f"version {bot['protocol']} ")
    faults = visitor.driver.find_elements(By.CSS_SELECTOR, "table.faults tbody tr")
    assert {
        row.find_elements(By.TAG_NAME, "td")[0].text: int(row.find_elements(By.TAG_NAME, "td")[1].text)
        for row in faults
    } == bot["faults"]["by_kind"]
    ladders = [
        a.get_attribute("href") for a in visitor.driver.find_elements(By.CSS_SELECTOR, "a[href*='/ladder']")
    ]
    assert ladders == [site.url("/games/nim/ladder?variant=standard")]
    matches = visitor.driver.find_elements(By.CSS_SELECTOR, "table.matches tbody tr")
    assert [row.get_attribute("data-match-id") for row in matches] == [site.faulty_match]


def test_the_home_page_lists_games_recent_matches_and_the_replay_download(
    visitor: Visitor, site: Site
) -> None:
    visitor.visit("/")
    titles = [h.text for h in visitor.driver.find_elements(By.CSS_SELECTOR, ".card.game h3")]
    assert titles == [game["title"] for game in site.api("GET", "/api/v1/games")]
    ended = [
        m for m in site.api("GET", "/api/v1/matches?page_size=100") if m["status"] in ("finished", "aborted")
    ]
    ended.sort(key=lambda m: m["finished_at"], reverse=True)
    rows = visitor.driver.find_elements(
        By.XPATH, "//h2[text()='Recent matches']/following-sibling::table[1]//tbody/tr"
    )
    assert [row.get_attribute("data-match-id") for row in rows] == [m["id"] for m in ended[:20]]
    visitor.visit(f"/matches/{site.faulty_match}")
    link = visitor.driver.find_element(By.CSS_SELECTOR, "a.download")
    assert urljoin(site.base, link.get_attribute("href")) == site.url(
        f"/api/v1/matches/{site.faulty_match}/replay"
    )


def _rgb(colour: str) -> str:
    """``#rrggbb`` as a browser's computed style writes it."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


def test_seats_are_marked_in_their_board_colours(visitor: Visitor, site: Site) -> None:
    """Each seat's dot, in the seats table and on every move, has the colour the board draws the seat
    in (here the stand-in drawing's), not the page's own palette."""
    visitor.visit(f"/matches/{site.faulty_match}")
    background = "return getComputedStyle(arguments[0]).backgroundColor"
    for where in ("table.seats-table", "table.moves"):
        dots = visitor.driver.find_elements(By.CSS_SELECTOR, f"{where} .seat-dot")
        assert dots, where
        for dot in dots:
            (seat,) = (int(name[5:]) for name in dot.get_attribute("class").split() if name[5:].isdigit())
            assert visitor.driver.execute_script(background, dot) == _rgb(STAND_IN_SEAT_COLOURS[seat])
