"""The ping gate: pings counted per address pinged (whatever name leads there), a bound on how many
wait at once, and the ping sent to the very address that was counted."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from arena.accounts.ping_gate import PingGate
from arena.errors import TooManyRequests
from referee.protocol import Fault, new_secret
from referee.transport.endpoints import EndpointPolicy, ResolvedEndpoint
from tests.platform.conftest import LOOPBACK, BotServer


def _gate(
    host_limit: str = "1000 per minute", max_waiting: int = 4, policy: EndpointPolicy = LOOPBACK
) -> PingGate:
    limiter = MovingWindowRateLimiter(MemoryStorage())
    return PingGate(policy, 0.5, limiter, parse_many(host_limit), max_waiting, "test:limits")


def _closed_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def test_an_address_is_counted_whatever_port_path_or_name_leads_to_it(bots: BotServer) -> None:
    gate = _gate("3 per minute", policy=_Dns(LOOPBACK.allowlist, ["127.0.0.1"]))
    port = _closed_port()
    assert gate.ping(bots.url("/nothing/a"), new_secret()).status == 404
    assert gate.ping(f"http://127.0.0.1:{port}/b", new_secret()).fault is Fault.CONNECTION
    another_name = bots.url("/nothing/c").replace("127.0.0.1", "another-name.invalid")
    assert gate.ping(another_name, new_secret()).status == 404
    with pytest.raises(TooManyRequests) as refused:
        gate.ping(f"http://127.0.0.1:{port + 1}/d", new_secret())
    assert refused.value.code == 429 and refused.value.retry_after_s is not None
    assert 1 <= refused.value.retry_after_s <= 60
    # another address has a count of its own (nothing listens there: it is only counted)
    other = gate.ping(f"http://127.0.0.2:{_closed_port('127.0.0.2')}/e", new_secret())
    assert other.fault is Fault.CONNECTION


def test_an_endpoint_the_policy_refuses_is_neither_called_nor_counted() -> None:
    gate = _gate("1 per minute", policy=EndpointPolicy())
    for _ in range(3):
        result = gate.ping("http://127.0.0.1:9/bot", new_secret())
        assert result.fault is Fault.ENDPOINT_REFUSED and "not public (loopback)" in result.detail


def test_a_ping_refused_for_its_address_gives_its_place_back() -> None:
    """With room for one ping at a time, refusals keep being 429, never 503: the refused ping's place
    among those waiting is free again."""
    gate = _gate("1 per minute", max_waiting=1)
    url = f"http://127.0.0.1:{_closed_port()}/bot"
    assert gate.ping(url, new_secret()).fault is Fault.CONNECTION
    for _ in range(3):
        with pytest.raises(TooManyRequests):
            gate.ping(url, new_secret())


@dataclass(frozen=True)
class _Dns(EndpointPolicy):
    """A DNS for the host names ending in ``.invalid``: it gives its answers in turn, the last one
    for good (a DNS that rebinds answers one address first and another after)."""

    answers: list[str] | None = None

    def resolve(self, url: str, timeout_s: float | None = None) -> ResolvedEndpoint:
        assert self.answers is not None
        host = urlsplit(url).hostname or ""
        if host.endswith(".invalid"):
            url = url.replace(host, self.answers.pop(0) if len(self.answers) > 1 else self.answers[0])
        return super().resolve(url, timeout_s)


def test_the_ping_goes_to_the_address_that_was_counted(bots: BotServer) -> None:
    """The name is resolved once: the ping connects to the address counted, not to a second
    answer (here a closed port's host), so a changing DNS answer cannot move a ping off its count."""
    answers = ["127.0.0.1", "127.0.0.3"]
    gate = _gate(policy=_Dns(LOOPBACK.allowlist, answers))
    result = gate.ping(bots.url("/nothing/x").replace("127.0.0.1", "rebind.invalid"), new_secret())
    assert result.status == 404, result  # the bot server on 127.0.0.1 answered
    assert answers == ["127.0.0.3"], "one resolution only"


def test_an_owners_ping_is_a_probe_at_an_address_its_bot_never_answered_from(bots: BotServer) -> None:
    """Owning a bot is no way round the per-address budget: an owner's ping is free of it only at an
    address where its bot passed a ping; elsewhere (a move to another host, a name now resolving
    elsewhere) it is counted and refused as a stranger's probe is. A failed ping vouches for nothing."""
    gate = _gate("3 per minute")
    bots.secrets["/first/gate-own"] = secret = new_secret()
    url = bots.url("/first/gate-own")
    assert gate.ping(url, secret, vouch_for="b-1").ok
    assert gate.ping(url, new_secret(), vouch_for="b-3").status == 401
    assert gate.ping(f"http://127.0.0.1:{_closed_port()}/x", new_secret()).fault is Fault.CONNECTION
    with pytest.raises(TooManyRequests):
        gate.ping(url, secret)  # a stranger's probe: 127.0.0.1's budget is spent
    assert gate.ping_for_owner("b-1", url, secret).ok, "b-1 answered from 127.0.0.1"
    for never_answered_there in ("b-2", "b-3"):
        with pytest.raises(TooManyRequests):
            gate.ping_for_owner(never_answered_there, url, secret)
