"""What a view needs from the request around it: the runtime and the presented token."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import current_app, request
from flask_smorest import Blueprint

from arena.api.schemas import ErrorSchema
from arena.auth import bearer_token
from arena.runtime import Runtime

F = TypeVar("F", bound=Callable[..., object])
EXTENSION = "arena"
BEARER = [{"bearerAuth": []}]
"""OpenAPI security requirement of views that need a token."""


def runtime() -> Runtime:
    return current_app.extensions[EXTENSION]


def presented_token() -> str | None:
    return bearer_token(request.headers.get("Authorization"))


def needs_token(blp: Blueprint, who: str) -> Callable[[F], F]:
    """Mark a view as needing a bearer token in the OpenAPI document (security and the 401)."""

    def mark(view: F) -> F:
        view = blp.alt_response(401, schema=ErrorSchema, description=f"missing or wrong token: needs {who}")(
            view
        )
        return blp.doc(security=BEARER)(view)

    return mark
