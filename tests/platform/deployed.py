"""The API as deployed, for tests that need its real shape: gunicorn with ``deploy/gunicorn.conf.py``
on a Redis of the test's own, and plain HTTP requests to it.

A test-only hook makes every API process resolve numeric addresses only (generated bot endpoints
name random hosts: never asked of DNS, never pinged); everything else is the deployed configuration.
"""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.platform.own_redis import free_port
from tests.platform.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
ADMIN = "organizer-token-of-the-deployed-tests"
NUMERIC_ONLY = """
def _numeric_only_resolver():
    import socket

    resolve = socket.getaddrinfo

    def numeric_only(host, *args, **kwargs):
        return resolve(host, *args, **{**kwargs, "flags": socket.AI_NUMERICHOST})

    socket.getaddrinfo = numeric_only


def post_worker_init(worker):
    _numeric_only_resolver()  # after gevent has patched the socket module
"""


def status_of(url: str, timeout_s: float = 10.0, headers: dict[str, str] | None = None) -> int:
    """The status ``url`` answers, or 0 when it cannot be reached."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except OSError:
        return 0


@contextmanager
def gunicorn_api(redis_url: str, directory: Path, **env: str) -> Iterator[str]:
    """The API under gunicorn with ``deploy/gunicorn.conf.py`` (its processes as configured unless
    ``GUNICORN_WORKERS`` is given) on ``redis_url``, once healthy; its base URL. ``env``: more
    settings."""
    port = free_port()
    config = directory / "gunicorn.conf.py"
    config.write_text((ROOT / "deploy" / "gunicorn.conf.py").read_text() + NUMERIC_ONLY)
    environment = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "platform"),
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": ADMIN,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_LOGLEVEL": "warning",
        **env,
    }
    log = directory / "gunicorn.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", str(config), "arena.wsgi:app"],
            cwd=ROOT,
            env=environment,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(
            lambda: server.poll() is not None or status_of(f"{base}/api/v1/health", 2.0) == 200,
            60,
            "the API did not become healthy under gunicorn",
        )
        assert server.poll() is None, log.read_text()
        yield base
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
