"""Rate limits: registrations per client address, answered 429 with Retry-After and the usual body."""

from __future__ import annotations

import pytest

from arena.api import create_app
from arena.settings import Settings, SettingsError
from referee.protocol import new_secret
from tests.platform.conftest import BotServer, ListQueue, make_runtime


def _body(bots: BotServer, path: str) -> dict[str, object]:
    bots.secrets[path] = secret = new_secret()
    return {"name": "x", "endpoint": bots.url(path), "games": ["nim"], "secret": secret}


def test_registrations_past_the_limit_are_429_with_retry_after(toy_games: None, bots: BotServer) -> None:
    client = create_app(make_runtime(ListQueue(), registration_limit="3 per minute")).test_client()
    body = _body(bots, "/first/limited")
    codes = [client.post("/api/v1/bots", json=body).status_code for _ in range(3)]
    assert codes == [201, 201, 201]
    refused = client.post("/api/v1/bots", json=body)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    assert refused.get_json()["code"] == 429 and refused.get_json()["message"]
    assert client.get("/api/v1/bots").status_code == 200, "reading is not limited"


def test_another_client_address_has_its_own_count(toy_games: None, bots: BotServer) -> None:
    client = create_app(make_runtime(ListQueue(), registration_limit="1 per minute")).test_client()
    body = _body(bots, "/first/counted")
    assert client.post("/api/v1/bots", json=body).status_code == 201
    assert client.post("/api/v1/bots", json=body).status_code == 429
    other = {"REMOTE_ADDR": "127.0.0.2"}
    assert client.post("/api/v1/bots", json=body, environ_base=other).status_code == 201


def test_a_limit_that_does_not_parse_is_a_settings_error() -> None:
    with pytest.raises(SettingsError, match="ARENA_REGISTRATION_LIMIT"):
        Settings.from_env({"ARENA_REGISTRATION_LIMIT": "lots"})
