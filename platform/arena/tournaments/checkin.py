"""The check-in at a tournament's start: every entrant is sent the signed ping registration sends,
all at once, and those that do not answer it play nothing.

:func:`checkin_ping` is the one place a check-in pings a bot. It goes straight to the bot under the
platform's endpoint policy and ping timeout, not through the API's per-address and per-token
counts: each entrant is pinged once per start, the organizer's schedule (not a stranger's requests)
decides when, and no count that others' requests filled can refuse it.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from arena.accounts import bot_ping
from arena.records import BotRecord
from arena.runtime import Runtime
from referee.transport.ping import PingResult, ping

MAX_PINGS_AT_ONCE = 16
WITHDRAWN = "did not answer the check-in ping: "


def checkin_ping(runtime: Runtime, bot: BotRecord) -> PingResult:
    """Ping one entrant for the check-in (a house bot plays in-process: it is always there)."""
    if bot.house:
        return PingResult(None, "a house bot plays in-process", 0.0)
    settings = runtime.settings
    return ping(bot.endpoint, bot.secret, settings.policy, settings.ping_timeout_s, protocol=bot.protocol)


def check_in(runtime: Runtime, bots: Sequence[BotRecord]) -> dict[str, str | None]:
    """Each bot's id -> None if it answered, else why it is withdrawn (in the words a failed
    registration uses)."""
    if not bots:
        return {}

    def one(bot: BotRecord) -> str | None:
        result = checkin_ping(runtime, bot)
        return None if result.ok else WITHDRAWN + bot_ping.outcome(result)

    with ThreadPoolExecutor(
        max_workers=min(MAX_PINGS_AT_ONCE, len(bots)), thread_name_prefix="checkin"
    ) as pool:
        answers = list(pool.map(one, bots))
    return {bot.id: answer for bot, answer in zip(bots, answers, strict=True)}
