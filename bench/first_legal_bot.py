"""A bot that plays the first legal move, served by the bot SDK in a process of its own.

``bench/bench_runner.py`` starts it so that the bot does not share the referee's interpreter (and
its GIL): what the benchmark times on the referee's side is then the referee's own work. It checks
every request's signature, as a registered bot does. It prints its base URL on one line of stdout,
then serves until its stdin is closed (the benchmark closes it, or dies and the pipe closes).

    python bench/first_legal_bot.py --secret SECRET
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bots.sdk import create_bot_app, serve_app_in_thread


def first_legal(request: dict[str, Any]) -> dict[str, Any]:
    return request["legal_moves"][0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--secret", required=True, help="the secret requests are signed with")
    parser.add_argument("--port", type=int, default=0, help="0 (the default) picks a free port")
    args = parser.parse_args()
    server, base_url = serve_app_in_thread(create_bot_app(first_legal, secret=args.secret), port=args.port)
    print(base_url, flush=True)
    try:
        sys.stdin.read()  # returns when the benchmark closes the pipe
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
