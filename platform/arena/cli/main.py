"""The ``arena`` command.

Subcommands: ``play`` (whole matches in-process, with wins, draws, losses and win rates per bot
and per seat, and each bot's first fault),
``replay verify``, ``bots serve`` (every reference bot over HTTP), ``bots new-secret`` (a signing
secret to register a bot with), and the platform's own ``serve``,
``worker`` and ``demo`` (:mod:`arena.cli.commands`). Bad input prints one line on stderr and exits 2; a
replay that does not verify exits 1; faults of the bots in ``play`` are results, exit 0.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from arena.cli import archive_command, organizers_command, ratings_command
from arena.cli.commands import add_commands, port_number
from arena.cli.local_play import (
    BOT_NAMES_IN_FILES,
    DEFAULT_SECRET,
    LocalMatch,
    UsageError,
    format_faults,
    format_result,
    format_summary,
    load_json_file,
    parse_option,
    play_games,
    verify_file,
)
from arena.cli.replay_show import add_show_command
from referee.game import SetupError
from referee.match import DEFAULT_MAX_FAULTS, TimeControl
from referee.protocol import PROTOCOL_VERSION, PROTOCOL_VERSIONS, new_secret
from referee.registry import GameLoadError, game_ids
from referee.replay import Replay


class _Progress:
    """Games played, on stderr: a bar redrawn in place on a terminal, a plain line per game
    otherwise (a log or a pipe keeps something readable)."""

    def __init__(self, games: int, stream: TextIO) -> None:
        self.games = games
        self.stream = stream
        self.live = stream.isatty()
        self.done = 0
        self.moves = 0

    def move(self, index: int, _move: object) -> None:
        self.moves += 1
        if self.live and self.moves % 25 == 0:
            self._draw(f"game {index + 1}, move {self.moves}")

    def game(self, index: int, replay: Replay) -> None:
        self.done = index + 1
        self.moves = 0
        if self.live:
            self._draw("")
            if self.done == self.games:
                self.stream.write("\n")
        else:
            faults = sum(seat.fault_count for seat in replay.seats)
            self.stream.write(
                f"game {self.done}/{self.games}: seed {replay.spec.seed}, {len(replay.moves)} moves, "
                f"{faults} faults\n"
            )
        self.stream.flush()

    def _draw(self, note: str) -> None:
        width = 30
        filled = width * self.done // self.games
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r[{bar}] {self.done}/{self.games} games  {note:<24}")
        self.stream.flush()


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
        protocol=args.protocol,
        rotate=args.rotate,
    )
    progress = _Progress(args.games, sys.stderr)
    replays = play_games(match, args.games, on_move=progress.move, on_game=progress.game)
    if len(replays) == 1:
        print(format_result(replays[0]))
    else:
        print(format_summary(match, replays))
    faults = format_faults(match, replays)
    print(faults or "no faults")
    if args.replay:
        for path, replay in zip(_replay_paths(Path(args.replay), len(replays)), replays, strict=True):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(replay.to_json(), indent=1) + "\n")
        written = args.replay if len(replays) == 1 else f"{_replay_paths(Path(args.replay), 1)[0]} ..."
        print(f"replay written to {written}")
    return 0


def _replay_paths(path: Path, games: int) -> list[Path]:
    """One game: the path as given; several: ``out-1.json``, ``out-2.json``..."""
    if games == 1:
        return [path]
    return [path.with_name(f"{path.stem}-{index}{path.suffix}") for index in range(1, games + 1)]


def _replay_verify(args: argparse.Namespace) -> int:
    problems, replay = verify_file(args.file)
    if problems:
        for problem in problems:
            print(f"{args.file}: {problem}", file=sys.stderr)
        return 1
    print(f"{args.file}: ok, {len(replay.get('moves', []))} moves re-played, result matches")
    return 0


def _bots_serve(args: argparse.Namespace) -> int:
    from bots.sdk import make_bot_server
    from bots.server import create_app, reference_paths

    secrets = load_json_file(args.secrets, "secrets file") if args.secrets else {}
    if not isinstance(secrets, dict):
        raise UsageError('the secrets file must map "<game>/<bot>" to a secret')
    app = create_app(secrets, args.protocol)
    server = make_bot_server(app, args.host, args.port)  # keep-alive, a thread a connection
    version = f" in protocol {args.protocol}" if args.protocol != PROTOCOL_VERSION else ""
    print(
        f"serving {len(reference_paths())} reference bots{version} at "
        f"http://{args.host}:{server.port}/<game>/<bot>"
    )
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


def _bots_new_secret(args: argparse.Namespace) -> int:
    print(new_secret())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="arena", description="Volcano Arena: a tournament platform for game bots."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play_parser = commands.add_parser(
        "play",
        help="play matches in-process and print the results and each bot's first fault",
        description="Play whole matches in-process, no server. Each bot is an http(s) URL (requests "
        f"signed with --secret, default {DEFAULT_SECRET!r}), a reference bot's name, path/to/file.py "
        f"(defining {' or '.join(BOT_NAMES_IN_FILES)}: a Bot class or factory, called with a seed, whose "
        "objects have choose(request); or a choose(request) function returning one of legal_moves) or "
        "module:function (a choose function, or a bot class). Faults are results: the exit status is "
        "0 when the games ran, and each faulty seat's first fault is printed with a hint.",
    )
    play_parser.add_argument("game", choices=game_ids(), help="game id")
    play_parser.add_argument("--variant", help="variant (default: the game's default)")
    play_parser.add_argument(
        "--bots",
        required=True,
        help="comma-separated, in seat order: URLs, reference bot names, file.py or module:function",
    )
    play_parser.add_argument(
        "--seed", type=int, default=0, help="seed of the first game; the others' derive from it (default 0)"
    )
    play_parser.add_argument(
        "--games",
        type=int,
        default=1,
        help="games to play (default 1); several print each bot's wins, draws (a shared first place) and "
        "losses, its win rate (a draw counting half) with its 95%% Wilson interval, and the same per seat",
    )
    play_parser.add_argument(
        "--no-rotate",
        dest="rotate",
        action="store_false",
        help="keep the bots in the seats given in every game (by default game i seats them rotated by "
        "i, so that each bot holds each seat in turn and seat advantage evens out)",
    )
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
    play_parser.add_argument(
        "--secret",
        default=DEFAULT_SECRET,
        help=f"the secret URL bots' requests are signed with (X-Arena-Signature); the bot must verify "
        f"with the same one (default {DEFAULT_SECRET!r})",
    )
    play_parser.add_argument(
        "--protocol",
        type=int,
        choices=PROTOCOL_VERSIONS,
        default=PROTOCOL_VERSION,
        help="the bot protocol version URL bots are spoken to: 1 (move requests carry legal_moves) or 2 "
        "(they do not: the bot rebuilds them from the observation, see docs/protocol.md); in-process "
        f"bots always get legal_moves (default {PROTOCOL_VERSION})",
    )
    play_parser.add_argument(
        "--replay", metavar="FILE", help="write the replay here (several games: FILE-1.json, FILE-2.json...)"
    )
    play_parser.set_defaults(func=_play)

    replay_parser = commands.add_parser("replay", help="work with replay files")
    replay_commands = replay_parser.add_subparsers(dest="replay_command", required=True, metavar="COMMAND")
    verify_parser = replay_commands.add_parser(
        "verify", help="re-play a replay through the engine; exit 1 where it does not match"
    )
    verify_parser.add_argument("file", help="replay file (JSON, or gzip of JSON)")
    verify_parser.set_defaults(func=_replay_verify)
    add_show_command(replay_commands)

    bots_parser = commands.add_parser("bots", help="reference bots, signing secrets")
    bots_commands = bots_parser.add_subparsers(dest="bots_command", required=True, metavar="COMMAND")
    serve_parser = bots_commands.add_parser(
        "serve", help="serve every reference bot at http://HOST:PORT/<game>/<bot> (GET / lists them)"
    )
    serve_parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve_parser.add_argument("--port", type=port_number, default=8100, help="port (default 8100)")
    serve_parser.add_argument(
        "--secrets",
        metavar="FILE",
        help='JSON mapping "<game>/<bot>" to the secret each bot is (to be) registered with; '
        "a bot without one accepts unsigned requests",
    )
    serve_parser.add_argument(
        "--protocol",
        type=int,
        choices=PROTOCOL_VERSIONS,
        default=PROTOCOL_VERSION,
        help="the bot protocol version the bots are registered with: 2 rebuilds each move request's "
        "legal moves from its observation and still takes version 1 requests; 1 refuses version 2 "
        f"requests (default {PROTOCOL_VERSION})",
    )
    serve_parser.set_defaults(func=_bots_serve)
    secret_parser = bots_commands.add_parser(
        "new-secret",
        help="print a fresh signing secret to start a bot with and register it with",
        description="Print a fresh signing secret (256 random bits, 64 hex digits). Start the bot with "
        "it, then send it as `secret` in POST /api/v1/bots (or POST /api/v1/bots/<id>/secret): the "
        "platform pings the bot signed with it before it accepts it.",
    )
    secret_parser.set_defaults(func=_bots_new_secret)

    add_commands(commands)
    archive_command.add_commands(commands)
    organizers_command.add_commands(commands)
    ratings_command.add_commands(commands)
    return parser


def _escape_what_cannot_be_printed() -> None:
    """Text the output's encoding cannot carry (a lone surrogate in a replay's bot name, stored before
    names were checked) is printed as its escape (``\\ud800``) instead of ending in a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    _escape_what_cannot_be_printed()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (
        UsageError,
        SetupError,
        GameLoadError,
    ) as error:  # a game that does not load: said, not a traceback
        print(f"arena {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
