"""Security headers on every answer of the app: pages, board frames, JSON, errors, Swagger UI.

One ``after_request`` hook sets them, so that no view, error handler or blueprint (flask-smorest's
included) can leave them out:

- ``Content-Security-Policy``: everything from the platform itself (``'self'``), no inline script
  at all (the pages' and Swagger UI's scripts are static files), no plugins, forms only to the
  platform, and framing only by its own pages (``frame-ancestors 'self'``: a page may show its own
  SVG boards). The one inline ``<style>`` a page may need (the match page's seat colours, which
  depend on the game) carries this request's nonce (:func:`csp_nonce`), and the policy then allows
  that nonce; a style *attribute* is never allowed. Images may also be ``data:`` URLs (Swagger UI's
  style sheet draws its icons so).
- ``X-Content-Type-Options: nosniff``: a browser takes a JSON answer or an SVG frame for what its
  ``Content-Type`` says, never for a script or a page.
- ``X-Frame-Options: SAMEORIGIN``: ``frame-ancestors 'self'`` for browsers that predate it.
- ``Referrer-Policy: same-origin``: addresses of the platform's pages go to no other site.

A view that sets one of these headers itself keeps its own.
"""

from __future__ import annotations

import secrets

from flask import Flask, Response, g

NONCE_ATTRIBUTE = "arena_csp_nonce"
"""Where :func:`csp_nonce` keeps the request's nonce on :data:`flask.g`."""


def csp_nonce() -> str:
    """This request's nonce for an inline ``<style>`` element (templates call it as ``csp_nonce()``).

    Made on first use, so an answer that needs none has a policy without one.
    """
    nonce: str | None = g.get(NONCE_ATTRIBUTE)
    if nonce is None:
        nonce = secrets.token_urlsafe(18)
        setattr(g, NONCE_ATTRIBUTE, nonce)
    return nonce


def content_security_policy(nonce: str | None = None) -> str:
    """The policy of an answer; ``nonce``: the request's style nonce, if a template used one."""
    styles = "'self'" if nonce is None else f"'self' 'nonce-{nonce}'"
    directives = (
        ("default-src", "'self'"),
        ("script-src", "'self'"),
        ("style-src", styles),
        ("img-src", "'self' data:"),
        ("object-src", "'none'"),
        ("base-uri", "'self'"),
        ("form-action", "'self'"),
        ("frame-ancestors", "'self'"),
    )
    return "; ".join(f"{name} {value}" for name, value in directives)


def add_security_headers(response: Response) -> Response:
    """The ``after_request`` hook: the headers above, where the view has not set its own."""
    headers = response.headers
    headers.setdefault("Content-Security-Policy", content_security_policy(g.get(NONCE_ATTRIBUTE)))
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("X-Frame-Options", "SAMEORIGIN")
    headers.setdefault("Referrer-Policy", "same-origin")
    return response


def install(app: Flask) -> None:
    """Set the headers on every answer of ``app`` and give its templates ``csp_nonce()``."""
    app.after_request(add_security_headers)
    app.jinja_env.globals["csp_nonce"] = csp_nonce
