"""Protocol version 2: move requests without ``legal_moves``, seat by seat, the answer still checked.

The agents here play the first legal move of the position rebuilt from the request's observation
(what a version 2 bot does), or of the request's list when it has one, and keep every request they
were sent, so that each test can look at what went over the wire.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee import registry
from referee.game import SetupError, canonical_json
from referee.match import MatchSpec, TimeControl
from referee.observed import legal_moves_from_observation
from referee.protocol import (
    PROTOCOL_V2,
    PROTOCOL_VERSION,
    Fault,
    check_version,
    decode,
    encode,
    ping_validator,
    request_validator,
)
from referee.registry import get_game
from referee.replay import verify_replay
from referee.runner import Player, run_match
from referee.transport.agents import LocalAgent, Reply
from referee.transport.ping import ping_request


class Recording:
    """An in-process agent that keeps the requests (as sent: encoded, then decoded) and answers
    with the first legal move, rebuilt from the observation when the request has no list; ``wrong``
    answers every move with a move no game has."""

    def __init__(self, wrong: bool = False) -> None:
        self.requests: list[dict[str, Any]] = []
        self.bodies: list[bytes] = []
        self.wrong = wrong
        self.agent = LocalAgent(self)

    def choose(self, request: dict[str, Any]) -> dict[str, Any]:
        if self.wrong:
            return {"type": "no such move"}
        legal = request.get("legal_moves")
        if legal is None:
            legal = legal_moves_from_observation(request["game"], request["observation"], request["seat"])
        return dict(legal[0])

    def notice(self, request: dict[str, Any]) -> None:
        self.requests.append(request)

    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        self.bodies.append(encode(request))
        self.requests.append(decode(self.bodies[-1]))
        return self.agent.ask(request, timeout_s)

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        self.agent.notify(request, timeout_s)


def _match(game: str, versions: list[int], seed: int = 5, **agents: Recording) -> tuple[Any, list[Recording]]:
    recorders = [agents.get(f"seat{seat}", Recording()) for seat in range(len(versions))]
    # time enough that a machine busy with other work does not make a seat's move a timeout
    spec = MatchSpec.build(
        game=game,
        bots=[f"b{seat}" for seat in range(len(versions))],
        seed=seed,
        time=TimeControl(move_ms=30_000),
    )
    players = [
        Player(f"p{seat}", recorder, version)
        for seat, (recorder, version) in enumerate(zip(recorders, versions, strict=True))
    ]
    return run_match("m-v2", spec, players), recorders


@pytest.mark.parametrize(("game", "seats"), [("volcano", 2), ("vulkan", 2), ("vulkan", 3)])
def test_version_2_requests_have_no_legal_moves_and_are_of_the_version_2_schema(
    game: str, seats: int
) -> None:
    replay, recorders = _match(game, [PROTOCOL_V2] * seats)
    v1, v2 = request_validator(PROTOCOL_VERSION), request_validator(PROTOCOL_V2)
    kinds = set()
    for recorder in recorders:
        assert recorder.requests
        for request in recorder.requests:
            kinds.add(request["type"])
            assert request["protocol"] == 2 and "legal_moves" not in request
            assert not list(v2.iter_errors(request)), request["type"]
            assert list(v1.iter_errors(request)), "a version 2 request is not a version 1 request"
    assert kinds == {"start", "move", "end"}
    assert all(move.source == "bot" for move in replay.moves)
    assert not verify_replay(replay.to_json())


def test_the_version_2_schema_refuses_a_move_request_with_legal_moves() -> None:
    _, (recorder, _) = _match("volcano", [PROTOCOL_V2, PROTOCOL_V2])
    move = next(request for request in recorder.requests if request["type"] == "move")
    assert not list(request_validator(PROTOCOL_V2).iter_errors(move))
    assert list(request_validator(PROTOCOL_V2).iter_errors({**move, "legal_moves": [{"a": 1}]}))
    assert list(request_validator(PROTOCOL_V2).iter_errors({**move, "protocol": 1}))


def test_an_illegal_answer_in_version_2_is_still_the_illegal_move_fault() -> None:
    replay, _ = _match("volcano", [PROTOCOL_V2, PROTOCOL_V2], seat0=Recording(wrong=True))
    faulted = [move for move in replay.moves if move.seat == 0 and move.fault is not None]
    assert faulted[0].fault is not None and faulted[0].fault.kind is Fault.ILLEGAL_MOVE
    assert faulted[0].source == "fallback"
    assert replay.seats[0].forfeited and replay.seats[0].faults == {"illegal_move": 3}
    assert not replay.seats[1].faults


def test_a_match_mixes_seats_of_both_versions_and_each_gets_its_own() -> None:
    replay, (first, second) = _match("vulkan", [PROTOCOL_VERSION, PROTOCOL_V2])
    assert {r["protocol"] for r in first.requests} == {1} and {r["protocol"] for r in second.requests} == {2}
    first_moves = [r for r in first.requests if r["type"] == "move"]
    second_moves = [r for r in second.requests if r["type"] == "move"]
    assert first_moves and second_moves
    assert all("legal_moves" in r and not list(request_validator(1).iter_errors(r)) for r in first_moves)
    assert all("legal_moves" not in r and not list(request_validator(2).iter_errors(r)) for r in second_moves)
    assert all(move.source == "bot" for move in replay.moves)
    assert not verify_replay(replay.to_json())


def test_a_version_1_seat_gets_the_same_bytes_whatever_the_other_seats_speak() -> None:
    _, (alone, _) = _match("vulkan", [PROTOCOL_VERSION, PROTOCOL_VERSION])
    _, (mixed, _) = _match("vulkan", [PROTOCOL_VERSION, PROTOCOL_V2])
    assert alone.bodies and mixed.bodies == alone.bodies


def test_the_same_bots_play_the_same_match_in_either_version() -> None:
    one, _ = _match("volcano", [PROTOCOL_VERSION] * 3, seed=11)
    two, _ = _match("volcano", [PROTOCOL_V2] * 3, seed=11)
    spelled = [[canonical_json(m.move), m.source, m.fault] for m in one.moves]
    assert spelled == [[canonical_json(m.move), m.source, m.fault] for m in two.moves]
    assert one.result == two.result
    # the replay records nothing of the requests: a version 1 replay is what it was
    assert [m.to_json().keys() for m in one.moves] == [m.to_json().keys() for m in two.moves]


@pytest.mark.parametrize("version", [0, 3, True, "2", 2.0, None])
def test_only_the_versions_the_referee_speaks_are_taken(version: Any) -> None:
    with pytest.raises(ValueError, match="protocol must be 1 or 2"):
        check_version(version)
    spec = MatchSpec.build(game="volcano", bots=["a", "b"], seed=1)
    with pytest.raises(ValueError, match="protocol"):
        run_match("m-x", spec, [Player("a", Recording()), Player("b", Recording(), version)])


def test_a_ping_says_its_version_and_is_of_that_versions_schema() -> None:
    for version in (PROTOCOL_VERSION, PROTOCOL_V2):
        message = ping_request("n0nce", version)
        assert message == {"protocol": version, "type": "ping", "nonce": "n0nce"}
        assert not list(ping_validator(version).iter_errors(message))
    assert list(ping_validator(PROTOCOL_VERSION).iter_errors(ping_request("n", PROTOCOL_V2)))
    assert ping_request("n") == {"protocol": 1, "type": "ping", "nonce": "n"}


def test_every_game_the_platform_ships_rebuilds_a_seats_legal_moves_and_others_say_they_cannot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shipped = [game_id for game_id, target in registry.declared().items() if target.startswith("referee.")]
    assert shipped
    for game_id in shipped:
        game = get_game(game_id)
        state = game.start(game.default_variant, seats=game.variant(game.default_variant).seats[-1], seed=3)
        seat = state.current_seat
        assert seat is not None
        assert legal_moves_from_observation(game_id, state.observation(seat), seat) == state.legal_moves()
    with pytest.raises(SetupError, match="unknown game 'chess'"):
        legal_moves_from_observation("chess", {}, 0)
    monkeypatch.setitem(registry.EXTRA, "nim", "tests.referee.toy_game")
    try:
        with pytest.raises(NotImplementedError, match="game nim does not rebuild"):
            legal_moves_from_observation("nim", {}, 0)
    finally:
        registry.get_game.cache_clear()  # no test game stays registered for the tests after
