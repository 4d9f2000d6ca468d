"""The ``arena`` command.

Subcommands: ``play`` (a whole match in-process), ``replay verify``, ``bots serve`` (every reference
bot over HTTP), and the platform's own ``serve``, ``worker`` and ``demo`` (:mod:`arena.commands`).
Bad input prints one line on stderr and exits 2; a replay that does not verify exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from arena import archive_command, ratings_cli
from arena.commands import add_commands, port_number
from arena.local_play import (
    LocalMatch,
    UsageError,
    format_result,
    load_json_file,
    parse_option,
    play,
    verify_file,
)
from arena.replay_show import add_show_command
from referee.game import SetupError
from referee.match import DEFAULT_MAX_FAULTS, TimeControl
from referee.registry import GAME_MODULES


def _play(args: argparse.Namespace) -> int:
    bots = [spec.strip() for spec in args.bots.split(",") if spec.strip()]
    if not bots:
        raise UsageError("--bots needs at least one bot")
    options = dict(parse_option(text) for text in args.option)
    setup = load_json_file(args.setup, "setup") if args.setup else None
    match = LocalMatch(
        game_id=args.game,
        variant=args.variant,
        bots=bots,
        seed=args.seed,
        options=options,
        setup=setup,
        time=TimeControl(args.move_ms, args.bank_ms),
        max_faults=args.max_faults,
        secret=args.secret,
    )
    replay = play(match)
    print(format_result(replay))
    if args.replay:
        Path(args.replay).parent.mkdir(parents=True, exist_ok=True)
        Path(args.replay).write_text(json.dumps(replay.to_json(), indent=1) + "\n")
        print(f"replay written to {args.replay}")
    return 0


def _replay_verify(args: argparse.Namespace) -> int:
    problems, replay = verify_file(args.file)
    if problems:
        for problem in problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
        return 1
    print(f"{args.file}: ok, {len(replay.get('moves', []))} moves re-played, result matches")
    return 0


def _bots_serve(args: argparse.Namespace) -> int:
    from werkzeug.serving import make_server

    from bots.server import create_app, reference_paths

    secrets = load_json_file(args.secrets, "secrets file") if args.secrets else {}
    if not isinstance(secrets, dict):
        raise UsageError('the secrets file must map "<game>/<bot>" to a secret')
    server = make_server(args.host, args.port, create_app(secrets), threaded=True)
    print(f"serving {len(reference_paths())} reference bots at http://{args.host}:{server.port}/<game>/<bot>")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena", description="Volcano Arena: a tournament platform for game bots."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play_parser = commands.add_parser(
        "play",
        help="play one match in-process and print the result",
        description="Play a whole match in-process, no server: each bot is a reference bot's name or the "
        "http(s) URL of a bot endpoint.",
    )
    play_parser.add_argument("game", choices=sorted(GAME_MODULES), help="game id")
    play_parser.add_argument("--variant", help="variant (default: the game's default)")
    play_parser.add_argument("--bots", required=True, help="comma-separated, in seat order: names or URLs")
    play_parser.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    play_parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a variant option; repeat for more",
    )
    play_parser.add_argument("--setup", metavar="FILE", help="JSON file with an explicit setup (position)")
    play_parser.add_argument("--move-ms", type=int, default=2000, help="time per move in ms (default 2000)")
    play_parser.add_argument(
        "--bank-ms", type=int, default=0, help="extra time bank per seat in ms (default 0)"
    )
    play_parser.add_argument(
        "--max-faults",
        type=int,
        default=DEFAULT_MAX_FAULTS,
        help=f"faults before a seat forfeits (default {DEFAULT_MAX_FAULTS})",
    )
    play_parser.add_argument("--secret", default="local", help="HMAC secret for URL bots (default 'local')")
    play_parser.add_argument("--replay", metavar="FILE", help="write the replay here")
    play_parser.set_defaults(func=_play)

    replay_parser = commands.add_parser("replay", help="work with replay files")
    replay_commands = replay_parser.add_subparsers(dest="replay_command", required=True, metavar="COMMAND")
    verify_parser = replay_commands.add_parser(
        "verify", help="re-play a replay through the engine; exit 1 where it does not match"
    )
    verify_parser.add_argument("file", help="replay file (JSON, or gzip of JSON)")
    verify_parser.set_defaults(func=_replay_verify)
    add_show_command(replay_commands)

    bots_parser = commands.add_parser("bots", help="reference bots")
    bots_commands = bots_parser.add_subparsers(dest="bots_command", required=True, metavar="COMMAND")
    serve_parser = bots_commands.add_parser(
        "serve", help="serve every reference bot at http://HOST:PORT/<game>/<bot> (GET / lists them)"
    )
    serve_parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve_parser.add_argument("--port", type=port_number, default=8100, help="port (default 8100)")
    serve_parser.add_argument(
        "--secrets", metavar="FILE", help='JSON mapping "<game>/<bot>" to the secret given at registration'
    )
    serve_parser.set_defaults(func=_bots_serve)

    add_commands(commands)
    archive_command.add_commands(commands)
    ratings_cli.add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (UsageError, SetupError) as error:
        print(f"arena {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
