"""Organizers: the admin (``ARENA_ADMIN_TOKEN``) makes them; each one's token runs its own tournaments.

An organizer's token is shown once, when it is made, and kept as a hash (:mod:`arena.accounts.auth`).
It creates tournaments, and changes and cancels those it created; the admin token does all of that
for any tournament, and everything else that needs it, as before organizers existed. Revoking an
organizer only stops its token: its tournaments stay, readable, under its name, and the admin still
manages them.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from arena.accounts.auth import hash_token, new_token, same_token
from arena.errors import NotFound, Unauthorized
from arena.records import OrganizerRecord, TournamentRecord, now_iso
from arena.runtime import Runtime
from arena.storage import Store

ADMIN_NEEDED = "this needs the admin token: Authorization: Bearer $ARENA_ADMIN_TOKEN"


@dataclass(frozen=True)
class Manager:
    """Who presented a token that may run tournaments: the admin, or one organizer."""

    organizer: OrganizerRecord | None
    """None: the admin."""

    @property
    def is_admin(self) -> bool:
        return self.organizer is None

    def may_manage(self, tournament: TournamentRecord) -> bool:
        return self.organizer is None or tournament.organizer == self.organizer.id


def is_admin(runtime: Runtime, token: str | None) -> bool:
    return same_token(token, runtime.settings.admin_token)


def require_admin(runtime: Runtime, token: str | None) -> None:
    if not is_admin(runtime, token):
        raise Unauthorized(ADMIN_NEEDED)


def manager(runtime: Runtime, token: str | None) -> Manager | None:
    """The admin or the organizer whose token this is, else None."""
    if is_admin(runtime, token):
        return Manager(None)
    if not token:
        return None
    found = runtime.store.organizers.by_token_hash(hash_token(token))
    return None if found is None else Manager(found)


def require_manager(runtime: Runtime, token: str | None) -> Manager:
    """The admin or an organizer, for making a tournament: 401 for anyone else."""
    who = manager(runtime, token)
    if who is None:
        raise Unauthorized(
            "this needs an organizer's token or the admin token: Authorization: Bearer <token>"
        )
    return who


def whose_token(tournament: TournamentRecord) -> str:
    """Whose token a tournament's changes need, in words."""
    if tournament.organizer is None:
        return "the admin token (ARENA_ADMIN_TOKEN)"
    return f"the token of its organizer {tournament.organizer_name!r} or the admin token"


def require_manager_of(runtime: Runtime, token: str | None, tournament: TournamentRecord) -> Manager:
    """The admin, or the organizer that made ``tournament``: 401 naming whose token it needs."""
    who = manager(runtime, token)
    if who is None or not who.may_manage(tournament):
        raise Unauthorized(f"this tournament is changed with {whose_token(tournament)}")
    return who


def create(store: Store, name: str) -> tuple[OrganizerRecord, str]:
    """A new organizer and its token (to show once)."""
    token = new_token()
    organizer = OrganizerRecord(
        id="o-" + secrets.token_hex(6),
        name=name,
        token_hash=hash_token(token),
        created_at=now_iso(),
        created_ts=time.time(),
    )
    store.organizers.add(organizer)
    return organizer, token


def remove(store: Store, organizer_id: str) -> OrganizerRecord:
    found = store.organizers.get(organizer_id)
    if found is None:
        raise NotFound(f"no organizer with id {organizer_id!r}")
    store.organizers.remove(found)
    return found
