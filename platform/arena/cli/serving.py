"""Serving a running platform's API and pages over HTTP, until Ctrl-C or SIGTERM.

The one serving loop of ``arena serve`` and ``arena demo --serve``: the caller starts the platform
(embedded or on Redis), binds the socket first (:func:`listen`, so a busy port is a usage error before
anything long runs), registers the house bots if the settings ask (:func:`register_house`), then
:func:`serve` blocks until it is stopped and returns, so that the caller closes the platform (the
embedded one writes its store to its data directory then).
"""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from arena.cli.local_play import UsageError

if TYPE_CHECKING:  # the platform loads only for the commands that serve it
    from arena.runtime import Runtime


def listen(host: str, port: int) -> socket.socket:
    """Bind the API's socket here, so a busy port is a clear message and exit 2 (werkzeug would exit 1)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None


def base_url(host: str, port: int) -> str:
    """The address to print for a server on ``host``:``port`` (an IPv6 address in brackets).

    >>> base_url("127.0.0.1", 8000), base_url("::1", 8000)
    ('http://127.0.0.1:8000', 'http://[::1]:8000')
    """
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def register_house(runtime: Runtime, wanted: bool, err: TextIO, how_to_leave_out: str) -> None:
    """Register the house bots when ``wanted`` (the settings' ``ARENA_HOUSE_BOTS``, and the command's
    own option), and say how many there are on ``err``."""
    if not wanted:
        return
    from arena.worker.house import register_house_bots

    added = len(register_house_bots(runtime.store))
    house = sum(1 for bot in runtime.store.bots.list_all() if bot.house)
    print(
        f"house bots: {house} reference bots to play against ({added} registered now; "
        f"{how_to_leave_out} leaves them out)",
        file=err,
        flush=True,
    )


def serve(runtime: Runtime, listener: socket.socket, host: str, announce: Callable[[str], None]) -> None:
    """Serve ``runtime``'s API and pages on ``listener`` until Ctrl-C or SIGTERM, then return.

    ``announce`` gets the base URL once the server is ready. SIGTERM (a service manager's stop) is
    taken as Ctrl-C while serving, when serving in the main thread (only it may handle signals)."""
    from werkzeug.serving import make_server

    from arena import metrics
    from arena.api import create_app

    with listener:
        port = listener.getsockname()[1]
        app = create_app(runtime)
        metrics.expose_api(app, runtime.settings)
        server = make_server(host, port, app, threaded=True, fd=listener.fileno())
        announce(base_url(host, server.port))
        previous = None
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            with contextlib.suppress(KeyboardInterrupt):
                server.serve_forever()
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
            server.server_close()


def _interrupt(signum: int, frame: object) -> None:
    """SIGTERM as Ctrl-C: the server stops and the caller closes the platform (its store kept)."""
    raise KeyboardInterrupt
