"""Interactive API docs served by the platform itself: Swagger UI, with no outside assets.

flask-smorest renders Swagger UI's page at ``/api/v1/swagger-ui`` but loads its scripts from the
URL it is given; the ``swagger-ui-bundle`` package ships those files, so the platform serves them
at ``/api/v1/swagger-ui-assets/`` and the docs work on a machine with no internet.
``/api/v1/docs`` and ``/`` lead there.
"""

from __future__ import annotations

from flask import Blueprint, redirect, send_from_directory
from flask.typing import ResponseReturnValue
from swagger_ui_bundle import swagger_ui_path

ASSETS_URL = "/api/v1/swagger-ui-assets/"
DOCS_URL = "/api/v1/swagger-ui"

blueprint = Blueprint("docs_page", __name__)


@blueprint.get(f"{ASSETS_URL}<path:name>")
def asset(name: str) -> ResponseReturnValue:
    """A file of Swagger UI's distribution (404 for anything else)."""
    return send_from_directory(swagger_ui_path, name, max_age=86400)


@blueprint.get("/api/v1/docs")
def docs() -> ResponseReturnValue:
    return redirect(DOCS_URL)
