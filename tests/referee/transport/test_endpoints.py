"""Which endpoints the platform may call: form, scheme, every resolved address, and name resolution
bounded in time."""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterator

import pytest

from referee.protocol import Fault
from referee.transport.agents import HttpAgent
from referee.transport.endpoints import EndpointPolicy, EndpointRefused, ResolutionTimeout, parse_endpoint
from tests.misbehaving_bots import SECRET, nim_move_request, start_server

LOOPBACK = EndpointPolicy.from_text("127.0.0.0/8")


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.9", "private"),
        ("192.168.1.1", "private"),
        ("169.254.169.254", "link-local"),
        ("0.0.0.0", "unspecified"),
        ("::1", "loopback"),
        ("fe80::1", "link-local"),
        ("fd12:3456::1", "unique-local"),
        ("::", "unspecified"),
        ("::ffff:127.0.0.1", "loopback"),
        ("100.64.0.1", "not globally routable"),
        # 6to4 (2002::/16) carries an IPv4 address in bits 16 to 48
        ("2002:7f00:1::1", "6to4 address wrapping 127.0.0.1, loopback"),
        ("2002:a00:1::1", "6to4 address wrapping 10.0.0.1, private"),
        ("2002:a9fe:a9fe::1", "6to4 address wrapping 169.254.169.254, link-local"),
        # Teredo (2001::/32): the client's address is obfuscated (inverted) in the last 32 bits
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo tunnel address, client 192.0.2.45"),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo tunnel address, client 127.0.0.1"),
        # NAT64, well-known prefix (64:ff9b::/96): the IPv4 address is the last 32 bits
        ("64:ff9b::7f00:1", "NAT64 address wrapping 127.0.0.1, loopback"),
        ("64:ff9b::a00:1", "NAT64 address wrapping 10.0.0.1, private"),
        ("64:ff9b::a9fe:a9fe", "NAT64 address wrapping 169.254.169.254, link-local"),
        # NAT64, local-use prefix (64:ff9b:1::/48): never public, wherever the IPv4 address sits
        ("64:ff9b:1::a00:1", "local-use NAT64"),
        ("64:ff9b:1:a00:1::", "local-use NAT64"),
    ],
)
def test_non_public_addresses_are_refused_with_the_reason(address: str, reason: str) -> None:
    with pytest.raises(EndpointRefused, match=reason):
        EndpointPolicy().check_address(ipaddress.ip_address(address))


def test_public_addresses_pass() -> None:
    for address in ("93.184.216.34", "2606:4700:4700::1111"):
        EndpointPolicy().check_address(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["2002:5db8:d822::1", "64:ff9b::5db8:d822", "::ffff:93.184.216.34"])
def test_ipv6_forms_of_a_public_ipv4_host_pass(address: str) -> None:
    # 6to4, NAT64 and IPv4-mapped forms of 93.184.216.34 lead to that public host
    EndpointPolicy().check_address(ipaddress.ip_address(address))


def test_the_allowlist_admits_only_its_networks() -> None:
    policy = EndpointPolicy.from_text("127.0.0.0/8, 10.0.0.0/24")
    policy.check_address(ipaddress.ip_address("127.0.0.2"))
    policy.check_address(ipaddress.ip_address("10.0.0.200"))
    with pytest.raises(EndpointRefused):
        policy.check_address(ipaddress.ip_address("10.0.1.1"))
    assert policy.check_url("http://localhost:9/x").port == 9


def test_a_bad_allowlist_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="not a network"):
        EndpointPolicy.from_text("127.0.0.0/8,nonsense")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://example.com/bot", "http or https"),
        ("file:///etc/passwd", "http or https"),
        ("http://user:pw@example.com/", "user name"),
        ("http:///nohost", "no host"),
        ("http://example.com:99999/", "invalid port"),
        ("", "non-empty"),
        ("http://127.0.0.1:8700/b\u00f6t", "must be ASCII"),
        ("http://b\u00fccher.example/bot", "must be ASCII"),
        ("http://127.0.0.1:8700/a bot", "spaces or control"),
        ("http://127.0.0.1:8700/bot\x7f", "spaces or control"),
    ],
)
def test_urls_of_the_wrong_form_are_refused(url: str, message: str) -> None:
    with pytest.raises(EndpointRefused, match=message):
        parse_endpoint(url)


def test_unresolvable_hosts_are_refused() -> None:
    with pytest.raises(EndpointRefused, match="does not resolve"):
        EndpointPolicy().check_url("http://no-such-host.invalid/bot")


