"""Names are text people can read (``arena.api.schemas.names``): bots' and tournaments' names are
refused with a 422 naming the field when they hold what does not show or shows as something else,
and kept in NFC, without the spaces around them, when they are accepted."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

import pytest

from tests.platform.conftest import Arena

SECRET = "0123456789abcdef" * 2


@pytest.mark.parametrize(
    ("name", "fragment"),
    [
        ("x\ud800", "lone surrogate"),
        ("\udc00", "lone surrogate"),
        ("zero\u200bwidth", "U+200B"),
        ("bidi\u202eevil", "bidirectional"),
        ("joined\u200dname", "invisible formatting"),
        ("bell\x07", "control character"),
        ("tab\tname", "control character"),
        ("line\nbreak", "control character"),
        ("private\ue000", "private-use"),
        ("nonchar\uffff", "not an assigned character"),
        ("para\u2029graph", "paragraph separator"),
        ("", "blank"),
        ("   ", "blank"),
        ("\u3000\u00a0", "blank"),
        ("n" * 65, "at most 64"),
        (42, "not a valid string"),
    ],
)
def test_unreadable_names_are_refused_naming_the_field(arena: Arena, name: Any, fragment: str) -> None:
    bodies = {
        "/api/v1/bots": {"name": name, "endpoint": "http://127.0.0.1/x", "games": ["nim"], "secret": SECRET},
        "/api/v1/tournaments": {
            "name": name,
            "game": "nim",
            "format": "round_robin",
            "bots": ["b-0000000000000000"],
            "seats_per_match": 2,
        },
    }
    for path, body in bodies.items():
        # the standard library's json writes a lone surrogate as its escape, as a client may send it
        answer = arena.client.post(
            path, data=json.dumps(body), content_type="application/json", headers=arena.admin()
        )
        assert answer.status_code == 422, (path, answer.get_json())
        errors = answer.get_json()["errors"]
        assert fragment.lower() in " ".join(errors["name"]).lower(), (path, errors)


def test_a_rename_is_held_to_the_same_rule(arena: Arena) -> None:
    bot = arena.register("plain", "/first/plain", ["nim"])
    url = f"/api/v1/bots/{bot['id']}"
    headers = {"Authorization": f"Bearer {bot['token']}"}
    answer = arena.client.patch(
        url, data=json.dumps({"name": "x\ud800"}), content_type="application/json", headers=headers
    )
    assert answer.status_code == 422 and "name" in answer.get_json()["errors"]
    assert arena.get(url)["name"] == "plain"
    answer = arena.client.patch(url, json={"name": "  re\u0301named  "}, headers=headers)
    assert answer.status_code == 200 and answer.get_json()["name"] == "r\u00e9named"


def test_accepted_names_are_kept_in_nfc_without_spaces_around(arena: Arena) -> None:
    decomposed = "Cafe\u0301 " + "e\u0301" * 59  # 124 code points, 64 once composed
    bot = arena.register(f"  {decomposed}\t", "/first/cafe", ["nim"])
    expected = unicodedata.normalize("NFC", decomposed)
    assert bot["name"] == expected and len(expected) == 64
    assert arena.get(f"/api/v1/bots/{bot['id']}")["name"] == expected
    # the bots page's search finds it typed either way
    for typed in ("CAFE\u0301", "caf\u00e9"):
        assert f"/bots/{bot['id']}" in arena.client.get("/bots", query_string={"q": typed}).data.decode()
    other = arena.register("\U0001f30b volcano \u00e9mile <b>", "/last/emoji", ["nim"])
    assert other["name"] == "\U0001f30b volcano \u00e9mile <b>"  # emoji, accents, markup: all text
    answer = arena.client.post(
        "/api/v1/tournaments",
        json={
            "name": " Coupe\u0301 ",
            "game": "nim",
            "format": "round_robin",
            "bots": [bot["id"], other["id"]],
            "seats_per_match": 2,
        },
        headers=arena.admin(),
    )
    assert answer.status_code == 202 and answer.get_json()["name"] == "Coup\u00e9"
