"""How request bodies are read: strict JSON, refused with a 400 that says why.

webargs reads bodies with :func:`json.loads` and only expects ``JSONDecodeError``; some bodies break
``json.loads`` in other ways, and each of them used to end as a 500:

- nesting deeper than the interpreter's recursion limit (``[[[[...]]]]``) raises ``RecursionError``;
- an integer of more than 4300 digits raises a plain ``ValueError``;
- ``NaN`` and ``Infinity`` are not JSON, yet Python reads them, and a NaN stored in a match would
  make every later answer about it invalid JSON.

Query parameters a path does not know are refused (422 naming them) as unknown body fields are:
``?varient=solitaire`` must not quietly show the default variant's ladder.

:class:`ArenaBlueprint` is flask-smorest's ``Blueprint`` with this parser, for every resource.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import flask
from flask_smorest import Blueprint
from marshmallow import RAISE, Schema
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request
from webargs.multidictproxy import MultiDictProxy
from werkzeug.datastructures import MultiDict

from arena.api import paging

PAGING = frozenset({"page", "page_size"})
View = TypeVar("View", bound=Callable[..., object])


def _no_constants(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON value")


def _reason(error: Exception) -> str:
    if isinstance(error, RecursionError):
        return "it is nested too deeply"
    return str(error).split("; use sys.set_int_max_str_digits", 1)[0]


class StrictJsonParser(FlaskParser):
    """webargs' Flask parser, reading JSON strictly and answering 400 for anything it cannot read."""

    DEFAULT_UNKNOWN_BY_LOCATION = {
        **FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION,
        "query": RAISE,
        "querystring": RAISE,
    }

    def load_querystring(self, req: flask.Request, schema: Schema) -> Any:
        """The query string less flask-smorest's paging parameters, which its ``paginate`` reads."""
        return MultiDictProxy(
            MultiDict([(k, v) for k, v in req.args.items(multi=True) if k not in PAGING]), schema
        )

    def _raw_load_json(self, req: flask.Request) -> Any:
        if not is_json_request(req):
            return core.missing
        raw = req.get_data(cache=True)
        if not raw:
            return core.missing
        try:
            return json.loads(raw, parse_constant=_no_constants)
        except (ValueError, RecursionError) as error:  # JSONDecodeError and UnicodeDecodeError too
            abort(400, message=f"The body is not valid JSON: {_reason(error)}.")


PAGE_FIELDS = ("total", "total_pages", "first_page", "last_page", "page", "previous_page", "next_page")


class ArenaBlueprint(Blueprint):
    ARGUMENTS_PARSER = StrictJsonParser()
    PAGINATION_ARGUMENTS_PARSER = paging.PagingParser()

    def paginate(self, pager: Any = None, **kwargs: Any) -> Callable[[View], View]:
        """flask-smorest's ``paginate``, its ``page`` bounded (:mod:`arena.api.paging`) in the
        document as it is when read."""
        decorate = super().paginate(pager, **kwargs)

        def decorator(view: View) -> View:
            wrapped = decorate(view)
            documented = wrapped._apidoc["pagination"]["parameters"]  # type: ignore[attr-defined]  # flask-smorest's
            documented["schema"] = paging.bounded(documented["schema"])
            return wrapped

        return decorator

    def arguments(self, schema: type[Schema] | Schema, **kwargs: Any) -> Callable[[View], View]:
        """flask-smorest's ``arguments``, with a schema class made into its instance once, here.

        Given the class, webargs builds an instance for every request, and marshmallow deep-copies
        the declared fields and builds the nested schemas for each: a fifth of the CPU of a
        ``POST /api/v1/matches``. Loading keeps no state on the instance, so one serves them all."""
        return super().arguments(schema() if isinstance(schema, type) else schema, **kwargs)

    def _document_pagination_metadata(self, spec: Any, resp_doc: dict[str, Any]) -> None:
        """The ``X-Pagination`` header holds JSON; say so (``content``), where flask-smorest's own
        description reads as OpenAPI's comma-separated object style."""
        resp_doc.setdefault("headers", {})[self.PAGINATION_HEADER_NAME] = {
            "description": "paging, as JSON: " + ", ".join(PAGE_FIELDS) + " (absent fields do not apply)",
            "content": {
                "application/json": {
                    "schema": {
                        "type": "object",
                        "properties": {name: {"type": "integer"} for name in PAGE_FIELDS},
                        "additionalProperties": False,
                    }
                }
            },
        }
