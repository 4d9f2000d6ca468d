"""A ping its owner asks for (``POST /api/v1/bots/<id>/ping``): is the bot up, and if it rests, is it back?

The platform sends the bot the same signed ``ping`` as at registration (its endpoint, secret and
protocol version in force) and answers how it went, in the words a failed registration uses
(:func:`arena.accounts.bot_ping.reasons`; ``detail`` is :func:`arena.accounts.bot_ping.outcome`).
A bot that passes is marked back (:meth:`arena.storage.bots.Bots.mark_back`): a continuous ladder that
rested it for forfeiting (:mod:`arena.ladders.matchmaking`) seats it again from its next tick. A
house bot plays in-process and has no endpoint to call: it always passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.accounts import bot_accounts, bot_ping
from arena.accounts.ping_gate import PingGate
from arena.records import BotRecord, now_iso
from arena.runtime import Runtime
from referee.transport.ping import PingResult


@dataclass(frozen=True)
class PingAnswer:
    """How the ping went, and the ladders it brought the bot back to."""

    ok: bool
    round_trip_ms: float
    fault: str | None
    status: int | None
    detail: str
    problems: dict[str, Any]
    """What to fix, by field (``endpoint``, ``secret``, ``protocol``), as a failed registration says."""
    back_on: list[dict[str, str]]
    """The ladders (``game``, ``variant``) on which it rested and plays again."""


def ping_now(runtime: Runtime, pings: PingGate, bot: BotRecord, counted: bool = True) -> PingAnswer:
    """Ping ``bot`` on its owner's behalf (:meth:`arena.accounts.ping_gate.PingGate.ping_for_owner`;
    ``counted`` false for the organizer) and say how it went."""
    timeout_s = pings.timeout_s
    if bot.house:
        result = PingResult(None, "a house bot plays in-process", 0.0)
    else:
        result = pings.ping_for_owner(bot.id, bot.endpoint, bot.secret, bot.protocol, counted=counted)
    resting = bot_accounts.view(runtime, bot).resting if result.ok else []
    if result.ok:
        runtime.store.bots.mark_back(bot.id, now_iso())
    return PingAnswer(
        ok=result.ok,
        round_trip_ms=result.round_trip_ms,
        fault=None if result.fault is None else result.fault.value,
        status=result.status,
        detail=result.detail if bot.house else bot_ping.outcome(result),
        problems=bot_ping.reasons(result, timeout_s, bot.protocol),
        back_on=[{"game": rest["game"], "variant": rest["variant"]} for rest in resting],
    )
