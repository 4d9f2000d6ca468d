"""Paths: ids of the wrong shape match no route (404, never a store key), and 405 says what is allowed."""

from __future__ import annotations

import pytest

from arena.api.paging import MAX_PAGE
from tests.platform.conftest import ADMIN, Arena


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/v1/matches/{match}:replay"),
        ("GET", "/api/v1/matches/{match}:progress"),
        ("GET", "/api/v1/matches/{match}:lease/replay"),
        ("GET", "/api/v1/bots/{bot}:faults"),
        ("DELETE", "/api/v1/bots/{bot}:faults"),
        ("PATCH", "/api/v1/bots/{bot}x"),
        ("GET", "/api/v1/tournaments/{tournament}:matches"),
        ("GET", "/api/v1/matches/{bot}"),
        ("GET", "/api/v1/bots/B-0123456789ABCDEF"),
    ],
)
def test_what_is_not_an_id_is_not_found(arena: Arena, method: str, path: str) -> None:
    bot = arena.register("A", "/first/a", ["nim"])
    other = arena.register("B", "/first/b", ["nim"])
    match = arena.match(game="nim", bots=[bot["id"], other["id"]])
    url = path.format(match=match["id"], bot=bot["id"], tournament="t-0123456789abcdef")
    answer = arena.client.open(url, method=method, headers={"Authorization": f"Bearer {ADMIN}"})
    assert answer.status_code == 404, answer.get_data(as_text=True)
    assert answer.get_json()["code"] == 404
    assert arena.runtime.store.bots.get(bot["id"]) is not None


def test_a_well_formed_id_that_does_not_exist_is_not_found_either(arena: Arena) -> None:
    answer = arena.client.get("/api/v1/matches/m-0123456789abcdef")
    assert answer.status_code == 404 and "no match" in answer.get_json()["message"]


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("PUT", "/api/v1/bots", {"GET", "POST"}),
        ("DELETE", "/api/v1/matches", {"GET", "POST"}),
        ("POST", "/api/v1/matches/m-0123456789abcdef", {"GET"}),
        ("PUT", "/api/v1/bots/b-0123456789abcdef", {"GET", "PATCH", "DELETE"}),
    ],
)
def test_a_method_not_allowed_names_the_allowed_ones(
    arena: Arena, method: str, path: str, allowed: set
) -> None:
    answer = arena.client.open(path, method=method)
    assert answer.status_code == 405
    assert allowed <= {m.strip() for m in answer.headers["Allow"].split(",")}
    assert answer.get_json()["code"] == 405


@pytest.mark.parametrize("path", ["/api/v1/tournaments", "/api/v1/matches", "/api/v1/bots"])
def test_a_page_far_past_the_end_is_empty_not_an_error(arena: Arena, path: str) -> None:
    answer = arena.client.get(f"{path}?page={MAX_PAGE}&page_size=12")
    assert answer.status_code == 200 and answer.get_json() == []
    assert arena.client.get(f"{path}?page={MAX_PAGE + 1}").status_code == 422
