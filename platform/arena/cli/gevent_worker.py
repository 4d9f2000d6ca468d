"""``arena worker --pool gevent``: the worker on gevent's event loop, patched before anything else loads.

A match spends nearly all its time waiting on bots. With gevent each match is a greenlet, not a
thread: hundreds wait at once in one process for little memory, and the waiting costs no CPU. gevent
must patch the standard library (sockets, threads, ``time.sleep``) before any module that uses them
is imported, so ``arena worker`` runs this module in a fresh interpreter (``python -m
arena.cli.gevent_worker``) rather than patching a process that has already imported Celery, Redis and
the referee. Importing this module patches nothing; running it does.
"""

from __future__ import annotations

import sys


def run(argv: list[str]) -> int:
    """Patch the standard library for gevent, then run ``arena worker ARGV``."""
    from gevent import monkey

    monkey.patch_all()
    from arena.cli.main import main  # only now: everything it loads sees the patched modules

    return main(["worker", *argv])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
