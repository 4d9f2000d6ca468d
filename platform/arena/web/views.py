"""The page views: each reads through :mod:`arena.web.data` and renders one template.

Board frames (``/matches/<id>/board/<n>.svg``) are drawn by :mod:`arena.boards`, imported when a
frame is first asked for, so the pages work (without boards) on a platform that lacks it.
"""

from __future__ import annotations

import importlib
import json
import re
from collections import OrderedDict
from datetime import datetime
from types import ModuleType
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from arena.current import runtime
from arena.web import data, events_page

blueprint = Blueprint(
    "web",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/static/web",
)

DEFAULT_LIMIT = 50
BOT_MATCHES = 30
"""A bot page's matches per page."""
MAX_LIMIT = 200
REPLAY_CACHE_SIZE = 16
"""Replays of finished matches kept decompressed in memory, for the frames of matches being watched."""
FINISHED_FRAME_CACHE = "public, max-age=86400, immutable"
"""A finished match's frame never changes."""
HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
"""A seat colour the match page takes from the board drawing (``#rgb``, ``#rrggbb``, with alpha)."""


# -- helpers ---------------------------------------------------------------------------------


def _int_arg(name: str, default: int, low: int, high: int) -> int:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        abort(400, f"{name} must be a whole number, not {raw!r}")
    if not low <= value <= high:
        abort(400, f"{name} must be between {low} and {high}, not {value}")
    return value


def _paging() -> tuple[int, int]:
    return _int_arg("offset", 0, 0, 10**9), _int_arg("limit", DEFAULT_LIMIT, 1, MAX_LIMIT)


def _boards() -> ModuleType | None:
    try:
        return importlib.import_module("arena.boards")
    except ImportError:
        return None


def _cached_replay(match_id: str) -> dict[str, Any] | None:
    cache: OrderedDict[str, dict[str, Any]] = current_app.extensions.setdefault(
        "arena.web.replays", OrderedDict()
    )
    if match_id in cache:
        cache.move_to_end(match_id)
        return cache[match_id]
    document = data.replay_document(runtime(), match_id)
    if document is not None:
        cache[match_id] = document
        while len(cache) > REPLAY_CACHE_SIZE:
            cache.popitem(last=False)
    return document


def error_page(error: HTTPException) -> tuple[str, int]:
    return render_template("error.html", error=error), error.code or 500


# -- template filters ------------------------------------------------------------------------


@blueprint.app_template_filter("when")
def when(value: str | None) -> str:
    """An ISO time as ``2026-01-31 12:00:00 UTC``."""
    if not value:
        return "—"
    try:
        return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M:%S UTC")
    except ValueError:
        return value


@blueprint.app_template_filter("pct")
def pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


@blueprint.app_template_filter("num")
def num(value: float | None) -> str:
    if value is None:
        return "—"
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


