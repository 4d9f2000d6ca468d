"""The ``ping`` exchange against real loopback bots: what is sent, and how each failure is named."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from bots.sdk import create_bot_app, serve_app_in_thread
from referee.protocol import Fault, ping_validator
from referee.transport.endpoints import EndpointPolicy
from referee.transport.ping import judge_pong, ping, ping_request
from tests.misbehaving_bots import SECRET, start_server

LOOPBACK = EndpointPolicy.from_text("127.0.0.0/8")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    server, url = start_server()
    yield url
    server.shutdown()


def test_the_ping_request_is_of_the_protocols_schema() -> None:
    message = ping_request("abc")
    assert list(ping_validator().iter_errors(message)) == []
    assert message == {"protocol": 1, "type": "ping", "nonce": "abc"}
    assert list(ping_validator().iter_errors({"protocol": 1, "type": "move", "nonce": "abc"}))


@pytest.mark.integration
def test_an_sdk_bot_with_the_same_secret_passes_and_one_with_another_is_named() -> None:
    app = create_bot_app(lambda request: request["legal_moves"][0], secret=SECRET)
    server, url = serve_app_in_thread(app)
    try:
        passed = ping(url + "/", SECRET, LOOPBACK)
        refused = ping(url + "/", "another secret", LOOPBACK)
    finally:
        server.shutdown()
    assert passed.ok and passed.fault is None and passed.status == 200
    assert (refused.ok, refused.fault, refused.status) == (False, Fault.HTTP_STATUS, 401)


@pytest.mark.parametrize(
    ("path", "fault", "status"),
    [
        ("/good", None, 200),
        ("/notjson", Fault.INVALID_RESPONSE, 200),
        ("/badschema", Fault.INVALID_RESPONSE, 200),
        ("/big", Fault.INVALID_RESPONSE, 200),  # 200, its body too large (result.too_large)
        ("/status500", Fault.HTTP_STATUS, 500),
        ("/redirect", Fault.HTTP_STATUS, 302),
        ("/nowhere", Fault.HTTP_STATUS, 404),
        ("/slow", Fault.TIMEOUT, None),
        ("/trickle", Fault.TIMEOUT, None),
    ],
)
def test_each_misbehaviour_is_a_fault_of_its_kind(base_url: str, path: str, fault, status) -> None:
    # /slow answers after 1 s, /trickle takes about 0.7 s; the deadline here is 0.3 s
    result = ping(base_url + path, SECRET, LOOPBACK, timeout_s=0.3 if fault is Fault.TIMEOUT else 2.0)
    assert (result.fault, result.status) == (fault, status), result.detail


def test_a_bot_that_passed_its_ping_at_registration_answers_it_under_registered(base_url: str) -> None:
    assert ping(base_url + "/registered/status500", "any secret", LOOPBACK).ok


@pytest.mark.integration
def test_a_closed_port_and_a_refused_address_are_named() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    closed = ping(f"http://127.0.0.1:{port}/", SECRET, LOOPBACK)
    assert closed.fault is Fault.CONNECTION
    refused = ping(f"http://127.0.0.1:{port}/", SECRET, EndpointPolicy())
    assert refused.fault is Fault.ENDPOINT_REFUSED and "not public (loopback)" in refused.detail


def test_an_endpoint_that_cannot_be_written_in_a_request_is_refused_not_raised(base_url: str) -> None:
    result = ping(base_url + "/бот", SECRET, LOOPBACK)
    assert result.fault is Fault.ENDPOINT_REFUSED and "must be ASCII" in result.detail


@pytest.mark.parametrize(
    ("document", "problem"),
    [
        ({"pong": "n1"}, None),
        ({"pong": "n1", "log": "extra keys are ignored"}, None),
        ({"pong": "n2"}, "the answer's pong is not the ping's nonce"),
        ({"ok": True}, 'the answer has no "pong"'),
        (["pong", "n1"], 'the answer has no "pong"'),
    ],
)
def test_only_the_nonce_echoed_is_a_pong(document, problem) -> None:
    assert judge_pong(document, "n1") == problem
