"""How the parts of a running platform find each other: settings, store, match queue, bot agents.

The API and the match task both receive a :class:`Runtime`; nothing else is global. The queue is
anything with ``enqueue(match_id)``: Celery in every real setup, a list in some unit tests.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from arena.settings import Settings
from arena.store import Record, Store
from referee.agents import Agent, HttpAgent


class MatchQueue(Protocol):
    def enqueue(self, match_id: str) -> None:
        """Hand the match to a worker; raise if the queue cannot take it."""
        ...


def http_agent_for(settings: Settings) -> Callable[[Record], Agent]:
    """Bots are HTTP endpoints, called under the settings' endpoint policy and signed with their secret."""

    def build(bot: Record) -> Agent:
        return HttpAgent(bot["endpoint"], bot["secret"], settings.policy)

    return build


@dataclass
class Runtime:
    settings: Settings
    store: Store
    queue: MatchQueue
    agent_for: Callable[[Record], Agent] = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.agent_for is None:
            self.agent_for = http_agent_for(self.settings)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def now_ts() -> float:
    return time.time()


def stamp() -> dict[str, Any]:
    """``created_at`` (ISO, for people) and ``created_ts`` (for ordering) of a new record."""
    return {"created_at": now_iso(), "created_ts": now_ts()}
