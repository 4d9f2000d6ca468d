"""``arena worker --processes N``: N Celery worker processes on one machine, under a small supervisor.

One worker process plays its matches on one core (gevent's event loop, or threads that share the
interpreter lock), and its Celery consumer is one greenlet among the matches: once that core is
full it takes a queued match only once per turn of the loop, so a single process does not reach
500 matches at once against bots answering in 100 ms. N processes use N cores, each with its own
consumer. Each is today's ``arena worker`` exactly (the gevent worker in a fresh interpreter, or the
threads pool), with ``--concurrency`` matches of its own, a node name of its own (``arena-1@%h`` ...
``arena-N@%h``, so Celery's remote control, Flower and the health check tell them apart) and, when
``ARENA_METRICS_PORT`` is set, its own metrics port (the port plus ``i - 1`` for process ``i``).

Why a supervisor of our own. ``celery multi`` starts workers *detached* (``--detach``: daemons with
pid files and log files) and returns; nothing stays in the foreground to forward a container's
SIGTERM, to wait for the workers' warm shutdown, or to exit when one of them dies, which is what a
container's PID 1 or a systemd service must do (its ``stop`` and ``restart`` are separate commands
that find the workers again through the pid files). Celery's own prefork pool runs one consumer
over many child processes, which is the single intake this is meant to multiply, and it cannot run
gevent in its children. Process managers (supervisord, circus, honcho) are whole services with
their own configuration and would add a package to the image for about a hundred lines.

What the supervisor does, and why:

- It forwards SIGTERM, SIGINT, SIGQUIT (and SIGHUP) to every worker process as it receives them:
  SIGTERM is Celery's warm shutdown (take no new match, let the matches in flight end), SIGQUIT its
  cold one, SIGINT warm the first time and cold the second, as for a single worker. The workers run
  in a process group of their own, so a Ctrl-C in a terminal reaches them once, through the
  supervisor, not twice (which Celery would take for a cold shutdown).
- It waits for all of them and exits with the worst of their exit statuses (0 after a warm
  shutdown, like a single worker).
- A worker process that exits on its own (a crash, the out-of-memory killer, a remote-control
  shutdown) is **not restarted**: the supervisor sends the others a warm shutdown, waits for their
  matches to end, and exits non-zero. The container (``restart: unless-stopped``) or systemd
  (``Restart=on-failure``) then starts the whole worker again. Restarting in here would hide the
  failure from the one place that counts and shows restarts, need a backoff policy of its own for a
  process that dies at once (a bad setting, a port taken), and a worker with a dead process would
  meanwhile fail its health check (every process must answer) with no one acting on it. The
  matches of the dead process are played again as for any killed worker (the lease lapses, the
  sweeper queues them).
- No orphans: on Linux each worker process asks the kernel for SIGTERM when the supervisor dies
  (``PR_SET_PDEATHSIG``), so a supervisor killed with SIGKILL leaves workers that finish their
  matches and exit, as after ``docker compose stop``. Elsewhere (no ``prctl``) they would outlive
  it; the platform's deployments are Linux.

This module uses the standard library only: the health check (``deploy/healthcheck.py``) imports
it for the node names without loading the platform.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import FrameType

METRICS_PORT_ENV = "ARENA_METRICS_PORT"
DEFAULT_NODE = "celery@%h"
"""A single worker's node name: Celery's default, as before there could be several."""
DEFAULT_BASE = "arena@%h"
"""Several processes are ``arena-1@%h`` ... ``arena-N@%h`` unless ``--hostname`` names them."""
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP)
STOPPING = (signal.SIGTERM, signal.SIGINT, signal.SIGQUIT)
"""Signals after which the workers' exits are expected (SIGHUP makes Celery restart in place)."""
PR_SET_PDEATHSIG = 1


def node_names(count: int, hostname: str | None = None) -> list[str]:
    """The Celery node names of a worker's ``count`` processes, ``%h`` unexpanded.

    One process keeps the name it is given, else Celery's default; several take the given name
    (default ``arena@%h``) with ``-1`` ... ``-N`` after the part before the ``@``.

    >>> node_names(1), node_names(2), node_names(2, "w@box")
    (['celery@%h'], ['arena-1@%h', 'arena-2@%h'], ['w-1@box', 'w-2@box'])
    """
    if count == 1:
        return [hostname or DEFAULT_NODE]
    name, _, host = (hostname or DEFAULT_BASE).partition("@")
    return [f"{name}-{index}@{host or '%h'}" for index in range(1, count + 1)]


