"""The platform's bounds on what a match may ask for: its time control and its fault limit.

A match holds a worker's slot for as long as its bots may think, and a bot's owner may book matches
(challenges): a challenge of 60 s a move, a 10 minute bank and 1000 faults held a worker for
about 17 hours. So the largest ``time.move_ms``, ``time.bank_ms`` and ``max_faults`` are the
platform's settings (``ARENA_MAX_MOVE_MS``, ``ARENA_MAX_BANK_MS``, ``ARENA_MAX_FAULTS``), and this
one check applies them to every request that sets them: a challenge, an organizer's match, a
tournament and a continuous ladder alike, so no path asks for more than another. What a match may
still take in all (moves times ``move_ms``) is bounded by ``ARENA_MAX_MATCH_SECONDS``, which the
runner keeps.

>>> from arena.settings import Settings
>>> bound_errors(Settings(max_move_ms=10_000), {"time": {"move_ms": 10_001, "bank_ms": 0}, "max_faults": 3})
{'time': {'move_ms': ['at most 10000 ms on this platform']}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.errors import FieldErrors, field_error, merge_errors
from arena.settings import Settings


def bound_errors(settings: Settings, request: Mapping[str, Any]) -> FieldErrors:
    """Field errors, nested as the request is, for each of ``time.move_ms``, ``time.bank_ms`` and
    ``max_faults`` above the platform's bound (``request`` as the API's schemas load it)."""
    time = request.get("time") or {}
    errors: FieldErrors = {}
    checks = (
        ("time.move_ms", time.get("move_ms"), settings.max_move_ms, " ms"),
        ("time.bank_ms", time.get("bank_ms"), settings.max_bank_ms, " ms"),
        ("max_faults", request.get("max_faults"), settings.max_faults, ""),
    )
    for path, value, bound, unit in checks:
        if isinstance(value, int) and value > bound:
            merge_errors(errors, field_error(path, f"at most {bound}{unit} on this platform"))
    return errors
