"""Waiting for another process or thread to get somewhere, with a deadline and a message saying what
did not happen (tests never assert on timings: the deadline only keeps a broken run from hanging)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest


def wait_until(condition: Callable[[], Any], timeout: float, message: str, poll_s: float = 0.1) -> Any:
    """The first truthy value of ``condition()``, polled every ``poll_s``; fails the test with
    ``message`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(message)
        time.sleep(poll_s)
