"""The reference-bot server: every registered game's bots, signatures, reproducible play."""

from __future__ import annotations

from bots.registry import bots_for
from bots.server import create_app, reference_paths
from referee.protocol import SIGNATURE_HEADER, encode, request_base, sign
from referee.registry import all_games


def _move_request(game_id: str, match_id: str = "m1") -> dict:
    game = next(g for g in all_games() if g.id == game_id)
    variant = game.variant(game.default_variant)
    seats = variant.seats[0]
    state = game.start(variant.name, seats=seats, seed=3)
    seat = state.current_seat
    message = request_base(
        kind="move",
        match_id=match_id,
        game=game_id,
        variant=variant.name,
        seat=seat,
        seats=seats,
        turn=0,
        time={"move_ms": 1000, "bank_ms": 0},
        observation=state.observation(seat),
    )
    message["legal_moves"] = state.legal_moves()
    return message


def test_the_listing_names_every_reference_bot_of_every_game() -> None:
    listing = create_app().test_client().get("/").get_json()["bots"]
    served = {f"{entry['game']}/{entry['bot']}" for entry in listing}
    expected = {f"{game.id}/{name}" for game in all_games() for name in bots_for(game.id)}
    assert served == expected == set(reference_paths())
    assert all("random" in bots_for(game.id) for game in all_games()), "every game has a random bot"


def test_every_reference_bot_answers_a_move_request_with_a_legal_move() -> None:
    client = create_app().test_client()
    for path in reference_paths():
        game_id = path.split("/")[0]
        message = _move_request(game_id)
        response = client.post(f"/{path}", data=encode(message))
        assert response.status_code == 200, path
        assert response.get_json()["move"] in message["legal_moves"], path


def test_a_path_with_a_secret_refuses_unsigned_requests() -> None:
    secrets: dict[str, str] = {}
    client = create_app(secrets).test_client()
    body = encode(_move_request("vulkan"))
    assert client.post("/vulkan/random", data=body).status_code == 200
    secrets["vulkan/random"] = "abc"  # filled after the server started, as the demo does
    assert client.post("/vulkan/random", data=body).status_code == 401
    signed = client.post("/vulkan/random", data=body, headers={SIGNATURE_HEADER: sign("abc", body)})
    assert signed.status_code == 200


def test_unknown_paths_are_404() -> None:
    assert create_app().test_client().post("/vulkan/nobody", data=b"{}").status_code == 404


def test_the_same_match_and_seat_get_the_same_play() -> None:
    first = create_app().test_client().post("/vulkan/random", data=encode(_move_request("vulkan", "x")))
    again = create_app().test_client().post("/vulkan/random", data=encode(_move_request("vulkan", "x")))
    assert first.get_json() == again.get_json()


def test_every_reference_bot_answers_the_ping_signed_with_its_secret() -> None:
    secrets = {path: f"secret of {path}" for path in reference_paths()}
    client = create_app(secrets).test_client()
    for path in reference_paths():
        body = encode({"protocol": 1, "type": "ping", "nonce": path})
        answer = client.post(f"/{path}", data=body, headers={SIGNATURE_HEADER: sign(secrets[path], body)})
        assert answer.get_json() == {"pong": path}, path
        assert client.post(f"/{path}", data=body).status_code == 401, path