def expand_host(node: str, hostname: str | None = None) -> str:
    """``node`` with ``%h`` replaced by this machine's host name, as Celery does."""
    return node.replace("%h", hostname or socket.gethostname())


def metrics_ports(base: int | None, count: int) -> list[int | None]:
    """Each process's metrics port: ``base``, ``base + 1``, ...; all None without a base."""
    if base is None:
        return [None] * count
    if base + count - 1 > 65535:
        raise ValueError(
            f"{METRICS_PORT_ENV}={base} leaves no room for {count} processes (ports {base} to "
            f"{base + count - 1}; the last must be at most 65535)"
        )
    return [base + index for index in range(count)]


@dataclass
class Child:
    """One worker process of the supervisor."""

    node: str
    argv: list[str]
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None
    reported: bool = False
    """Its exit was seen and dealt with."""

    @property
    def pid(self) -> int:
        return self.process.pid if self.process is not None else 0

    def exited(self) -> int | None:
        return None if self.process is None else self.process.poll()


def exit_status(returncode: int) -> int:
    """A child's ``returncode`` as a process exit status: ``128 + N`` for a death by signal N."""
    return 128 - returncode if returncode < 0 else returncode


def _death_signal() -> Callable[[], None] | None:
    """What each child runs between fork and exec: ask the kernel for SIGTERM when the supervisor
    dies, and leave at once if it already has (it may die before the request is made). Loaded in
    the supervisor: a freshly forked child should call nothing but the kernel. None without prctl."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def request() -> None:
        prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return request


def _say(text: str) -> None:
    print(f"arena worker: {text}", file=sys.stderr, flush=True)


@dataclass
class Supervisor:
    """Starts the children, forwards stop signals to them, waits, and reports (see the module)."""

    children: list[Child]
    poll_s: float = 0.2
    say: Callable[[str], None] = field(default=lambda text: _say(text))
    """Where the supervisor's own lines go (the workers log on the same stderr)."""
    stopping: bool = False
    failed: Child | None = None

    def run(self) -> int:
        previous = {sig: signal.signal(sig, self._forward) for sig in FORWARDED}
        try:
            setup = _death_signal()
            for child in self.children:
                if self.stopping:  # a stop signal came while the others were starting
                    break
                child.process = subprocess.Popen(child.argv, env=child.env, process_group=0, preexec_fn=setup)
                self.say(f"{child.node} started (pid {child.pid})")
            while self._watch():
                time.sleep(self.poll_s)
        finally:
            for child in self._alive():  # only after an error of the supervisor's own
                child.process.terminate()  # type: ignore[union-attr]  # _alive: children with a process
            for child in self.children:
                if child.process is not None:
                    child.process.wait()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return self._status()

    def _alive(self) -> list[Child]:
        return [child for child in self.children if child.process is not None and child.exited() is None]

    def _watch(self) -> bool:
        """Deal with children that exited since the last look; whether any is still running."""
        for child in self.children:
            code = child.exited()
            if code is None or child.reported:
                continue
            child.reported = True
            if self.stopping:
                self.say(f"{child.node} (pid {child.pid}) stopped, status {exit_status(code)}")
                continue
            self.failed = child
            self.stopping = True
            others = self._alive()
            self.say(
                f"{child.node} (pid {child.pid}) exited on its own, status {exit_status(code)}: "
                f"stopping the other {len(others)} (warm shutdown); the worker then exits to be restarted"
            )
            self._send(signal.SIGTERM, others)
        return bool(self._alive())

    def _forward(self, signum: int, frame: FrameType | None) -> None:
        alive = self._alive()
        name = signal.Signals(signum).name
        self.say(f"{name}: passing it to {len(alive)} worker process(es)")
        if signum in STOPPING:
            self.stopping = True
        self._send(signal.Signals(signum), alive)

    @staticmethod
    def _send(signum: signal.Signals, children: Sequence[Child]) -> None:
        for child in children:
            with contextlib.suppress(ProcessLookupError):  # it has just exited: the next look sees it
                os.kill(child.pid, signum)

    def _status(self) -> int:
        if self.failed is not None:
            code = exit_status(self.failed.exited() or 0)
            return code or 1
        codes = [exit_status(child.exited() or 0) for child in self.children if child.process is not None]
        return max(codes, default=0)
