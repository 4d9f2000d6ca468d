"""The shape of the platform's ids, checked by the routes themselves.

A bot id is ``b-`` and 16 hex digits, a match ``m-``, a tournament ``t-``. A path whose id is not of
that shape matches no route (404), so nothing that is not an id ever reaches a store key: before,
``GET /matches/<id>:replay`` read another key of the same match and answered 500.
"""

from __future__ import annotations

from werkzeug.routing import BaseConverter

HEX_DIGITS = 16


class _IdConverter(BaseConverter):
    prefix = ""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__()
        cls.regex = f"{cls.prefix}-[0-9a-f]{{{HEX_DIGITS}}}"


class BotId(_IdConverter):
    prefix = "b"


class MatchId(_IdConverter):
    prefix = "m"


class TournamentId(_IdConverter):
    prefix = "t"


CONVERTERS: dict[str, type[BaseConverter]] = {
    "bot_id": BotId,
    "match_id": MatchId,
    "tournament_id": TournamentId,
}
"""Route converter names (``/<match_id:match_id>``) and their classes."""


def openapi_schema(converter: BaseConverter) -> dict[str, str]:
    """The OpenAPI schema of an id path parameter (flask-smorest calls it with the route's converter)."""
    return {"type": "string", "pattern": f"^{converter.regex}$"}
