"""How the parts of a running platform find each other: settings, store, match queue, bot agents,
the clock.

The API and the match task both receive a :class:`Runtime`; nothing else is global. The queue is
anything with ``enqueue(match_id)``: Celery in every real setup
(:class:`arena.worker.celery_app.CeleryQueue`), a list in some unit tests.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from arena.clock import SYSTEM_CLOCK, Clock
from arena.records import BotRecord
from arena.settings import Settings
from arena.storage import Store
from arena.upkeep import LeaseKeeper, LiveWriter
from referee.transport.agents import Agent, HttpAgent


class MatchQueue(Protocol):
    def enqueue(self, match_id: str) -> None:
        """Hand the match to a worker; raise if the queue cannot take it."""
        ...

    def waiting(self) -> int:
        """How many matches wait in the queue for a worker (not those a worker has taken)."""
        ...


AgentFactory = Callable[[BotRecord], Agent]


def http_agent_for(settings: Settings) -> AgentFactory:
    """Bots are HTTP endpoints, called under the settings' endpoint policy and signed with their secret."""

    def build(bot: BotRecord) -> Agent:
        return HttpAgent(bot.endpoint, bot.secret, settings.policy)

    return build


@dataclass
class Runtime:
    settings: Settings
    store: Store
    queue: MatchQueue
    agent_for: AgentFactory | None = field(default=None)
    clock: Clock = field(default=SYSTEM_CLOCK)
    """What the lease keeper, the sweeper and matchmaking take the time from and wait on."""
    _upkeep_lock: threading.Lock = field(
        default_factory=threading.Lock, init=False, repr=False, compare=False
    )
    _lease_keeper: LeaseKeeper | None = field(default=None, init=False, repr=False, compare=False)
    _live_writer: LiveWriter | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def lease_keeper(self) -> LeaseKeeper:
        """The one keeper of the leases of every match this runtime plays (made on first use, anew
        when the store, the lease time or the clock was changed since: a test steps a clock of its
        own)."""
        with self._upkeep_lock:
            keeper = self._lease_keeper
            lease_s = self.settings.lease_s
            fresh = keeper is not None and keeper.store is self.store and keeper.clock is self.clock
            if keeper is None or not fresh or keeper.lease_s != lease_s:
                keeper = self._lease_keeper = LeaseKeeper(self.store, lease_s, self.clock)
            return keeper

    @property
    def live_writer(self) -> LiveWriter:
        """The one writer of the live progress of every match this runtime plays (on first use)."""
        with self._upkeep_lock:
            writer = self._live_writer
            if writer is None or writer.store is not self.store:
                writer = self._live_writer = LiveWriter(self.store)
            return writer

    def agent(self, bot: BotRecord) -> Agent:
        """The agent that reaches ``bot`` for one match."""
        build = self.agent_for or http_agent_for(self.settings)
        return build(bot)
