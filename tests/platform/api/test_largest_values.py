"""Every number the OpenAPI document allows is one the platform can take: each integer a request may
carry has a maximum there, and the largest values sent to every list are answered as documented (a
page past the last is an empty page), never a 5xx."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import schemathesis

from arena.api import create_app
from tests.platform.conftest import Arena, ListQueue, make_runtime


def _resolve(document: dict[str, Any], node: Any) -> Any:
    """``node`` with its ``$ref`` (``#/components/schemas/X``) followed."""
    while isinstance(node, dict) and "$ref" in node:
        target: Any = document
        for part in node["$ref"].split("/")[1:]:
            target = target[part]
        node = target
    return node


def _integers(
    document: dict[str, Any], node: Any, where: str, seen: frozenset[str]
) -> Iterator[tuple[str, Any]]:
    """Every integer schema within ``node`` (a request's parameter or body), with where it is."""
    if isinstance(node, dict) and "$ref" in node:
        if node["$ref"] in seen:
            return
        seen = seen | {node["$ref"]}
        node = _resolve(document, node)
    if isinstance(node, dict):
        if node.get("readOnly"):  # answered, never read
            return
        if node.get("type") == "integer":
            yield where, node
        for key, value in node.items():
            if key not in ("example", "examples", "default"):
                yield from _integers(document, value, f"{where}/{key}", seen)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _integers(document, value, f"{where}[{index}]", seen)


def request_integers(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every integer a request may carry: query and path parameters, and request bodies' fields."""
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            where = path if method == "parameters" else f"{method.upper()} {path}"
            parameters = operation if method == "parameters" else operation.get("parameters", [])
            for parameter in parameters:
                yield from _integers(document, parameter, f"{where} {parameter['name']}", frozenset())
            if method != "parameters":
                yield from _integers(document, operation.get("requestBody", {}), f"{where} body", frozenset())


def test_every_integer_a_request_may_carry_has_bounds_in_the_document() -> None:
    document = create_app(make_runtime(ListQueue())).test_client().get("/api/v1/openapi.json").get_json()
    found = list(request_integers(document))
    assert any("page" in where for where, _ in found)  # the walk reaches the paging parameters
    unbounded = [
        where
        for where, schema in found
        if "enum" not in schema and ("maximum" not in schema or "minimum" not in schema)
    ]
    assert unbounded == []


def largest_query(operation: dict[str, Any]) -> dict[str, int]:
    """Each integer query parameter of ``operation`` at the largest value the document allows."""
    return {
        parameter["name"]: parameter["schema"]["maximum"]
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query" and parameter["schema"].get("type") == "integer"
    }


def header(headers: Any, name: str) -> str:
    """A header of a schemathesis response (its names lower-cased, its values lists)."""
    value = {key.lower(): found for key, found in headers.items()}[name.lower()]
    return str(value[0] if isinstance(value, list) else value)


def test_the_largest_values_the_document_allows_are_answered_as_documented(arena: Arena) -> None:
    first = arena.register("First", "/first/1", ["nim"])
    last = arena.register("Last", "/last/1", ["nim"])
    match = arena.match(game="nim", bots=[first["id"], last["id"]], seed=3)
    arena.run_queue()
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", arena.client.application)
    document = arena.client.get("/api/v1/openapi.json").get_json()
    path_values = {"game_id": "nim", "match_id": match["id"], "bot_id": first["id"]}
    lists = []
    for path, operations in document["paths"].items():
        query = largest_query(operations.get("get", {}))
        if not query:
            continue
        path_parameters = {name: value for name, value in path_values.items() if "{" + name + "}" in path}
        case = schema[path]["GET"].Case(query=query, path_parameters=path_parameters or None)
        answer = case.call()
        case.validate_response(answer)  # status, content type, headers and body as documented
        assert answer.status_code == 200, (path, answer.text)
        body = answer.json()
        if "page" in query:  # a page past the last: empty, the total as on every page
            rows = body["entries"] if isinstance(body, dict) else body
            assert rows == [], path
            paging = json.loads(header(answer.headers, "X-Pagination"))
            assert paging["total"] >= 0 and "page" not in paging and "next_page" not in paging
        else:  # a match's moves from past its last move: none
            assert body["moves"] == [] and body["start"] == query["start"]
        lists.append(path)
    every_list = {"/api/v1/bots", "/api/v1/matches", "/api/v1/tournaments", "/api/v1/ladders/{game_id}"}
    assert every_list <= set(lists)
    assert "/api/v1/matches/{match_id}/moves" in lists


def test_a_page_number_past_the_documented_maximum_is_refused_naming_page(arena: Arena) -> None:
    for path in ("/api/v1/bots", "/api/v1/matches", "/api/v1/tournaments", "/api/v1/ladders/nim"):
        answer = arena.client.get(f"{path}?page=5976355040509708288")
        assert answer.status_code == 422, path
        assert list(answer.get_json()["errors"]) == ["page"]
        assert arena.client.get("/api/v1/health").status_code == 200
