"""Whom a per-client limit counts: the socket's peer unless ARENA_TRUSTED_PROXIES says how many
reverse proxies forward the client's address in X-Forwarded-For, and an IPv6 client by its /64."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from arena.api import create_app
from arena.settings import Settings, SettingsError
from tests.platform.conftest import ListQueue, make_runtime

PROXY = "10.0.0.1"


def _client(proxies: int) -> FlaskClient:
    runtime = make_runtime(ListQueue(), registration_limit="1 per minute", trusted_proxies=proxies)
    return create_app(runtime).test_client()


def _register(client: FlaskClient, remote: str, forwarded: str | None = None) -> int:
    """A registration's status: 422 (an empty body, counted all the same) or 429 past the limit."""
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    answer = client.post("/api/v1/bots", json={}, headers=headers, environ_base={"REMOTE_ADDR": remote})
    return answer.status_code


def test_without_trusted_proxies_x_forwarded_for_is_ignored() -> None:
    client = _client(0)
    assert _register(client, PROXY, "198.51.100.1") == 422
    assert _register(client, PROXY, "198.51.100.2") == 429, "one peer, one budget, whatever it claims"
    assert _register(client, "10.0.0.2", "198.51.100.1") == 422


def test_behind_a_trusted_proxy_each_client_has_its_own_budget() -> None:
    client = _client(1)
    assert _register(client, PROXY, "198.51.100.1") == 422
    assert _register(client, PROXY, "198.51.100.2") == 422, "another client behind the same proxy"
    # what a client writes itself comes before what the proxy appended: only the proxy's entry counts
    assert _register(client, PROXY, "203.0.113.9, 198.51.100.1") == 429
    assert _register(client, PROXY, "198.51.100.2") == 429


def test_ipv6_clients_are_counted_by_their_64() -> None:
    client = _client(0)
    assert _register(client, "2001:db8:1:2::1") == 422
    assert _register(client, "2001:db8:1:2:ffff:ffff:ffff:9") == 429, "the same /64"
    assert _register(client, "2001:db8:1:3::1") == 422, "another /64"
    behind = _client(1)
    assert _register(behind, PROXY, "2001:db8:9:9::1") == 422
    assert _register(behind, PROXY, "2001:db8:9:9::2") == 429


@pytest.mark.parametrize("value", ["-1", "two"])
def test_trusted_proxies_that_do_not_parse_are_a_settings_error(value: str) -> None:
    with pytest.raises(SettingsError, match="ARENA_TRUSTED_PROXIES"):
        Settings.from_env({"ARENA_TRUSTED_PROXIES": value})
    assert Settings.from_env({}).trusted_proxies == 0
