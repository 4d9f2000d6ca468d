"""Flask's JSON provider with orjson encoding: every API answer is encoded several times faster.

A ladder page of 50 rows is about 13 KB of JSON; with the standard library's encoder its encoding
was a visible share of the request. Anything orjson does not encode itself (dates, which Flask
writes as HTTP dates, decimals, objects with ``__html__``) goes to Flask's own ``default``, so
answers read the same as before; keys keep their order, as the records are written. A string that
UTF-8 cannot carry (a lone surrogate in a name stored before names were checked) is shown with
U+FFFD in its place (:mod:`arena.well_formed`), so the answer is well-formed JSON in UTF-8.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

from arena.well_formed import well_formed_json


class OrjsonProvider(DefaultJSONProvider):
    """Flask's default provider, with orjson doing the encoding (request bodies, small, are still
    read by the standard library, which takes integers of any size as the schemas expect)."""

    sort_keys = False  # records keep their fields in a readable order
    _OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        # Flask's responses ask for compact separators, which is all orjson writes; a caller asking
        # for anything else (indent, sorted keys...) gets the standard library's encoder
        if any(key != "separators" for key in kwargs) or kwargs.get("separators", (",", ":")) != (",", ":"):
            return super().dumps(obj, **kwargs)
        try:
            return orjson.dumps(obj, default=self.default, option=self._OPTIONS).decode()
        except TypeError:  # orjson.JSONEncodeError: rare, so the second try costs nothing usually
            obj = well_formed_json(obj)  # a lone surrogate
        try:
            return orjson.dumps(obj, default=self.default, option=self._OPTIONS).decode()
        except TypeError:  # an integer past 64 bits (a bad request's value shown back): exact
            return super().dumps(obj, **kwargs)
