"""``arena worker`` with the test games registered: the worker process of the integration tests.

Run as ``python -m tests.platform.nim_worker`` from the repository root, with the platform's
environment variables set (``REDIS_URL``, ``ARENA_QUEUE``...).
"""

from __future__ import annotations

import os
import sys

if "--pool=gevent" in sys.argv or (
    "--pool=threads" not in sys.argv and os.environ.get("ARENA_WORKER_POOL", "gevent") == "gevent"
):
    from gevent import monkey  # before anything else loads, as arena.gevent_worker does

    monkey.patch_all()

from referee import registry  # noqa: E402


def main() -> int:
    """Register the test games (in this process only) and run the worker."""
    registry.GAME_MODULES["nim"] = "tests.referee.toy_game"
    registry.GAME_MODULES["party"] = "tests.platform.party_game"
    from arena.cli import main as arena_main

    return arena_main(["worker", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
