"""The OpenAPI document, tested by schemathesis: every operation fed generated requests, with and
without the organizer token; no 5xx, and every answer as the document says (status, content type,
body schema, headers)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from arena.api import create_app
from tests.platform.conftest import ADMIN, ListQueue, make_runtime

APP = create_app(make_runtime(ListQueue()))
SCHEMA = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", APP)
_RESOLVE = socket.getaddrinfo


def _numeric_only(host: Any, *args: Any, **kwargs: Any) -> Any:
    """Generated endpoints name random hosts: resolve numeric addresses only, never ask DNS."""
    return _RESOLVE(host, *args, **{**kwargs, "flags": socket.AI_NUMERICHOST})


@pytest.fixture(autouse=True)
def offline() -> Iterator[None]:
    with mock.patch("referee.transport.endpoints.socket.getaddrinfo", _numeric_only):
        yield


@pytest.mark.parametrize("token", [None, ADMIN], ids=["anonymous", "organizer"])
@SCHEMA.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case: Any, token: str | None) -> None:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    # a request valid by the document may still name a game or bot that does not exist: 422 is the
    # documented answer then, so "valid data must be accepted" is not a check of this API
    case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])


LISTS = SCHEMA.include(method="GET", path=["/api/v1/matches", "/api/v1/bots", "/api/v1/tournaments"])


@LISTS.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_list_filter_the_document_allows_is_accepted(case: Any) -> None:
    """A list's filters are values to match: whatever the document allows is answered (an empty
    page when nothing fits), never refused by a rule the document does not state."""
    case.call_and_validate()
