"""No client can starve the others, on the deployed shape (gunicorn with ``deploy/gunicorn.conf.py``
and a real redis-server): a thousand registrations at once from one address are that address's
429s and 503s, while other clients' reads are answered 200.

A thousand ``POST /api/v1/bots`` at once used to exhaust flask-limiter's Redis connections (redis-py's
pool fails instead of waiting past 100); the API took that for Redis being unreachable and its
breaker answered every client 503 for 5 s. The flood here is opened first (every connection
accepted), then sent at once; other clients read the health check and a ladder from before it is
sent until its last answer is in. Nothing waits on a clock: the reads go on while the flood's
answers are outstanding, a bounded number of times.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.platform.deployed import gunicorn_api
from tests.platform.own_redis import own_redis_server

FLOOD = 1000
WAVES = 2
READERS = 4
MOST_READS = 5000
"""A bound on each reader's loop, far above what it reads while a wave is answered."""
SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "x-frame-options", "referrer-policy")
REGISTRATION = json.dumps(
    {"name": "flood", "endpoint": "http://127.0.0.1:9/", "games": ["vulkan"], "secret": "a" * 64}
).encode()


@dataclass
class Answer:
    status: int
    headers: dict[str, str] = field(default_factory=dict)


async def _connect(port: int, source: str = "127.0.0.1") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


def flood_source(index: int, addresses: int) -> str:
    """The loopback address the ``index``-th request of the flood comes from, of ``addresses``."""
    spread = index % addresses
    return f"127.0.{1 + spread // 250}.{1 + spread % 250}" if addresses > 1 else "127.0.0.1"


async def _exchange(
    streams: tuple[asyncio.StreamReader, asyncio.StreamWriter], method: str, path: str, body: bytes = b""
) -> Answer:
    """One HTTP/1.1 request on an open connection, read to its close; status 0 if the connection failed."""
    reader, writer = streams
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    try:
        writer.write(head.encode() + body)
        await writer.drain()
        raw = await reader.read()
    except OSError:
        return Answer(0)
    finally:
        writer.close()
    lines = raw.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    if not lines or not lines[0].startswith("HTTP/"):
        return Answer(0)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return Answer(int(lines[0].split()[1]), headers)


async def _read(port: int, path: str) -> Answer:
    try:
        streams = await _connect(port)
    except OSError:
        return Answer(0)
    return await _exchange(streams, "GET", path)


async def _reader(port: int, index: int, flood: asyncio.Future[Any], reads: list[Answer]) -> None:
    """Another client: reads the health check or a ladder until every answer of ``flood`` is in."""
    path = "/api/v1/health" if index % 2 == 0 else "/api/v1/ladders/vulkan"
    for _ in range(MOST_READS):
        reads.append(await _read(port, path))
        if flood.done():
            return


async def _flood_while_reading(port: int, addresses: int) -> tuple[list[Answer], list[Answer]]:
    """``WAVES`` times: open ``FLOOD`` connections from ``addresses`` addresses, send a registration
    on each at once, and read with ``READERS`` other clients until every answer of the wave is in."""
    flood: list[Answer] = []
    reads: list[Answer] = []
    for _wave in range(WAVES):
        sources = [flood_source(index, addresses) for index in range(FLOOD)]
        connections = await asyncio.gather(*(_connect(port, source) for source in sources))
        sent = [
            asyncio.ensure_future(_exchange(streams, "POST", "/api/v1/bots", REGISTRATION))
            for streams in connections
        ]
        done = asyncio.ensure_future(asyncio.gather(*sent))

        await asyncio.gather(*(_reader(port, index, done, reads) for index in range(READERS)))
        flood.extend(await done)
    return flood, reads


@pytest.fixture
def redis_url() -> Any:
    with own_redis_server("back-pressure") as url:
        yield url


@pytest.mark.parametrize("addresses", [1, 500], ids=["one-address", "many-addresses"])
def test_a_thousand_registrations_at_once_leave_other_clients_answered(
    redis_url: str, tmp_path: Path, addresses: int
) -> None:
    """From one address the flood is mostly over its limit (429); from many it is within the limits
    and reaches the views, whose answers' rate limit headers read the counts again."""
    with gunicorn_api(redis_url, tmp_path) as base:
        port = int(base.rsplit(":", 1)[1])
        flood, reads = asyncio.run(_flood_while_reading(port, addresses))
        after = asyncio.run(_read(port, "/api/v1/health"))
    log = (tmp_path / "gunicorn.log").read_text()
    statuses = Counter(answer.status for answer in flood)
    read_statuses = Counter(answer.status for answer in reads)
    print(f"flood answers {dict(statuses)}; other clients' reads {dict(read_statuses)}")  # the figures
    assert len(flood) == FLOOD * WAVES
    # the flood's own answers: limited, refused or told to come back, never a server error
    assert set(statuses) <= {201, 422, 429, 503}, (statuses, log[-3000:])
    assert statuses[429 if addresses == 1 else 422] > 0
    assert "Traceback" not in log, log[-3000:]
    for answer in flood:
        assert all(name in answer.headers for name in SECURITY_HEADERS), answer
        if answer.status in (429, 503):
            assert int(answer.headers["retry-after"]) >= 1
    # other clients, throughout: at least 95% answered 200, and the very next one after it
    assert read_statuses[200] >= 0.95 * len(reads), (read_statuses, log[-3000:])
    assert after.status == 200
