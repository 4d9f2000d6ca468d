"""Bad input never gets a 500: every operation of the OpenAPI document, fed garbage.

Bodies for every POST and PATCH are drawn from the operation's own field names, each with a
plausible value or any JSON at all (and sometimes a body that is not an object); GETs get random
ids and query parameters. Every answer must be a success or a 4xx with the uniform error body,
whose field messages are lists of strings nested as the request is. Endpoint look-ups are answered
without DNS, so no example waits on the network.
"""

from __future__ import annotations

import io
import json
import runpy
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import quote, urlencode

import pytest
from gunicorn.http.message import MAX_REQUEST_LINE
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from redis.exceptions import ConnectionError as RedisConnectionError

from arena.api import MAX_BODY_BYTES, MAX_URL_BYTES
from referee.protocol import new_secret
from tests.platform.conftest import ADMIN, Arena

ERROR_KEYS = {"code", "status", "message", "errors"}
REAL_GETADDRINFO = socket.getaddrinfo

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _numeric_only(host: str, *args: Any, **kwargs: Any) -> Any:
    """getaddrinfo for IP literals; any name "does not resolve" (no DNS in a test)."""
    return REAL_GETADDRINFO(host, *args, **{**kwargs, "flags": socket.AI_NUMERICHOST})


@pytest.fixture
def offline(arena: Arena) -> Iterator[Arena]:
    with mock.patch("referee.transport.endpoints.socket.getaddrinfo", _numeric_only):
        yield arena


def assert_well_formed(answer: Any, what: str) -> None:
    """A success, or a 4xx whose body is the uniform error with field messages as lists of strings."""
    event(f"HTTP {answer.status_code}")
    assert answer.status_code < 500, (what, answer.status_code, answer.get_data(as_text=True)[:500])
    if answer.status_code < 400:
        return
    body = answer.get_json(silent=True)
    assert isinstance(body, dict) and set(body) == ERROR_KEYS, (what, answer.get_data(as_text=True)[:500])
    assert body["code"] == answer.status_code and isinstance(body["message"], str) and body["message"]
    assert isinstance(body["errors"], dict), what
    if answer.status_code == 422:
        assert body["errors"], (what, body)

    def leaves(node: Any) -> None:
        if isinstance(node, dict):
            assert node and all(isinstance(key, str) for key in node), (what, body)
            for value in node.values():
                leaves(value)
        else:
            assert isinstance(node, list) and node, (what, body)
            assert all(isinstance(message, str) and message for message in node), (what, body)

    if body["errors"]:
        leaves(body["errors"])


