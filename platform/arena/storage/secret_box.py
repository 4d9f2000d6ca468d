"""Bots' signing secrets encrypted at rest, with a key only the API and the workers hold.

A bot's token is kept as a hash, but its signing secret cannot be: the referee signs every request
with it. Kept as it is, every process that can read Redis (the scheduler, the queue monitor, a
backup, anyone who reaches Redis) could sign requests as the platform to every bot. With
``ARENA_SECRETS_KEY`` set (a Fernet key: AES-128-CBC and HMAC-SHA256, from the ``cryptography``
package), a bot record holds its secret encrypted, under ``sealed_secret`` instead of ``secret``;
the key goes to the API and the workers only, which encrypt on write and decrypt on read
(:mod:`arena.storage.bots`).

Without a key, secrets are stored as they are, as before (the API and the workers on Redis warn at
start). Records written so, or before this existed, are read as they are whether a key is set or
not, and sealed when they are next written (:meth:`arena.storage.bots.Bots.prepare_secrets` seals them all
at once). A sealed secret read without a key, or with another key, is a :class:`SecretsKeyError`
naming the bot and what to do, never a secret taken for what it is not.
"""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken

SEALED = "sealed_secret"
"""The bot record's field that holds its secret encrypted (``secret`` holds it as it is)."""
KEY_SETTING = "ARENA_SECRETS_KEY"


class SecretsKeyError(ValueError):
    """A bot's sealed secret cannot be opened: no key is set, or not the one it was sealed with."""


def check_key(key: str) -> None:
    """Raise ``ValueError`` saying what a key must be if ``key`` is not a Fernet key."""
    try:
        Fernet(key)
    except (ValueError, TypeError):
        raise ValueError(
            f"{KEY_SETTING} must be a Fernet key (32 url-safe base64-encoded bytes), such as "
            '`python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"` '
            "prints"
        ) from None


class SecretBox:
    """Seals and opens bots' secrets with the key given, or keeps them as they are without one."""

    def __init__(self, key: str | None = None) -> None:
        self._fernet = Fernet(key) if key else None

    @property
    def sealing(self) -> bool:
        """Whether secrets are written sealed (a key is set)."""
        return self._fernet is not None

    def seal(self, secret: str) -> str:
        assert self._fernet is not None, "seal only with a key (see sealing)"
        return self._fernet.encrypt(secret.encode()).decode("ascii")

    def open(self, sealed: str, bot_id: str) -> str:
        """The secret ``sealed`` holds; :class:`SecretsKeyError` if this key cannot open it."""
        if self._fernet is None:
            raise SecretsKeyError(
                f"bot {bot_id}'s secret is stored encrypted and {KEY_SETTING} is not set: set the key "
                "it was stored with (the API and the workers need it)"
            )
        try:
            return self._fernet.decrypt(sealed.encode("ascii")).decode()
        except (InvalidToken, UnicodeError):
            raise SecretsKeyError(
                f"bot {bot_id}'s secret does not open with {KEY_SETTING}: it was stored with another "
                "key; set the key it was stored with"
            ) from None