def test_parse_keeps_path_and_query_and_default_ports() -> None:
    parsed = parse_endpoint("https://bots.example.org/vulkan?x=1")
    assert (parsed.scheme, parsed.host, parsed.port, parsed.path) == (
        "https",
        "bots.example.org",
        443,
        "/vulkan?x=1",
    )


def test_an_address_in_the_url_is_checked_without_a_look_up(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_dns(*args: object, **kwargs: object) -> None:
        raise AssertionError("getaddrinfo was called for an IP address")

    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    assert EndpointPolicy.from_text("127.0.0.0/8").check_url("http://127.0.0.1:8000/bot").port == 8000
    with pytest.raises(EndpointRefused, match="6to4"):
        EndpointPolicy().check_url("http://[2002:7f00:1::1]/bot")


# -- name resolution under a deadline, with a fake resolver ----------------------------------------


@pytest.fixture
def fake_dns(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Names under ``.never.test`` never resolve (until the test ends); names under ``.loop.test``
    resolve to 127.0.0.1 and are recorded; everything else goes to the real resolver."""
    real = socket.getaddrinfo
    release = threading.Event()
    looked_up: list[str] = []

    def getaddrinfo(host: str, port: object, *args: object, **kwargs: object):
        if host.endswith(".never.test"):
            release.wait()
            raise socket.gaierror(socket.EAI_AGAIN, "temporary failure in name resolution")
        if host.endswith(".loop.test"):
            looked_up.append(host)
            return real("127.0.0.1", port, *args, **kwargs)
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    yield looked_up
    release.set()  # let the resolver threads stuck in the fake go


@pytest.fixture(scope="module")
def bot_port() -> Iterator[int]:
    server, _url = start_server()
    yield server.server_address[1]
    server.shutdown()


def _move_request() -> dict:
    return nim_move_request(move_ms=200)


def test_a_resolver_that_never_answers_is_a_timeout_fault_within_the_move(fake_dns, bot_port: int) -> None:
    agent = HttpAgent(f"http://bot.never.test:{bot_port}/good", SECRET, LOOPBACK)
    for _ in range(2):  # every move is cut at its own deadline, the look-up still under way or not
        reply = agent.ask(_move_request(), 0.2)
        assert reply.fault is Fault.TIMEOUT
        assert "did not resolve before the deadline" in reply.detail


def test_registration_gives_up_on_a_resolver_that_never_answers(fake_dns) -> None:
    with pytest.raises(EndpointRefused, match="did not resolve within 0.1 s") as refused:
        EndpointPolicy().check_url("http://registering.never.test/bot", timeout_s=0.1)
    assert isinstance(refused.value, ResolutionTimeout)


def test_a_host_name_is_resolved_when_connecting_not_at_every_move(fake_dns, bot_port: int) -> None:
    agent = HttpAgent(f"http://bot.loop.test:{bot_port}/good", SECRET, LOOPBACK)
    replies = [agent.ask(_move_request(), 2.0) for _ in range(3)]
    assert [reply.move for reply in replies] == [{"take": 1}] * 3
    assert fake_dns == ["bot.loop.test"]
    agent.close()
    assert agent.ask(_move_request(), 2.0).fault is None
    assert fake_dns == ["bot.loop.test"] * 2  # a new connection resolves and checks again


def test_a_resolved_address_outside_the_policy_is_refused(fake_dns, bot_port: int) -> None:
    agent = HttpAgent(f"http://bot.loop.test:{bot_port}/good", SECRET, EndpointPolicy())
    reply = agent.ask(_move_request(), 2.0)
    assert reply.fault is Fault.ENDPOINT_REFUSED
    assert "loopback" in reply.detail


def test_a_forked_child_resolves_with_threads_of_its_own(fake_dns) -> None:
    import multiprocessing

    from referee.transport.endpoints import RESOLVER_THREADS

    policy = EndpointPolicy.from_text("127.0.0.0/8")
    for index in range(RESOLVER_THREADS):  # every resolver thread of the parent is started, and stuck
        with pytest.raises(ResolutionTimeout):
            policy.check_url(f"http://parent-{index}.never.test/bot", timeout_s=0.01)
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        port = pool.apply(_check_in_child, ("http://child.loop.test:81/bot",))
    assert port == 81


def _check_in_child(url: str) -> int:
    return EndpointPolicy.from_text("127.0.0.0/8").check_url(url, timeout_s=5.0).port
