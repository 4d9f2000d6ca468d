"""The platform's subcommands of ``arena``: ``serve``, ``worker`` and ``demo``.

``arena.cli.main`` calls :func:`add_commands`; each subcommand's ``func(args)`` returns the exit code.
Bad input raises :class:`arena.cli.local_play.UsageError`, which the CLI prints before exiting 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from flask import Flask

from arena.cli.local_play import UsageError
from arena.settings import Settings, SettingsError


def port_number(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535.

    >>> port_number("8000"), port_number("0")
    (8000, 0)
    """
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535, not {port}")
    return port


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: an integer no smaller than ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value

    return parse


def _settings() -> Settings:
    try:
        return Settings.from_env()
    except SettingsError as error:
        raise UsageError(str(error)) from None


def _listen(host: str, port: int) -> socket.socket:
    """Bind the API's socket here, so a busy port is a clear message and exit 2 (werkzeug would exit 1)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def _serve(args: argparse.Namespace) -> int:
    from werkzeug.serving import make_server

    from arena.api import create_app

    settings, generated = _settings().with_admin_token()
    if generated:
        print(
            f"ARENA_ADMIN_TOKEN is not set; this run's organizer token: {settings.admin_token}",
            file=sys.stderr,
        )
    embedded = None
    if settings.embedded:
        from arena.worker.embedded import EmbeddedPlatform
        from arena.worker.house import register_house_bots

        data = Path(args.data) if args.data else None
        embedded = EmbeddedPlatform(settings, data=data)
        runtime = embedded.runtime
        kept = f"kept in {data}/ when it stops" if data else "in memory"
        where = f"embedded: store {kept}, match worker in this process (set REDIS_URL for a deployment)"
        if args.house_bots:
            added = len(register_house_bots(runtime.store))
            house = sum(1 for bot in runtime.store.list_bots() if bot.house)
            print(
                f"house bots: {house} reference bots to play against ({added} registered now; "
                "--no-house-bots leaves them out)",
                file=sys.stderr,
            )
    else:
        if args.data:
            raise UsageError("--data is for the embedded default: with REDIS_URL, Redis keeps the data")
        from redis.exceptions import RedisError

        from arena.worker.celery_app import redis_runtime

        runtime = redis_runtime(settings)
        try:
            runtime.store.ping()
        except RedisError as error:
            raise UsageError(f"cannot reach Redis at {settings.redis_url}: {error}") from None
        where = (
            f"store and queue on {(settings.redis_url or '').split('@')[-1]}; run workers with `arena worker`"
        )
    try:
        listener = _listen(args.host, args.port)
        port = listener.getsockname()[1]
        app = create_app(runtime)
        _expose_metrics(app, settings)
        server = make_server(args.host, port, app, threaded=True, fd=listener.fileno())
        print(f"Volcano Arena API at http://{args.host}:{server.port}/api/v1 (docs: /api/v1/docs); {where}")
        if embedded is not None:  # a service manager's stop, like Ctrl-C, lets the store be kept
            signal.signal(signal.SIGTERM, _interrupt)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
    finally:
        if embedded is not None:
            embedded.close()
    return 0


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM as Ctrl-C: the embedded platform stops its worker and, with --data, writes its store."""
    raise KeyboardInterrupt


def _expose_metrics(app: Flask, settings: Settings) -> None:
    """``/metrics``: the in-process worker's counts when embedded, the queue's depth on Redis; only
    with ``ARENA_METRICS_TOKEN`` set, and only to requests bearing it."""
    from redis import Redis

    from arena import metrics

    if settings.embedded:
        metrics.expose(app, token=settings.metrics_token)
    else:
        probe = Redis.from_url(settings.redis_url or "", socket_timeout=2, socket_connect_timeout=2)
        metrics.expose(app, metrics.api_registry(probe, [settings.queue]), token=settings.metrics_token)


worker_entry: str | None = None
"""The module each process of a worker with ``--processes`` above 1 runs, as ``python -m MODULE
ARGS`` (it must run ``arena worker ARGS``); None: :mod:`arena.cli.gevent_worker` on gevent, ``arena.cli.main
worker`` on threads. The integration tests' worker sets its own, which registers their test games."""


