"""The platform's web pages: what spectators, organizers and bot authors see in a browser.

Server-rendered pages (Jinja2) with a stable URL each, showing the same data as the JSON API under
``/api/v1``; a little plain JavaScript steps through replays and follows running matches and
tournaments by polling that API. Every asset is served by the platform itself. All reading goes
through :mod:`arena.web.data`.

:func:`install` registers the pages on the app and makes a 404 outside ``/api/v1`` an HTML page.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from arena.web.views import blueprint, error_page

__all__ = ["blueprint", "install"]


def install(app: Flask, api: Any) -> None:
    """Register the pages; errors of paths outside ``/api/`` become HTML pages, the API's stay JSON.

    ``api`` is the flask-smorest ``Api``, whose handler still answers for ``/api/`` paths.
    """
    app.register_blueprint(blueprint)

    def handle(error: HTTPException) -> Any:
        if request.path.startswith("/api/"):
            return api.handle_http_exception(error)
        return error_page(error)

    for code in (400, 404, 405):
        app.register_error_handler(code, handle)
