"""Which bot endpoints the platform may call.

A bot endpoint is a URL that anyone can register, so the platform must never be turned into a
way to reach its own network: only http and https, and every address the host resolves to must be
public unless an allow-list of networks (``ARENA_ENDPOINT_ALLOWLIST``, comma-separated CIDRs)
admits it. IPv6 addresses that carry an IPv4 address (IPv4-mapped, 6to4, NAT64) are judged by the
IPv4 address they carry; Teredo and the local-use NAT64 prefix are refused outright. The API checks
at registration; the HTTP agent checks again whenever it opens a connection and then connects to
the very address it checked, so a DNS answer that changes between the check and the call (DNS
rebinding) gains nothing.

Name resolution can be bounded (``timeout_s``): the look-up runs on a small shared pool of resolver
threads and the caller waits at most that long, so a resolver that answers late or never cannot
hold a move past its deadline or a registration request for ever.

>>> policy = EndpointPolicy.from_text("127.0.0.0/8")
>>> policy.check_url("http://127.0.0.1:8000/some-game/random").port
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
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from queue import SimpleQueue
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
SockAddr = tuple[str, int] | tuple[str, int, int, int] | tuple[int, bytes]
AddrInfo = tuple[socket.AddressFamily, socket.SocketKind, int, str, SockAddr]
"""One entry of ``socket.getaddrinfo``: family, type, protocol, canonical name, socket address."""

ALLOWLIST_ENV = "ARENA_ENDPOINT_ALLOWLIST"
REGISTRATION_RESOLVE_TIMEOUT_S = 5.0
RESOLVER_THREADS = 32
"""At most this many look-ups at once; each host that never answers holds one until its resolver
gives up, so a few such hosts must not hold every registration and every match waiting."""


class EndpointRefused(ValueError):
    """The endpoint may not be called: bad URL, unresolvable host, or a non-public address."""


class ResolutionTimeout(EndpointRefused):
    """The host name did not resolve within the time allowed (for a move: a timeout fault)."""


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


_ULA = ipaddress.ip_network("fc00::/7")
_TEREDO = ipaddress.ip_network("2001::/32")
_NAT64_WELL_KNOWN = ipaddress.ip_network("64:ff9b::/96")
_NAT64_LOCAL_USE = ipaddress.ip_network("64:ff9b:1::/48")


def _carried_ipv4(address: ipaddress.IPv6Address) -> tuple[str, ipaddress.IPv4Address] | None:
    """The IPv4 host an IPv6 address leads to, with the form's name, for the forms that carry one
    at a fixed place: IPv4-mapped, 6to4 (2002::/16) and the well-known NAT64 prefix (64:ff9b::/96)."""
    if address.ipv4_mapped is not None:
        return "IPv4-mapped", address.ipv4_mapped
    if address.sixtofour is not None:
        return "6to4", address.sixtofour
    if address in _NAT64_WELL_KNOWN:
        return "NAT64", ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _not_public_reason(address: IPAddress) -> str | None:
    """Why the address may not be called, or None if it is public.

    Whoever controls DNS for a registered host name can answer with an IPv6 address that leads to
    an IPv4 host, whose prefix looks public to a plain check; such an address is judged by the IPv4
    address it carries.
    """
    if isinstance(address, ipaddress.IPv6Address):
        if address in _TEREDO:
            # a tunnel to a client behind a NAT (its IPv4 address sits obfuscated in the last 32
            # bits), never a server the platform should call
            client = address.teredo[1] if address.teredo else None
            return f"Teredo tunnel address, client {client}"
        if address in _NAT64_LOCAL_USE:
            # where the IPv4 address sits depends on the local network's prefix length (RFC 8215)
            return "local-use NAT64 address"
        carried = _carried_ipv4(address)
        if carried is not None:
            form, ipv4 = carried
            reason = _not_public_reason(ipv4)
            if reason is None or form == "IPv4-mapped":
                return reason
            return f"{form} address wrapping {ipv4}, {reason}"
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
    if not url.isascii():
        # the request line and the Host header are bytes: an IDN host or a path in another script
        # must be written as it travels, so no request can fail to encode
        raise EndpointRefused("endpoint must be ASCII: percent-encode the path, punycode the host")
    if any(char.isspace() or not char.isprintable() for char in url):
        raise EndpointRefused("endpoint must not contain spaces or control characters")
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

    def resolve(self, url: str, timeout_s: float | None = None) -> ResolvedEndpoint:
        """Check the URL, resolve its host, refuse if any address is not allowed; return the first.

        With ``timeout_s``, waits at most that long for the resolver and raises
        :class:`ResolutionTimeout` after it; without, waits as long as the system resolver takes.
        """
        endpoint = parse_endpoint(url)
        try:
            literal = ipaddress.ip_address(endpoint.host)
        except ValueError:
            addresses = _resolve_host(endpoint, timeout_s)
        else:
            addresses = [literal]  # an address in the URL: nothing to look up
        for address in addresses:
            self.check_address(address)
        return ResolvedEndpoint(endpoint, addresses[0])

    def check_url(self, url: str, timeout_s: float = REGISTRATION_RESOLVE_TIMEOUT_S) -> ParsedEndpoint:
        """Validate a URL for registration: form, resolution (within ``timeout_s``) and every address."""
        return self.resolve(url, timeout_s).endpoint


def _resolve_host(endpoint: ParsedEndpoint, timeout_s: float | None) -> list[IPAddress]:
    """The distinct addresses the endpoint's host name resolves to, in the resolver's order.

    An address written as such needs no resolver at all (and must not wait behind slow look-ups).
    """
    try:
        return [ipaddress.ip_address(endpoint.host.split("%", 1)[0])]
    except ValueError:
        pass  # a host name: ask the resolver
    infos: Sequence[AddrInfo]
    try:
        if timeout_s is None:
            infos = socket.getaddrinfo(endpoint.host, endpoint.port, type=socket.SOCK_STREAM)
        else:
            infos = _RESOLVER.lookup(endpoint.host, endpoint.port, timeout_s)
    except TimeoutError:
        raise ResolutionTimeout(
            f"endpoint host {endpoint.host!r} did not resolve within {max(timeout_s or 0, 0):.3g} s"
        ) from None
    except (OSError, UnicodeError):
        raise EndpointRefused(f"endpoint host {endpoint.host!r} does not resolve") from None
    addresses: list[IPAddress] = []
    for info in infos:
        host = info[4][0]
        if not isinstance(host, str):  # (int, bytes): an IPv6 address Python was built without
            continue
        address = ipaddress.ip_address(host.split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise EndpointRefused(f"endpoint host {endpoint.host!r} does not resolve")
    return addresses


class _Resolver:
    """A few daemon threads running ``getaddrinfo``, so that callers can stop waiting for it.

    ``getaddrinfo`` cannot be interrupted; here the caller waits on a future for at most its time
    and walks away, while the thread finishes the look-up in the background. Threads are few and
    made on first use; a look-up already under way for the same host and port is shared rather
    than queued again, so one host whose resolver never answers ties up one thread, not all. The
    threads are daemons: a look-up that never ends does not hold the process at exit.
    """

    def __init__(self, threads: int) -> None:
        self._threads = threads
        self._reset()
        # a forked child (a prefork worker) has none of the parent's threads: start afresh there
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._started = 0
        self._jobs: SimpleQueue[tuple[Future[Sequence[AddrInfo]], str, int]] = SimpleQueue()
        self._pending: dict[tuple[str, int], Future[Sequence[AddrInfo]]] = {}
        self._lock = threading.Lock()

    def lookup(self, host: str, port: int, timeout_s: float) -> Sequence[AddrInfo]:
        """``getaddrinfo(host, port)`` for stream sockets; ``TimeoutError`` after ``timeout_s``."""
        if timeout_s <= 0:
            raise TimeoutError
        key = (host, port)
        with self._lock:
            future = self._pending.get(key)
            if future is None:
                future = self._pending[key] = Future()
                future.add_done_callback(lambda _done: self._forget(key))
                self._jobs.put((future, host, port))
                if self._started < self._threads:
                    self._started += 1
                    threading.Thread(target=self._work, name="endpoint-resolver", daemon=True).start()
        return future.result(timeout=timeout_s)

    def _forget(self, key: tuple[str, int]) -> None:
        with self._lock:
            self._pending.pop(key, None)

    def _work(self) -> None:
        while True:
            future, host, port = self._jobs.get()
            try:
                future.set_result(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
            except BaseException as error:  # handed to every waiter, raised there
                future.set_exception(error)


_RESOLVER = _Resolver(RESOLVER_THREADS)
