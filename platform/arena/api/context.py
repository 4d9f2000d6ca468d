"""What a view needs from the request around it: the runtime and the presented token."""

from __future__ import annotations

from flask import current_app, request

from arena.auth import bearer_token
from arena.runtime import Runtime

EXTENSION = "arena"
BEARER = [{"bearerAuth": []}]
"""OpenAPI security requirement of views that need a token."""


def runtime() -> Runtime:
    return current_app.extensions[EXTENSION]


def presented_token() -> str | None:
    return bearer_token(request.headers.get("Authorization"))
