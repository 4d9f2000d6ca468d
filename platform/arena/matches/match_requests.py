"""Creating matches (checked before anything is queued) and the view of one as it stands.

A match request becomes a :class:`referee.match.MatchSpec` by its one constructor, which refuses a
wrong game, variant, seat count, seed, option or setup with the field it is about; the bots must
exist and play the game; its time control and fault limit must be within the platform's bounds
(:mod:`arena.match_bounds`). Only then is the match stored (its spec beside a small status record) and
queued.

Statuses (:class:`arena.records.MatchStatus`): ``queued``, ``running``, ``finished`` (result and
replay stored), ``aborted`` (could not be played: ``error`` says why).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena import scheduling
from arena.accounts.auth import same_token, token_matches
from arena.errors import (
    Conflict,
    InvalidRequest,
    NotFound,
    Unauthorized,
    field_error,
    from_setup_error,
    merge_errors,
)
from arena.match_bounds import bound_errors
from arena.records import BotRecord, MatchOrigin, MatchRecord, MatchStatus
from arena.runtime import Runtime
from referee.game import Game, SetupError
from referee.match import MatchSpec, TimeControl
from referee.registry import get_game


def require_organizer(runtime: Runtime, token: str | None) -> None:
    if not same_token(token, runtime.settings.admin_token):
        raise Unauthorized("this needs the organizer token: Authorization: Bearer $ARENA_ADMIN_TOKEN")


def is_organizer(runtime: Runtime, token: str | None) -> bool:
    return same_token(token, runtime.settings.admin_token)


def authorize(runtime: Runtime, token: str | None, data: Mapping[str, Any]) -> dict[str, Any]:
    """Who may request this match, and whether it is rated.

    The organizer may request any match (rated unless it says ``rated: false``). A bot's owner may
    challenge: request an unrated match in which that bot holds a seat, with the bot's own token.
    Returns the request with ``rated``, ``origin`` and, for a challenge, ``challenger`` (the bot
    whose token asked, the one that may cancel it) settled.
    """
    if is_organizer(runtime, token):
        return {
            **data,
            "rated": True if data.get("rated") is None else data["rated"],
            "origin": MatchOrigin.ORGANIZER,
        }
    seated = runtime.store.bots.get_many(data["bots"])
    challenger = next(
        (
            bot_id
            for bot_id, bot in seated.items()
            if token is not None and token_matches(token, bot.token_hash)
        ),
        None,
    )
    if challenger is None:
        raise Unauthorized(
            "this needs the organizer token, or the token of a bot that holds a seat (a challenge): "
            "Authorization: Bearer <token>"
        )
    if data.get("rated"):
        raise InvalidRequest(
            "The request has invalid fields.",
            field_error("rated", "a challenge is unrated: rated matches are the organizer's or the ladder's"),
        )
    return {**data, "rated": False, "origin": MatchOrigin.CHALLENGE, "challenger": challenger}


def cancel(runtime: Runtime, match_id: str, token: str | None) -> MatchRecord:
    """Cancel one match: the organizer any, a challenge's challenger that challenge.

    Only the bot that made a challenge may call it off, never the opponents it named: they did
    not ask for the match. A challenge stored before its challenger was kept is the organizer's
    alone to cancel.

    A queued match is cancelled at once; a running one stops before its next move (its worker
    stores it cancelled, the moves so far as its replay). Cancelling a cancelled match changes
    nothing; one that finished or was aborted is a conflict.
    """
    match = runtime.store.matches.get(match_id)
    if match is None:
        raise NotFound(f"no match with id {match_id!r}")
    if not is_organizer(runtime, token) and not _is_challenger(runtime, match, token):
        raise Unauthorized(
            f"cancelling this match needs {_who_may_cancel(match)}: Authorization: Bearer <token>"
        )
    if match.status is MatchStatus.CANCELLED:
        return match
    if match.status.ended:
        raise Conflict(f"match {match_id} has already ended: it is {match.status.value}")
    who = "the organizer" if is_organizer(runtime, token) else "the challenger"
    current = runtime.store.matches.cancel(match_id, f"cancelled by {who}")
    if current is not None and current.status.ended and current.status is not MatchStatus.CANCELLED:
        raise Conflict(f"match {match_id} has already ended: it is {current.status.value}")
    return current or match


def _is_challenger(runtime: Runtime, match: MatchRecord, token: str | None) -> bool:
    """Whether ``token`` is the token of the bot that made this challenge (as it stands now)."""
    if token is None or match.challenger is None or match.origin is not MatchOrigin.CHALLENGE:
        return False
    bot = runtime.store.bots.get(match.challenger)
    return bot is not None and token_matches(token, bot.token_hash)


def _who_may_cancel(match: MatchRecord) -> str:
    if match.challenger is not None and match.origin is MatchOrigin.CHALLENGE:
        return f"the organizer token, or the token of bot {match.challenger}, which made this challenge"
    return "the organizer token"


def check_bots(
    runtime: Runtime, game_id: str, bot_ids: Sequence[str], field: str = "bots"
) -> tuple[dict[str, BotRecord], dict[str, Any]]:
    """The bots by id, and field errors for those that do not exist or do not play ``game_id``."""
    found = runtime.store.bots.get_many(bot_ids)
    problems: dict[str, list[str]] = {}
    for index, bot_id in enumerate(bot_ids):
        bot = found.get(bot_id)
        if bot is None:
            problems[str(index)] = [f"no bot with id {bot_id!r}"]
        elif game_id not in bot.games:
            problems[str(index)] = [f"bot {bot_id!r} ({bot.name}) does not play {game_id}"]
    return found, ({field: problems} if problems else {})


def build_spec(
    data: Mapping[str, Any], bots: Sequence[str], seed: int, errors: dict[str, Any]
) -> MatchSpec | None:
    """The request's spec, or None with its problem added to ``errors``."""
    try:
        return MatchSpec.build(
            game=data["game"],
            variant=data.get("variant"),
            bots=bots,
            seed=seed,
            options=data.get("options"),
            setup=data.get("setup"),
            time=TimeControl(data["time"]["move_ms"], data["time"]["bank_ms"]),
            max_faults=data["max_faults"],
        )
    except SetupError as error:
        merge_errors(errors, from_setup_error(error).errors)
        return None


