"""What a bot is, in-process: something that answers a protocol ``move`` request with a move.

It lives in ``referee`` because the match runner's in-process agent plays such bots; reference bots
(:mod:`bots`) and bot authors implement it. A bot sees exactly the request an HTTP bot receives
(``docs/protocol.md``): the same dict with ``seat``, ``observation``, ``legal_moves``, ``time`` and
the rest, so a bot written against this interface runs unchanged behind :mod:`bots.sdk`'s server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

Request = dict[str, Any]
"""A protocol request as JSON: ``start``, ``move`` or ``end`` (see ``docs/protocol.md``)."""

Move = dict[str, Any]


class Bot(Protocol):
    """Chooses one of ``request["legal_moves"]``; may keep state between requests of one match."""

    def choose(self, request: Request) -> Move: ...


BotFactory = Callable[[int], Bot]
"""Builds a bot from a seed, so that a reference bot's play is reproducible."""
