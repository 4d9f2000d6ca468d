"""The bots' pages as HTML: the list filtered and searched; a bot's chart, head-to-head, matches, rest."""

from __future__ import annotations

import re

from arena.ladders.matchmaking import REST_AFTER_FORFEITS
from tests.platform.conftest import Arena


def _html(arena: Arena, url: str) -> str:
    answer = arena.client.get(url)
    assert answer.status_code == 200, url
    return answer.get_data(as_text=True)


def _play(arena: Arena, bots: list[str], seed: int, **extra: object) -> str:
    match = arena.match(game="nim", bots=bots, seed=seed, options={"stones": 7}, **extra)
    arena.run_queue()
    return str(match["id"])


def test_the_list_filters_by_game_searches_by_name_and_pages(arena: Arena) -> None:
    alice = arena.register("Alice", "/first/w-alice", ["nim"])["id"]
    bob = arena.register("bob", "/first/w-bob", ["party"])["id"]
    alina = arena.register("alina", "/last/w-alina", ["nim"])["id"]
    _play(arena, [alice, alina], 1)

    everyone = _html(arena, "/bots")
    assert all(bot in everyone for bot in (alice, bob, alina))
    nim = _html(arena, "/bots?game=nim")
    assert alice in nim and alina in nim and bob not in nim
    searched = _html(arena, "/bots?q=ALI")
    assert alice in searched and alina in searched and bob not in searched
    assert "2 bots" in searched
    page = _html(arena, "/bots?limit=1&offset=1")
    assert bob in page and alice not in page and 'rel="next"' in page and 'rel="prev"' in page
    assert re.search(r"nim · standard</a> <strong>-?\d", _html(arena, "/bots?game=nim"))
    assert arena.client.get("/bots?game=chess").status_code == 400
    assert 'href="/bots"' in _html(arena, "/")


def test_a_bots_page_draws_its_rating_and_lists_head_to_head_and_all_its_matches(arena: Arena) -> None:
    first = arena.register("first", "/first/w-first", ["nim"])["id"]
    last = arena.register("last", "/last/w-last", ["nim"])["id"]
    played = [_play(arena, [first, last], seed) for seed in range(5)]
    page = _html(arena, f"/bots/{first}?limit=2")
    (chart,) = re.findall(r'<svg class="rating-chart".*?</svg>', page, re.S)
    assert chart.count("<circle") == 5 and "<polyline" in chart
    versus = page[page.index('class="data versus"') :]
    assert f'href="/bots/{last}"' in versus
    assert re.search(r'>nim</a></td><td class="n">5</td>', versus)
    shown = re.findall(r'data-match-id="(m-[0-9a-f]+)"', page)
    assert shown == played[::-1][:2] and "5 matches" in page and 'rel="next"' in page
    older = _html(arena, f"/bots/{first}?limit=2&offset=4")
    assert re.findall(r'data-match-id="(m-[0-9a-f]+)"', older) == played[:1]


def test_a_resting_bots_page_says_so(arena: Arena) -> None:
    path = "/first/w-tired"
    tired = arena.register("tired", path, ["nim"])["id"]
    other = arena.register("other", "/last/w-other", ["nim"])["id"]
    assert "data-resting" not in _html(arena, f"/bots/{tired}")
    arena.bots.secrets[path] = "not-the-secret-it-was-registered-with-0123456789"
    for seed in range(REST_AFTER_FORFEITS):
        _play(arena, [tired, other], seed, max_faults=1)
    page = _html(arena, f"/bots/{tired}")
    assert "data-resting" in page and "Resting on Nim (test game) · standard" in page
    assert f"/api/v1/bots/{tired}/ping" in page
