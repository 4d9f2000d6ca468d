"""Interactive API docs served by the platform itself: Swagger UI, with no outside assets.

The ``swagger-ui-bundle`` package ships Swagger UI's files; the platform serves them at
``/api/v1/swagger-ui-assets/``, so the docs work on a machine with no internet. The page at
``/api/v1/swagger-ui`` is the platform's own (``templates/docs_page/swagger_ui.html``) rather than
flask-smorest's, whose page starts Swagger UI with an inline script: here a static script
(``static/swagger-ui-init.js``) starts it from the page's ``data-`` attributes, so the pages' strict
Content-Security-Policy (no inline script, :mod:`arena.api.security_headers`) holds for it too.
``/api/v1/docs`` and ``/`` lead there.
"""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, send_from_directory, url_for
from flask.typing import ResponseReturnValue
from swagger_ui_bundle import swagger_ui_path

ASSETS_URL = "/api/v1/swagger-ui-assets/"
DOCS_URL = "/api/v1/swagger-ui"
SPEC_URL = "/api/v1/openapi.json"

blueprint = Blueprint(
    "docs_page",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/api/v1/docs-static",
)


@blueprint.get(f"{ASSETS_URL}<path:name>")
def asset(name: str) -> ResponseReturnValue:
    """A file of Swagger UI's distribution (404 for anything else)."""
    return send_from_directory(swagger_ui_path, name, max_age=86400)


@blueprint.get(DOCS_URL)
def swagger_ui() -> ResponseReturnValue:
    """Swagger UI's page, reading the OpenAPI document."""
    return render_template(
        "docs_page/swagger_ui.html",
        title=current_app.config["API_TITLE"],
        assets=ASSETS_URL,
        spec_url=SPEC_URL,
        init_script=url_for("docs_page.static", filename="swagger-ui-init.js"),
    )


@blueprint.get("/api/v1/docs")
def docs() -> ResponseReturnValue:
    return redirect(DOCS_URL)
