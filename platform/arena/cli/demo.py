"""``arena demo``: the whole platform on its embedded default, with every game's reference bots.

It starts the embedded platform (in-memory Redis, Celery worker thread), serves the reference bots
over loopback HTTP (``bots.server``), registers each through the API with a fresh secret (the bot
server knows it first: registration pings the bot), runs a round robin per game, shows progress on
stderr, prints standings and ladders (each ranked by the column it shows first after the bot), writes
every replay as JSON, and leaves the platform in a data directory (``var/demo``) that
``arena serve --data var/demo`` serves afterwards, to look at in a browser. With ``--serve`` it serves
the platform itself once the matches are played (:mod:`arena.cli.serving`, as ``arena serve`` does),
the reference bots' servers still up and the house bots registered (``ARENA_HOUSE_BOTS``), so that a
newcomer's bot has its first matches there at once; Ctrl-C stops it and the platform is left in the
data directory as without it.

Games needing more seats than they have reference bots get copies of their bots, each served by its
own bot server so that every copy keeps its own signing secret.
"""

from __future__ import annotations

import json
import logging
import math
import shutil
import socket
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from flask.testing import FlaskClient

from arena.api import create_app
from arena.cli import demo_event, serving
from arena.settings import Settings
from arena.worker.embedded import EmbeddedPlatform
from bots.registry import bots_for
from referee.game import Game
from referee.protocol import new_secret
from referee.registry import game_ids, get_game
from referee.transport.endpoints import EndpointPolicy

LOOPBACK = EndpointPolicy.from_text("127.0.0.0/8,::1/128")


class DemoError(RuntimeError):
    """The demo could not run (the CLI prints it and exits non-zero)."""


@dataclass
class GamePlan:
    game: Game[Any]
    variant: str
    seats: int
    bot_names: list[str]
    copies: int
    bot_ids: list[str] = field(default_factory=list)
    tokens: dict[str, str] = field(default_factory=dict)
    """Each bot's token, by id: the open tournament's entrants enter with their own."""
    tournament: str | None = None


@dataclass(frozen=True)
class ServeAfter:
    """Where ``arena demo --serve`` serves the demo's platform once its matches are played: a socket
    bound before they start, so that a busy port stops the demo at once rather than at its end."""

    listener: socket.socket
    host: str


@dataclass(frozen=True)
class DemoOptions:
    games: Sequence[str] = ()
    games_per_pairing: int = 2
    move_ms: int = 1000
    out: Path = Path("var/replays")
    seed: int = 1
    concurrency: int = 8
    timeout_s: float = 600.0
    data: Path | None = Path("var/demo")
    """Where the platform is left for `arena serve --data` (its previous store and replays replaced)."""
    serve: ServeAfter | None = None
    """Serve the platform there once the matches are played, until Ctrl-C (``--serve``)."""


def plan_games(wanted: Sequence[str], notes: TextIO) -> list[GamePlan]:
    """One tournament per game with reference bots: its default variant, two seats where it can."""
    unknown = sorted(set(wanted) - set(game_ids()))
    if unknown:
        raise DemoError(f"unknown game(s): {', '.join(unknown)} (games: {', '.join(game_ids())})")
    plans = []
    for game_id in wanted or game_ids():
        try:
            game = get_game(game_id)
            names = sorted(bots_for(game_id))
        except Exception as error:  # one broken game must not stop the others
            print(f"skipping {game_id}: it does not load ({type(error).__name__}: {error})", file=notes)
            continue
        if not names:
            print(f"skipping {game_id}: it has no reference bots", file=notes)
            continue
        spec = game.variant(game.default_variant)
        seats = 2 if 2 in spec.seats else min(spec.seats)
        plans.append(GamePlan(game, spec.name, seats, names, copies=max(1, math.ceil(seats / len(names)))))
    if not plans:
        raise DemoError("no game with reference bots to play")
    return plans


class _Api:
    """The demo's calls to the API, through Flask's test client (same code path as over HTTP)."""

    def __init__(self, client: FlaskClient, admin_token: str) -> None:
        self.client = client
        self.admin = {"Authorization": f"Bearer {admin_token}"}

    def call(self, method: str, url: str, expect: int, **kwargs: Any) -> Any:
        answer = self.client.open(url, method=method, **kwargs)
        if answer.status_code != expect:
            raise DemoError(f"{method} {url} answered {answer.status_code}: {answer.get_data(as_text=True)}")
        return answer.get_json() if answer.mimetype == "application/json" else answer.data


def _bar(done: int, total: int, started: float, width: int = 30) -> str:
    filled = round(width * done / total) if total else width
    elapsed = time.monotonic() - started
    return f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} matches, {elapsed:.0f}s"


