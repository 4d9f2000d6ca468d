"""The platform's web pages: what spectators, organizers and bot authors see in a browser.

Server-rendered pages (Jinja2) with a stable URL each, showing the same data as the JSON API under
``/api/v1``; a little plain JavaScript steps through replays and follows running matches and
tournaments by polling that API. Every asset is served by the platform itself. All reading goes
through :mod:`arena.web.data`.

:func:`install` registers the pages on the app and makes a 404 (400, 405, 414) outside ``/api/v1``
an HTML page;
:func:`wants_page` and :func:`unavailable_page` let the app answer a page request with an HTML 503
while the store is unreachable, where the API answers its JSON one.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from arena.web.views import blueprint, error_page

__all__ = ["blueprint", "install", "unavailable_page", "wants_page"]

NOT_PAGES = frozenset({"web.live", "web.board", "web.static"})
"""The web's routes that answer JSON (a running match's moves, polled by the viewer) or an image."""


def wants_page() -> bool:
    """Whether the request is a browser's for a page: a path outside ``/api/``, to one of the page
    routes or from a client that takes HTML before JSON (``Accept: text/html``). The API's paths
    are always answered in JSON, whatever the client accepts."""
    if request.path.startswith("/api/"):
        return False
    if request.endpoint is not None and request.endpoint not in NOT_PAGES:
        return True
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"


def unavailable_page(message: str, retry_after: str) -> Response:
    """A small HTML 503 page (with ``Retry-After``), drawn without reading the store."""
    body, code = error_page(ServiceUnavailable(message))
    return Response(body, code, {"Retry-After": retry_after}, mimetype="text/html")


def install(app: Flask, api: Any) -> None:
    """Register the pages; errors of paths outside ``/api/`` become HTML pages, the API's stay JSON.

    ``api`` is the flask-smorest ``Api``, whose handler still answers for ``/api/`` paths.
    """
    app.register_blueprint(blueprint)

    def handle(error: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            return api.handle_http_exception(error)
        return error_page(error)

    for code in (400, 404, 405, 414):
        app.register_error_handler(code, handle)
