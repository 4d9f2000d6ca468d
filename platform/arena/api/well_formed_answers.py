"""Answers whose text can always be sent: a page or a body holding a lone surrogate is sent with
U+FFFD in its place (:mod:`arena.well_formed`), never turned into a 500.

A page is a string encoded to UTF-8 as the answer is made; a lone surrogate in a name stored before
names were checked used to make that encoding, and so the page, fail for everyone. The pages escape
what they show (Jinja's autoescape); this only makes sure the result can be encoded. JSON answers
are made well formed by :class:`arena.api.json_provider.OrjsonProvider`.
"""

from __future__ import annotations

from typing import Any

from flask import Response

from arena.well_formed import well_formed


class WellFormedResponse(Response):
    """Flask's response, encoding a text body with each lone surrogate as U+FFFD."""

    def set_data(self, value: Any) -> None:
        if isinstance(value, str):
            value = well_formed(value).encode("utf-8")
        super().set_data(value)