def _table(rows: list[list[Any]], headers: list[str]) -> str:
    cells = [[str(h) for h in headers], *[["-" if v is None else str(v) for v in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def run_demo(options: DemoOptions, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the demo; progress goes to ``err`` (default stderr), tables to ``out`` (default stdout)."""
    out = out or sys.stdout
    err = err or sys.stderr
    from bots.server import serve_in_thread

    base_settings, generated_token = Settings.from_env().with_admin_token()
    plans = plan_games(options.games, err)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per bot request
    policy = EndpointPolicy(base_settings.policy.allowlist + LOOPBACK.allowlist)
    # the demo registers every reference bot at once, from one address, each served on one address:
    # no registration or ping limit for it
    settings = replace(
        base_settings,
        policy=policy,
        registration_limit="10000 per minute",
        ping_host_limit="10000 per minute",
    )
    servers = []
    if options.data is not None:  # a fresh platform: the previous demo's store and replays go
        (options.data / "store.json").unlink(missing_ok=True)
        shutil.rmtree(options.data / "replays", ignore_errors=True)
    with EmbeddedPlatform(settings, concurrency=options.concurrency, data=options.data) as platform:
        try:
            copies = max(plan.copies for plan in plans)
            bot_servers = []
            for _ in range(copies):
                secrets: dict[str, str] = {}
                server, base = serve_in_thread(secrets=secrets)
                servers.append(server)
                bot_servers.append((base, secrets))
            api = _Api(create_app(platform.runtime).test_client(), platform.settings.admin_token)
            _register(api, plans, bot_servers)
            _start_tournaments(api, plans, options)
            if not _wait(api, plans, options, err):
                return 1
            _report(api, plans, out)
            # a game of duels keeps the open round robin short: n bots, n (n - 1) matches
            duels = next((plan for plan in plans if plan.seats == 2), plans[0])
            if not _open_event(api, duels, options, out):
                return 1
            written = _write_replays(api, plans, options.out)
            print(f"\n{written} replays written under {options.out}/", file=out)
            if options.serve is not None:
                if generated_token:
                    print(f"this run's organizer token: {platform.settings.admin_token}", file=err)
                _serve(platform, api, plans, options.serve, out, err)
        finally:
            for server in servers:
                server.shutdown()
    if options.data is not None:
        print(
            f"The demo's platform is kept in {options.data}/: browse it with "
            f"`arena serve --data {options.data}` (then http://127.0.0.1:8000/)",
            file=out,
        )
    return 0


def _serve(
    platform: EmbeddedPlatform, api: _Api, plans: list[GamePlan], where: ServeAfter, out: TextIO, err: TextIO
) -> None:
    """Serve the demo's platform until Ctrl-C, after saying where its pages are."""
    settings = platform.settings
    serving.register_house(platform.runtime, settings.registers_house_bots, err, "ARENA_HOUSE_BOTS=0")
    tournament = _tournament(api, plans[0])
    matches = [match["id"] for match in tournament["matches"] if match["status"] == "finished"]
    match = (matches or [match["id"] for match in tournament["matches"]])[0]

    def announce(base: str) -> None:
        print(
            f"\nThe demo's platform is served at {base}/ until Ctrl-C:\n"
            f"  home:        {base}/\n"
            f"  tournament:  {base}/tournaments/{plans[0].tournament}\n"
            f"  match:       {base}/matches/{match}\n"
            f"  API:         {base}/api/v1 (docs: {base}/api/v1/docs)\n"
            "Register your own bot there to play the reference bots: endpoints on this machine "
            "(127.0.0.0/8) are allowed.",
            file=out,
            flush=True,
        )

    serving.serve(platform.runtime, where.listener, where.host, announce)


def _register(api: _Api, plans: list[GamePlan], bot_servers: list[tuple[str, dict[str, str]]]) -> None:
    for plan in plans:
        for copy in range(plan.copies):
            base, secrets = bot_servers[copy]
            for name in plan.bot_names:
                path = f"{plan.game.id}/{name}"
                label = path if copy == 0 else f"{path} #{copy + 1}"
                # the bot knows its secret before it is registered: registration pings it
                secrets[path] = secret = new_secret()
                body = {"name": label, "endpoint": f"{base}/{path}", "games": [plan.game.id]}
                body["secret"] = secret
                created = api.call("POST", "/api/v1/bots", 201, json=body)
                plan.bot_ids.append(created["id"])
                plan.tokens[created["id"]] = created["token"]


def _open_event(api: _Api, plan: GamePlan, options: DemoOptions, out: TextIO) -> bool:
    """The open tournament of :mod:`arena.cli.demo_event` on ``plan``'s game, with one more bot of
    it on a server of its own, stopped once it has entered."""
    from bots.server import serve_in_thread

    def stopped_bot() -> tuple[str, str, Callable[[], None]]:
        secrets: dict[str, str] = {}
        server, base = serve_in_thread(secrets=secrets)
        path = f"{plan.game.id}/{plan.bot_names[0]}"
        secrets[path] = secret = new_secret()
        body = {"name": f"{path} (stopped)", "endpoint": f"{base}/{path}", "games": [plan.game.id]}
        created = api.call("POST", "/api/v1/bots", 201, json={**body, "secret": secret})
        return created["id"], created["token"], server.shutdown

    ended = demo_event.run_open_event(
        api,
        plan.game.id,
        plan.variant,
        plan.seats,
        plan.tokens,
        stopped_bot,
        options.move_ms,
        options.timeout_s,
        out,
    )
    return ended is not None and ended["status"] == "finished"


def _start_tournaments(api: _Api, plans: list[GamePlan], options: DemoOptions) -> None:
    for plan in plans:
        body = {
            "name": f"{plan.game.title} demo",
            "game": plan.game.id,
            "variant": plan.variant,
            "format": "round_robin",
            "bots": plan.bot_ids,
            "seats_per_match": plan.seats,
            "games_per_pairing": options.games_per_pairing,
            "seed": options.seed,
            "time": {"move_ms": options.move_ms, "bank_ms": 0},
        }
        plan.tournament = api.call("POST", "/api/v1/tournaments", 202, json=body, headers=api.admin)["id"]


def _tournament(api: _Api, plan: GamePlan) -> dict[str, Any]:
    tournament: dict[str, Any] = api.call("GET", f"/api/v1/tournaments/{plan.tournament}", 200)
    return tournament


def _wait(api: _Api, plans: list[GamePlan], options: DemoOptions, err: TextIO) -> bool:
    started = time.monotonic()
    shown = ""
    while True:
        progress = [_tournament(api, plan)["progress"] for plan in plans]
        done, total = sum(p["done"] for p in progress), sum(p["total"] for p in progress)
        bar = _bar(done, total, started)
        if bar != shown:  # redraw only on change: a log file gets one line a second at most
            err.write(bar)
            err.flush()
            shown = bar
        if done == total:
            err.write("\n")
            return True
        if time.monotonic() - started > options.timeout_s:
            err.write(f"\nstopped waiting after {options.timeout_s:.0f}s with {total - done} matches left\n")
            return False
        time.sleep(0.2)


def _report(api: _Api, plans: list[GamePlan], out: TextIO) -> None:
    for plan in plans:
        tournament = _tournament(api, plan)
        progress = tournament["progress"]
        print(
            f"\n== {plan.game.title} ({plan.game.id} / {plan.variant}, {plan.seats} seats): "
            f"{progress['finished']} matches finished, {progress['aborted']} aborted",
            file=out,
        )
        team = any(r.get("team_wins") is not None for r in tournament["standings"])
        rows = [
            [r["rank"], r["name"], r["points"], *([r["team_wins"]] if team else []), r["wins"]]
            + [r["draws"], r["losses"], r["score_sum"]]
            for r in tournament["standings"]
        ]
        heads = ["rank", "bot", "points", *(["team wins"] if team else []), "wins", "draws", "losses"]
        print(_table(rows, [*heads, "score sum"]), file=out)
        if team:
            print("team wins: games the team won; wins: first place alone in a game the team won", file=out)
        ladder = api.call("GET", f"/api/v1/ladders/{plan.game.id}?variant={plan.variant}", 200)
        headers, rows = ladder_table(ladder)
        print(f"\nladder ({ladder['variant']}, ranked by {headers[2]}):", file=out)
        print(_table(rows, headers), file=out)


RANKED_BY = {
    "conservative": ("skill (mu - 3 sigma)", "conservative"),
    "win_rate, mean_score": ("win rate", "win_rate"),
    "team_win_rate, mean_score": ("team win rate", "team_win_rate"),
}
"""The column a ladder ranks by (its ``ranked_by``), as the demo's table heads it and its field."""


def ladder_table(ladder: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """A ladder's headers and rows, the column it ranks by just after the bot (Elo beside the skill
    of a rated ladder), so its rows read in order."""
    header, field = RANKED_BY[ladder["ranked_by"]]
    rated = field == "conservative"
    team = any(e.get("team_wins") is not None for e in ladder["entries"])
    headers = ["rank", "bot", header, *(["Elo"] if rated else []), "games", *(["team wins"] if team else [])]
    headers += ["wins", "draws", "losses"]
    headers.append("mean score")
    rows = [
        [
            e["rank"],
            e["name"],
            e[field],
            *([e["rating"]] if rated else []),
            e["games"],
            *([e["team_wins"]] if team else []),
            e["wins"],
            e["draws"],
            e["losses"],
            e["mean_score"],
        ]
        for e in ladder["entries"]
    ]
    return headers, rows


def _write_replays(api: _Api, plans: list[GamePlan], directory: Path) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    written = 0
    for plan in plans:
        tournament = _tournament(api, plan)
        for match in tournament["matches"]:
            if match["status"] != "finished":
                continue
            replay = api.call("GET", f"/api/v1/matches/{match['id']}/replay", 200)
            (directory / f"{match['id']}.json").write_text(json.dumps(replay) + "\n")
            written += 1
    return written
