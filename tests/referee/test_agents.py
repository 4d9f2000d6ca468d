"""The HTTP agent against real loopback bots that misbehave in each way the protocol names."""

from __future__ import annotations

import socket
import ssl
import time
from collections.abc import Iterator

import pytest
import trustme

from referee.agents import HttpAgent, LocalAgent
from referee.endpoints import EndpointPolicy
from referee.protocol import Fault, request_base
from tests.misbehaving_bots import SECRET, start_server

LOOPBACK = EndpointPolicy.from_text("127.0.0.0/8")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    server, url = start_server()
    yield url
    server.shutdown()


def _request() -> dict:
    message = request_base(
        kind="move",
        match_id="m1",
        game="nim",
        variant="standard",
        seat=0,
        seats=2,
        turn=0,
        time={"move_ms": 300, "bank_ms": 0},
        observation={"stones": 5},
    )
    message["legal_moves"] = [{"take": 1}, {"take": 2}]
    return message


def _ask(url: str, timeout_s: float = 0.3, secret: str = SECRET, policy: EndpointPolicy = LOOPBACK):
    return HttpAgent(url, secret, policy).ask(_request(), timeout_s)


def test_a_good_bot_answers_with_its_move_log_and_think_time(base_url: str) -> None:
    reply = _ask(f"{base_url}/good", timeout_s=2.0)
    assert reply.fault is None
    assert reply.move == {"take": 1}
    assert reply.log == "first legal move"
    assert 0 < reply.think_ms < 2000


def test_requests_are_signed_with_the_bots_secret(base_url: str) -> None:
    reply = _ask(f"{base_url}/good", timeout_s=2.0, secret="not the secret")
    assert reply.fault is Fault.HTTP_STATUS
    assert "401" in reply.detail


def test_chunked_answers_are_read(base_url: str) -> None:
    reply = _ask(f"{base_url}/chunked", timeout_s=2.0)
    assert reply.fault is None and reply.move == {"take": 1}


@pytest.mark.parametrize(
    ("path", "fault"),
    [
        ("/slow", Fault.TIMEOUT),
        ("/trickle", Fault.TIMEOUT),
        ("/big", Fault.INVALID_RESPONSE),
        ("/endless-chunk-size", Fault.INVALID_RESPONSE),
        ("/notjson", Fault.INVALID_RESPONSE),
        ("/badschema", Fault.INVALID_RESPONSE),
        ("/status500", Fault.HTTP_STATUS),
        ("/redirect", Fault.HTTP_STATUS),
        ("/missing", Fault.HTTP_STATUS),
    ],
)
def test_each_misbehaviour_becomes_its_fault(base_url: str, path: str, fault: Fault) -> None:
    reply = _ask(f"{base_url}{path}")
    assert reply.fault is fault
    assert reply.move is None
    assert reply.detail


def test_a_trickling_bot_is_cut_at_the_deadline_not_after_its_last_byte(base_url: str) -> None:
    started = time.perf_counter()
    reply = _ask(f"{base_url}/trickle", timeout_s=0.3)
    elapsed = time.perf_counter() - started
    assert reply.fault is Fault.TIMEOUT
    # the full answer takes over a second to trickle; the cut comes at the 0.3 s deadline
    assert elapsed < 0.9


def test_connection_refused_is_a_connection_fault() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    reply = _ask(f"http://127.0.0.1:{port}/bot")
    assert reply.fault is Fault.CONNECTION


def test_the_endpoint_policy_is_checked_at_every_call(base_url: str) -> None:
    reply = _ask(f"{base_url}/good", timeout_s=2.0, policy=EndpointPolicy())
    assert reply.fault is Fault.ENDPOINT_REFUSED
    assert "loopback" in reply.detail


class _Raising:
    def choose(self, request: dict) -> dict:
        raise RuntimeError("bot bug")


class _NotJson:
    def choose(self, request: dict) -> object:
        return {"take": {1, 2}}


class _Echo:
    def __init__(self) -> None:
        self.seen: list[dict] = []

    def choose(self, request: dict) -> dict:
        self.seen.append(request)
        return request["legal_moves"][-1]


def test_local_agent_turns_exceptions_and_non_json_moves_into_faults() -> None:
    assert LocalAgent(_Raising()).ask(_request(), 1.0).fault is Fault.BOT_ERROR
    assert LocalAgent(_NotJson()).ask(_request(), 1.0).fault is Fault.BOT_ERROR


def test_local_agent_gives_the_bot_a_copy_of_the_wire_request() -> None:
    bot = _Echo()
    original = _request()
    reply = LocalAgent(bot).ask(original, 1.0)
    assert reply.move == {"take": 2}
    assert bot.seen[0] == original and bot.seen[0] is not original


@pytest.fixture(scope="module")
def https_bot() -> Iterator[tuple[str, trustme.CA]]:
    """The misbehaving-bots server behind TLS, with a certificate for 127.0.0.1 from a test CA."""
    ca = trustme.CA()
    server, url = start_server()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    yield url.replace("http://", "https://"), ca
    server.shutdown()


def test_https_endpoints_are_called_with_the_certificate_checked_for_the_host(https_bot) -> None:
    url, ca = https_bot
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    reply = HttpAgent(f"{url}/good", SECRET, LOOPBACK, tls=trusting).ask(_request(), 2.0)
    assert reply.fault is None and reply.move == {"take": 1}
    untrusted = HttpAgent(f"{url}/good", SECRET, LOOPBACK).ask(_request(), 2.0)
    assert untrusted.fault is Fault.CONNECTION and "CERTIFICATE_VERIFY_FAILED" in untrusted.detail
