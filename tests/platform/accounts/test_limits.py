"""Rate limits: registrations and the other requests that ping per client address, pings per bot token
and per address pinged, all answered 429 with Retry-After and the usual body; and a bound on the pings
waiting at once, past which the answer is 503 with Retry-After."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from arena.accounts.limits import ping_gate
from arena.api import create_app
from arena.errors import TooManyRequests
from arena.settings import Settings, SettingsError
from referee.protocol import new_secret
from tests.platform.accounts.conftest import GatedPing
from tests.platform.conftest import ADMIN, BotServer, ListQueue, make_runtime, register_bot

ERROR_KEYS = {"code", "status", "message", "errors"}


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


def _owner(bot: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {bot['token']}"}


def test_requests_that_ping_are_limited_per_bot_token(toy_games: None, bots: BotServer) -> None:
    client = create_app(make_runtime(ListQueue(), ping_limit="3 per minute")).test_client()
    mine = register_bot(client, bots, "mine", "/first/token-a", ["nim"])
    theirs = register_bot(client, bots, "theirs", "/first/token-b", ["nim"])
    url = f"/api/v1/bots/{mine['id']}"
    bots.secrets["/first/token-a2"] = bots.secrets["/first/token-a"]
    codes = [
        client.post(f"{url}/ping", headers=_owner(mine)).status_code,
        client.patch(url, json={"endpoint": bots.url("/first/token-a2")}, headers=_owner(mine)).status_code,
        client.post(f"{url}/secret", json={"secret": new_secret()}, headers=_owner(mine)).status_code,
    ]
    assert codes == [200, 200, 422]  # the bot does not know that secret: still a request that pinged
    refused = client.patch(url, json={"name": "x"}, headers=_owner(mine))
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert set(refused.get_json()) == ERROR_KEYS
    theirs_url = f"/api/v1/bots/{theirs['id']}/ping"
    assert client.post(theirs_url, headers=_owner(theirs)).status_code == 200, "a count per token"
    admin = {"Authorization": f"Bearer {ADMIN}"}
    assert client.post(f"{url}/ping", headers=admin).status_code == 200, "the organizer is not limited"


def test_pings_are_limited_per_address_pinged_registrations_included(
    toy_games: None, bots: BotServer
) -> None:
    client = create_app(make_runtime(ListQueue(), ping_host_limit="2 per minute")).test_client()
    mine = register_bot(client, bots, "mine", "/first/host-a", ["nim"])
    assert client.post("/api/v1/bots", json=_body(bots, "/first/host-b")).status_code == 201
    # a third ping to 127.0.0.1, whoever asks and whatever the port or path
    refused = client.post("/api/v1/bots", json=_body(bots, "/first/host-c"))
    assert refused.status_code == 429, refused.get_json()
    assert int(refused.headers["Retry-After"]) > 0
    body = refused.get_json()
    assert set(body) == ERROR_KEYS and body["code"] == 429 and "pinged as often" in body["message"]
    # the owner's ping of its bot's own address is not the address's to refuse
    assert client.post(f"/api/v1/bots/{mine['id']}/ping", headers=_owner(mine)).status_code == 200


def test_strangers_probing_a_bots_address_never_lock_its_owner_out(toy_games: None, bots: BotServer) -> None:
    """Registrations by strangers from ever new client addresses, aimed at other ports of the
    address a bot runs on, use up that address's ping budget; its owner's new secret, ping on
    demand and move to another port there are counted per bot only, and still answered."""
    client = create_app(make_runtime(ListQueue(), ping_host_limit="4 per day")).test_client()
    mine = register_bot(client, bots, "mine", "/first/victim", ["nim"])  # the address's first ping
    probes = []
    for stranger in range(10):
        body = {**_body(bots, "/first/probe"), "endpoint": f"http://127.0.0.1:{1024 + stranger}/bot"}
        environ = {"REMOTE_ADDR": f"192.0.2.{stranger + 1}"}
        probes.append(client.post("/api/v1/bots", json=body, environ_base=environ).status_code)
    assert probes == [422, 422, 422] + [429] * 7, "the address's budget is spent by strangers"
    url = f"/api/v1/bots/{mine['id']}"
    bots.secrets["/first/victim"] = secret = new_secret()
    renewed = client.post(f"{url}/secret", json={"secret": secret}, headers=_owner(mine))
    assert renewed.status_code == 200, renewed.get_json()
    pinged = client.post(f"{url}/ping", headers=_owner(mine))
    assert pinged.status_code == 200 and pinged.get_json()["ok"], pinged.get_json()
    bots.secrets["/first/victim-moved"] = secret
    moved = client.patch(url, json={"endpoint": bots.url("/first/victim-moved")}, headers=_owner(mine))
    assert moved.status_code == 200, moved.get_json()
    # the address is still protected from strangers' probes
    again = client.post("/api/v1/bots", json=_body(bots, "/first/probe-again"))
    assert again.status_code == 429 and "pinged as often" in again.get_json()["message"]


def test_an_owners_pings_are_counted_per_bot_by_the_ping_gate(toy_games: None, bots: BotServer) -> None:
    """Every ping on an owner's behalf counts against ARENA_PING_LIMIT for its bot in the gate itself
    (so a check-in, outside these views, is held by it too); the organizer's do not."""
    runtime = make_runtime(ListQueue(), ping_limit="2 per day")
    app = create_app(runtime)
    client = app.test_client()
    mine = register_bot(client, bots, "mine", "/first/owner-count", ["nim"])
    bot = runtime.store.bots.get(mine["id"])
    assert bot is not None
    with app.app_context():
        gate = ping_gate()
        assert [gate.ping_for_owner(bot.id, bot.endpoint, bot.secret).ok for _ in range(2)] == [True, True]
        assert gate.ping_for_owner(bot.id, bot.endpoint, bot.secret, counted=False).ok
        with pytest.raises(TooManyRequests, match="owner had it pinged as often") as refused:
            gate.ping_for_owner(bot.id, bot.endpoint, bot.secret)
    assert refused.value.retry_after_s is not None and refused.value.retry_after_s > 60 * 60
    admin = {"Authorization": f"Bearer {ADMIN}"}
    assert client.post(f"/api/v1/bots/{mine['id']}/ping", headers=admin).status_code == 200


