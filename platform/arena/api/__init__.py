"""The REST API under ``/api/v1``: a flask-smorest blueprint per resource, one error body for all.

``create_app(runtime)`` builds the Flask app around a :class:`arena.runtime.Runtime`. The OpenAPI
document is at ``/api/v1/openapi.json``; Swagger UI at ``/api/v1/swagger-ui`` (also ``/api/v1/docs``)
reads it and sends requests, its assets served by the platform itself so that it works offline.
Every answer, the pages' included, carries the security headers of :mod:`arena.api.security_headers`.

Bodies larger than :data:`MAX_BODY_BYTES` are refused (413): before they are read when their size
is given, as soon as the limit is passed when they come in chunks (:mod:`arena.api.request_body`);
URLs longer than :data:`MAX_URL_BYTES` (414) before they are routed, a body that does not arrive
within ``ARENA_REQUEST_BODY_SECONDS`` of its head (408, :mod:`arena.api.body_deadline`), all with
the error body; a
store that cannot be reached is a 503 (try again), not a 500: the error body for the API, a small
HTML page for a browser's page request, and for a few seconds after one request found it so, every
request that would read it is that 503 at once (:mod:`arena.api.store_breaker`). A busy process (no connection
to Redis free in time) answers that one request 503, and a command error is that request's 500;
neither changes what other requests get (:mod:`arena.api.store_errors`).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from flask_smorest import Api
from redis.exceptions import RedisError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestURITooLarge
from werkzeug.http import HTTP_STATUS_CODES

from arena.accounts import limits
from arena.api import bots, docs_page, games, ids, ladders, matches, organizers, security_headers, tournaments
from arena.api.body_deadline import BodyDeadline
from arena.api.context import EXTENSION
from arena.api.json_provider import OrjsonProvider
from arena.api.request_body import BoundedRequest
from arena.api.schemas.common import ErrorSchema, HealthSchema
from arena.api.store_breaker import BREAKER, StoreBreaker
from arena.api.store_errors import RETRY_AFTER_S, internal_error, store_failed, unavailable
from arena.api.well_formed_answers import WellFormedResponse
from arena.errors import ArenaError
from arena.runtime import Runtime
from arena.storage.pools import is_outage
from arena.web import install as install_pages
from referee.registry import game_ids

log = logging.getLogger(__name__)
API_VERSION = "1.0.0"
MAX_BODY_BYTES = 1024 * 1024
"""The largest request body read: far above any real request (explicit setups are a few kB)."""
MAX_URL_BYTES = 4096
"""The longest request target (path and query string) answered: far above any real one (ids are 18
characters, a filter at most 100). gunicorn reads request lines up to 8190 bytes, about twice this
(``deploy/gunicorn.conf.py``), so a longer URL reaches the app and gets the error body, not the
server's own page."""


def _flatten_locations(messages: dict[str, Any]) -> dict[str, Any]:
    """webargs nests validation messages under the request part (``json``, ``query``); the error
    body names fields directly."""
    flat: dict[str, Any] = {}
    for part in messages.values():
        if isinstance(part, dict):
            flat.update(part)
    return flat


class ArenaApi(Api):
    """flask-smorest's Api with the platform's single error body for every error."""

    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: HTTPException) -> tuple[dict[str, Any], int, dict[str, str]]:
        data = getattr(error, "data", None) or {}
        errors = data.get("errors")
        if errors is None and "messages" in data:
            errors = _flatten_locations(data["messages"])
        default = (
            "The request has invalid fields." if error.code == 422 else (error.description or error.name)
        )
        payload = {
            "code": error.code,
            "status": error.name,
            "message": data.get("message", default),
            "errors": errors or {},
        }
        headers = dict(data.get("headers") or {})
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            headers["Allow"] = ", ".join(sorted(error.valid_methods))
        return payload, error.code or 500, headers


def _arena_error(error: ArenaError) -> tuple[Response, int, dict[str, str]]:
    headers = {
        401: {"WWW-Authenticate": 'Bearer realm="arena"'},
        503: {"Retry-After": RETRY_AFTER_S},
    }.get(error.code, {})
    if error.retry_after_s is not None:
        headers = {**headers, "Retry-After": str(error.retry_after_s)}
    body = {
        "code": error.code,
        "status": HTTP_STATUS_CODES.get(error.code, "Error"),
        "message": error.message,
        "errors": error.errors,
    }
    return jsonify(body), error.code, headers


