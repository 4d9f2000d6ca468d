"""``/api/v1/games`` and ``/api/v1/bots``: listing, registration, tokens, endpoint safety, errors."""

from __future__ import annotations

import json

import pytest

from arena.api import create_app
from referee.protocol import new_secret
from referee.transport.endpoints import EndpointPolicy
from tests.platform.conftest import ADMIN, Arena, ListQueue, make_runtime

ERROR_KEYS = {"code", "status", "message", "errors"}


def test_games_lists_every_registered_game_with_variants_and_options(arena: Arena) -> None:
    games = {game["id"]: game for game in arena.get("/api/v1/games")}
    assert {"nim", "party"} <= set(games)
    nim = games["nim"]
    assert nim["default_variant"] == "standard"
    (standard,) = nim["variants"]
    assert standard["seats"] == [2, 3] and standard["rated"] is True and standard["team"] is False
    assert standard["options"] == [
        {
            "name": "stones",
            "type": "int",
            "default": 9,
            "description": "stones in the pile",
            "minimum": 1,
            "maximum": 100,
        }
    ]
    party = {v["name"]: (v["rated"], v["team"]) for v in games["party"]["variants"]}
    assert party == {"open": (True, False), "coop": (False, True), "crew": (True, True)}
    assert arena.get("/api/v1/games/party")["title"] == "Party (test game)"


def test_an_unknown_game_is_404_with_the_error_body(arena: Arena) -> None:
    answer = arena.client.get("/api/v1/games/chess")
    assert answer.status_code == 404
    body = answer.get_json()
    assert set(body) == ERROR_KEYS and body["status"] == "Not Found" and "chess" in body["message"]


def test_registration_takes_the_secret_and_shows_the_token_once_and_never_the_secret(arena: Arena) -> None:
    secret = arena.bots.secrets["/first/a"] = new_secret()
    answer = arena.client.post(
        "/api/v1/bots",
        json={"name": "Alice", "endpoint": arena.bots.url("/first/a"), "games": ["nim"], "secret": secret},
    )
    assert answer.status_code == 201
    created = answer.get_json()
    assert created["id"].startswith("b-") and created["token"] and "secret" not in created
    assert secret not in answer.get_data(as_text=True)
    assert created["endpoint"] == arena.bots.url("/first/a")
    assert answer.headers["Location"].endswith(f"/api/v1/bots/{created['id']}")
    shown = arena.get(f"/api/v1/bots/{created['id']}")
    assert {"token", "secret", "endpoint", "token_hash"}.isdisjoint(shown)
    assert shown["name"] == "Alice" and shown["games"] == ["nim"]
    assert shown["faults"] == {"total": 0, "by_kind": {}} and shown["ratings"] == []
    listed = arena.get("/api/v1/bots")
    assert [bot["id"] for bot in listed] == [created["id"]]
    assert {"token", "secret", "endpoint"}.isdisjoint(listed[0])


def test_the_token_is_stored_hashed_and_the_secret_as_given(arena: Arena) -> None:
    created = arena.register("Alice", "/first/a", ["nim"])
    redis = arena.runtime.store.redis
    strings = [key for key in redis.keys("*") if redis.type(key) == "string"]
    assert strings, "the bot is stored as a string"
    everything = "".join(redis.get(key) or "" for key in strings)
    assert created["id"] in everything and created["token"] not in everything
    record = arena.runtime.store.bots.get(created["id"])
    assert record.token_hash.startswith("sha256:") and record.secret == arena.bots.secrets["/first/a"]


def test_listing_filters_by_game(arena: Arena) -> None:
    nim_bot = arena.register("N", "/first/n", ["nim"])
    both = arena.register("B", "/first/b", ["nim", "party"])
    assert [b["id"] for b in arena.get("/api/v1/bots?game=party")] == [both["id"]]
    assert [b["id"] for b in arena.get("/api/v1/bots?game=nim")] == [nim_bot["id"], both["id"]]


SECRET = "0123456789abcdef" * 2
"""A well-formed secret for requests refused before any ping."""


