"""What the platform benchmarks share: a Redis of their own, bots and workers in their own processes.

Not a benchmark itself (``make bench`` runs ``bench_*.py`` and ``*_bots.py`` only). Everything it
starts listens on loopback ports it picks, and is stopped by the context managers, so a benchmark
never touches the Redis at 6379 nor leaves a process behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SECRET = "bench-secret-of-at-least-32-characters"
ADMIN = "bench-organizer"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting: {what}")
        time.sleep(0.05)


class ServerProcess(str):
    """A server's URL (a ``str``), with its process id beside it (``.pid``) to measure its CPU."""

    pid: int


@contextlib.contextmanager
def redis_server() -> Iterator[ServerProcess]:
    """A redis-server of the benchmark's own (no persistence); yields its URL (``.pid``: its process)."""
    if shutil.which("redis-server") is None:
        raise SystemExit("this benchmark needs redis-server (Debian package redis-server)")
    from redis import Redis
    from redis.exceptions import RedisError

    port = free_port()
    with tempfile.TemporaryDirectory() as directory:
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
                "--dir",
                directory,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = ServerProcess(f"redis://127.0.0.1:{port}/0")
        url.pid = process.pid

        def answers() -> bool:
            try:
                return bool(Redis.from_url(url, socket_connect_timeout=0.5).ping())
            except RedisError:
                return False

        try:
            wait_until(answers, 15, "redis-server to start")
            yield url
        finally:
            process.terminate()
            process.wait(15)


@contextlib.contextmanager
def bot_server(delay_ms: float = 0.0, kind: str = "sdk", protocol: int = 1) -> Iterator[ServerProcess]:
    """A bot answering every move with its first legal move after ``delay_ms``, on the bot SDK's
    keep-alive server under gevent in its own process (any number of connections); yields its URL.
    ``kind``: ``sdk`` (the SDK's app, decoding every request) or ``raw`` (see :mod:`bench.instant_bot`);
    ``protocol`` 2 starts it for protocol version 2 (it answers version 1 requests as well)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.instant_bot", str(port), str(delay_ms), SECRET, kind, str(protocol)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = ServerProcess(f"http://127.0.0.1:{port}/")
    url.pid = process.pid
    try:
        wait_until(lambda: _listening(port), 20, "the bot server to start")
        yield url
    finally:
        process.terminate()
        process.wait(15)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def platform_env(redis_url: str, **extra: str) -> dict[str, str]:
    tag = os.urandom(4).hex()
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": ADMIN,
        "ARENA_KEY_PREFIX": f"bench-{tag}:",
        "ARENA_QUEUE": f"bench-{tag}",
        "ARENA_ENDPOINT_ALLOWLIST": "127.0.0.0/8",
        **extra,
    }


@contextlib.contextmanager
def process(argv: list[str], env: dict[str, str], ready: str = "ready.") -> Iterator[subprocess.Popen[bytes]]:
    """A worker-like process, waited for until its log says ``ready``; stopped (SIGTERM) after."""
    with tempfile.NamedTemporaryFile("w+b", suffix=".log") as log:
        child = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:

            def started() -> bool:
                if child.poll() is not None:
                    log.seek(0)
                    raise SystemExit(f"{argv} exited: {log.read().decode(errors='replace')[-2000:]}")
                log.seek(0)
                return ready.encode() in log.read()

            wait_until(started, 60, f"{argv} to start")
            yield child
        finally:
            child.terminate()
            try:
                child.wait(30)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_tree(pid: int) -> list[int]:
    """``pid`` and every live process under it (Linux /proc): a worker of several processes is its
    supervisor and the worker processes it started."""
    found = [pid]
    for tree_pid in found:
        try:
            tasks = list(Path(f"/proc/{tree_pid}/task").iterdir())
        except OSError:  # it has just exited
            continue
        for task in tasks:
            with contextlib.suppress(OSError):
                found.extend(int(child) for child in (task / "children").read_text().split())
    return found


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of ``pid`` and of every process under it: the live ones' own, plus what the
    children it already waited for used (``cutime``, ``cstime``)."""
    total = 0.0
    for tree_pid in process_tree(pid):
        try:
            total += cpu_seconds(tree_pid)
        except OSError:
            continue
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return total + (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def run_queue_seconds(pid: int) -> float:
    """Time the process's main thread has spent runnable but waiting for a core (Linux schedstat):
    what other work on the machine costs it."""
    try:
        fields = Path(f"/proc/{pid}/schedstat").read_text().split()
    except OSError:  # a kernel without schedstats
        return 0.0
    return int(fields[1]) / 1e9


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def tree_rss_bytes(pid: int) -> int:
    """Resident memory of ``pid`` and every live process under it."""
    total = 0
    for tree_pid in process_tree(pid):
        try:
            total += rss_bytes(tree_pid)
        except OSError:  # it has just exited
            continue
    return total


def tree_run_queue_seconds(pid: int) -> float:
    """:func:`run_queue_seconds` added up over ``pid`` and every live process under it."""
    return sum(run_queue_seconds(tree_pid) for tree_pid in process_tree(pid))


def spread(values: list[float]) -> str:
    """min / median / max of repeated runs (the median of an even count is the mean of the middle
    two, as the ratios of medians beside it are taken with :func:`statistics.median`)."""
    return f"{min(values):.1f} / {statistics.median(values):.1f} / {max(values):.1f}"


def register_bots(client: Any, runtime: Any, url: str, game: str, count: int, protocol: int = 1) -> list[str]:
    """Register ``count`` bots at the one bot process's ``url`` through the API, all with
    :data:`SECRET` (one process, one secret; each registration pings it) and protocol version
    ``protocol``; returns their ids."""
    ids = []
    for seat in range(count):
        body: dict[str, Any] = {"name": f"b{seat}", "endpoint": url, "games": [game], "secret": SECRET}
        if protocol != 1:
            body["protocol"] = protocol
        answer = client.post("/api/v1/bots", json=body)
        assert answer.status_code == 201, answer.get_json()
        ids.append(answer.get_json()["id"])
    return ids
