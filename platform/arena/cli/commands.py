"""The platform's subcommands of ``arena``: ``serve``, ``worker`` and ``demo``.

``arena.cli.main`` calls :func:`add_commands`; each subcommand's ``func(args)`` returns the exit code.
Bad input raises :class:`arena.cli.local_play.UsageError`, which the CLI prints before exiting 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from arena.cli import serving
from arena.cli.local_play import UsageError
from arena.settings import Settings, SettingsError

T = TypeVar("T")


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


def _secrets_checked(start: Callable[[], T]) -> T:
    """What ``start`` returns, a store with bots' secrets it cannot open (``ARENA_SECRETS_KEY`` unset
    or another) being a usage error: the message says which bot and what to set."""
    from arena.storage.secret_box import SecretsKeyError

    try:
        return start()
    except SecretsKeyError as error:
        raise UsageError(str(error)) from None


def _serve(args: argparse.Namespace) -> int:
    settings, generated = _settings().with_admin_token()
    if generated:
        print(
            f"ARENA_ADMIN_TOKEN is not set; this run's organizer token: {settings.admin_token}",
            file=sys.stderr,
        )
    embedded = None
    if settings.embedded:
        from arena.worker.embedded import EmbeddedPlatform

        data = Path(args.data) if args.data else None
        embedded = _secrets_checked(lambda: EmbeddedPlatform(settings, data=data))
        runtime = embedded.runtime
        kept = f"kept in {data}/ when it stops" if data else "in memory"
        where = f"embedded: store {kept}, match worker in this process (set REDIS_URL for a deployment)"
    else:
        if args.data:
            raise UsageError("--data is for the embedded default: with REDIS_URL, Redis keeps the data")
        from redis.exceptions import RedisError

        from arena.worker.celery_app import redis_runtime

        runtime = _secrets_checked(lambda: redis_runtime(settings))
        try:
            runtime.store.ping()
        except RedisError as error:
            raise UsageError(f"cannot reach Redis at {settings.redis_url}: {error}") from None
        where = (
            f"store and queue on {(settings.redis_url or '').split('@')[-1]}; run workers with `arena worker`"
        )
    try:
        listener = serving.listen(args.host, args.port)
        wanted = settings.registers_house_bots and args.house_bots
        serving.register_house(runtime, wanted, sys.stderr, "--no-house-bots or ARENA_HOUSE_BOTS=0")

        def announce(base: str) -> None:
            print(f"Volcano Arena API at {base}/api/v1 (docs: /api/v1/docs); {where}", flush=True)

        serving.serve(runtime, listener, args.host, announce)
    finally:
        if embedded is not None:
            embedded.close()
    return 0


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
    from arena.worker.celery_app import make_celery, runtime_of

    concurrency = args.concurrency or settings.worker_concurrency
    app = make_celery(replace(settings, worker_pool=pool, worker_concurrency=concurrency))
    _secrets_checked(lambda: runtime_of(app))  # a wrong ARENA_SECRETS_KEY stops the worker here
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
    from arena.cli.demo import DemoError, DemoOptions, ServeAfter, run_demo

    if not args.serve and (args.host is not None or args.port is not None):
        raise UsageError("--host and --port are where --serve serves the demo's platform: add --serve")
    serve = None
    if args.serve:  # bound now: a busy port stops the demo before its matches, not after
        host = args.host or "127.0.0.1"
        serve = ServeAfter(serving.listen(host, 8000 if args.port is None else args.port), host)
    options = DemoOptions(
        games=args.game,
        games_per_pairing=args.games,
        move_ms=args.move_ms,
        out=Path(args.out),
        seed=args.seed,
        concurrency=args.concurrency,
        timeout_s=args.timeout,
        data=Path(args.data),
        serve=serve,
    )
    try:
        return run_demo(options)
    except (DemoError, SettingsError) as error:
        raise UsageError(str(error)) from None
    finally:
        if serve is not None:
            serve.listener.close()


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``serve``, ``worker`` and ``demo`` on the ``arena`` parser's subcommands."""
    serve = commands.add_parser(
        "serve",
        help="run the REST API (embedded store and worker unless REDIS_URL is set)",
        description="Serve the API under /api/v1. Without REDIS_URL the platform runs on its embedded "
        "default: an in-memory store (kept in a directory with --data) and a match worker in this "
        "process. With REDIS_URL it uses that Redis, and matches are played by `arena worker` processes. "
        "Every game's reference bots are registered as house bots (opponents for a new bot, played "
        "in-process) when ARENA_HOUSE_BOTS says so: by default on the embedded default, not with "
        "REDIS_URL. Ctrl-C or SIGTERM stops it (exit 0).",
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
        help="do not register every game's reference bots as house bots (opponents for a new bot, "
        "played in-process), whatever ARENA_HOUSE_BOTS says",
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
        "write every replay, and leave the platform in --data to browse with `arena serve --data`. "
        "With --serve, serve the platform's API and pages right away instead of exiting, the reference "
        "bots still up and every game's reference bots registered as house bots (ARENA_HOUSE_BOTS=0 "
        "leaves them out), and print the address of its pages; Ctrl-C stops it, the platform left in "
        "--data as without --serve.",
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
    demo.add_argument(
        "--serve",
        action="store_true",
        help="once the matches are played, keep the platform up serving its API and pages (on the "
        "demo's data) until Ctrl-C, and print their address",
    )
    demo.add_argument("--host", default=None, help="with --serve: address to listen on (default 127.0.0.1)")
    demo.add_argument(
        "--port",
        type=port_number,
        default=None,
        help="with --serve: port (default 8000; 0 picks a free one)",
    )
    demo.set_defaults(func=_demo)
