"""The bot author's helper: signatures, notices, per-match bots, the move answer."""

from __future__ import annotations

import json

from bots.sdk import create_bot_app
from referee.protocol import SIGNATURE_HEADER, encode, sign

SECRET = "s3cret"


def _message(kind: str, match_id: str = "m1", seat: int = 0) -> dict:
    message = {"protocol": 1, "type": kind, "match_id": match_id, "seat": seat, "observation": {}}
    if kind == "move":
        message["legal_moves"] = [{"take": 1}, {"take": 2}]
    return message


def _post(client, message: dict, secret: str | None = SECRET):
    body = encode(message)
    headers = {SIGNATURE_HEADER: sign(secret, body)} if secret else {}
    return client.post("/", data=body, headers=headers, content_type="application/json")


def test_a_signed_move_request_gets_the_functions_move() -> None:
    client = create_bot_app(lambda request: request["legal_moves"][-1], secret=SECRET).test_client()
    response = _post(client, _message("move"))
    assert response.status_code == 200
    assert response.get_json() == {"move": {"take": 2}}


def test_unsigned_or_wrongly_signed_requests_are_refused() -> None:
    client = create_bot_app(lambda request: request["legal_moves"][0], secret=SECRET).test_client()
    assert _post(client, _message("move"), secret=None).status_code == 401
    assert _post(client, _message("move"), secret="other").status_code == 401
    body = encode(_message("move"))
    tampered = body.replace(b'"seat":0', b'"seat":1')
    response = client.post("/", data=tampered, headers={SIGNATURE_HEADER: sign(SECRET, body)})
    assert response.status_code == 401


def test_notices_are_answered_and_each_match_seat_gets_its_own_bot() -> None:
    built: list[tuple[str, int]] = []

    class Counter:
        def __init__(self, message: dict) -> None:
            built.append((message["match_id"], message["seat"]))
            self.moves = 0

        def choose(self, request: dict) -> dict:
            self.moves += 1
            return {"take": self.moves}

    client = create_bot_app(factory=Counter, secret=SECRET).test_client()
    assert _post(client, _message("start")).get_json() == {"ok": True}
    assert _post(client, _message("move")).get_json() == {"move": {"take": 1}}
    assert _post(client, _message("move")).get_json() == {"move": {"take": 2}}
    assert _post(client, _message("move", match_id="m2")).get_json() == {"move": {"take": 1}}
    assert _post(client, _message("end")).get_json() == {"ok": True}
    assert _post(client, _message("move")).get_json() == {"move": {"take": 1}}  # a new bot after end
    assert built == [("m1", 0), ("m2", 0), ("m1", 0)]


def test_garbage_is_a_400_not_a_crash() -> None:
    client = create_bot_app(lambda request: {}, secret=None).test_client()
    assert client.post("/", data=b"not json").status_code == 400
    assert client.post("/", data=json.dumps({"type": "dance"})).status_code == 400
