"""The runtime of the Flask app serving the current request, for the API and the web pages alike.

``create_app`` puts the :class:`arena.runtime.Runtime` in ``app.extensions`` under :data:`EXTENSION`;
both the API's views and the pages reach it here, so neither imports the other for it.
"""

from __future__ import annotations

from flask import current_app

from arena.runtime import Runtime

EXTENSION = "arena"


def runtime() -> Runtime:
    """The runtime of the app handling the current request."""
    found: Runtime = current_app.extensions[EXTENSION]
    return found
