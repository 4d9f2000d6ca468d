"""``validate=True``: the SDK checks each move request and the bot's move against the game's JSON
Schemas, and says which field does not fit."""

from __future__ import annotations

import json
from typing import Any

from bots.sdk import create_bot_app
from referee.game import canonical_json
from referee.protocol import SIGNATURE_HEADER, encode, sign
from referee.registry import get_game

SECRET = "s3cret"


def _request(game_id: str = "volcano") -> dict[str, Any]:
    game = get_game(game_id)
    state = game.start(game.default_variant, seats=2, seed=4)
    seat = state.current_seat
    return json.loads(
        canonical_json(
            {
                "protocol": 1,
                "type": "move",
                "match_id": "m1",
                "game": game_id,
                "variant": game.default_variant,
                "seat": seat,
                "seats": 2,
                "turn": 0,
                "time": {"move_ms": 1000, "bank_ms": 0},
                "observation": state.observation(seat),
                "legal_moves": state.legal_moves(),
            }
        )
    )


def _post(app: Any, message: dict[str, Any]) -> Any:
    body = encode(message)
    return app.test_client().post("/", data=body, headers={SIGNATURE_HEADER: sign(SECRET, body)})


def test_a_request_and_a_move_of_the_games_shape_pass() -> None:
    app = create_bot_app(lambda request: request["legal_moves"][0], secret=SECRET, validate=True)
    response = _post(app, _request())
    assert response.status_code == 200 and response.get_json()["move"]["type"] == "step"


def test_an_observation_that_does_not_fit_is_answered_400_naming_the_field() -> None:
    app = create_bot_app(lambda request: request["legal_moves"][0], secret=SECRET, validate=True)
    message = _request()
    message["observation"]["turn"] = "first"
    response = _post(app, message)
    assert response.status_code == 400
    assert response.get_json()["error"] == (
        "the observation does not fit the game's JSON Schema: turn: 'first' is not of type 'integer'"
    )


def test_a_move_that_does_not_fit_is_answered_500_naming_it_and_without_the_flag_it_goes_out() -> None:
    def choose(request: dict[str, Any]) -> dict[str, Any]:
        return {"type": "step", "from": [9, 9], "dir": "N"}

    response = _post(create_bot_app(choose, secret=SECRET, validate=True), _request())
    assert response.status_code == 500
    assert response.get_json()["error"].startswith("the bot's move does not fit the game's JSON Schema")
    unchecked = _post(create_bot_app(choose, secret=SECRET), _request())
    assert unchecked.status_code == 200 and unchecked.get_json()["move"]["from"] == [9, 9]


def test_a_game_without_schemas_is_not_checked() -> None:
    app = create_bot_app(lambda request: request["legal_moves"][0], secret=SECRET, validate=True)
    message = {**_request(), "game": "no-such-game"}
    assert _post(app, message).status_code == 200