def new_match(
    spec: MatchSpec,
    bots: Mapping[str, BotRecord],
    rated: bool,
    tournament: str | None = None,
    origin: MatchOrigin | None = None,
    challenger: str | None = None,
) -> MatchRecord:
    return MatchRecord.new(
        scheduling.new_match_id(),
        spec.game,
        spec.variant,
        spec.bots,
        tuple(bots[bot_id].name for bot_id in spec.bots),
        rated=rated,
        tournament=tournament,
        origin=origin,
        challenger=challenger,
    )


def create(runtime: Runtime, data: Mapping[str, Any]) -> tuple[MatchRecord, MatchSpec]:
    """Check, store and queue one match (``data`` as ``MatchSchema`` loads it)."""
    errors: dict[str, Any] = {}
    seed = data["seed"] if data.get("seed") is not None else scheduling.new_seed()
    spec = build_spec(data, data["bots"], seed, errors)
    merge_errors(errors, bound_errors(runtime.settings, data))
    if "game" in errors:  # nothing else can be judged without the game
        raise InvalidRequest("The request has invalid fields.", errors)
    bots, bot_errors = check_bots(runtime, data["game"], data["bots"])
    merge_errors(errors, bot_errors)
    if errors or spec is None:
        raise InvalidRequest("The request has invalid fields.", errors)
    match = new_match(spec, bots, data["rated"], origin=data.get("origin"), challenger=data.get("challenger"))
    scheduling.schedule(runtime, [(match, spec)])
    return match, spec


@dataclass(frozen=True)
class MatchView:
    """A match as it stands now: its record, its spec (None if neither Redis nor the archive has
    it) and, while it runs, the live move count.

    :meth:`to_json` gives everything there is to know; which of it the public sees is the API's
    ``MatchSchema`` (its fields), which dumps this, so no field is hidden by hand here.
    """

    record: MatchRecord
    spec: MatchSpec | None = None
    moves_now: int | None = None

    @property
    def moves(self) -> int:
        """Moves played: live while running (the record has them only once finished)."""
        if self.moves_now is not None and self.record.status is MatchStatus.RUNNING:
            return self.moves_now
        return self.record.moves

    @property
    def replay_url(self) -> str | None:
        if self.record.has_replay:
            return f"/api/v1/matches/{self.record.id}/replay"
        return None

    def to_json(self) -> dict[str, Any]:
        base: dict[str, Any] = (
            dict(self.spec.to_json())
            if self.spec is not None
            else {"game": self.record.game, "variant": self.record.variant}
        )
        return {
            **base,
            **self.record.to_json(),
            "seats": [seat.to_json() for seat in self.record.seat_records],
            "moves": self.moves,
            "replay_url": self.replay_url,
        }


def resolve_game(game_id: str, variant: str | None) -> tuple[Game[Any], str]:
    """The game and its variant (the default when None) as they exist; 422 naming the field."""
    try:
        game = get_game(game_id)
        name = variant or game.default_variant
        game.variant(name)
    except SetupError as error:
        raise from_setup_error(error) from None
    return game, name
