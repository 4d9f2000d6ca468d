"""Blocking file-system calls kept off gevent's event loop.

A gevent worker plays hundreds of matches in one thread: every greenlet runs only while the others
wait on sockets, which gevent makes cooperative. Disk calls are not: ``write``, ``fsync`` and
``link`` block the whole process, every match's clock included, for as long as the disk takes. On
a local SSD a replay's ``fsync`` takes a fraction of a millisecond; on a network or cloud volume it
can take tens, and with a few dozen matches ending a second the loop would stand still a good part
of the time (late moves, moves timed as slower than they were). :func:`call_off_loop` runs such a
call in gevent's thread pool when the process is patched, so only the greenlet that asked waits;
elsewhere (threads, the API, the CLI) it simply calls.

>>> call_off_loop(sum, [1, 2, 3])
6
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def _patched_by_gevent() -> bool:
    """True in a process gevent has patched (its worker): gevent is imported only if already loaded."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("socket"))


def call_off_loop(function: Callable[..., T], *args: Any) -> T:
    """``function(*args)``, in gevent's thread pool under gevent (its exceptions raised here)."""
    if not _patched_by_gevent():
        return function(*args)
    import gevent

    result: T = gevent.get_hub().threadpool.apply(function, args)
    return result
