"""``arena worker`` with the test games registered: the worker process of the integration tests.

Run as ``python -m tests.platform.nim_worker`` from the repository root, with the platform's
environment variables set (``REDIS_URL``, ``ARENA_QUEUE``...). On gevent (the default pool) the
standard library is patched first, as :mod:`arena.gevent_worker` does, and only when run: pytest
imports this module too (for doctests) and must stay unpatched.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str]) -> int:
    """Register the test games (in this process only) and run the worker."""
    on_gevent = "--pool=gevent" in argv or (
        "--pool=threads" not in argv and os.environ.get("ARENA_WORKER_POOL", "gevent") == "gevent"
    )
    if on_gevent:
        from gevent import monkey

        monkey.patch_all()
    from referee import registry

    registry.GAME_MODULES["nim"] = "tests.referee.toy_game"
    registry.GAME_MODULES["party"] = "tests.platform.party_game"
    from arena.cli import main as arena_main

    return arena_main(["worker", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
