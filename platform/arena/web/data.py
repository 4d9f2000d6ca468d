"""Everything the web pages read, as plain dicts: the only module of :mod:`arena.web` that touches
the store or the runtime.

The pages show the same data as the JSON API, so where the API has a function that builds a view
(``bot_accounts.view``, ``match_requests.MatchView``, ``tournament_requests.view``,
``ladder.page``) it is used here too. Each function returns None for a thing that does not
exist; the views turn that into a 404 page.

Filtering matches (by game, bot, status) reads the newest :data:`SCAN_LIMIT` matches and filters
them here; a bot's page pages through all its matches with the store's list of them by bot.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from arena.accounts import bot_accounts
from arena.ladders import ladder
from arena.ladders.rows import display_row
from arena.matches import match_requests
from arena.matches.moves import with_words
from arena.records import MatchRecord, MatchStatus, TournamentRecord
from arena.runtime import Runtime
from arena.tournaments import tournament_requests
from arena.tournaments.knockout import MAX_POD_REPLAYS
from arena.tournaments.rounds import is_team
from arena.web import charts, tournament_page
from referee.game import Game, SetupError
from referee.match import MatchSpec
from referee.registry import game_ids, get_game
from referee.replay import decompress

SCAN_LIMIT = 2000
"""How many of the newest matches a filtered list or a bot's page looks through."""
STATUSES = ("queued", "running", "finished", "aborted", "cancelled")


def _game(game_id: str) -> Game[Any] | None:
    try:
        return get_game(game_id)
    except Exception:  # an unknown id, or a game that fails to load: both are "no such game" here
        return None


def game_title(game_id: str) -> str:
    found = _game(game_id)
    return found.title if found is not None else game_id


def games() -> list[dict[str, Any]]:
    """Every game that loads, with its variants (as ``GET /api/v1/games``)."""
    found = (_game(game_id) for game_id in game_ids())
    return [game.to_json() for game in found if game is not None]


def game(game_id: str) -> dict[str, Any] | None:
    """The game's facts (as ``GET /api/v1/games/<id>``) and whether it supplies a rules page and
    JSON Schemas, for the page to link them."""
    found = _game(game_id)
    if found is None:
        return None
    return {
        **found.to_json(),
        "has_rules": found.rules() is not None,
        "has_schemas": found.schema() is not None,
    }


def rules(game_id: str) -> str | None:
    """The game's rules page (Markdown), None for an unknown game or one without a page."""
    found = _game(game_id)
    return found.rules() if found is not None else None


def ladder_page(
    runtime: Runtime, game_id: str, variant: str | None, offset: int, limit: int
) -> dict[str, Any] | None:
    """One page of a ladder (None for an unknown game or variant), as ``GET /api/v1/ladders``."""
    found = _game(game_id)
    if found is None:
        return None
    variant = variant or found.default_variant
    try:
        spec = found.variant(variant)
    except SetupError:
        return None
    return ladder.page(runtime.store, game_id, variant, spec, offset, limit)


# -- matches ---------------------------------------------------------------------------------


def _summary(match: MatchRecord, moves_now: int | None, spec: MatchSpec | None = None) -> dict[str, Any]:
    """A match as lists show it: the API's view plus places and scores beside each seat."""
    view = match_requests.MatchView(match, spec, moves_now).to_json()
    result = view.get("result") or {}
    places = result.get("places") or []
    scores = result.get("scores") or []
    view["game_title"] = game_title(view["game"])
    view["seats"] = [
        {
            **seat,
            "place": places[index] if index < len(places) else None,
            "score": scores[index] if index < len(scores) else None,
        }
        for index, seat in enumerate(view["seats"])
    ]
    # one meaning of win everywhere: a team game the team lost has no winner (its seats share
    # every place), a won one names the team's result beside its seats' own places
    team_won = result.get("team_won")
    for seat in view["seats"]:
        seat["winner"] = seat["place"] == 1 and team_won is not False
        if team_won is False:
            seat["place"] = None
    view["team_outcome"] = None if team_won is None else "team won" if team_won else "team lost"
    view["winners"] = [seat for seat in view["seats"] if seat["winner"]]
    return view


def _summaries(runtime: Runtime, matches: list[MatchRecord]) -> list[dict[str, Any]]:
    progress = runtime.store.progress.played([m.id for m in matches if m.status is MatchStatus.RUNNING])
    specs = runtime.store.matches.specs([m.id for m in matches])
    return [_summary(m, progress.get(m.id), specs.get(m.id)) for m in matches]


def _recent(runtime: Runtime, limit: int) -> list[MatchRecord]:
    return runtime.store.matches.get_many(runtime.store.matches.recent_ids(limit))


def matches(
    runtime: Runtime,
    *,
    game_id: str | None = None,
    bot_id: str | None = None,
    status: str | None = None,
    offset: int = 0,
    limit: int = 50,
) -> dict[str, Any]:
    """Newest first, filtered; ``total`` counts the matches found among the newest SCAN_LIMIT."""
    found = [
        m
        for m in _recent(runtime, SCAN_LIMIT)
        if (not game_id or m.game == game_id)
        and (not bot_id or bot_id in m.bots)
        and (not status or m.status.value == status)
    ]
    return {
        "total": len(found),
        "offset": offset,
        "limit": limit,
        "matches": _summaries(runtime, found[offset : offset + limit]),
    }


