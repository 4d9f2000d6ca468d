"""``arena worker --pool gevent``: the worker on gevent's event loop, patched before anything else loads.

A match spends nearly all its time waiting on bots. With gevent each match is a greenlet, not a
thread: hundreds wait at once in one process for little memory, and the waiting costs no CPU. gevent
must patch the standard library (sockets, threads, ``time.sleep``) before any module that uses them
is imported, so ``arena worker`` runs this module in a fresh interpreter rather than patching a
process that has already imported Celery, Redis and the referee.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import sys  # noqa: E402  (after the patch, on purpose)

from arena.cli import main  # noqa: E402


def run(argv: list[str]) -> int:
    """Run ``arena worker ARGV`` on gevent (the patch above is already in place)."""
    return main(["worker", *argv])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
