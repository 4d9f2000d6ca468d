"""Health checks of the containers of docker-compose.yml: exit 0 when the service answers, else 1.

    python deploy/healthcheck.py http URL       an HTTP endpoint answers 200 (the API's /api/v1/health,
                                                Flower's /healthcheck, the reference bots' /)
    python deploy/healthcheck.py worker [NODE ...]
                                                every Celery worker NODE answers a ping sent through
                                                the broker in REDIS_URL; default: every process of
                                                this container's ``arena worker``, from
                                                ARENA_WORKER_PROCESSES (1: ``celery@<hostname>``;
                                                N: ``arena-1@<hostname>`` ... ``arena-N@<hostname>``)
    python deploy/healthcheck.py beat SCHEDULE  Celery beat's schedule file SCHEDULE was written within
                                                --max-age seconds (default 600)

A running process is not a working worker: one that lost the broker, or whose consumer is stuck,
takes no match. A worker of several processes is healthy only when every one of them answers: each
has a consumer of its own, and one that is stuck or gone is a share of the worker that takes
nothing. The ping is answered by the worker's consumer over the broker (Celery's remote
control), so it fails in both cases, and also when the broker itself is down. It does not load
the platform: a bare Celery client on the same broker is enough, and starts in a fraction of the
time (the node names and their count come from :mod:`arena.worker.processes` and :mod:`arena.cores`,
which need the standard library only).

Beat answers no ping; what shows it alive is its schedule file, which it writes when it starts and
again at least every three minutes while it sends ticks (Celery's ``Scheduler.sync_every``, checked
within the five minutes its loop may sleep): a file older than ten minutes means a beat that hangs
or has stopped sending. Its ticks reach the workers through the broker like every match, so the
workers' own check covers the rest of the way.

The image has no curl; this file needs only Python and, for ``worker``, Celery.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

DEFAULT_TIMEOUT_S = 5.0
DEFAULT_SCHEDULE_AGE_S = 600.0

Ping = Callable[[list[str], float], list[dict[str, Any]]]
"""Sends a ping to some nodes and returns the replies, as Celery's ``app.control.ping`` does."""


def http_ok(url: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> tuple[bool, str]:
    """Whether ``url`` answers 200 within ``timeout_s``, and what happened, for the container's log."""
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as answer:
            status = answer.status
    except urllib.error.HTTPError as error:
        return False, f"{url} answered {error.code}"
    except (urllib.error.URLError, OSError) as error:
        return False, f"{url} did not answer: {getattr(error, 'reason', error)}"
    return status == 200, f"{url} answered {status}"


def default_nodes(env: dict[str, str] | None = None) -> list[str]:
    """The node names of this container's ``arena worker``: Celery's ``celery@<hostname>`` for a
    single process, ``arena-1@<hostname>`` ... for ``ARENA_WORKER_PROCESSES`` above 1 (or ``auto``),
    as the worker names them."""
    from arena.cores import processes_from_env
    from arena.worker.processes import expand_host, node_names

    count = processes_from_env(os.environ if env is None else env)
    return [expand_host(node) for node in node_names(count)]


def worker_answers(
    ping: Ping, nodes: str | Sequence[str], timeout_s: float = DEFAULT_TIMEOUT_S
) -> tuple[bool, str]:
    """Whether every one of ``nodes`` replied ``pong`` to a ping within ``timeout_s``."""
    wanted = [nodes] if isinstance(nodes, str) else list(nodes)
    try:
        replies = ping(wanted, timeout_s)
    except Exception as error:  # a broker that cannot be reached is an unhealthy worker, not a traceback
        return False, f"cannot reach the broker: {type(error).__name__}: {error}"
    answered = {node for reply in replies for node, answer in reply.items() if answer.get("ok") == "pong"}
    missing = [node for node in wanted if node not in answered]
    if missing:
        return False, f"{', '.join(missing)} did not answer within {timeout_s:g} s"
    return True, f"{', '.join(wanted)} answered"


def celery_ping(broker_url: str) -> Ping:
    """A :data:`Ping` through a bare Celery client on ``broker_url``."""
    from celery import Celery

    app = Celery("healthcheck", broker=broker_url, set_as_current=False)
    app.conf.broker_connection_timeout = 3
    app.conf.broker_connection_retry_on_startup = False

    def ping(nodes: list[str], timeout_s: float) -> list[dict[str, Any]]:
        try:
            return app.control.ping(destination=nodes, timeout=timeout_s)
        finally:
            app.close()

    return ping


def schedule_fresh(
    path: str, max_age_s: float = DEFAULT_SCHEDULE_AGE_S, now: float | None = None
) -> tuple[bool, str]:
    """Whether beat wrote its schedule ``path`` within ``max_age_s`` seconds. The file may carry a
    suffix the database module adds (``.db``, ``.dat``), so the newest file starting with ``path`` counts."""
    folder, name = os.path.split(path)
    try:
        written = [
            os.stat(os.path.join(folder or ".", entry)).st_mtime
            for entry in os.listdir(folder or ".")
            if entry.startswith(name)
        ]
    except OSError as error:
        return False, f"cannot read {folder or '.'}: {error.strerror}"
    if not written:
        return False, f"no schedule file {path}*: beat has not started"
    age = (time.time() if now is None else now) - max(written)
    if age > max_age_s:
        return (
            False,
            f"{path} last written {age:.0f} s ago (more than {max_age_s:g}): beat is stuck or stopped",
        )
    return True, f"{path} written {age:.0f} s ago"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="healthcheck.py", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds to wait (default 5)"
    )
    checks = parser.add_subparsers(dest="check", required=True)
    http = checks.add_parser("http", help="an HTTP endpoint answers 200")
    http.add_argument("url")
    worker = checks.add_parser("worker", help="every process of a worker answers a ping through the broker")
    worker.add_argument(
        "node",
        nargs="*",
        default=[],
        help="the node names (default: this container's arena worker, from ARENA_WORKER_PROCESSES: "
        "celery@HOSTNAME for 1, arena-1@HOSTNAME ... arena-N@HOSTNAME for N)",
    )
    beat = checks.add_parser("beat", help="Celery beat wrote its schedule file lately")
    beat.add_argument("schedule", help="the file given to beat's --schedule")
    beat.add_argument("--max-age", type=float, default=DEFAULT_SCHEDULE_AGE_S, help="seconds (default 600)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    if args.check == "http":
        healthy, message = http_ok(args.url, args.timeout)
    elif args.check == "beat":
        healthy, message = schedule_fresh(args.schedule, args.max_age)
    else:
        broker_url = os.environ.get("REDIS_URL", "").strip()
        if not broker_url:
            print("REDIS_URL is not set: no broker to reach the worker through", file=sys.stderr)
            return 1
        try:
            nodes = args.node or default_nodes()
        except ValueError as error:  # a bad ARENA_WORKER_PROCESSES
            print(error, file=sys.stderr)
            return 1
        healthy, message = worker_answers(celery_ping(broker_url), nodes, args.timeout)
    print(message, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
