"""``arena worker`` with the test games registered: the worker process of the integration tests.

Run as ``python -m tests.platform.nim_worker`` from the repository root, with the platform's
environment variables set (``REDIS_URL``, ``ARENA_QUEUE``...). On gevent (the default pool) the
standard library is patched first, as :mod:`arena.cli.gevent_worker` does, and only when run: pytest
imports this module too (for doctests) and must stay unpatched. With ``--processes N`` above 1 this
process is the supervisor, left unpatched, and each worker process it starts is this module again.
"""

from __future__ import annotations

import os
import sys


def processes(argv: list[str]) -> int:
    """The ``--processes`` of ``argv`` (``--processes=N`` or ``--processes N``), else the environment's."""
    from arena.cores import parse_processes, processes_from_env

    for index, arg in enumerate(argv):
        if arg.startswith("--processes="):
            return parse_processes(arg.split("=", 1)[1])
        if arg == "--processes" and index + 1 < len(argv):
            return parse_processes(argv[index + 1])
    return processes_from_env(os.environ)


def main(argv: list[str]) -> int:
    """Register the test games (in this process only) and run the worker."""
    on_gevent = "--pool=gevent" in argv or (
        "--pool=threads" not in argv and os.environ.get("ARENA_WORKER_POOL", "gevent") == "gevent"
    )
    if on_gevent and processes(argv) == 1:
        from gevent import monkey

        monkey.patch_all()
    from referee import registry

    registry.EXTRA["nim"] = "tests.referee.toy_game"
    registry.EXTRA["party"] = "tests.platform.party_game"
    from arena.cli import commands
    from arena.cli.main import main as arena_main

    commands.worker_entry = "tests.platform.nim_worker"  # the processes of a --processes N worker
    return arena_main(["worker", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