def request_fields(spec: dict[str, Any], operation: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The body's field names and, among them, the required ones."""
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    body = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return sorted(body["properties"]), sorted(body.get("required", []))


def plausible(arena: Arena, bot_ids: list[str]) -> dict[str, st.SearchStrategy]:
    """Values that get past the schema, so the game's and the store's checks are fed too."""
    games = st.sampled_from(["nim", "party", "vulkan", "volcano"])
    bots = st.sampled_from(bot_ids)
    return {
        "name": st.text(min_size=1, max_size=70),
        "endpoint": st.sampled_from(
            [
                arena.bots.url("/first/fuzz"),
                "http://10.0.0.1/x",
                "https://[::1]:99999/",
                "ftp://1.2.3.4/",
                "http://x",
            ]
        ),
        "games": st.lists(games | st.text(max_size=5), max_size=3),
        # a fresh one (the fuzz bots' server checks no signature on /first/fuzz, so a ping passes; the
        # registered fuzz bots refuse it), the right one of a fuzz bot, or too short
        "secret": st.sampled_from([new_secret(), arena.bots.secrets.get("/first/fuzz-a", ""), "short"]),
        "game": games,
        "variant": st.sampled_from(["standard", "open", "coop", "crew", "competitive", "solitaire"]),
        "bots": st.lists(bots, min_size=1, max_size=4, unique=True) | st.lists(bots | st.text(max_size=5)),
        "seed": st.integers(min_value=-5, max_value=2**64),
        "setup": st.none()
        | st.fixed_dictionaries({}, optional={"stones": json_values, "to_move": json_values}),
        "options": st.fixed_dictionaries({}, optional={"stones": json_values, "layout": json_values}),
        "time": st.fixed_dictionaries({}, optional={"move_ms": json_values, "bank_ms": json_values}),
        "rated": st.booleans(),
        "max_faults": st.integers(min_value=-1, max_value=1001),
        "format": st.sampled_from(["round_robin", "gauntlet", "swiss"]),
        "seats_per_match": st.integers(min_value=0, max_value=17) | st.sampled_from([2, 3]),
        "games_per_pairing": st.integers(min_value=0, max_value=1001),
        "rounds": st.integers(min_value=0, max_value=65),
        "advance": st.integers(min_value=0, max_value=4),
        "matches_per_minute": st.integers(min_value=-1, max_value=601),
        "max_in_flight": st.integers(min_value=-1, max_value=1001),
        "seats": st.integers(min_value=0, max_value=17),
    }


def bodies(names: list[str], required: list[str], values: dict[str, st.SearchStrategy]) -> st.SearchStrategy:
    """Plausible objects (deep checks), objects of garbage fields (schema checks), any JSON at all."""
    # read-only fields of a schema used both ways (id, token...) have no plausible value: any JSON
    values = {name: values.get(name, json_values) for name in names}
    plausible_only = st.fixed_dictionaries(
        {name: values[name] for name in required},
        optional={name: values[name] for name in names if name not in required},
    )
    mixed = st.fixed_dictionaries(
        {}, optional={**{name: values[name] | json_values for name in names}, "extra": json_values}
    )
    return plausible_only | mixed | json_values


WRITES = [
    ("post", "/api/v1/bots"),
    ("patch", "/api/v1/bots/{bot_id}"),
    ("post", "/api/v1/bots/{bot_id}/secret"),
    ("post", "/api/v1/matches"),
    ("post", "/api/v1/tournaments"),
    ("put", "/api/v1/ladders/{game_id}/{variant}/matchmaking"),
    ("post", "/api/v1/organizers"),
    ("patch", "/api/v1/tournaments/{tournament_id}"),
    ("post", "/api/v1/tournaments/{tournament_id}/entries"),
]


@pytest.mark.parametrize(("method", "path"), WRITES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_garbage_bodies_get_a_4xx_with_the_error_body(offline: Arena, method, path, data) -> None:
    arena = offline
    spec = arena.get("/api/v1/openapi.json")
    if not arena.runtime.store.bots.list_all():
        for name in ("fuzz-a", "fuzz-b", "fuzz-c"):
            arena.register(name, f"/first/{name}", ["nim", "party"])
    bots = arena.runtime.store.bots.list_all()
    bot = bots[0]
    names, required = request_fields(spec, spec["paths"][path][method])
    body = data.draw(bodies(names, required, plausible(arena, [b.id for b in bots])), label="body")
    url = path.replace("{bot_id}", bot.id).replace("{game_id}", "party").replace("{variant}", "open")
    headers = {"Authorization": f"Bearer {ADMIN}"}
    if "{tournament_id}" in url:  # a scheduled open tournament, to change and enter
        scheduled = {"name": "f", "game": "party", "format": "swiss", "seats_per_match": 2, "entry": "open"}
        made = arena.client.post(
            "/api/v1/tournaments", json={**scheduled, "starts_at": "2100-01-01T00:00:00Z"}, headers=headers
        )
        url = url.replace("{tournament_id}", made.get_json()["id"])
    answer = arena.client.open(url, method=method.upper(), json=body, headers=headers)
    assert_well_formed(answer, f"{method} {path} {body!r}")


GET_PATHS = [
    "/api/v1/games/{id}",
    "/api/v1/bots",
    "/api/v1/bots/{id}",
    "/api/v1/matches",
    "/api/v1/matches/{id}",
    "/api/v1/matches/{id}/replay",
    "/api/v1/tournaments",
    "/api/v1/tournaments/{id}",
    "/api/v1/ladders/{id}",
    "/api/v1/ladders/{id}/open/matchmaking",
    "/api/v1/ladders/party/{id}/matchmaking",
]
query_names = st.sampled_from(["limit", "game", "variant", "x"]) | st.text(min_size=1, max_size=6)
query_values = st.sampled_from(
    ["", "0", "1", "501", "-1", "1.5", "nim", "open", "coop", "%ff", "9" * 30]
) | st.text(max_size=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(GET_PATHS),
    ident=st.sampled_from(["nim", "party", "m-0", "b-0", "t-0", "..", "%00"])
    | st.text(min_size=1, max_size=20),
    query=st.lists(st.tuples(query_names, query_values), max_size=3),
)
def test_bad_ids_and_query_parameters_get_a_4xx_with_the_error_body(arena: Arena, path, ident, query) -> None:
    url = path.replace("{id}", quote(ident, safe=""))
    if query:
        url += "?" + urlencode(query)
    answer = arena.client.get(url)
    assert_well_formed(answer, url)


def test_every_body_writing_operation_is_fuzzed(arena: Arena) -> None:
    """A new POST or PATCH in the API must join the garbage test."""
    spec = arena.get("/api/v1/openapi.json")
    writes = {
        (method, path)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if method in ("post", "patch", "put") and "requestBody" in operation
    }
    assert writes == set(WRITES)


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ('{"seed": 1' + "0" * 5000 + "}", "4300 digits"),
        ('{"seed": NaN}', "NaN is not a JSON value"),
        ('{"seed": -Infinity}', "-Infinity is not a JSON value"),
        ("{not json", "Expecting property name"),
        (b'{"name": "\xff"}', "can't decode byte 0xff"),
    ],
)
def test_bodies_json_cannot_read_are_400_saying_why(arena: Arena, raw, fragment) -> None:
    for url in ("/api/v1/bots", "/api/v1/matches", "/api/v1/tournaments"):
        answer = arena.client.post(url, data=raw, content_type="application/json", headers=arena.admin())
        assert answer.status_code == 400, (url, answer.get_data(as_text=True))
        body = answer.get_json()
        assert set(body) == ERROR_KEYS and body["errors"] == {}
        assert body["message"].startswith("The body is not valid JSON: ") and fragment in body["message"], (
            body
        )


