"""Which bot endpoints the platform may call.

A bot endpoint is a URL that anyone can register, so the platform must never be turned into a
way to reach its own network: only http and https, and every address the host resolves to must be
public unless an allow-list of networks (``ARENA_ENDPOINT_ALLOWLIST``, comma-separated CIDRs)
admits it. The API checks at registration; the HTTP agent checks again at every call and then
connects to the very address it checked, so a DNS answer that changes between the check and the
call (DNS rebinding) gains nothing.

>>> policy = EndpointPolicy.from_text("127.0.0.0/8")
>>> policy.check_url("http://127.0.0.1:8000/vulkan/random").port
8000
>>> try:
...     EndpointPolicy().check_url("http://127.0.0.1/bot")
... except EndpointRefused as refused:
...     print(refused)
endpoint address 127.0.0.1 is not public (loopback)
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass, field
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

ALLOWLIST_ENV = "ARENA_ENDPOINT_ALLOWLIST"


class EndpointRefused(ValueError):
    """The endpoint may not be called: bad URL, unresolvable host, or a non-public address."""


@dataclass(frozen=True)
class ParsedEndpoint:
    scheme: str
    host: str
    port: int
    path: str  # path and query, at least "/"


@dataclass(frozen=True)
class ResolvedEndpoint:
    """An endpoint with the one address the call must connect to."""

    endpoint: ParsedEndpoint
    address: IPAddress


def _not_public_reason(address: IPAddress) -> str | None:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return _not_public_reason(address.ipv4_mapped)
    checks = (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link-local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("reserved", address.is_reserved),
        ("private", address.is_private),
        ("not globally routable", not address.is_global),
    )
    for reason, applies in checks:
        if applies:
            if reason == "private" and isinstance(address, ipaddress.IPv6Address) and address in _ULA:
                return "unique-local"
            return reason
    return None


_ULA = ipaddress.ip_network("fc00::/7")


def parse_endpoint(url: str) -> ParsedEndpoint:
    """Split and check the URL's form; no network access."""
    if not isinstance(url, str) or not url:
        raise EndpointRefused("endpoint must be a non-empty URL")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise EndpointRefused("endpoint must be an http or https URL")
    if parts.username or parts.password:
        raise EndpointRefused("endpoint must not carry a user name or password")
    host = parts.hostname
    if not host:
        raise EndpointRefused("endpoint has no host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise EndpointRefused("endpoint has an invalid port") from None
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return ParsedEndpoint(parts.scheme, host, port, path)


@dataclass(frozen=True)
class EndpointPolicy:
    """The allow-list in force. ``EndpointPolicy.from_env()`` reads ``ARENA_ENDPOINT_ALLOWLIST``."""

    allowlist: tuple[IPNetwork, ...] = field(default_factory=tuple)

    @classmethod
    def from_text(cls, text: str | None) -> EndpointPolicy:
        networks = []
        for item in (text or "").split(","):
            item = item.strip()
            if not item:
                continue
            try:
                networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ValueError(f"{ALLOWLIST_ENV}: {item!r} is not a network in CIDR form") from None
        return cls(tuple(networks))

    @classmethod
    def from_env(cls) -> EndpointPolicy:
        return cls.from_text(os.environ.get(ALLOWLIST_ENV))

    def admits(self, address: IPAddress) -> bool:
        return any(address in network for network in self.allowlist if network.version == address.version)

    def check_address(self, address: IPAddress) -> None:
        if self.admits(address):
            return
        reason = _not_public_reason(address)
        if reason is not None:
            raise EndpointRefused(f"endpoint address {address} is not public ({reason})")

    def resolve(self, url: str) -> ResolvedEndpoint:
        """Check the URL, resolve its host, refuse if any address is not allowed; return the first."""
        endpoint = parse_endpoint(url)
        try:
            infos = socket.getaddrinfo(endpoint.host, endpoint.port, type=socket.SOCK_STREAM)
        except (socket.gaierror, UnicodeError):
            raise EndpointRefused(f"endpoint host {endpoint.host!r} does not resolve") from None
        addresses: list[IPAddress] = []
        for info in infos:
            address = ipaddress.ip_address(info[4][0].split("%", 1)[0])
            if address not in addresses:
                addresses.append(address)
        if not addresses:
            raise EndpointRefused(f"endpoint host {endpoint.host!r} does not resolve")
        for address in addresses:
            self.check_address(address)
        return ResolvedEndpoint(endpoint, addresses[0])

    def check_url(self, url: str) -> ParsedEndpoint:
        """Validate a URL for registration: form, resolution and every address."""
        return self.resolve(url).endpoint
