"""A match's time control and fault limit within the platform's bounds (``ARENA_MAX_MOVE_MS``,
``ARENA_MAX_BANK_MS``, ``ARENA_MAX_FAULTS``): one check for challenges, organizer matches,
tournaments and continuous ladders, a 422 naming the field and the bound above it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from arena.settings import Settings
from tests.platform.conftest import Arena

DEFAULTS = Settings()
AT_THE_BOUNDS: dict[str, Any] = {
    "time": {"move_ms": DEFAULTS.max_move_ms, "bank_ms": DEFAULTS.max_bank_ms},
    "max_faults": DEFAULTS.max_faults,
}
ABOVE: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (
        {"time": {"move_ms": DEFAULTS.max_move_ms + 1}},
        {"time": {"move_ms": [f"at most {DEFAULTS.max_move_ms} ms on this platform"]}},
    ),
    (
        {"time": {"bank_ms": DEFAULTS.max_bank_ms + 1}},
        {"time": {"bank_ms": [f"at most {DEFAULTS.max_bank_ms} ms on this platform"]}},
    ),
    (
        {"max_faults": DEFAULTS.max_faults + 1},
        {"max_faults": [f"at most {DEFAULTS.max_faults} on this platform"]},
    ),
]
IDS = ["move_ms", "bank_ms", "max_faults"]


@pytest.fixture
def pair(arena: Arena) -> list[dict[str, Any]]:
    return [
        arena.register("mine", "/first/mine", ["nim", "party"]),
        arena.register("b", "/first/b", ["nim", "party"]),
    ]


def challenge(arena: Arena, pair: list[dict[str, Any]], **body: Any) -> Any:
    request = {"game": "nim", "bots": [bot["id"] for bot in pair], **body}
    return arena.client.post(
        "/api/v1/matches", json=request, headers={"Authorization": f"Bearer {pair[0]['token']}"}
    )


def organizer_match(arena: Arena, pair: list[dict[str, Any]], **body: Any) -> Any:
    request = {"game": "nim", "bots": [bot["id"] for bot in pair], **body}
    return arena.client.post("/api/v1/matches", json=request, headers=arena.admin())


def tournament(arena: Arena, pair: list[dict[str, Any]], **body: Any) -> Any:
    request = {
        "name": "t",
        "game": "nim",
        "format": "round_robin",
        "bots": [bot["id"] for bot in pair],
        "seats_per_match": 2,
        **body,
    }
    return arena.client.post("/api/v1/tournaments", json=request, headers=arena.admin())


def ladder(arena: Arena, pair: list[dict[str, Any]], **body: Any) -> Any:
    request = {"matches_per_minute": 1, **body}
    return arena.client.put("/api/v1/ladders/party/open/matchmaking", json=request, headers=arena.admin())


REQUESTS = [challenge, organizer_match, tournament, ladder]
ACCEPTED = {challenge: 202, organizer_match: 202, tournament: 202, ladder: 200}


@pytest.mark.parametrize("send", REQUESTS, ids=lambda send: send.__name__)
def test_every_field_at_its_bound_is_accepted(arena: Arena, pair, send) -> None:
    answer = send(arena, pair, **AT_THE_BOUNDS)
    assert answer.status_code == ACCEPTED[send], answer.get_json()
    assert answer.get_json()["time"] == AT_THE_BOUNDS["time"]
    assert answer.get_json()["max_faults"] == AT_THE_BOUNDS["max_faults"]


@pytest.mark.parametrize("send", REQUESTS, ids=lambda send: send.__name__)
@pytest.mark.parametrize(("body", "errors"), ABOVE, ids=IDS)
def test_a_field_above_its_bound_is_a_422_naming_the_field_and_the_bound(
    arena: Arena, pair, send, body, errors
) -> None:
    answer = send(arena, pair, **body)
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == errors
    assert arena.queue.ids == [], "nothing is queued"


def test_the_challenge_that_held_a_worker_for_hours_is_refused_on_every_count(arena: Arena, pair) -> None:
    answer = challenge(arena, pair, time={"move_ms": 60_000, "bank_ms": 600_000}, max_faults=1000)
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == {
        "time": {"bank_ms": ["at most 300000 ms on this platform"]},
        "max_faults": ["at most 20 on this platform"],
    }


def test_the_bounds_are_the_platforms_settings(arena: Arena, pair) -> None:
    arena.runtime.settings = replace(arena.runtime.settings, max_move_ms=10_000, max_bank_ms=0, max_faults=5)
    answer = organizer_match(arena, pair, time={"move_ms": 10_001, "bank_ms": 1}, max_faults=6)
    assert answer.status_code == 422
    assert answer.get_json()["errors"] == {
        "time": {
            "move_ms": ["at most 10000 ms on this platform"],
            "bank_ms": ["at most 0 ms on this platform"],
        },
        "max_faults": ["at most 5 on this platform"],
    }
    answer = organizer_match(arena, pair, time={"move_ms": 10_000, "bank_ms": 0}, max_faults=5)
    assert answer.status_code == 202, answer.get_json()


def test_the_bounds_are_named_beside_the_games_own_errors(arena: Arena, pair) -> None:
    answer = organizer_match(arena, pair, options={"stones": 0}, max_faults=21)
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    assert errors["max_faults"] == ["at most 20 on this platform"] and "stones" in errors["options"]