@pytest.mark.parametrize(
    ("body", "field", "fragment"),
    [
        ({"endpoint": "http://127.0.0.1/x", "games": ["nim"], "secret": SECRET}, "name", "Missing data"),
        (
            {"name": "", "endpoint": "http://127.0.0.1/x", "games": ["nim"], "secret": SECRET},
            "name",
            "blank",
        ),
        ({"name": "n", "endpoint": "http://127.0.0.1/x", "games": [], "secret": SECRET}, "games", "Length"),
        (
            {"name": "n", "endpoint": "http://127.0.0.1/x", "games": "nim", "secret": SECRET},
            "games",
            "Not a valid list",
        ),
        (
            {"name": "n", "endpoint": "http://127.0.0.1/x", "games": ["nim"], "secret": SECRET, "colour": 1},
            "colour",
            "Unknown field",
        ),
        ({"name": "n", "endpoint": "http://127.0.0.1/x", "games": ["nim"]}, "secret", "Missing data"),
        (
            {"name": "n", "endpoint": "http://127.0.0.1/x", "games": ["nim"], "secret": "local"},
            "secret",
            "32 to 256 characters",
        ),
        (
            {"name": "n", "endpoint": "http://127.0.0.1/x", "games": ["nim"], "secret": SECRET + "\n"},
            "secret",
            "printable ASCII",
        ),
        (
            {"name": "n", "endpoint": "http://127.0.0.1/x", "games": ["nim"], "secret": SECRET, "token": "t"},
            "token",
            "Unknown field",
        ),
        (
            {"name": "n", "endpoint": "http://127.0.0.1/x", "games": ["nim"], "secret": SECRET, "id": "b-1"},
            "id",
            "Unknown field",
        ),
    ],
)
def test_schema_errors_are_422_with_field_messages(arena: Arena, body, field, fragment) -> None:
    answer = arena.client.post("/api/v1/bots", json=body)
    assert answer.status_code == 422
    error = answer.get_json()
    assert set(error) == ERROR_KEYS and error["code"] == 422
    assert fragment.lower() in " ".join(error["errors"][field]).lower()


def test_unknown_and_repeated_games_are_named_by_position(arena: Arena) -> None:
    answer = arena.client.post(
        "/api/v1/bots",
        json={
            "name": "n",
            "endpoint": arena.bots.url("/first/x"),
            "games": ["nim", "chess"],
            "secret": SECRET,
        },
    )
    assert answer.status_code == 422
    assert "unknown game 'chess'" in answer.get_json()["errors"]["games"]["1"][0]
    answer = arena.client.post(
        "/api/v1/bots",
        json={"name": "n", "endpoint": arena.bots.url("/first/x"), "games": ["nim", "nim"], "secret": SECRET},
    )
    assert answer.get_json()["errors"]["games"] == ["each game may be named once"]


def test_malformed_json_is_400_with_the_error_body(arena: Arena) -> None:
    answer = arena.client.post("/api/v1/bots", data="{not json", content_type="application/json")
    assert answer.status_code == 400
    assert set(answer.get_json()) == ERROR_KEYS


@pytest.mark.parametrize(
    ("endpoint", "fragment"),
    [
        ("ftp://127.0.0.1/bot", "http or https"),
        ("http://10.1.2.3/bot", "not public (private)"),
        ("http://169.254.169.254/latest", "not public (link-local)"),
        ("http://[::1]:8000/bot", "not public (loopback)"),
        ("http://user:pw@127.0.0.1/bot", "user name or password"),
        ("not a url", "http or https"),
        ("http://127.0.0.1/бот", "endpoint must be ASCII"),
    ],
)
def test_endpoints_outside_public_space_and_the_allowlist_are_refused(
    arena: Arena, endpoint, fragment
) -> None:
    body = {"name": "n", "endpoint": endpoint, "games": ["nim"], "secret": SECRET}
    answer = arena.client.post("/api/v1/bots", json=body)
    assert answer.status_code == 422
    assert fragment in answer.get_json()["errors"]["endpoint"][0]


def test_loopback_is_refused_without_an_allowlist(toy_games: None) -> None:
    runtime = make_runtime(ListQueue(), policy=EndpointPolicy())
    client = create_app(runtime).test_client()
    answer = client.post(
        "/api/v1/bots",
        json={"name": "n", "endpoint": "http://127.0.0.1:9/x", "games": ["nim"], "secret": SECRET},
    )
    assert answer.status_code == 422
    assert answer.get_json()["errors"]["endpoint"] == ["endpoint address 127.0.0.1 is not public (loopback)"]


def test_patch_needs_the_bots_own_token(arena: Arena) -> None:
    alice = arena.register("Alice", "/first/a", ["nim"])
    bob = arena.register("Bob", "/first/b", ["nim"])
    url = f"/api/v1/bots/{alice['id']}"
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Bearer {bob['token']}"}):
        answer = arena.client.patch(url, json={"name": "Mallory"}, headers=headers)
        assert answer.status_code == 401
        assert set(answer.get_json()) == ERROR_KEYS
        assert answer.headers["WWW-Authenticate"].startswith("Bearer")
    answer = arena.client.patch(
        url,
        json={"name": "Alice 2", "games": ["nim", "party"]},
        headers={"Authorization": f"Bearer {alice['token']}"},
    )
    assert answer.status_code == 200
    assert answer.get_json()["name"] == "Alice 2" and answer.get_json()["games"] == ["nim", "party"]
    assert arena.get(url)["name"] == "Alice 2"
    answer = arena.client.patch(url, json={"name": "By organizer"}, headers=arena.admin())
    assert answer.status_code == 200


