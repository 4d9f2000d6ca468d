"""What a view needs from the request around it: the runtime, the ping gate and the presented token."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import request
from flask_smorest import Blueprint

from arena.accounts import bot_accounts
from arena.accounts.auth import bearer_token
from arena.accounts.limits import ping_gate
from arena.api.schemas.common import ErrorSchema
from arena.current import EXTENSION, runtime
from arena.errors import Unauthorized
from arena.matches.match_requests import require_organizer

F = TypeVar("F", bound=Callable[..., object])
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
"""OpenAPI security requirement of views that need a token."""


__all__ = [
    "EXTENSION",
    "bot_owner_only",
    "organizer_only",
    "ping_gate",
    "presented_token",
    "runtime",
    "token_required",
]


def presented_token() -> str | None:
    return bearer_token(request.headers.get("Authorization"))


def _documented(blp: Blueprint, who: str, view: F) -> F:
    view = blp.alt_response(401, schema=ErrorSchema, description=f"missing or wrong token: needs {who}")(view)
    return blp.doc(security=BEARER)(view)


def organizer_only(blp: Blueprint) -> Callable[[F], F]:
    """The view needs the organizer token, checked before the request body is even read."""

    def mark(view: F) -> F:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            require_organizer(runtime(), presented_token())
            return view(*args, **kwargs)

        return _documented(blp, "the organizer token", cast(F, checked))

    return mark


def token_required(blp: Blueprint, who: str) -> Callable[[F], F]:
    """The view needs some bearer token (checked before the body is read); which one counts is the
    view's to judge, once it knows the request."""

    def mark(view: F) -> F:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if presented_token() is None:
                raise Unauthorized(f"this needs {who}: Authorization: Bearer <token>")
            return view(*args, **kwargs)

        return _documented(blp, who, cast(F, checked))

    return mark


def bot_owner_only(blp: Blueprint) -> Callable[[F], F]:
    """The view needs the token of the bot named by ``bot_id`` (or the organizer token), checked
    before the body is read and before the bot's existence (:func:`arena.accounts.bot_accounts.owned`:
    401, never 404, for anyone else, so ids cannot be probed)."""

    def mark(view: F) -> F:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            bot_accounts.owned(runtime(), kwargs["bot_id"], presented_token())
            return view(*args, **kwargs)

        return _documented(blp, "the bot's token", cast(F, checked))

    return mark
