"""Every answer of the app carries the security headers: pages, SVG frames, JSON, errors, Swagger UI.

What a browser makes of the policy (no violation, the pages still work) is checked in a real browser
by ``tests/platform/web/test_content_security_policy.py``.
"""

from __future__ import annotations

import re
import sys
import types
from typing import Any

import pytest
from werkzeug.test import TestResponse

from arena.api import security_headers
from tests.platform.conftest import Arena

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>'


@pytest.fixture
def boards(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in for ``arena.boards`` that draws the toy games' positions as a square."""
    module = types.ModuleType("arena.boards")
    module.position_after = lambda replay, n: {"moves": n}  # type: ignore[attr-defined]
    module.render_svg = lambda game, state, reveal=True: SVG  # type: ignore[attr-defined]
    module.seat_colours = lambda game, seats: ["#0a8f7e", "#b5179e"][:seats]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "arena.boards", module)


def directives(answer: TestResponse) -> dict[str, list[str]]:
    policy = answer.headers["Content-Security-Policy"]
    found = {}
    for directive in policy.split(";"):
        name, *values = directive.split()
        found[name] = values
    return found


def assert_secured(answer: TestResponse, what: str) -> dict[str, list[str]]:
    assert answer.headers["X-Content-Type-Options"] == "nosniff", what
    assert answer.headers["Referrer-Policy"] == "same-origin", what
    assert answer.headers["X-Frame-Options"] == "SAMEORIGIN", what
    policy = directives(answer)
    assert policy["default-src"] == ["'self'"], what
    assert policy["script-src"] == ["'self'"], what  # no inline script, no eval
    assert policy["frame-ancestors"] == ["'self'"], what
    assert policy["object-src"] == ["'none'"], what
    assert "'unsafe-inline'" not in answer.headers["Content-Security-Policy"], what
    return policy


def finished_match(arena: Arena) -> str:
    first = arena.register("First", "/first/1", ["nim"])
    last = arena.register("Last", "/last/1", ["nim"])
    match: dict[str, Any] = arena.match(game="nim", bots=[first["id"], last["id"]], seed=1)
    arena.run_queue()
    return str(match["id"])


def test_every_kind_of_answer_carries_the_headers(arena: Arena, boards: None) -> None:
    match_id = finished_match(arena)
    answers = {
        "home page": ("/", 200, "text/html"),
        "match page": (f"/matches/{match_id}", 200, "text/html"),
        "SVG frame": (f"/matches/{match_id}/board/1.svg", 200, "image/svg+xml"),
        "style sheet": ("/static/web/arena.css", 200, "text/css"),
        "JSON": ("/api/v1/games", 200, "application/json"),
        "replay": (f"/api/v1/matches/{match_id}/replay", 200, "application/json"),
        "API error": ("/api/v1/matches/m-nothing", 404, "application/json"),
        "API validation error": ("/api/v1/matches?page_size=zero", 422, "application/json"),
        "page error": ("/no/such/page", 404, "text/html"),
        "page bad request": ("/matches?limit=0", 400, "text/html"),
        "Swagger UI": ("/api/v1/swagger-ui", 200, "text/html"),
        "Swagger UI's script": ("/api/v1/swagger-ui-assets/swagger-ui-bundle.js", 200, "text/javascript"),
        "OpenAPI": ("/api/v1/openapi.json", 200, "application/json"),
        "redirect": ("/api/v1/docs", 302, "text/html"),
    }
    for what, (path, code, mimetype) in answers.items():
        answer = arena.client.get(path)
        assert (answer.status_code, answer.mimetype) == (code, mimetype), what
        assert_secured(answer, what)
        answer.close()
    refused = arena.client.post("/api/v1/matches", json={})  # no organizer token
    assert refused.status_code == 401
    assert_secured(refused, "401")


def test_an_unexpected_error_carries_the_headers_too(arena: Arena, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> list[Any]:
        raise RuntimeError("boom")

    monkeypatch.setattr("arena.web.data.games", broken)
    answer = arena.client.get("/games")
    assert answer.status_code == 500 and answer.get_json()["code"] == 500
    assert_secured(answer, "500")


def test_only_a_page_with_an_inline_style_gets_a_nonce_and_each_request_its_own(
    arena: Arena, boards: None
) -> None:
    match_id = finished_match(arena)
    assert directives(arena.client.get("/"))["style-src"] == ["'self'"]
    nonces = set()
    for _ in range(2):
        answer = arena.client.get(f"/matches/{match_id}")
        styles = directives(answer)["style-src"]
        assert styles[0] == "'self'" and len(styles) == 2
        (nonce,) = re.findall(r"'nonce-([A-Za-z0-9_-]{20,})'", styles[1])
        page = answer.get_data(as_text=True)
        assert f'<style nonce="{nonce}">' in page  # the seat colours, the board's
        assert "#0a8f7e" in page and not re.search(r"\sstyle=", page)  # no style attribute anywhere
        nonces.add(nonce)
    assert len(nonces) == 2


def test_a_view_that_sets_its_own_header_keeps_it() -> None:
    from flask import Flask

    app = Flask(__name__)
    security_headers.install(app)

    @app.get("/framed")
    def framed() -> tuple[str, int, dict[str, str]]:
        return "ok", 200, {"Content-Security-Policy": "frame-ancestors 'none'"}

    answer = app.test_client().get("/framed")
    assert answer.headers["Content-Security-Policy"] == "frame-ancestors 'none'"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
