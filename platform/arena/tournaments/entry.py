"""Entering a scheduled tournament and withdrawing from it.

A bot's owner enters the bot with the bot's own token (an open tournament), and withdraws it with
it; the tournament's organizer (or the admin) adds or removes entrants of any entry kind. Entering
is an optimistic transaction against the start (:meth:`arena.storage.Store.change_entry`): once
the start has begun nothing enters, and ``max_entrants`` is never passed however many enter at once.
"""

from __future__ import annotations

import time

from arena.accounts import organizers
from arena.accounts.auth import token_matches
from arena.errors import Conflict, InvalidRequest, NotFound, Unauthorized, field_error
from arena.ladders import matchmaking
from arena.records import BotRecord, EntryRecord, EntryStatus, TournamentRecord, now_iso
from arena.runtime import Runtime
from arena.storage.entries import EntryOutcome

STARTED = "the tournament has started (or was cancelled): its entries are closed"


def _bot_for(
    runtime: Runtime, tournament: TournamentRecord, bot_id: str, token: str | None
) -> tuple[BotRecord | None, bool]:
    """The bot, and whether the token is the organizer's (the admin's, or the tournament's
    organizer's); 401 for a token that is neither that nor the bot's own."""
    bot = runtime.store.bots.get(bot_id)
    who = organizers.manager(runtime, token)
    if who is not None and who.may_manage(tournament):
        return bot, True
    if bot is None or not token_matches(token, bot.token_hash):
        raise Unauthorized(
            "this needs the bot's token (or the tournament's organizer's): Authorization: Bearer <token>"
        )
    return bot, False


def enter(runtime: Runtime, tournament: TournamentRecord, bot_id: str, token: str | None) -> EntryRecord:
    bot, by_organizer = _bot_for(runtime, tournament, bot_id, token)
    if bot is None:
        raise InvalidRequest(
            "The request has invalid fields.", field_error("bot", f"no bot with id {bot_id!r}")
        )
    if not by_organizer and tournament.entry != "open":
        raise Conflict(
            f"entry is {tournament.entry!r}, not 'open': only the tournament's organizer adds entrants"
        )
    _check_eligible(runtime, tournament, bot)
    entry = EntryRecord(bot.id, bot.name, now_iso(), time.time())  # the machine's: entries in the order made

    def change(
        current: TournamentRecord, found: EntryRecord | None, entered: int
    ) -> EntryRecord | EntryOutcome:
        if found is not None and found.status is EntryStatus.ENTERED:
            return EntryOutcome.ALREADY
        if entered >= current.max_entrants:
            return EntryOutcome.FULL
        return entry

    outcome = runtime.store.entries.change(tournament.id, bot.id, change)
    if outcome is EntryOutcome.ALREADY:
        raise InvalidRequest(
            "The request has invalid fields.", field_error("bot", "the bot has entered already")
        )
    if outcome is EntryOutcome.FULL:
        raise Conflict(f"the tournament is full ({tournament.max_entrants} entrants)")
    if outcome is EntryOutcome.STARTED:
        raise Conflict(STARTED)
    if outcome is EntryOutcome.ABSENT:
        raise NotFound(f"no tournament with id {tournament.id!r}")
    return entry


def _check_eligible(runtime: Runtime, tournament: TournamentRecord, bot: BotRecord) -> None:
    """422 naming the field for a bot that cannot play this tournament: another game, or resting on
    the tournament's ladder. (A bot registers for games, and so plays every variant of them.)"""
    if tournament.game not in bot.games:
        raise InvalidRequest(
            "The request has invalid fields.",
            field_error("bot", f"bot {bot.id!r} ({bot.name}) does not play {tournament.game}"),
        )
    ladder = (tournament.game, tournament.variant)
    row = runtime.store.ladders.row(*ladder, bot.id)
    if row is not None and matchmaking.rests_of(runtime, bot, {ladder: row}):
        raise InvalidRequest(
            "The request has invalid fields.",
            field_error(
                "bot",
                f"bot {bot.id!r} rests on this ladder after forfeiting: a ping it passes brings it back "
                f"(POST /api/v1/bots/{bot.id}/ping)",
            ),
        )


def withdraw(runtime: Runtime, tournament: TournamentRecord, bot_id: str, token: str | None) -> None:
    _, by_organizer = _bot_for(runtime, tournament, bot_id, token)
    reason = "withdrawn by the organizer" if by_organizer else "withdrawn by its owner"

    def change(
        current: TournamentRecord, found: EntryRecord | None, entered: int
    ) -> EntryRecord | EntryOutcome:
        if found is None or found.status is not EntryStatus.ENTERED:
            return EntryOutcome.ABSENT
        return EntryRecord(found.bot, found.name, found.when, found.ts, EntryStatus.WITHDRAWN, reason)

    outcome = runtime.store.entries.change(tournament.id, bot_id, change)
    if outcome is EntryOutcome.STARTED:
        raise Conflict(STARTED)
    if outcome is EntryOutcome.ABSENT:
        raise NotFound(f"bot {bot_id!r} has not entered this tournament")
