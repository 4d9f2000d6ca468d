"""A redis-server of a test's own, on a free loopback port, for tests that must not share 6379.

Several test modules need a Redis that behaves as deployed (a password, nothing kept on disk) and
that they may stop or fill at will; starting one per module keeps them apart from the machine's
Redis and from each other.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from tests.platform.waiting import wait_until


def free_port() -> int:
    """A loopback TCP port nobody listens on at the moment of asking."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def own_redis_server(password: str) -> Iterator[str]:
    """Run a password-protected redis-server for the block; yield its URL (skip if not installed)."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--requirepass",
            password,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://:{password}@127.0.0.1:{port}/0"

    def answers() -> bool:
        try:
            return bool(Redis.from_url(url, socket_connect_timeout=0.5).ping())
        except RedisConnectionError:
            return False

    try:
        wait_until(answers, 10, "redis-server did not start within 10 s")
    except BaseException:  # pytest's failure too
        process.kill()
        raise
    try:
        yield url
    finally:
        process.terminate()
        process.wait(10)