def bot_choices(runtime: Runtime) -> list[dict[str, str]]:
    """Every bot's id and name, for the match filter."""
    return [{"id": bot.id, "name": bot.name} for bot in runtime.store.bots.list_all()]


def replay_document(runtime: Runtime, match_id: str) -> dict[str, Any] | None:
    """The match's ``arena-replay/1`` document, once it has finished (None before, or if absent)."""
    data = runtime.store.replays.get(match_id)
    return decompress(data) if data is not None else None


def match(runtime: Runtime, match_id: str) -> dict[str, Any] | None:
    """A match with its seats, result, faults per seat by kind and, once finished, its moves."""
    record = runtime.store.matches.get(match_id)
    if record is None:
        return None
    view = _summary(
        record, runtime.store.progress.played([match_id]).get(match_id), runtime.store.matches.spec(match_id)
    )
    replay = replay_document(runtime, match_id) if record.has_replay else None
    # each seat's faults by kind are the record's, counted once by the runner
    view["moves_list"] = with_words(record.game, replay["moves"]) if replay else []
    view["has_replay"] = replay is not None
    view["engine_version"] = replay.get("engine_version") if replay else None
    return view


def match_status(runtime: Runtime, match_id: str) -> str | None:
    record = runtime.store.matches.get(match_id)
    return record.status.value if record is not None else None


def has_replay(runtime: Runtime, match_id: str) -> bool:
    """Whether the match ended with a stored replay (finished, or cancelled while it ran)."""
    record = runtime.store.matches.get(match_id)
    return record is not None and record.has_replay


def live_moves(runtime: Runtime, match_id: str, start: int) -> list[dict[str, Any]] | None:
    """The moves of a running match from index ``start`` on (each as in a replay's ``moves``, with
    its ``words``), as the worker hands them to the store every half second or so."""
    record = runtime.store.matches.get(match_id)
    moves = runtime.store.progress.live_moves(match_id, start)
    if record is None or moves is None:
        return None
    return with_words(record.game, moves)


def live_document(runtime: Runtime, match_id: str) -> dict[str, Any] | None:
    """A replay-shaped document of a running match (header, initial state, moves so far), for the
    board of a match being watched; None when its moves are not available."""
    record = runtime.store.matches.get(match_id)
    spec = runtime.store.matches.spec(match_id)
    if record is None or spec is None or record.status is not MatchStatus.RUNNING:
        return None
    moves = runtime.store.progress.live_moves(match_id, 0)
    found = _game(record.game)
    if moves is None or found is None:
        return None
    header = spec.to_json()
    return {
        "format": "arena-replay/1",
        "match_id": match_id,
        "game": spec.game,
        "variant": spec.variant,
        "engine_version": found.version,
        "seed": spec.seed,
        "options": header["options"],
        "setup": header["setup"],
        "time": header["time"],
        "max_faults": spec.max_faults,
        "seats": [seat.to_json() for seat in record.seat_records],
        "initial_state": found.new_state(spec.config).to_json(),
        "moves": moves,
        "result": None,
    }


# -- tournaments -----------------------------------------------------------------------------


def _tournament_view(runtime: Runtime, tournament: TournamentRecord) -> dict[str, Any]:
    view = tournament_requests.view(runtime, tournament).to_json()
    view["game_title"] = game_title(view["game"])
    view["names"] = dict(tournament.names)
    return view


def tournaments(runtime: Runtime, offset: int = 0, limit: int = 50) -> dict[str, Any]:
    """Newest first, each with its status and progress (as ``GET /api/v1/tournaments/<id>``)."""
    ids = runtime.store.tournaments.recent_ids(offset + limit + 1)
    found = [runtime.store.tournaments.get(tid) for tid in ids[offset : offset + limit]]
    return {
        "offset": offset,
        "limit": limit,
        "has_more": len(ids) > offset + limit,
        "tournaments": [_tournament_view(runtime, t) for t in found if t is not None],
    }


def tournament(runtime: Runtime, tournament_id: str) -> dict[str, Any] | None:
    found = runtime.store.tournaments.get(tournament_id)
    if found is None:
        return None
    view = _tournament_view(runtime, found)
    view["bracket_columns"] = tournament_page.bracket(view) if found.format == "knockout" else []
    view["max_pod_replays"] = MAX_POD_REPLAYS
    view["swiss_rounds"] = tournament_page.swiss_rounds(view) if found.format == "swiss" else []
    view["cross"] = tournament_page.cross_table(view, is_team(found)) if view.get("cross_table") else None
    view["winner_list"] = tournament_page.winners(view)
    view["team"] = is_team(found)
    records = runtime.store.matches.get_many([m["id"] for m in view["matches"]])
    listed = {m["id"]: m for m in _summaries(runtime, records)}
    view["matches"] = [listed[m["id"]] for m in view["matches"] if m["id"] in listed]
    return view


