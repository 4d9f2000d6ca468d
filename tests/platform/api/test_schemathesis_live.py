"""The OpenAPI document, fuzzed by schemathesis against a live platform: the embedded default
(``arena serve``) and a deployment on Redis (gunicorn with ``deploy/gunicorn.conf.py``), each
anonymous and with the organizer token. Every answer as documented, never a 5xx; after every
generated request another client gets ``/api/v1/health`` and the home page at once (200: no request
may change what others get); after the fuzzing every page reached from the home page answers
without a 5xx.

A page number too large for Redis once made the store answer a command error that the API took for
an outage: every client got 503 for 5 s, and every page crawled after such a run was a 503. The
in-process test (``test_schemathesis.py``) runs on fakeredis, through no server; this one runs where
that happened. Example counts are small: the in-process test explores more.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.platform.deployed import ADMIN, NUMERIC_ONLY, ROOT, gunicorn_api, status_of
from tests.platform.own_redis import free_port, own_redis_server
from tests.platform.waiting import wait_until

pytestmark = pytest.mark.integration

GENEROUS_LIMITS = {
    # the fuzzing's requests all come from one address: limits of their own tests, not of this one
    "ARENA_REGISTRATION_LIMIT": "10000 per second",
    "ARENA_CHALLENGE_LIMIT": "10000 per second",
    "ARENA_PING_LIMIT": "10000 per second",
    "ARENA_PING_HOST_LIMIT": "10000 per second",
    "ARENA_HOUSE_BOTS": "1",
}
EXAMPLES = 8
"""Generated requests per operation and run (24 operations, four runs)."""
MOST_PAGES = 150
"""A bound on the crawl: far more pages than a fuzzed platform links from its home page."""
LINK = re.compile(r'href="(/[^"#?]*)')


def _serve_embedded(directory: Path) -> Iterator[str]:
    """``arena serve`` on the embedded default, resolving numeric addresses only; its base URL."""
    port = free_port()
    script = NUMERIC_ONLY + (
        "\n_numeric_only_resolver()\nimport sys\nfrom arena.cli.main import main\n"
        f"sys.exit(main(['serve', '--host', '127.0.0.1', '--port', '{port}']))\n"
    )
    environment = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "platform"),
        "ARENA_ADMIN_TOKEN": ADMIN,
        **GENEROUS_LIMITS,
    }
    environment.pop("REDIS_URL", None)
    log = directory / "serve.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-c", script], cwd=ROOT, env=environment, stdout=sink, stderr=subprocess.STDOUT
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until(
            lambda: server.poll() is not None or status_of(f"{base}/api/v1/health", 2.0) == 200,
            60,
            "arena serve did not become healthy",
        )
        assert server.poll() is None, log.read_text()
        yield base
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture(scope="module", params=["embedded", "redis"])
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    directory = tmp_path_factory.mktemp(request.param)
    if request.param == "embedded":
        yield from _serve_embedded(directory)
        return
    with (
        own_redis_server("fuzzed") as redis_url,
        gunicorn_api(redis_url, directory, **GENEROUS_LIMITS) as base,
    ):
        yield base


def largest_numbers(document: dict[str, Any], method: str, path: str) -> dict[str, int]:
    """The integer query parameters of a ``GET`` at their largest: the document's maximum, or a
    number past Redis' 64-bit integers where the document sets none (a fuzzer finds one in time;
    a run of a few examples is told it)."""
    if method.upper() != "GET":
        return {}
    return {
        parameter["name"]: parameter["schema"].get("maximum", 2**63)
        for parameter in document["paths"][path]["get"].get("parameters", [])
        if parameter["in"] == "query" and parameter["schema"].get("type") == "integer"
    }


def others_answered_at_once(base: str) -> None:
    """Another client, right after: the health check and the home page answer 200."""
    assert status_of(f"{base}/api/v1/health") == 200
    assert status_of(f"{base}/", headers={"Accept": "text/html"}) == 200


def fuzz(operation: Any, live: str, headers: dict[str, str], edges: dict[str, Any]) -> None:
    """A few generated requests to ``operation``, each followed by another client's reads; with
    ``edges`` (``query`` and ``path`` values), each also sent again with those."""
    checks: dict[str, Any] = {"excluded_checks": [positive_data_acceptance], "timeout": 30}

    @given(case=operation.as_strategy())
    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def fuzzed(case: Any) -> None:
        # as in the in-process test: a request valid by the document may name what does not exist
        case.call_and_validate(headers=headers, **checks)
        others_answered_at_once(live)
        if edges["query"]:  # the same request with its numbers at their largest, on what exists
            edge = operation.Case(
                query={**(case.query or {}), **edges["query"]},
                path_parameters={**(case.path_parameters or {}), **edges["path"]},
            )
            edge.call_and_validate(headers=headers, **checks)
            others_answered_at_once(live)

    fuzzed()


@pytest.mark.parametrize("token", [None, ADMIN], ids=["anonymous", "organizer"])
def test_every_operation_answers_as_documented_and_others_are_answered_at_once(
    live: str, token: str | None
) -> None:
    """Every operation of the document, a few generated requests each (hypothesis' ``given`` on the
    operation's strategy: schemathesis' pytest loader does not run under this pytest)."""
    schema = schemathesis.openapi.from_url(f"{live}/api/v1/openapi.json")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 20
    document = json.loads(urllib.request.urlopen(f"{live}/api/v1/openapi.json", timeout=30).read())
    games = json.loads(urllib.request.urlopen(f"{live}/api/v1/games", timeout=30).read())
    existing = {"game_id": games[0]["id"]}
    for operation in operations:
        path = {name: value for name, value in existing.items() if "{" + name + "}" in operation.path}
        edges = {"query": largest_numbers(document, operation.method, operation.path), "path": path}
        fuzz(operation, live, headers, edges)


def test_after_the_fuzzing_every_page_answers_without_a_server_error(live: str) -> None:
    seen: set[str] = set()
    queue = ["/"]
    failures = []
    while queue and len(seen) < MOST_PAGES:
        path = queue.pop(0)
        if path in seen or path.startswith(("/static", "/api/")):
            continue
        seen.add(path)
        request = urllib.request.Request(f"{live}{path}", headers={"Accept": "text/html"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, text = int(answer.status), answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            status, text = int(error.code), ""
        if status >= 500:
            failures.append((path, status))
        queue.extend(link for link in LINK.findall(text) if link not in seen)
    assert len(seen) > 5  # the crawl went past the home page
    assert failures == []
    others_answered_at_once(live)
