"""Pages and API answers never fail on the text they show: names stored before the rule on names
(``arena.api.schemas.names``) may hold a lone surrogate, markup or invisible characters, and every
page and answer that shows them still renders, the surrogate as U+FFFD and the markup escaped."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.platform.conftest import Arena

SURROGATE = "x\ud800"
"""A lone surrogate: JSON can carry it, UTF-8 cannot."""
MARKUP = "<b>bold</b>\u202e"
"""Markup and a right-to-left override."""
TOURNAMENT_NAME = "cup\udfff<i>"


@pytest.fixture
def stored(arena: Arena) -> dict[str, Any]:
    """Two bots, a played match and a played tournament, the bots' and the tournament's names then
    written straight into the store, as records written before the rule could hold them."""
    first = arena.register("first", "/first/a", ["nim"])
    last = arena.register("last", "/last/b", ["nim"])
    store = arena.runtime.store
    assert store.bots.change(first["id"], {}, {"name": SURROGATE}) is not None
    assert store.bots.change(last["id"], {}, {"name": MARKUP}) is not None
    match = arena.match(game="nim", bots=[first["id"], last["id"]], seed=3)
    answer = arena.client.post(
        "/api/v1/tournaments",
        json={
            "name": "cup",
            "game": "nim",
            "format": "round_robin",
            "bots": [first["id"], last["id"]],
            "seats_per_match": 2,
        },
        headers=arena.admin(),
    )
    assert answer.status_code == 202, answer.get_json()
    tournament = answer.get_json()["id"]
    arena.run_queue()
    # the worker stored every end: the names' bots played and were rated as any other
    assert arena.get(f"/api/v1/matches/{match['id']}")["status"] == "finished"
    assert arena.get(f"/api/v1/tournaments/{tournament}")["status"] == "finished"
    key = store.key("tournament", tournament)
    record = json.loads(store.redis.get(key))
    record["name"] = TOURNAMENT_NAME
    store.redis.set(key, json.dumps(record))  # json's ASCII escapes: the lone surrogate is stored
    return {"bots": [first["id"], last["id"]], "match": match["id"], "tournament": tournament}


def pages(stored: dict[str, Any]) -> list[str]:
    first, last = stored["bots"]
    return [
        "/",
        "/games",
        "/games/nim",
        "/games/nim/ladder",
        "/bots",
        f"/bots?q={SURROGATE[0]}",
        f"/bots/{first}",
        f"/bots/{last}",
        "/matches",
        f"/matches?bot={first}",
        f"/matches/{stored['match']}",
        "/tournaments",
        f"/tournaments/{stored['tournament']}",
    ]


def test_every_page_shows_stored_names_readable_and_escaped(arena: Arena, stored: dict[str, Any]) -> None:
    for path in pages(stored):
        answer = arena.client.get(path)
        assert answer.status_code == 200, path
        text = answer.data.decode("utf-8")  # strict: well-formed UTF-8
        assert "<b>bold" not in text, path  # markup shown as text, never as markup
        if path.startswith(("/bots/", "/matches/")):
            assert "x\ufffd" in text and "&lt;b&gt;bold&lt;/b&gt;" in text, path
    tournament = arena.client.get(f"/tournaments/{stored['tournament']}").data.decode()
    assert "cup\ufffd&lt;i&gt;" in tournament


def api_answers(stored: dict[str, Any]) -> list[str]:
    first, _ = stored["bots"]
    match, tournament = stored["match"], stored["tournament"]
    return [
        "/api/v1/bots",
        f"/api/v1/bots/{first}",
        f"/api/v1/bots/{first}/history",
        "/api/v1/matches",
        f"/api/v1/matches/{match}",
        f"/api/v1/matches/{match}/replay",
        f"/matches/{match}/live.json",
        "/api/v1/tournaments",
        f"/api/v1/tournaments/{tournament}",
        "/api/v1/ladders/nim",
    ]


def test_every_api_answer_is_well_formed_json_with_the_names_readable(
    arena: Arena, stored: dict[str, Any]
) -> None:
    for path in api_answers(stored):
        answer = arena.client.get(path)
        assert answer.status_code == 200, path
        text = answer.data.decode("utf-8")
        assert "\\ud800" not in text.lower() and "\\udfff" not in text.lower(), path
        json.loads(text)
    bots = {bot["name"] for bot in arena.get("/api/v1/bots")}
    assert bots == {"x\ufffd", MARKUP}
    assert arena.get(f"/api/v1/tournaments/{stored['tournament']}")["name"] == "cup\ufffd<i>"


def test_the_replay_viewer_reads_its_replay(arena: Arena, stored: dict[str, Any]) -> None:
    page = arena.client.get(f"/matches/{stored['match']}").data.decode()
    api = page.split('data-api="', 1)[1].split('"', 1)[0]
    replay = arena.client.get(api)
    assert replay.status_code == 200
    assert json.loads(replay.data.decode("utf-8"))["moves"]
    assert arena.client.get(f"/matches/{stored['match']}/board/1.svg").status_code == 200
