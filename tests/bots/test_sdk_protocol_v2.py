"""The bot SDK in protocol version 2: the same ``legal_moves`` for ``choose`` as version 1 would send.

Positions come from random games of every game, variant and seat count the referee ships; each is
sent as the version 1 request (with the list) to a bot started for version 1, and as the version 2
request (without it) to the same bot started for version 2. The bot keeps the ``legal_moves`` it was
given and answers as the reference ``random`` bot, seeded alike: lists and moves must be the same.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.base import RandomBot
from bots.sdk import CannotRebuild, create_bot_app, legal_moves_from_request
from referee import registry
from referee.game import State, canonical_json
from referee.protocol import (
    PROTOCOL_V2,
    PROTOCOL_VERSION,
    SIGNATURE_HEADER,
    encode,
    request_base,
    sign,
    with_legal_moves,
)
from referee.registry import get_game
from referee.rng import Rng
from tests.referee.engine_checks import registered_cases

SECRET = "a-secret-of-the-bot-sdk-tests-0123456789"
MOVES_PER_GAME = 80
SHIPPED = [case for case in registered_cases() if registry.declared().get(case[0], "").startswith("referee.")]


class Keeping:
    """The reference random bot, keeping every ``legal_moves`` list it was given."""

    def __init__(self, seed: int, seen: list[list[Any]]) -> None:
        self.bot = RandomBot(seed)
        self.seen = seen

    def choose(self, request: dict[str, Any]) -> dict[str, Any]:
        self.seen.append(request["legal_moves"])
        return self.bot.choose(request)


def _request(state: State, game_id: str, variant: str, seats: int, turn: int, version: int) -> dict[str, Any]:
    seat = state.current_seat
    assert seat is not None
    request = request_base(
        kind="move",
        match_id="m-sdk",
        game=game_id,
        variant=variant,
        seat=seat,
        seats=seats,
        turn=turn,
        time={"move_ms": 2000, "bank_ms": 0},
        observation=state.observation(seat),
        protocol=version,
    )
    return with_legal_moves(request, state.legal_moves())


def _post(client: Any, message: dict[str, Any]) -> Any:
    body = encode(message)
    return client.post("/", data=body, headers={SIGNATURE_HEADER: sign(SECRET, body)})


@pytest.mark.parametrize(("game_id", "variant", "seats"), SHIPPED)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_a_version_2_bot_chooses_from_the_same_legal_moves_as_in_version_1(
    game_id: str, variant: str, seats: int, seed: int
) -> None:
    seen: dict[int, list[list[Any]]] = {PROTOCOL_VERSION: [], PROTOCOL_V2: []}
    clients = {
        version: create_bot_app(
            factory=lambda _message, version=version: Keeping(seed, seen[version]),
            secret=SECRET,
            protocol=version,
        ).test_client()
        for version in seen
    }
    state = get_game(game_id).start(variant, seats=seats, seed=seed)
    chooser = Rng(seed)
    for turn in range(MOVES_PER_GAME):
        if state.outcome() is not None:
            break
        answers = {}
        for version, client in clients.items():
            request = _request(state, game_id, variant, seats, turn, version)
            before = canonical_json(request["observation"])
            response = _post(client, request)
            assert response.status_code == 200, response.get_json()
            answers[version] = response.get_json()["move"]
            assert canonical_json(request["observation"]) == before, "the rebuild changed the observation"
        assert canonical_json(answers[PROTOCOL_V2]) == canonical_json(answers[PROTOCOL_VERSION]), (
            f"turn {turn}"
        )
        assert canonical_json(seen[PROTOCOL_V2][-1]) == canonical_json(seen[PROTOCOL_VERSION][-1]), (
            f"turn {turn}"
        )
        state.apply(chooser.choice(state.legal_moves()))
    assert seen[PROTOCOL_V2], "no position was tried"


def _volcano_request(version: int) -> dict[str, Any]:
    state = get_game("volcano").start("fiesta-caldera", seats=2, seed=3)
    return _request(state, "volcano", "fiesta-caldera", 2, 0, version)


def test_a_bot_started_for_version_1_refuses_version_2_requests_and_pings_with_400() -> None:
    client = create_bot_app(lambda request: request["legal_moves"][0], secret=SECRET).test_client()
    for message in (_volcano_request(PROTOCOL_V2), {"protocol": 2, "type": "ping", "nonce": "n"}):
        response = _post(client, message)
        assert response.status_code == 400 and "started for protocol 1" in response.get_json()["error"]
    assert _post(client, _volcano_request(PROTOCOL_VERSION)).status_code == 200
    assert _post(client, {"protocol": 1, "type": "ping", "nonce": "n"}).get_json() == {"pong": "n"}


def test_a_bot_started_for_version_2_takes_version_1_requests_and_pings_as_they_are() -> None:
    given_lists: list[Any] = []

    def choose(request: dict[str, Any]) -> dict[str, Any]:
        given_lists.append(request["legal_moves"])
        return request["legal_moves"][-1]

    client = create_bot_app(choose, secret=SECRET, protocol=PROTOCOL_V2).test_client()
    request = _volcano_request(PROTOCOL_VERSION)
    request["legal_moves"] = request["legal_moves"][:2]  # the list given is the list used
    assert _post(client, request).get_json() == {"move": request["legal_moves"][-1]}
    assert given_lists == [request["legal_moves"]]
    for version in (PROTOCOL_VERSION, PROTOCOL_V2):
        ping = {"protocol": version, "type": "ping", "nonce": "n"}
        assert _post(client, ping).get_json() == {"pong": "n"}


def test_a_version_2_request_of_a_game_the_engine_cannot_rebuild_is_a_400_with_the_reason() -> None:
    client = create_bot_app(
        lambda request: request["legal_moves"][0], secret=SECRET, protocol=2
    ).test_client()
    request = _volcano_request(PROTOCOL_V2)
    for broken, fragment in (
        ({**request, "game": "chess"}, "unknown game 'chess'"),
        ({**request, "observation": {"board": "no"}}, "cannot rebuild the legal moves"),
    ):
        response = _post(client, broken)
        assert response.status_code == 400 and fragment in response.get_json()["error"]
    with pytest.raises(CannotRebuild):
        legal_moves_from_request({**request, "observation": {}})


@pytest.mark.parametrize("version", [0, 3, "2", True])
def test_the_sdk_takes_only_the_versions_there_are(version: Any) -> None:
    with pytest.raises(ValueError, match="protocol: protocol must be 1 or 2"):
        create_bot_app(lambda request: request["legal_moves"][0], protocol=version)
