"""Health checks of the containers of docker-compose.yml: exit 0 when the service answers, else 1.

    python deploy/healthcheck.py http URL       an HTTP endpoint answers 200 (the API's /api/v1/health,
                                                Flower's /healthcheck, the reference bots' /)
    python deploy/healthcheck.py worker [NODE]  the Celery worker NODE (default: this container's,
                                                ``celery@<hostname>``) answers a ping sent through
                                                the broker in REDIS_URL

A running process is not a working worker: one that lost the broker, or whose consumer is stuck,
takes no match. The ping is answered by the worker's consumer over the broker (Celery's remote
control), so it fails in both cases, and also when the broker itself is down. It does not import
the platform: a bare Celery client on the same broker is enough, and starts in a fraction of the
time.

The image has no curl; this file needs only Python and, for ``worker``, Celery.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

DEFAULT_TIMEOUT_S = 5.0

Ping = Callable[[str, float], list[dict[str, Any]]]
"""Sends a ping to one node and returns the replies, as Celery's ``app.control.ping`` does."""


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


def default_node() -> str:
    """The node name a worker takes when none is given: Celery's ``celery@<hostname>``."""
    return f"celery@{socket.gethostname()}"


def worker_answers(ping: Ping, node: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> tuple[bool, str]:
    """Whether ``node`` replied ``pong`` to a ping within ``timeout_s``."""
    try:
        replies = ping(node, timeout_s)
    except Exception as error:  # a broker that cannot be reached is an unhealthy worker, not a traceback
        return False, f"cannot reach the broker: {type(error).__name__}: {error}"
    for reply in replies:
        if reply.get(node, {}).get("ok") == "pong":
            return True, f"{node} answered"
    return False, f"{node} did not answer within {timeout_s:g} s"


def celery_ping(broker_url: str) -> Ping:
    """A :data:`Ping` through a bare Celery client on ``broker_url``."""
    from celery import Celery

    app = Celery("healthcheck", broker=broker_url, set_as_current=False)
    app.conf.broker_connection_timeout = 3
    app.conf.broker_connection_retry_on_startup = False

    def ping(node: str, timeout_s: float) -> list[dict[str, Any]]:
        try:
            return app.control.ping(destination=[node], timeout=timeout_s)
        finally:
            app.close()

    return ping


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="healthcheck.py", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT_S, help="seconds to wait (default 5)"
    )
    checks = parser.add_subparsers(dest="check", required=True)
    http = checks.add_parser("http", help="an HTTP endpoint answers 200")
    http.add_argument("url")
    worker = checks.add_parser("worker", help="a Celery worker answers a ping through the broker")
    worker.add_argument(
        "node", nargs="?", default=None, help="the worker's node name (default celery@HOSTNAME)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    if args.check == "http":
        healthy, message = http_ok(args.url, args.timeout)
    else:
        broker_url = os.environ.get("REDIS_URL", "").strip()
        if not broker_url:
            print("REDIS_URL is not set: no broker to reach the worker through", file=sys.stderr)
            return 1
        healthy, message = worker_answers(celery_ping(broker_url), args.node or default_node(), args.timeout)
    print(message, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
