"""The largest page a list answers: a bound in the OpenAPI document, checked with the other paging
parameters.

flask-smorest's ``page`` has a minimum and no maximum, and a page's first row is
``(page - 1) * page_size``: ``?page=5976355040509708288`` asked Redis for a range past its 64-bit
integers, and Redis answered with a command error. :data:`MAX_PAGE` pages of the largest page size
are far more rows than any list holds, and far below what Redis (or a Python slice) takes; a page
past the last is an empty page, ``X-Pagination`` giving the total as on every page.

:class:`PagingParser` reads the paging parameters with the bound; :func:`bounded` gives the schema
that has it, for the parser and for the document alike.
"""

from __future__ import annotations

import functools
from typing import Any

from marshmallow import Schema, fields, validate
from webargs.flaskparser import FlaskParser

MAX_PAGE = 1_000_000
"""The largest ``page`` of every list (``page_size`` has its own maximum per list)."""


@functools.cache
def bounded(paging: type[Schema]) -> type[Schema]:
    """flask-smorest's paging schema ``paging`` with ``page`` at most :data:`MAX_PAGE` (its default
    kept). One class per schema, so that the document shows the schema the requests are read with."""
    default = paging._declared_fields["page"].load_default

    class BoundedPaging(paging):  # type: ignore[misc,valid-type]  # a class made at run time
        page = fields.Integer(
            load_default=default,
            validate=validate.Range(min=1, max=MAX_PAGE),
            metadata={"description": "a page past the last is empty"},
        )

    BoundedPaging.__name__ = paging.__name__
    return BoundedPaging


class PagingParser(FlaskParser):
    """flask-smorest's paging parser, reading ``page`` and ``page_size`` with :func:`bounded`."""

    def parse(self, argmap: Any, req: Any = None, **kwargs: Any) -> Any:
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            argmap = bounded(argmap)
        return super().parse(argmap, req, **kwargs)
