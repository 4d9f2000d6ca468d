"""A benchmark's bot in its own process: the first legal move after a fixed delay, signed requests.

``python -m bench.instant_bot PORT DELAY_MS SECRET``; served by the bot SDK's keep-alive server
(:func:`bots.sdk.make_bot_server`) on gevent, so that hundreds of kept connections wait at once
without an OS thread each (gevent's own WSGI server writes an answer's head and body apart, and the
second write waits on the first one's acknowledgement: tens of milliseconds an answer on loopback).
Not a benchmark itself.
"""

from __future__ import annotations

import sys


def main(port: int, delay_ms: float, secret: str) -> None:
    from gevent import monkey

    monkey.patch_all()  # only when run: importing this module patches nothing
    import time

    from bots.sdk import create_bot_app, make_bot_server

    def choose(request: dict) -> dict:
        if delay_ms:
            time.sleep(delay_ms / 1000.0)
        return request["legal_moves"][0]

    make_bot_server(create_bot_app(choose, secret=secret), "127.0.0.1", port).serve_forever()


if __name__ == "__main__":
    main(int(sys.argv[1]), float(sys.argv[2]), sys.argv[3])
