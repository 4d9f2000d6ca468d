# flask-smorest ships neither types nor a py.typed marker: these are the types of the part the platform
# uses (flask_smorest/__init__.py, blueprint.py, arguments.py, response.py, pagination.py,
# error_handler.py of 0.47). A name used from flask-smorest that is missing here is a mypy error, which
# is the cue to add it, from flask-smorest's own signature.
#
# Every decorator is typed as handing back what it was given: ``route`` returns the view function or
# MethodView class itself, the others a functools.wraps wrapper that Flask calls as it would the view.

from collections.abc import Callable, Mapping, Sequence
from http import HTTPStatus
from typing import Any, ClassVar, TypeVar

from apispec import APISpec
from flask import Blueprint as FlaskBlueprint
from flask import Flask
from flask.typing import ResponseReturnValue
from flask_smorest.pagination import Page
from marshmallow import Schema
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import HTTPException
from werkzeug.routing import BaseConverter

_View = TypeVar("_View", bound=Callable[..., object])
_StatusCode = int | str | HTTPStatus
_SchemaArg = type[Schema] | Schema

class Blueprint(FlaskBlueprint):
    ARGUMENTS_PARSER: ClassVar[FlaskParser]
    PAGINATION_HEADER_NAME: ClassVar[str | None]
    description: str

    def __init__(
        self, name: str, import_name: str, *args: Any, description: str = "", **kwargs: Any
    ) -> None: ...
    def route(
        self,
        rule: str,
        *,
        parameters: Sequence[str | Mapping[str, Any]] | None = None,
        tags: Sequence[str] | None = None,
        **options: Any,
    ) -> Callable[[_View], _View]: ...
    def arguments(
        self,
        schema: _SchemaArg,
        *,
        location: str = "json",
        content_type: str | None = None,
        required: bool = True,
        description: str | None = None,
        example: object = None,
        examples: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> Callable[[_View], _View]: ...
    def response(
        self,
        status_code: _StatusCode,
        schema: _SchemaArg | str | Mapping[str, Any] | None = None,
        *,
        content_type: str | None = None,
        description: str | None = None,
        example: object = None,
        examples: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
    ) -> Callable[[_View], _View]: ...
    def alt_response(
        self,
        status_code: _StatusCode,
        response: str | Mapping[str, Any] | None = None,
        *,
        schema: _SchemaArg | str | Mapping[str, Any] | None = None,
        content_type: str | None = None,
        description: str | None = None,
        example: object = None,
        examples: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        success: bool = False,
    ) -> Callable[[_View], _View]: ...
    def paginate(
        self,
        pager: type[Page] | None = None,
        *,
        page: int | None = None,
        page_size: int | None = None,
        max_page_size: int | None = None,
    ) -> Callable[[_View], _View]: ...
    @staticmethod
    def doc(**kwargs: Any) -> Callable[[_View], _View]: ...
    def _document_pagination_metadata(self, spec: APISpec, resp_doc: dict[str, Any]) -> None: ...

class Api:
    ERROR_SCHEMA: ClassVar[type[Schema]]
    spec: APISpec | None

    def __init__(
        self,
        app: Flask | None = None,
        *,
        spec_kwargs: Mapping[str, Any] | None = None,
        config_prefix: str = "",
    ) -> None: ...
    def init_app(self, app: Flask, *, spec_kwargs: Mapping[str, Any] | None = None) -> None: ...
    def register_blueprint(
        self, blp: Blueprint, *, parameters: Sequence[str | Mapping[str, Any]] | None = None, **options: Any
    ) -> None: ...
    def register_converter(
        self, converter: type[BaseConverter], func: Callable[[BaseConverter], Mapping[str, Any]]
    ) -> None: ...
    def handle_http_exception(self, error: HTTPException) -> ResponseReturnValue: ...
