"""``arena demo`` on the Nim test game alone, with one reference bot: the demo the CLI tests run in a
process of its own (``--serve`` is stopped there with a signal, as a person stops it with Ctrl-C).

Run as ``python -m tests.platform.nim_demo DEMO-ARGS`` from the repository root. The test game and
its bot are registered in this process only, as the ``nim_reference_bots`` fixture does in the tests'.
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    from arena.cli import demo
    from arena.cli.main import main as arena_main
    from bots import server
    from bots.base import BotFactory, RandomBot
    from referee import registry

    registry.EXTRA["nim"] = "tests.referee.toy_game"

    def bots_for(game_id: str) -> dict[str, BotFactory]:
        return {"random": RandomBot} if game_id == "nim" else {}

    demo.bots_for = bots_for
    server.bots_for = bots_for
    return arena_main(["demo", "--game", "nim", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
