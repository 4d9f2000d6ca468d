"""Every ping the API sends for a request passes here: how many may wait at once, and how often one
address may be pinged.

Anyone may register a bot, and a bot's owner may point it anywhere, so a ping is the platform
connecting to an address of someone else's choosing, and waiting up to the ping's timeout for it.
Three bounds keep that from becoming a port scanner or a way to tie up the API:

- per target address (``ARENA_PING_HOST_LIMIT``), whoever asks, registrations included: the
  endpoint's host name is resolved and checked here, counted by the address it resolves to (an IPv6
  address by its /64, the share one host usually has), and the ping goes to that very address
  (:class:`Pinned`), so neither many names for one host nor a DNS answer that changes between the
  count and the call escapes the count;
- per process, how many pings may wait at once (``ARENA_MAX_PINGS``): past them a request is
  answered 503 with ``Retry-After`` at once instead of holding a request thread (or greenlet) for
  the ping's timeout;
- per bot token and per client address, the requests that ping (flask-limiter, in
  :mod:`arena.accounts.limits`), before anything is read.

Counts are kept where flask-limiter keeps its own (:func:`arena.accounts.limits.install` builds the
gate on its storage): in Redis for a deployment, shared by the API processes, in memory for the
embedded default.
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from limits import RateLimitItem
from limits.strategies import RateLimiter

from arena.errors import Overloaded, TooManyRequests
from referee.protocol import PROTOCOL_VERSION, Fault
from referee.transport.connection import elapsed_ms
from referee.transport.endpoints import (
    EndpointPolicy,
    EndpointRefused,
    IPAddress,
    ResolutionTimeout,
    ResolvedEndpoint,
)
from referee.transport.ping import PingResult, ping


@dataclass(frozen=True)
class Pinned(EndpointPolicy):
    """The endpoint policy with the endpoint already resolved and checked: the ping's connection goes
    to the address that was counted, never to a second DNS answer."""

    resolved: ResolvedEndpoint | None = None
    url: str = ""

    def resolve(self, url: str, timeout_s: float | None = None) -> ResolvedEndpoint:
        if self.resolved is not None and url == self.url:
            return self.resolved
        return super().resolve(url, timeout_s)


def host_key(address: IPAddress) -> str:
    """What one host's pings are counted under: an IPv4 address (also when written IPv4-mapped), or
    an IPv6 address's /64, every address of which a host commonly answers on.

    >>> host_key(ipaddress.ip_address("2001:db8::1")), host_key(ipaddress.ip_address("::ffff:192.0.2.7"))
    ('2001:db8::/64', '192.0.2.7')
    """
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class PingGate:
    """Sends the pings of requests, within the per-address limits and the number waiting at once."""

    def __init__(
        self,
        policy: EndpointPolicy,
        timeout_s: float,
        limiter: RateLimiter,
        host_limits: Sequence[RateLimitItem],
        max_waiting: int,
        namespace: str,
    ) -> None:
        self.policy = policy
        self.timeout_s = timeout_s
        self._limiter = limiter
        self._host_limits = tuple(host_limits)
        self._slots = threading.BoundedSemaphore(max_waiting)
        self._namespace = namespace

    def ping(self, endpoint: str, secret: str, protocol: int = PROTOCOL_VERSION) -> PingResult:
        """Ping ``endpoint`` as :func:`referee.transport.ping.ping` does, within the ping's timeout
        from the name resolution on; raise :class:`Overloaded` when as many pings wait as may, and
        :class:`TooManyRequests` when the address was pinged as often as it may be."""
        if not self._slots.acquire(blocking=False):
            raise Overloaded(
                "the platform is pinging as many bots as it may at once; try again shortly",
                retry_after_s=math.ceil(self.timeout_s),
            )
        try:
            return self._ping(endpoint, secret, protocol)
        finally:
            self._slots.release()

    def _ping(self, endpoint: str, secret: str, protocol: int) -> PingResult:
        started = time.perf_counter()
        try:
            resolved = self.policy.resolve(endpoint, self.timeout_s)
        except ResolutionTimeout as slow:
            return PingResult(Fault.TIMEOUT, str(slow), elapsed_ms(started))
        except EndpointRefused as refused:
            return PingResult(Fault.ENDPOINT_REFUSED, str(refused), elapsed_ms(started))
        self._count(resolved.address)
        left = self.timeout_s - (time.perf_counter() - started)
        if left <= 0:
            return PingResult(Fault.TIMEOUT, "no time left after the name resolution", elapsed_ms(started))
        pinned = Pinned(self.policy.allowlist, resolved, endpoint)
        return ping(endpoint, secret, pinned, left, protocol=protocol)

    def _count(self, address: IPAddress) -> None:
        """Count a ping to ``address`` against every host limit, or refuse it if one is reached."""
        key = (self._namespace, "ping-host", host_key(address))
        for limit in self._host_limits:
            if not self._limiter.hit(limit, *key):
                reset = self._limiter.get_window_stats(limit, *key).reset_time
                raise TooManyRequests(
                    f"the endpoint's address was pinged as often as it may be ({limit}); try again later",
                    retry_after_s=max(1, math.ceil(reset - time.time())),
                )