def test_a_body_over_the_limit_is_413_before_it_is_read(arena: Arena) -> None:
    padding = "x" * MAX_BODY_BYTES
    answer = arena.client.post(
        "/api/v1/bots", data=json.dumps({"name": padding}), content_type="application/json"
    )
    assert answer.status_code == 413
    assert set(answer.get_json()) == ERROR_KEYS and answer.get_json()["code"] == 413


def _chunked_post(arena: Arena, body: bytes) -> Any:
    """POST ``body`` as a server hands on a chunked one: ``Transfer-Encoding: chunked`` (so its length
    is not known), de-chunked, the stream's end its end (``wsgi.input_terminated``)."""
    return arena.client.post(
        "/api/v1/bots",
        input_stream=io.BytesIO(body),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )


@pytest.mark.parametrize("over", [1, 100_000])
def test_a_chunked_body_over_the_limit_is_413(arena: Arena, over: int) -> None:
    document = json.dumps({"name": "n", "padding": ""}).encode()
    body = document[:-2] + b"x" * (MAX_BODY_BYTES + over - len(document)) + b'"}'
    assert len(body) == MAX_BODY_BYTES + over
    answer = _chunked_post(arena, body)
    assert answer.status_code == 413, answer.get_json()
    assert set(answer.get_json()) == ERROR_KEYS and answer.get_json()["code"] == 413


def test_a_chunked_body_at_the_limit_is_read_whole(arena: Arena) -> None:
    document = json.dumps({"name": "n", "padding": ""}).encode()
    body = document[:-2] + b"x" * (MAX_BODY_BYTES - len(document)) + b'"}'
    answer = _chunked_post(arena, body)
    assert len(body) == MAX_BODY_BYTES and answer.status_code == 422  # read and parsed: a bad field
    assert "padding" in answer.get_json()["errors"]


def _url_of(path: str, length: int) -> str:
    """``path`` with a query string that makes it ``length`` bytes long."""
    return f"{path}?game=" + "x" * (length - len(path) - len("?game="))


@pytest.mark.parametrize("path", ["/api/v1/matches", "/api/v1/health", "/api/v1/nowhere"])
def test_a_url_over_the_limit_is_414_with_the_error_body(arena: Arena, path: str) -> None:
    answer = arena.client.get(_url_of(path, MAX_URL_BYTES + 1))
    assert answer.status_code == 414
    assert answer.get_json() == {
        "code": 414,
        "status": "Request URI Too Long",
        "message": f"The URL is longer than {MAX_URL_BYTES} bytes.",
        "errors": {},
    }


