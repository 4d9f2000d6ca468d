"""Creating matches (checked before anything is queued) and what the public sees of one.

A match request is refused with field-level messages when its game, variant, seat count, options or
setup are wrong (the engine's own check, :func:`referee.runner.check_match_request`) or when a bot
does not exist or does not play that game. Only then is the match stored and queued.

Statuses: ``queued`` (stored, waiting for a worker), ``running``, ``finished`` (result and replay
stored), ``aborted`` (could not be played: ``error`` says why).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from arena.auth import same_token
from arena.errors import InvalidRequest, QueueUnavailable, Unauthorized, from_setup_error, merge_errors
from arena.runtime import Runtime, now_iso, stamp
from arena.store import TERMINAL_STATUSES, Record
from referee.game import Game, SetupError
from referee.registry import get_game
from referee.runner import check_match_request

log = logging.getLogger(__name__)


def require_organizer(runtime: Runtime, token: str | None) -> None:
    if not same_token(token, runtime.settings.admin_token):
        raise Unauthorized("this needs the organizer token: Authorization: Bearer $ARENA_ADMIN_TOKEN")


def resolve_game(game_id: str, variant: str | None) -> tuple[Game, str]:
    """The game and the variant (the game's default when none is given); 422 when unknown."""
    try:
        game = get_game(game_id)
        variant = variant or game.default_variant
        game.variant(variant)
    except SetupError as error:
        raise from_setup_error(error) from None
    return game, variant


def check_bots(
    runtime: Runtime, game_id: str, bot_ids: Sequence[str]
) -> tuple[dict[str, Record], dict[str, Any]]:
    """The bots by id, and field errors for those that do not exist or do not play ``game_id``."""
    found = runtime.store.get_bots(bot_ids)
    problems: dict[str, list[str]] = {}
    for index, bot_id in enumerate(bot_ids):
        bot = found.get(bot_id)
        if bot is None:
            problems[str(index)] = [f"no bot with id {bot_id!r}"]
        elif game_id not in bot["games"]:
            problems[str(index)] = [f"bot {bot_id!r} ({bot['name']}) does not play {game_id}"]
    return found, ({"bots": problems} if problems else {})


def check_request(
    runtime: Runtime,
    game_id: str,
    variant: str | None,
    seat_bots: Sequence[str],
    options: Mapping[str, Any] | None,
    setup: Mapping[str, Any] | None,
) -> tuple[str, dict[str, Any], dict[str, Record]]:
    """Everything about a match that can be checked before it is queued.

    Returns the variant, the resolved options and the bots; raises :class:`InvalidRequest` with
    every field error found.
    """
    _, variant = resolve_game(game_id, variant)
    errors: dict[str, Any] = {}
    resolved: dict[str, Any] = {}
    try:
        resolved = check_match_request(game_id, variant, len(seat_bots), options, setup)
    except SetupError as error:
        merge_errors(errors, from_setup_error(error).errors)
    bots, bot_errors = check_bots(runtime, game_id, seat_bots)
    merge_errors(errors, bot_errors)
    if errors:
        raise InvalidRequest("The request has invalid fields.", errors)
    return variant, resolved, bots


def new_record(
    *,
    game_id: str,
    variant: str,
    bots: Sequence[Record],
    seed: int,
    options: Mapping[str, Any],
    setup: Mapping[str, Any] | None,
    time: Mapping[str, int],
    rated: bool,
    max_faults: int,
    tournament: str | None = None,
) -> Record:
    return {
        "id": "m-" + secrets.token_hex(8),
        "game": game_id,
        "variant": variant,
        "bots": [bot["id"] for bot in bots],
        "seats": [{"seat": seat, "bot_id": bot["id"], "name": bot["name"]} for seat, bot in enumerate(bots)],
        "seed": seed,
        "options": dict(options),
        "setup": setup,
        "time": {"move_ms": time["move_ms"], "bank_ms": time["bank_ms"]},
        "rated": rated,
        "max_faults": max_faults,
        "tournament": tournament,
        "status": "queued",
        "attempts": 0,
        "started_at": None,
        "finished_at": None,
        "result": None,
        "error": None,
        "moves": 0,
        **stamp(),
    }


def new_seed() -> int:
    return secrets.randbelow(2**62)


def create(runtime: Runtime, data: Mapping[str, Any]) -> Record:
    """Check, store and queue one match (``data`` as ``MatchCreateSchema`` loads it)."""
    variant, resolved, bots = check_request(
        runtime, data["game"], data.get("variant"), data["bots"], data.get("options"), data.get("setup")
    )
    record = new_record(
        game_id=data["game"],
        variant=variant,
        bots=[bots[bot_id] for bot_id in data["bots"]],
        seed=data["seed"] if data.get("seed") is not None else new_seed(),
        options=resolved,
        setup=data.get("setup"),
        time=data["time"],
        rated=data["rated"],
        max_faults=data["max_faults"],
    )
    runtime.store.add_matches([record])
    enqueue(runtime, [record["id"]])
    return record


def enqueue(runtime: Runtime, match_ids: Sequence[str]) -> None:
    """Queue stored matches; if the queue fails, the ones not queued are aborted and 503 raised."""
    for position, match_id in enumerate(match_ids):
        try:
            runtime.queue.enqueue(match_id)
        except Exception as error:
            log.exception("could not queue match %s", match_id)
            for stranded in match_ids[position:]:
                abort(runtime, stranded, f"could not be queued: {type(error).__name__}")
            raise QueueUnavailable("the match queue is unavailable; try again later") from error


def abort(runtime: Runtime, match_id: str, reason: str) -> Record | None:
    """Mark a match aborted unless it already ended."""

    def change(match: Record) -> Record | None:
        if match["status"] in TERMINAL_STATUSES:
            return None
        return {**match, "status": "aborted", "error": reason, "finished_at": now_iso()}

    return runtime.store.update_match(match_id, change)


def public_view(match: Record, moves_now: int | None = None) -> dict[str, Any]:
    """The match as ``GET /api/v1/matches/<id>`` shows it."""
    view = {name: value for name, value in match.items() if name != "created_ts"}
    if moves_now is not None and match["status"] == "running":
        view["moves"] = moves_now
    view["replay_url"] = f"/api/v1/matches/{match['id']}/replay" if match["status"] == "finished" else None
    return view
