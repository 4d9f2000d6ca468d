"""A benchmark's bot in its own process: the first legal move after a fixed delay, signed requests.

``python -m bench.instant_bot PORT DELAY_MS SECRET``; served by gevent's WSGI server so that hundreds
of keep-alive connections wait at once without a thread each. Not a benchmark itself.
"""

from __future__ import annotations

import sys


def main(port: int, delay_ms: float, secret: str) -> None:
    from gevent import monkey

    monkey.patch_all()  # only when run: importing this module patches nothing
    import time

    from gevent.pywsgi import WSGIServer

    from bots.sdk import create_bot_app

    def choose(request: dict) -> dict:
        if delay_ms:
            time.sleep(delay_ms / 1000.0)
        return request["legal_moves"][0]

    WSGIServer(("127.0.0.1", port), create_bot_app(choose, secret=secret), log=None).serve_forever()


if __name__ == "__main__":
    main(int(sys.argv[1]), float(sys.argv[2]), sys.argv[3])