# -- the home page and bots ------------------------------------------------------------------


def home(runtime: Runtime, recent: int = 20) -> dict[str, Any]:
    """Games, running matches, the most recent ended matches, tournaments not yet finished."""
    newest = _recent(runtime, SCAN_LIMIT)
    running = _summaries(runtime, [m for m in newest if m.status is MatchStatus.RUNNING])
    ended = [m for m in newest if m.status.ended]
    ended.sort(key=lambda m: m.finished_at or "", reverse=True)
    in_progress = [
        t for t in tournaments(runtime, 0, 50)["tournaments"] if t["status"] not in ("finished", "cancelled")
    ]
    return {
        "games": games(),
        "running": running,
        "recent": _summaries(runtime, ended[:recent]),
        "tournaments": in_progress,
    }


def bot(runtime: Runtime, bot_id: str, offset: int = 0, limit: int = 30) -> dict[str, Any] | None:
    """The bot as ``GET /api/v1/bots/<id>`` shows it, with its rating over time on each rated ladder
    (``GET /api/v1/bots/<id>/history``) as a chart, its head-to-head record against each opponent
    and one page of all its matches, newest first."""
    store = runtime.store
    record = store.bots.get(bot_id)
    if record is None:
        return None
    view = bot_accounts.view(runtime, record)
    histories = []
    for row in view.ratings:
        if row["mu"] is None:
            continue
        points = store.history.ratings(row["game"], row["variant"], bot_id)
        if points:
            title = (
                f"{record.name}: skill on {game_title(row['game'])} · {row['variant']}, {len(points)} matches"
            )
            histories.append(
                {
                    "game": row["game"],
                    "variant": row["variant"],
                    "game_title": game_title(row["game"]),
                    "points": len(points),
                    "chart": charts.rating_chart(points, title),
                    "first": points[0],
                    "last": points[-1],
                }
            )
    versus = store.history.versus(bot_id)
    opponents = store.bots.get_many([v.opponent for v in versus])
    ids, total = store.matches.ids_page(bot=bot_id, offset=offset, limit=limit)
    # the public fields of BotSchema only: the page never shows the endpoint
    return {
        "id": view.id,
        "name": view.name,
        "games": view.games,
        "protocol": view.protocol,
        "created_at": view.created_at,
        "updated_at": view.updated_at,
        "faults": view.faults,
        "house": view.house,
        "resting": [{**rest, "game_title": game_title(rest["game"])} for rest in view.resting],
        "ratings": [{**row, "game_title": game_title(row["game"])} for row in view.ratings],
        "histories": histories,
        "versus": [
            {
                "game": v.game,
                "game_title": game_title(v.game),
                "opponent": v.opponent,
                "name": opponents[v.opponent].name if v.opponent in opponents else v.opponent,
                "exists": v.opponent in opponents,
                "games": v.games,
                "wins": v.wins,
                "draws": v.draws,
                "losses": v.losses,
                "score": (v.wins + v.draws / 2) / v.games if v.games else None,
            }
            for v in versus
        ],
        "matches": {
            "total": total,
            "offset": offset,
            "limit": limit,
            "matches": _summaries(runtime, store.matches.get_many(ids)),
        },
    }


def bots(
    runtime: Runtime, game_id: str | None, search: str | None, offset: int = 0, limit: int = 50
) -> dict[str, Any]:
    """One page of the bots (of one game when given; whose name holds ``search``, ignoring case,
    when given), oldest first, each with its games and its row on every ladder it has played.

    Without a search a page reads only its own bots; a search reads every bot's record (of the
    game, when given) to match names, which is quick up to some thousands of bots."""
    store = runtime.store
    if search:
        ids = store.bots.ids_of_game(game_id) if game_id else [bot.id for bot in store.bots.list_all()]
        records = store.bots.get_many(ids)
        needle = unicodedata.normalize("NFC", search).casefold()  # names are stored in NFC
        matching = [records[i] for i in ids if i in records and needle in records[i].name.casefold()]
        total, page = len(matching), matching[offset : offset + limit]
    else:
        ids, total = store.bots.ids_page(game_id, offset, limit)
        records = store.bots.get_many(ids)
        page = [records[i] for i in ids if i in records]
    rows_by_ladder: dict[tuple[str, str], dict[str, Any]] = {}
    ladders = sorted(
        {(g, v) for bot in page for g in bot.games if (found := _game(g)) for v in found.variants}
    )
    for game, variant in ladders:
        players = [bot.id for bot in page if game in bot.games]
        rows_by_ladder[game, variant] = store.ladders.rows_of(game, variant, players)
    listed = []
    for bot in page:
        ratings = []
        for (game, variant), rows in rows_by_ladder.items():
            if bot.id in rows:
                spec = get_game(game).variant(variant)
                shown = display_row(bot.id, bot.name, rows[bot.id], spec)
                ratings.append({**shown, "game": game, "variant": variant, "game_title": game_title(game)})
        listed.append(
            {"id": bot.id, "name": bot.name, "games": list(bot.games), "house": bot.house, "ratings": ratings}
        )
    return {"total": total, "offset": offset, "limit": limit, "bots": listed}