def test_a_url_at_the_limit_is_answered_as_any_other(arena: Arena) -> None:
    answer = arena.client.get(_url_of("/api/v1/matches", MAX_URL_BYTES))
    assert answer.status_code == 422, "the filter's own check: a game id is at most 100 characters"
    assert answer.get_json()["errors"] == {"game": ["Length must be between 1 and 100."]}


def test_a_page_url_over_the_limit_is_an_html_414(arena: Arena) -> None:
    answer = arena.client.get(_url_of("/matches", MAX_URL_BYTES + 1))
    assert answer.status_code == 414 and answer.mimetype == "text/html"
    assert f"The URL is longer than {MAX_URL_BYTES} bytes." in answer.get_data(as_text=True)


def test_gunicorn_reads_request_lines_long_enough_for_the_app_to_answer_them() -> None:
    """gunicorn answers a request line over its limit with its own page: it reads as long a line as
    it can (8190 bytes), past the longest target the app answers with the method and version around
    it, so a URL some kilobytes over the app's bound still gets the app's error body."""
    config = runpy.run_path(str(Path(__file__).parents[3] / "deploy" / "gunicorn.conf.py"))
    assert config["limit_request_line"] == MAX_REQUEST_LINE
    assert MAX_REQUEST_LINE - len("OPTIONS  HTTP/1.1") > MAX_URL_BYTES + 4000


@pytest.mark.parametrize(
    ("change", "errors"),
    [
        ({"seed": 1.5}, {"seed": ["Not a valid integer."]}),
        ({"seed": 2.0}, {"seed": ["Not a valid integer."]}),
        ({"seed": "7"}, {"seed": ["Not a valid integer."]}),
        ({"max_faults": True}, {"max_faults": ["Not a valid integer."]}),
        ({"time": {"move_ms": "500"}}, {"time": {"move_ms": ["Not a valid integer."]}}),
        ({"rated": 1}, {"rated": ["Not a valid boolean."]}),
        ({"rated": "false"}, {"rated": ["Not a valid boolean."]}),
        ({"bots": ["b-" + "x" * 200]}, {"bots": {"0": ["Length must be between 1 and 100."]}}),
    ],
)
def test_numbers_and_flags_are_never_rounded_or_guessed(arena: Arena, change, errors) -> None:
    body = {"game": "nim", "bots": ["b-1", "b-2"], **change}
    answer = arena.client.post("/api/v1/matches", json=body, headers=arena.admin())
    assert answer.status_code == 422 and answer.get_json()["errors"] == errors
    tournament = {
        "name": "t",
        "game": "nim",
        "format": "round_robin",
        "bots": ["b-1", "b-2"],
        "seats_per_match": 2.0,
    }
    answer = arena.client.post("/api/v1/tournaments", json=tournament, headers=arena.admin())
    assert answer.get_json()["errors"] == {"seats_per_match": ["Not a valid integer."]}
    assert arena.queue.ids == []


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/ladders/party?varient=coop",
        "/api/v1/matches?limt=5",
        "/api/v1/bots?gmae=nim",
        "/api/v1/tournaments?x=1",
    ],
)
def test_unknown_query_parameters_are_named(arena: Arena, url) -> None:
    answer = arena.client.get(url)
    assert answer.status_code == 422
    (name,) = answer.get_json()["errors"]
    assert url.endswith(f"?{name}={url.rsplit('=', 1)[1]}") and answer.get_json()["errors"][name] == [
        "Unknown field."
    ]


@pytest.mark.parametrize("url", ["/api/v1/ladders/party?variant=", "/api/v1/bots?game="])
def test_an_empty_filter_is_refused_not_taken_for_none(arena: Arena, url) -> None:
    answer = arena.client.get(url)
    assert answer.status_code == 422 and answer.get_json()["errors"]


def test_an_unreachable_store_is_503_with_the_error_body(arena: Arena, monkeypatch) -> None:
    def down(*args: Any, **kwargs: Any) -> None:
        raise RedisConnectionError("connection refused")

    monkeypatch.setattr(arena.runtime.store.redis, "execute_command", down)
    for url in ("/api/v1/health", "/api/v1/bots", "/api/v1/ladders/nim"):
        answer = arena.client.get(url)
        assert answer.status_code == 503, url
        assert set(answer.get_json()) == ERROR_KEYS and "store is unreachable" in answer.get_json()["message"]
        assert answer.headers["Retry-After"] == "5"