def test_an_owners_requests_are_limited_per_token_only_others_per_client_address(
    toy_games: None, bots: BotServer
) -> None:
    """Requests on a bot without its token are counted per client address as registrations are; its
    owner's are counted per token only, so nobody sharing the owner's address spends its budget."""
    client = create_app(make_runtime(ListQueue(), registration_limit="2 per minute")).test_client()
    mine = register_bot(client, bots, "mine", "/first/addr-a", ["nim"])
    url = f"/api/v1/bots/{mine['id']}"
    wrong = {"Authorization": "Bearer not-the-token"}
    codes = [client.patch(url, json={"name": "x"}, headers=wrong).status_code for _ in "abc"]
    assert codes == [401, 401, 429]
    assert client.post(f"{url}/ping", headers=wrong).status_code == 401, "each kind counted apart"
    codes = [client.patch(url, json={"name": name}, headers=_owner(mine)).status_code for name in "abc"]
    assert codes == [200, 200, 200]
    assert client.post(f"{url}/ping", headers=_owner(mine)).status_code == 200


def test_a_ping_past_those_that_may_wait_at_once_is_a_503_not_a_held_request(
    toy_games: None, bots: BotServer, gated: GatedPing
) -> None:
    deployed = Settings.from_env({})  # the limits of a deployment, whose windows are a minute and a day
    app = create_app(make_runtime(ListQueue(), max_pings=1, registration_limit=deployed.registration_limit))
    client = app.test_client()
    mine = register_bot(client, bots, "mine", "/first/busy-a", ["nim"])
    # a registration whose ping the endpoint holds: the one ping that may wait
    body = {"name": "held", "endpoint": gated.url, "games": ["nim"], "secret": new_secret()}
    answers: list[Any] = []
    held = threading.Thread(target=lambda: answers.append(app.test_client().post("/api/v1/bots", json=body)))
    held.start()
    try:
        assert gated.arrived.wait(30), "the held registration's ping never came"
        busy = client.post(f"/api/v1/bots/{mine['id']}/ping", headers=_owner(mine))
        assert busy.status_code == 503
        assert busy.headers["Retry-After"] == "3", "the ping's 3 s, not a limit's window"
        assert set(busy.get_json()) == ERROR_KEYS and "as many bots as it may" in busy.get_json()["message"]
        assert client.post("/api/v1/bots", json=_body(bots, "/first/busy-c")).status_code == 503
    finally:
        gated.release.set()
        held.join(30)
    assert [answer.status_code for answer in answers] == [201]
    assert client.post(f"/api/v1/bots/{mine['id']}/ping", headers=_owner(mine)).status_code == 200


@pytest.mark.parametrize(
    ("name", "value"),
    [("ARENA_PING_LIMIT", "often"), ("ARENA_PING_HOST_LIMIT", "12 per fortnight"), ("ARENA_MAX_PINGS", "0")],
)
def test_a_ping_limit_that_does_not_parse_is_a_settings_error(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})


def test_retry_after_is_what_the_limit_that_answered_says_and_only_on_answers_about_waiting(
    toy_games: None, bots: BotServer
) -> None:
    """The per-address limit's 429 says when that address may be pinged again, not when the
    registration limit's minute ends; a 201, a 422 or a 401 says nothing of waiting."""
    deployed = Settings.from_env({})
    runtime = make_runtime(
        ListQueue(), registration_limit=deployed.registration_limit, ping_host_limit="1 per 10 seconds"
    )
    client = create_app(runtime).test_client()
    created = client.post("/api/v1/bots", json=_body(bots, "/first/wait-a"))
    assert created.status_code == 201 and "Retry-After" not in created.headers
    assert created.headers["X-RateLimit-Limit"] == "20", "the registration limit's minute"
    invalid = client.post("/api/v1/bots", json={"name": "x"})
    assert invalid.status_code == 422 and "Retry-After" not in invalid.headers
    refused = client.post("/api/v1/bots", json=_body(bots, "/first/wait-b"))
    assert refused.status_code == 429 and "pinged as often" in refused.get_json()["message"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 10
    unauthorized = client.post(f"/api/v1/bots/{created.get_json()['id']}/ping")
    assert unauthorized.status_code == 401 and "Retry-After" not in unauthorized.headers


def test_flask_limiters_429_waits_until_the_limit_that_broke_admits_again(
    toy_games: None, bots: BotServer
) -> None:
    client = create_app(make_runtime(ListQueue(), registration_limit="5 per minute; 1 per day")).test_client()
    assert client.post("/api/v1/bots", json={}).status_code == 422
    refused = client.post("/api/v1/bots", json={})
    assert refused.status_code == 429 and set(refused.get_json()) == ERROR_KEYS
    assert 86_399 <= int(refused.headers["Retry-After"]) <= 86_400, "the day's limit answered"
    assert refused.headers["X-RateLimit-Remaining"] == "0"