def test_patch_checks_the_new_endpoint_and_refuses_an_empty_change(arena: Arena) -> None:
    alice = arena.register("Alice", "/first/a", ["nim"])
    headers = {"Authorization": f"Bearer {alice['token']}"}
    url = f"/api/v1/bots/{alice['id']}"
    answer = arena.client.patch(url, json={"endpoint": "http://192.168.1.5/bot"}, headers=headers)
    assert answer.status_code == 422 and "not public (private)" in answer.get_json()["errors"]["endpoint"][0]
    assert arena.runtime.store.bots.get(alice["id"]).endpoint == arena.bots.url("/first/a")
    answer = arena.client.patch(url, json={}, headers=headers)
    assert answer.status_code == 422 and answer.get_json()["errors"]["_schema"]


def test_delete_needs_the_token_and_removes_the_bot(arena: Arena) -> None:
    alice = arena.register("Alice", "/first/a", ["nim"])
    url = f"/api/v1/bots/{alice['id']}"
    assert arena.client.delete(url).status_code == 401
    answer = arena.client.delete(url, headers={"Authorization": f"Bearer {alice['token']}"})
    assert answer.status_code == 204 and answer.data == b""
    assert arena.client.get(url).status_code == 404
    assert arena.client.delete(url, headers={"Authorization": f"Bearer {ADMIN}"}).status_code == 404
    assert arena.get("/api/v1/bots") == []


TOKEN_GUARDED = [
    ("PATCH", "", {"name": "Mallory"}),
    ("DELETE", "", None),
    ("POST", "/secret", {"secret": "s" * 40}),
    ("POST", "/ping", None),
]


@pytest.mark.parametrize(
    ("method", "suffix", "body"), TOKEN_GUARDED, ids=["patch", "delete", "secret", "ping"]
)
def test_a_bots_guarded_routes_judge_the_token_before_the_bots_existence(
    arena: Arena, method: str, suffix: str, body: dict | None
) -> None:
    """Without the bot's token the answer is 401 whether or not the bot exists (deleted, or never
    was): nobody learns which ids exist by trying them. Only the organizer is told of a 404."""
    alice = arena.register("Alice", "/first/a", ["nim"])
    bob = arena.register("Bob", "/first/b", ["nim"])
    gone = arena.register("Gone", "/first/gone", ["nim"])
    owner = {"Authorization": f"Bearer {gone['token']}"}
    assert arena.client.delete(f"/api/v1/bots/{gone['id']}", headers=owner).status_code == 204
    for bot_id in (alice["id"], gone["id"], "b-0123456789abcdef"):
        url = f"/api/v1/bots/{bot_id}{suffix}"
        for headers in (
            {},
            {"Authorization": "Bearer wrong"},
            {"Authorization": f"Bearer {bob['token']}"},
            owner,
        ):
            answer = arena.client.open(url, method=method, json=body, headers=headers)
            assert answer.status_code == 401, (url, headers, answer.get_json())
            assert set(answer.get_json()) == ERROR_KEYS
            assert answer.headers["WWW-Authenticate"].startswith("Bearer")
        if bot_id != alice["id"]:
            answer = arena.client.open(url, method=method, json=body, headers=arena.admin())
            assert answer.status_code == 404 and "no bot with id" in answer.get_json()["message"]
    assert arena.runtime.store.bots.get(alice["id"]).name == "Alice", "nothing changed"


def test_bots_are_listed_by_game_a_page_at_a_time_and_follow_their_games(arena: Arena) -> None:
    made = [arena.register(f"b{n}", f"/first/p{n}", ["nim"] if n % 2 else ["nim", "party"]) for n in range(5)]
    nim = arena.client.get("/api/v1/bots?game=nim&page_size=2&page=2")
    assert [b["id"] for b in nim.get_json()] == [made[2]["id"], made[3]["id"]]
    assert json.loads(nim.headers["X-Pagination"])["total"] == 5
    party = [b["id"] for b in arena.get("/api/v1/bots?game=party&page_size=10")]
    assert party == [made[0]["id"], made[2]["id"], made[4]["id"]]
    owner = {"Authorization": f"Bearer {made[0]['token']}"}
    assert (
        arena.client.patch(
            f"/api/v1/bots/{made[0]['id']}", json={"games": ["nim"]}, headers=owner
        ).status_code
        == 200
    )
    assert [b["id"] for b in arena.get("/api/v1/bots?game=party")] == [made[2]["id"], made[4]["id"]]
    arena.client.delete(
        f"/api/v1/bots/{made[2]['id']}", headers={"Authorization": f"Bearer {made[2]['token']}"}
    )
    assert [b["id"] for b in arena.get("/api/v1/bots?game=party")] == [made[4]["id"]]
    assert len(arena.get("/api/v1/bots?page_size=100")) == 4
