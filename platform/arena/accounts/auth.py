"""Tokens: the organizer token, and each bot's own token, kept only as a hash.

A bot's token lets its author change or delete it; the platform stores the SHA-256 of it (tokens are
256 random bits, so a plain hash is enough: there is nothing to guess), shows the token once at
registration and can never show it again. The bot's signing *secret* is different: its author
chooses it and sends it with the registration, and the referee needs it to sign every request, so it
cannot be hashed: it is stored encrypted when the deployment has a key (:mod:`arena.storage.secret_box`),
and the API never shows it back.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return "sha256:" + hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str | None, token_hash: str) -> bool:
    """Constant-time check of a presented token against a stored hash."""
    return token is not None and bool(token) and hmac.compare_digest(hash_token(token), token_hash)


def same_token(presented: str | None, expected: str) -> bool:
    """Constant-time comparison for the organizer token (never empty when it counts)."""
    if not presented or not expected:
        return False
    return hmac.compare_digest(presented.encode(), expected.encode())


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, else None.

    >>> bearer_token("Bearer abc"), bearer_token("Basic abc"), bearer_token(None)
    ('abc', None, None)
    """
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None
