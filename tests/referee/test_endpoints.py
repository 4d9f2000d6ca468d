"""Which endpoints the platform may call: form, scheme, and every resolved address."""

from __future__ import annotations

import ipaddress

import pytest

from referee.endpoints import EndpointPolicy, EndpointRefused, parse_endpoint


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
    ],
)
def test_non_public_addresses_are_refused_with_the_reason(address: str, reason: str) -> None:
    with pytest.raises(EndpointRefused, match=reason):
        EndpointPolicy().check_address(ipaddress.ip_address(address))


def test_public_addresses_pass() -> None:
    for address in ("93.184.216.34", "2606:4700:4700::1111"):
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
