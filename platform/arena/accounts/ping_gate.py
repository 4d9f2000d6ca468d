"""Every ping the API sends for a request passes here: how many may wait at once, and how often one
address, or one bot's owner, may have a bot pinged.

Anyone may register a bot, and a bot's owner may point it anywhere, so a ping is the platform
connecting to an address of someone else's choosing, and waiting up to the ping's timeout for it.
Three bounds keep that from becoming a port scanner or a way to tie up the API:

- per target address (``ARENA_PING_HOST_LIMIT``), for a *probe*: a ping of an address where the
  bot it is for never passed one, every registration's by anyone included (:meth:`PingGate.ping`). The
  endpoint's host name is resolved and checked here, counted by the address it resolves to (an
  IPv6 address by its /64, the share one host usually has), and the ping goes to that very address
  (:class:`Pinned`), so neither many names for one host nor a DNS answer that changes between the
  count and the call escapes the count;
- per bot, for its owner's own pings (a new secret, a new endpoint or protocol, a ping on demand, a
  check-in: :meth:`PingGate.ping_for_owner`), ``ARENA_PING_LIMIT``. The per-address budget above is
  filled by anyone's requests, so it must not deny an owner: a ping to an address the bot itself
  passed a ping at (it answered the pong there, so that host runs it) is counted per bot only. A
  ping to another address (the owner moves the bot to a new host, or its name now resolves
  elsewhere) is a probe of that address too, counted per address as well, so that owning bots is
  no way round the per-address budget;
- per process, how many pings may wait at once (``ARENA_MAX_PINGS``): past them a request is
  answered 503 with ``Retry-After`` at once instead of holding a request thread (or greenlet) for
  the ping's timeout.

Before any of these, flask-limiter limits the requests that ping per client address and per bot
token (:mod:`arena.accounts.limits`). Counts are kept where flask-limiter keeps its own
(:func:`arena.accounts.limits.install` builds the gate on its storage): in Redis for a deployment,
shared by the API processes, in memory for the embedded default.
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


VOUCHED_FOR_S = 30 * 24 * 3600
"""How long a bot's passed ping at an address keeps that address its own (renewed by every ping it
passes there): a host it left a month ago is a stranger's again."""


class PingGate:
    """Sends the pings of requests, within the per-address and per-owner limits and the number
    waiting at once."""

    def __init__(
        self,
        policy: EndpointPolicy,
        timeout_s: float,
        limiter: RateLimiter,
        host_limits: Sequence[RateLimitItem],
        max_waiting: int,
        namespace: str,
        owner_limits: Sequence[RateLimitItem] = (),
    ) -> None:
        self.policy = policy
        self.timeout_s = timeout_s
        self._limiter = limiter
        self._host_limits = tuple(host_limits)
        self._owner_limits = tuple(owner_limits)
        self._slots = threading.BoundedSemaphore(max_waiting)
        self._namespace = namespace

    def ping(
        self, endpoint: str, secret: str, protocol: int = PROTOCOL_VERSION, vouch_for: str | None = None
    ) -> PingResult:
        """A probe: ping ``endpoint`` as :func:`referee.transport.ping.ping` does, within the ping's timeout
        from the name resolution on, counted per address pinged; raise :class:`Overloaded` when as
        many pings wait as may, and :class:`TooManyRequests` when the address was pinged as often as
        it may be. When it passes, the address is the bot ``vouch_for``'s own from then on (a
        registration names the id the bot is to have)."""
        return self._gated(endpoint, secret, protocol, None, vouch_for)

    def ping_for_owner(
        self,
        bot_id: str,
        endpoint: str,
        secret: str,
        protocol: int = PROTOCOL_VERSION,
        *,
        counted: bool = True,
    ) -> PingResult:
        """A ping on the bot ``bot_id``'s owner's behalf (a new secret, a new endpoint or protocol,
        a ping on demand, a check-in): counted per bot (``ARENA_PING_LIMIT``; not when ``counted``
        is false: the organizer's), and per address pinged only when the bot never passed a ping
        there; raises as :meth:`ping` does."""
        return self._gated(endpoint, secret, protocol, bot_id, bot_id, counted)

    def _gated(
        self,
        endpoint: str,
        secret: str,
        protocol: int,
        owner: str | None,
        vouch_for: str | None,
        counted: bool = True,
    ) -> PingResult:
        if not self._slots.acquire(blocking=False):
            raise Overloaded(
                "the platform is pinging as many bots as it may at once; try again shortly",
                retry_after_s=math.ceil(self.timeout_s),
            )
        try:
            return self._ping(endpoint, secret, protocol, owner, vouch_for, counted)
        finally:
            self._slots.release()

    def _ping(
        self,
        endpoint: str,
        secret: str,
        protocol: int,
        owner: str | None,
        vouch_for: str | None,
        counted: bool,
    ) -> PingResult:
        started = time.perf_counter()
        try:
            resolved = self.policy.resolve(endpoint, self.timeout_s)
        except ResolutionTimeout as slow:
            return PingResult(Fault.TIMEOUT, str(slow), elapsed_ms(started))
        except EndpointRefused as refused:
            return PingResult(Fault.ENDPOINT_REFUSED, str(refused), elapsed_ms(started))
        host = host_key(resolved.address)
        if owner is not None and counted:
            self._count(
                self._owner_limits,
                ("ping-owner", owner),
                "this bot's owner had it pinged as often as it may be",
            )
        if owner is None or not self._vouched(owner, host):
            self._count(
                self._host_limits,
                ("ping-host", host),
                "the endpoint's address was pinged as often as it may be",
            )
        left = self.timeout_s - (time.perf_counter() - started)
        if left <= 0:
            return PingResult(Fault.TIMEOUT, "no time left after the name resolution", elapsed_ms(started))
        pinned = Pinned(self.policy.allowlist, resolved, endpoint)
        result = ping(endpoint, secret, pinned, left, protocol=protocol)
        if result.ok and vouch_for is not None:
            self._limiter.storage.incr(self._vouch_key(vouch_for, host), VOUCHED_FOR_S)
        return result

    def _vouch_key(self, bot_id: str, host: str) -> str:
        return "/".join((self._namespace, "ping-vouched", bot_id, host))

    def _vouched(self, bot_id: str, host: str) -> bool:
        """Whether the bot passed a ping at ``host`` (within :data:`VOUCHED_FOR_S`): that host runs it."""
        return self._limiter.storage.get(self._vouch_key(bot_id, host)) > 0

    def _count(self, limits: Sequence[RateLimitItem], key: tuple[str, str], what: str) -> None:
        """Count a ping under ``key`` against every one of ``limits``, or refuse it if one is reached."""
        identifiers = (self._namespace, *key)
        for limit in limits:
            if not self._limiter.hit(limit, *identifiers):
                reset = self._limiter.get_window_stats(limit, *identifiers).reset_time
                raise TooManyRequests(
                    f"{what} ({limit}); try again later",
                    retry_after_s=max(1, math.ceil(reset - time.time())),
                )