def _processes(text: str) -> int:
    """An argparse type: a number of worker processes, or ``auto``."""
    from arena.cores import parse_processes

    try:
        return parse_processes(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _worker(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings.embedded:
        raise UsageError("arena worker needs REDIS_URL (without it, `arena serve` runs its own worker)")
    pool = args.pool or settings.worker_pool
    processes = args.processes or settings.worker_processes
    if processes > 1:
        return _supervise(args, pool, processes)
    if pool == "gevent" and not _gevent_patched():
        return _exec_on_gevent(args)
    from arena import metrics
    from arena.worker.celery_app import make_celery

    concurrency = args.concurrency or settings.worker_concurrency
    app = make_celery(replace(settings, worker_pool=pool, worker_concurrency=concurrency))
    try:
        metrics.start_worker_metrics()
    except SettingsError as error:
        raise UsageError(str(error)) from None
    app.worker_main(
        [
            "worker",
            f"--pool={pool}",
            f"--concurrency={concurrency}",
            f"--queues={settings.queue}",
            f"--loglevel={args.loglevel}",
            "--without-gossip",
            "--without-mingle",
            *([f"--hostname={args.hostname}"] if args.hostname else []),
        ]
    )
    return 0


def _supervise(args: argparse.Namespace, pool: str, count: int) -> int:
    """Run ``count`` worker processes under :class:`arena.worker.processes.Supervisor`; its exit code."""
    from arena.metrics import metrics_port
    from arena.worker.processes import (
        METRICS_PORT_ENV,
        Child,
        Supervisor,
        expand_host,
        metrics_ports,
        node_names,
    )

    if pool == "gevent":
        _gevent_patched()  # a missing gevent is this process's usage error, not N children's
    try:
        ports = metrics_ports(metrics_port(os.environ), count)
    except (SettingsError, ValueError) as error:
        raise UsageError(str(error)) from None
    entry = worker_entry or ("arena.cli.gevent_worker" if pool == "gevent" else None)
    command = [sys.executable, "-m", entry] if entry else [sys.executable, "-m", "arena.cli.main", "worker"]
    children = []
    nodes = [expand_host(node) for node in node_names(count, args.hostname)]
    for node, port in zip(nodes, ports, strict=True):
        argv = [f"--pool={pool}", f"--loglevel={args.loglevel}", "--processes=1", f"--hostname={node}"]
        if args.concurrency:
            argv.append(f"--concurrency={args.concurrency}")
        env = dict(os.environ)
        if port is not None:
            env[METRICS_PORT_ENV] = str(port)
        children.append(Child(node, [*command, *argv], env))
    print(
        f"arena worker: {count} worker processes on {pool} ({', '.join(child.node for child in children)}), "
        "each with its own --concurrency",
        file=sys.stderr,
        flush=True,
    )
    return Supervisor(children).run()


def _gevent_patched() -> bool:
    try:
        from gevent import monkey
    except ImportError:
        raise UsageError("--pool gevent needs the gevent package (pip install gevent)") from None
    return bool(monkey.is_module_patched("socket"))


def _exec_on_gevent(args: argparse.Namespace) -> int:
    """Run this worker again in a fresh interpreter that gevent patches before anything loads."""
    argv = ["--pool=gevent", f"--loglevel={args.loglevel}", "--processes=1"]
    if args.concurrency:
        argv.append(f"--concurrency={args.concurrency}")
    if args.hostname:
        argv.append(f"--hostname={args.hostname}")
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-m", "arena.cli.gevent_worker", *argv])
    return 0  # not reached: execv replaces this process


def _demo(args: argparse.Namespace) -> int:
    from arena.cli.demo import DemoError, DemoOptions, run_demo

    options = DemoOptions(
        games=args.game,
        games_per_pairing=args.games,
        move_ms=args.move_ms,
        out=Path(args.out),
        seed=args.seed,
        concurrency=args.concurrency,
        timeout_s=args.timeout,
        data=Path(args.data),
    )
    try:
        return run_demo(options)
    except DemoError as error:
        raise UsageError(str(error)) from None


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``serve``, ``worker`` and ``demo`` on the ``arena`` parser's subcommands."""
    serve = commands.add_parser(
        "serve",
        help="run the REST API (embedded store and worker unless REDIS_URL is set)",
        description="Serve the API under /api/v1. Without REDIS_URL the platform runs on its embedded "
        "default: an in-memory store (kept in a directory with --data) and a match worker in this "
        "process, with every game's reference bots registered as house bots. With REDIS_URL it uses "
        "that Redis, and matches are played by `arena worker` processes.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument(
        "--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)"
    )
    serve.add_argument(
        "--data",
        default=None,
        metavar="DIR",
        help="embedded default only: read the store from DIR when starting and write it there when "
        "stopping, replays in DIR/replays (`arena demo` leaves its platform in var/demo)",
    )
    serve.add_argument(
        "--no-house-bots",
        dest="house_bots",
        action="store_false",
        help="embedded default only: do not register every game's reference bots as house bots "
        "(opponents for a new bot, played in-process)",
    )
    serve.set_defaults(func=_serve)

    worker = commands.add_parser(
        "worker",
        help="play queued matches (Celery worker processes on REDIS_URL)",
        description="A Celery worker on REDIS_URL (the same as `celery -A arena.worker.celery_app worker`, "
        "plus the metrics server): on gevent's event loop by default, so one process plays hundreds of "
        "matches at once on one core. With --processes N above 1, this process starts N such worker "
        "processes (node names arena-1@%h ... arena-N@%h, metrics on ARENA_METRICS_PORT + i - 1), "
        "passes SIGTERM, SIGINT and SIGQUIT on to them (SIGTERM: running matches end first), and exits "
        "non-zero, stopping the others, when one of them exits on its own (restart the whole worker "
        "from the container or systemd). With 1, it is that single worker process itself, as before.",
    )
    worker.add_argument(
        "--processes",
        type=_processes,
        default=None,
        help="worker processes, one per core used (default ARENA_WORKER_PROCESSES or 1; auto: one per "
        "core this process may use, within a container's CPU quota)",
    )
    worker.add_argument(
        "--concurrency",
        type=_at_least(1),
        default=None,
        help="matches at once in each worker process, so N processes play N times as many (default "
        "ARENA_WORKER_CONCURRENCY, or 500 on gevent and 16 on threads)",
    )
    worker.add_argument(
        "--pool",
        choices=("threads", "gevent"),
        default=None,
        help="threads (a thread per match) or gevent (an event loop: hundreds of matches at once); "
        "default ARENA_WORKER_POOL or gevent",
    )
    worker.add_argument(
        "--hostname",
        default=None,
        help="the Celery node name (default celery@%%h, Celery's; with --processes N above 1, "
        "arena@%%h, and process i is arena-i@%%h: NAME-i@HOST of the name given)",
    )
    worker.add_argument("--loglevel", default="INFO", help="log level (default INFO)")
    worker.set_defaults(func=_worker)

    demo = commands.add_parser(
        "demo",
        help="run a tournament per game between the reference bots, in-process",
        description="Start the platform on its embedded default, serve the reference bots over loopback "
        "HTTP, register them through the API, run a round robin per game, print standings and ladders, "
        "write every replay, and leave the platform in --data to browse with `arena serve --data`.",
    )
    demo.add_argument("--game", action="append", default=[], help="only this game (repeat for more)")
    demo.add_argument("--games", type=_at_least(1), default=2, help="games per pairing (default 2)")
    demo.add_argument("--move-ms", type=_at_least(1), default=1000, help="time per move in ms (default 1000)")
    demo.add_argument("--out", default="var/replays", help="directory for replays (default var/replays)")
    demo.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    demo.add_argument(
        "--concurrency", type=_at_least(1), default=8, help="matches played at once (default 8)"
    )
    demo.add_argument(
        "--timeout", type=float, default=600.0, help="give up after this many seconds (default 600)"
    )
    demo.add_argument(
        "--data",
        default="var/demo",
        metavar="DIR",
        help="where the demo's platform is left to browse with `arena serve --data DIR` (default "
        "var/demo; its previous contents are replaced)",
    )
    demo.set_defaults(func=_demo)