NO_STORE_ENDPOINTS = frozenset({"static", "web.static", "docs_page.static", "docs_page.asset"})
"""Endpoints that never read the store (files on disk): served whatever the breaker says."""


def _store_gate() -> tuple[Response, int, dict[str, str]] | None:
    """Before anything reads the store (the rate limits included): while the breaker is open, the
    503 at once; the one request that probes it pings the store first, an outage reopening it
    (:func:`arena.api.store_errors.store_failed`), any other failure leaving the next request to
    probe again."""
    if request.endpoint in NO_STORE_ENDPOINTS:
        return None
    breaker: StoreBreaker = current_app.extensions[BREAKER]
    admission = breaker.admit()
    if admission == "refuse":
        return unavailable()
    if admission == "probe":
        try:
            current_app.extensions[EXTENSION].store.ping()
        except RedisError as error:
            if not is_outage(error):
                breaker.probe_ended()
            raise
        breaker.succeeded()
    return None


def _target_bytes(environ: dict[str, Any]) -> int:
    """The request target's length in bytes: as sent (gunicorn's ``RAW_URI``, werkzeug's
    ``REQUEST_URI``), else as the WSGI path and query give it (WSGI strings hold one byte a
    character)."""
    raw = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    if raw:
        return len(raw)
    return len(environ.get("PATH_INFO", "")) + 1 + len(environ.get("QUERY_STRING", ""))


def _refuse_long_urls() -> None:
    if _target_bytes(request.environ) > MAX_URL_BYTES:
        raise RequestURITooLarge(f"The URL is longer than {MAX_URL_BYTES} bytes.")


def _unexpected(error: Exception) -> tuple[Response, int, dict[str, str]]:
    if isinstance(error, HTTPException):
        raise error
    return internal_error(error)


def create_app(runtime: Runtime) -> Flask:
    # paths given: an editable install made before arena/__init__.py existed sees a namespace
    # package, where Flask cannot work them out
    here = Path(__file__).resolve().parent
    app = Flask("arena", root_path=str(here), instance_path=str(here / "instance"))
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        API_TITLE="Volcano Arena",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1",
        OPENAPI_JSON_PATH="openapi.json",  # Swagger UI's page is docs_page's own, not flask-smorest's
        API_SPEC_OPTIONS={
            "info": {
                "description": "Register bot endpoints, run matches and tournaments, read ladders, "
                "download replays. Reading is public; creating matches and tournaments needs the "
                "organizer token, changing a bot its own token (header Authorization: Bearer TOKEN; the "
                "Authorize button sets it here)."
            },
            "components": {"securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}}},
        },
    )
    app.json = OrjsonProvider(app)
    app.response_class = WellFormedResponse
    app.request_class = BoundedRequest
    app.wsgi_app = BodyDeadline(app.wsgi_app, runtime.settings.request_body_s)  # type: ignore[method-assign]  # Flask's documented way to wrap it
    app.extensions[EXTENSION] = runtime
    app.extensions[BREAKER] = StoreBreaker(runtime.clock)
    app.before_request(_refuse_long_urls)  # first, before the rate limits read the store
    app.before_request(_store_gate)  # then, still before them
    security_headers.install(app)
    api = ArenaApi(app)
    for name, converter in ids.CONVERTERS.items():
        app.url_map.converters[name] = converter
        api.register_converter(converter, ids.openapi_schema)
    for blueprint in (games.blp, bots.blp, matches.blp, tournaments.blp, ladders.blp, organizers.blp):
        api.register_blueprint(blueprint)
    limits.install(app, runtime.settings, bots.blp, matches.blp)
    app.register_error_handler(ArenaError, _arena_error)
    app.register_error_handler(RedisError, store_failed)
    app.register_error_handler(Exception, _unexpected)
    install_pages(app, api)  # the web pages: before docs_page, so that `/` is the home page
    app.register_blueprint(docs_page.blueprint)

    @app.get("/api/v1/health")
    def health() -> dict[str, Any]:
        runtime.store.ping()
        body = {
            "status": "ok",
            "mode": "embedded" if runtime.settings.embedded else "redis",
            "games": game_ids(),
        }
        shown: dict[str, Any] = HealthSchema().dump(body)
        return shown

    return app