@blueprint.app_template_filter("rating")
def rating(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


@blueprint.app_template_filter("compact")
def compact(value: Any) -> str:
    """A move or detail as short JSON."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@blueprint.app_template_filter("within_game")
def within_game(name: str, game: str) -> str:
    """A bot's name as a row of one game's match shows it: without that game's ``game/`` prefix
    (the reference bots' names carry it), so narrow columns keep the part that tells bots apart.

    >>> within_game("chess/heuristic #2", "chess"), within_game("alice", "chess")
    ('heuristic #2', 'alice')
    """
    prefix = f"{game}/"
    return name[len(prefix) :] if name.startswith(prefix) and len(name) > len(prefix) else name


# -- pages -----------------------------------------------------------------------------------


@blueprint.get("/")
def home() -> str:
    page = data.home(runtime())
    return render_template("home.html", page=page, groups=events_page.apart(page["tournaments"]))


@blueprint.get("/games")
def games() -> str:
    return render_template("games.html", games=data.games())


def _ladder(game_id: str, variant: str | None) -> str:
    game = data.game(game_id)
    if game is None:
        abort(404, f"no game with id {game_id!r}")
    offset, limit = _paging()
    ladder = data.ladder_page(runtime(), game_id, variant, offset, limit)
    if ladder is None:
        abort(404, f"{game['title']} has no variant {variant!r}")
    matchmaking = runtime().store.matchmaking.config(game_id, ladder["variant"])
    return render_template("ladder.html", game=game, ladder=ladder, matchmaking=matchmaking)


@blueprint.get("/games/<game_id>")
def game(game_id: str) -> str:
    return _ladder(game_id, request.args.get("variant"))


@blueprint.get("/games/<game_id>/rules")
def rules(game_id: str) -> str:
    """The game's rules page as the game supplies it (Markdown, shown as its text)."""
    game = data.game(game_id)
    page = data.rules(game_id)
    if game is None or page is None:
        abort(404, f"no rules page for game {game_id!r}")
    return render_template("rules.html", game=game, page=page)


@blueprint.get("/games/<game_id>/ladder")
def ladder(game_id: str) -> str:
    return _ladder(game_id, request.args.get("variant"))


@blueprint.get("/matches")
def matches() -> str:
    offset, limit = _paging()
    status = request.args.get("status") or None
    if status is not None and status not in data.STATUSES:
        abort(400, f"status must be one of {', '.join(data.STATUSES)}, not {status!r}")
    filters = {
        "game_id": request.args.get("game") or None,
        "bot_id": request.args.get("bot") or None,
        "status": status,
    }
    found = data.matches(runtime(), offset=offset, limit=limit, **filters)
    return render_template(
        "matches.html",
        found=found,
        filters=filters,
        games=data.games(),
        bots=data.bot_choices(runtime()),
        statuses=data.STATUSES,
    )


@blueprint.get("/matches/<match_id:match_id>")
def match(match_id: str) -> str:
    found = data.match(runtime(), match_id)
    if found is None:
        abort(404, f"no match with id {match_id!r}")
    live = data.live_moves(runtime(), match_id, 0) if found["status"] == "running" else None
    if live is not None:
        found["moves_list"] = live
    boards = _boards()
    show_board = boards is not None and (found["has_replay"] or live is not None)
    return render_template(
        "match.html", match=found, show_board=show_board, seat_colours=_seat_colours(boards, found)
    )


def _seat_colours(boards: ModuleType | None, found: dict[str, Any]) -> list[str] | None:
    """The colour of each seat on the game's board, so that the page marks seats alike; None (the
    page's own palette) where the game has no drawing."""
    if boards is None:
        return None
    try:
        colours: list[str] = boards.seat_colours(found["game"], len(found["seats"]))
    except LookupError:
        return None
    # they go into the page's one inline style element: hex colours only, nothing else can get in
    return colours if all(HEX_COLOUR.fullmatch(colour) for colour in colours) else None


@blueprint.get("/matches/<match_id:match_id>/live.json")
def live(match_id: str) -> Response:
    """The moves of a running match from ``start`` on (``moves`` is null while they are not kept)."""
    status = data.match_status(runtime(), match_id)
    if status is None:
        abort(404, f"no match with id {match_id!r}")
    start = _int_arg("start", 0, 0, 10**9)
    moves = data.live_moves(runtime(), match_id, start) if status == "running" else None
    return jsonify({"status": status, "start": start, "moves": moves})


@blueprint.get("/matches/<match_id:match_id>/board/<int:n>.svg")
def board(match_id: str, n: int) -> Response:
    """The board after ``n`` moves (0: the start), drawn as SVG from the replay re-played."""
    boards = _boards()
    if boards is None:
        abort(404, "board drawings are not available on this platform")
    status = data.match_status(runtime(), match_id)
    if status is None:
        abort(404, f"no match with id {match_id!r}")
    if status == "finished" or (status in ("cancelled", "aborted") and data.has_replay(runtime(), match_id)):
        document, cache, reveal = _cached_replay(match_id), FINISHED_FRAME_CACHE, True
    else:  # a match in play hides what its seats cannot see: a bot could be watching
        document, cache, reveal = data.live_document(runtime(), match_id), "no-cache", False
    if document is None or n > len(document["moves"]):
        abort(404, f"match {match_id} has no position after {n} moves")
    try:
        state = boards.position_after(document, n)
        svg = boards.render_svg(document["game"], state, reveal=reveal)
    except (LookupError, ValueError, NotImplementedError) as error:
        abort(404, f"no board drawing for this match: {error}")
    response = Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": cache})
    response.add_etag()
    response.make_conditional(request)  # in place: a 304 when the browser has this frame
    return response


@blueprint.get("/tournaments")
def tournaments() -> str:
    offset, limit = _paging()
    found = data.tournaments(runtime(), offset, limit)
    return render_template("tournaments.html", found=found, groups=events_page.apart(found["tournaments"]))


@blueprint.get("/tournaments/<tournament_id:tournament_id>")
def tournament(tournament_id: str) -> str:
    found = data.tournament(runtime(), tournament_id)
    if found is None:
        abort(404, f"no tournament with id {tournament_id!r}")
    entry = events_page.entry_info(found, request.url_root) if found["status"] == "scheduled" else None
    return render_template("tournament.html", t=found, entry=entry)


@blueprint.get("/bots")
def bots() -> str:
    offset, limit = _paging()
    game_id = request.args.get("game") or None
    if game_id is not None and data.game(game_id) is None:
        abort(400, f"no game with id {game_id!r}")
    search = (request.args.get("q") or "").strip()[:64] or None
    found = data.bots(runtime(), game_id, search, offset, limit)
    return render_template("bots.html", found=found, game_id=game_id, search=search, games=data.games())


@blueprint.get("/bots/<bot_id:bot_id>")
def bot(bot_id: str) -> str:
    offset = _int_arg("offset", 0, 0, 10**9)
    limit = _int_arg("limit", BOT_MATCHES, 1, MAX_LIMIT)
    found = data.bot(runtime(), bot_id, offset, limit)
    if found is None:
        abort(404, f"no bot with id {bot_id!r}")
    return render_template("bot.html", bot=found, entered=events_page.entered(runtime(), bot_id))
