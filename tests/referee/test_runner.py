"""The match runner and the replay: faults, fallbacks, forfeits, time bank, verification."""

from __future__ import annotations

import copy
import gzip
import json

import pytest

from referee.game import MOVE_LIMIT, STOPPED, TIME_LIMIT, SetupError
from referee.match import MatchSpec, TimeControl
from referee.protocol import Fault, encode
from referee.replay import Replay, compress, decompress, verify_replay
from referee.runner import Player, run_match
from referee.transport.agents import Agent, LocalAgent, Reply

pytestmark = pytest.mark.usefixtures("nim_registered")


class TakeOne:
    def choose(self, request: dict) -> dict:
        return {"take": 1}


class Broken:
    """Answers with a move that is never legal."""

    def choose(self, request: dict) -> dict:
        return {"take": 7}


class Scripted:
    """An agent replaying canned replies, to control think time exactly."""

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = replies
        self.requests: list[dict] = []

    def ask(self, request: dict, timeout_s: float) -> Reply:
        self.requests.append({**request, "timeout_s": timeout_s})
        return self.replies.pop(0) if self.replies else Reply({"take": 1}, 1.0)

    def notify(self, request: dict, timeout_s: float) -> None:
        self.requests.append(request)


def _seat(name: str, bot) -> tuple[str, Agent]:
    return name, LocalAgent(bot)


def _play(seats: list[tuple[str, Agent]], **spec) -> dict:
    """Play Nim between the seats; the replay as JSON, as it is stored and downloaded."""
    built = MatchSpec.build(game="nim", bots=[name for name, _ in seats], seed=11, **spec)
    return run_match("m1", built, [Player(name, agent) for name, agent in seats]).to_json()


def test_a_clean_match_records_every_move_and_verifies() -> None:
    replay = _play([_seat("a", TakeOne()), _seat("b", TakeOne())])
    assert replay["format"] == "arena-replay/1"
    assert [m["seat"] for m in replay["moves"]] == [0, 1] * 4 + [0]
    assert all(m["source"] == "bot" and m["fault"] is None for m in replay["moves"])
    # 9 stones taken one by one: seat 0 takes the last
    assert replay["result"]["places"] == [1, 2]
    assert verify_replay(replay) == []


def test_illegal_moves_are_replaced_by_fallbacks_and_the_seat_forfeits_after_max_faults() -> None:
    replay = _play([_seat("broken", Broken()), _seat("b", TakeOne())], max_faults=2)
    broken_moves = [m for m in replay["moves"] if m["seat"] == 0]
    assert [m["fault"]["kind"] for m in broken_moves[:2]] == ["illegal_move", "illegal_move"]
    assert all(m["source"] == "fallback" for m in broken_moves)
    assert all(m["fault"]["kind"] == "forfeited" for m in broken_moves[2:])
    assert replay["seats"][0]["faults"] == 2 and replay["seats"][0]["forfeited"]
    assert replay["result"]["forfeited"] == [0]
    assert replay["result"]["places"][0] == 2  # ranked last whatever the board says
    assert verify_replay(replay) == []


def test_an_illegal_move_is_kept_as_sent_beside_the_fallback_and_said_in_words() -> None:
    replay = _play([_seat("broken", Broken()), _seat("b", TakeOne())], max_faults=2)
    first = replay["moves"][0]
    assert first["source"] == "fallback" and first["move"] != {"take": 7}
    assert first["fault"]["sent"] == '{"take":7}'
    assert first["fault"]["detail"] == 'not one of the legal moves: {"take":7}'  # Nim has no notation
    assert Replay.from_json(replay).moves[0].fault.sent == '{"take":7}'


def test_a_long_or_strange_answer_is_kept_cut_and_escaped() -> None:
    long_move = {"take": 1, "say": "\u00e9\n" + "x" * 5000}
    agent = Scripted([Reply(long_move, 1.0)])
    replay = _play([("long", agent), _seat("b", TakeOne())])
    sent = replay["moves"][0]["fault"]["sent"]
    assert len(sent) == 1000 and sent.endswith("...") and sent.isascii() and sent.isprintable()
    assert sent.startswith('{"take":1,"say":"\\u00e9\\n')


def test_faults_without_an_answer_keep_nothing_sent_and_old_replays_still_read() -> None:
    agent = Scripted([Reply(None, 5.0, Fault.TIMEOUT, "no answer")])
    replay = _play([("slow", agent), _seat("b", TakeOne())])
    assert replay["moves"][0]["fault"] == {"kind": "timeout", "detail": "no answer"}
    assert Replay.from_json(replay).moves[0].fault.sent is None


def test_fallback_moves_are_seeded() -> None:
    first = _play([_seat("broken", Broken()), _seat("b", TakeOne())])
    second = _play([_seat("broken", Broken()), _seat("b", TakeOne())])
    assert [m["move"] for m in first["moves"]] == [m["move"] for m in second["moves"]]


def test_time_beyond_the_move_budget_comes_out_of_the_bank() -> None:
    slow = Scripted([Reply({"take": 1}, 700.0), Reply({"take": 1}, 900.0)])
    replay = _play([("s", slow), _seat("b", TakeOne())], time=TimeControl(move_ms=500, bank_ms=600))
    moves = [r for r in slow.requests if r["type"] == "move"]
    assert moves[0]["time"] == {"move_ms": 500, "bank_ms": 600}
    assert moves[0]["timeout_s"] == pytest.approx(1.1)
    assert moves[1]["time"]["bank_ms"] == 400  # 700 ms used, 200 over budget
    assert moves[2]["time"]["bank_ms"] == 0  # 900 ms used, 400 over: the bank is empty
    assert replay["moves"][0]["think_ms"] == 700.0


def test_start_and_end_notices_reach_every_seat_with_the_result() -> None:
    agents = [Scripted([]), Scripted([])]
    replay = _play([("a", agents[0]), ("b", agents[1])])
    for seat, agent in enumerate(agents):
        kinds = [r["type"] for r in agent.requests]
        assert kinds[0] == "start" and kinds[-1] == "end" and set(kinds[1:-1]) == {"move"}
        assert agent.requests[-1]["result"] == replay["result"]
        assert all(r["seat"] == seat for r in agent.requests)


def test_a_bad_request_is_refused_before_any_bot_is_called() -> None:
    agent = Scripted([])
    with pytest.raises(SetupError) as refused:
        _play([("a", agent)] * 4)
    assert refused.value.field_name == "bots"
    assert agent.requests == []
    with pytest.raises(SetupError) as refused:
        _play([("a", agent)] * 2, options={"stones": 0})
    assert refused.value.field_name == "options.stones"
    with pytest.raises(SetupError) as refused:
        _play([("a", agent)] * 2, setup={"stones": -3})
    assert refused.value.field_name == "setup.stones"
    with pytest.raises(SetupError) as refused:
        _play([("a", agent)] * 2, max_faults=0)
    assert refused.value.field_name == "max_faults"
    assert agent.requests == []


def test_tampered_replays_are_caught_and_located() -> None:
    replay = _play([_seat("a", TakeOne()), _seat("b", TakeOne())])
    illegal = copy.deepcopy(replay)
    illegal["moves"][3]["move"] = {"take": 5}
    assert verify_replay(illegal)[0].startswith("move 3 (seat 1): illegal move")
    wrong_result = copy.deepcopy(replay)
    wrong_result["result"]["places"] = [2, 1]
    assert any(p.startswith("result.places") for p in verify_replay(wrong_result))
    short = copy.deepcopy(replay)
    del short["moves"][-1]
    assert "not over" in verify_replay(short)[0]
    wrong_details = copy.deepcopy(replay)
    wrong_details["result"]["details"] = {"note": "made up"}
    assert any(p.startswith("result.details") for p in verify_replay(wrong_details))
    wrong_seat = copy.deepcopy(replay)
    wrong_seat["moves"][0]["seat"] = 1
    assert "seat 0 to move" in verify_replay(wrong_seat)[0]


def test_replays_compress_and_round_trip() -> None:
    built = MatchSpec.build(game="nim", bots=["a", "b"], seed=11)
    replay = run_match("m1", built, [Player("a", LocalAgent(TakeOne())), Player("b", LocalAgent(TakeOne()))])
    assert decompress(compress(replay)) == replay.to_json()
    assert Replay.from_json(replay.to_json()) == replay


def test_a_replay_with_names_outside_ascii_compresses_and_round_trips() -> None:
    built = MatchSpec.build(game="nim", bots=["a", "b"], seed=11)
    players = [Player("Lávafélag 火山", LocalAgent(TakeOne())), Player('b\u2028"q"', LocalAgent(TakeOne()))]
    replay = run_match("m1", built, players)
    assert decompress(compress(replay)) == replay.to_json()
    assert "火山".encode() in gzip.decompress(compress(replay))  # UTF-8 as it is, not escaped


def test_every_request_the_runner_sends_is_of_the_protocol_schema() -> None:
    from referee.protocol import request_validator

    agent = Scripted([])
    _play([("a", agent), _seat("b", TakeOne())])
    validator = request_validator()
    for sent in agent.requests:
        message = {k: v for k, v in sent.items() if k != "timeout_s"}
        assert list(validator.iter_errors(message)) == [], message["type"]
    bad = {k: v for k, v in agent.requests[1].items() if k not in ("timeout_s", "legal_moves")}
    assert list(validator.iter_errors(bad)), "a move request without legal_moves must fail the schema"


class KeyShuffler:
    """Answers with the last legal move, its keys in another order and its numbers as floats."""

    def choose(self, request: dict) -> dict:
        move = request["legal_moves"][-1]
        return {key: float(value) for key, value in reversed(list(move.items()))}


def test_a_legal_move_in_another_spelling_is_accepted_and_recorded_as_the_engine_spells_it() -> None:
    replay = _play([_seat("a", KeyShuffler()), _seat("b", TakeOne())])
    first = replay["moves"][0]
    assert first["source"] == "bot" and first["fault"] is None
    assert first["move"] == {"take": 3} and isinstance(first["move"]["take"], int)
    assert verify_replay(replay) == []


@pytest.mark.parametrize("seed", [None, "7", 1.5, True])
def test_a_seed_that_is_not_an_integer_is_refused(seed: object) -> None:
    with pytest.raises(SetupError) as refused:
        MatchSpec.build(game="nim", bots=["a", "b"], seed=seed)  # type: ignore[arg-type]
    assert refused.value.field_name == "seed"


class Endless:
    """Nim's rules, with a pile that never empties: an engine that would never end a game."""

    def choose(self, request: dict) -> dict:
        return {"take": 1}


def test_a_match_past_its_variants_max_moves_is_ended_by_the_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.referee import toy_game

    def pass_the_turn(self: toy_game.NimState, move: dict) -> None:
        self.to_move = 1 - self.to_move

    monkeypatch.setattr(toy_game.NimState, "apply", pass_the_turn)
    replay = _play([_seat("a", Endless()), _seat("b", Endless())])
    assert len(replay["moves"]) == toy_game.GAME.variant("standard").max_moves
    assert replay["result"]["reason"] == MOVE_LIMIT
    assert replay["result"]["places"] == [1, 1]
    assert verify_replay(replay) == []


def test_a_match_told_to_stop_ends_before_its_next_move_with_the_moves_so_far() -> None:
    asked: list[int] = []

    def stop_after_three_moves() -> bool:
        asked.append(len(asked))
        return len(asked) > 3

    built = MatchSpec.build(game="nim", bots=["a", "b"], seed=11)
    players = [Player("a", LocalAgent(TakeOne())), Player("b", LocalAgent(TakeOne()))]
    replay = run_match("m1", built, players, should_stop=stop_after_three_moves).to_json()
    assert len(replay["moves"]) == 3 and len(asked) == 4, "asked before each move, stopped before the 4th"
    assert replay["result"]["reason"] == STOPPED and replay["result"]["places"] == [1, 1]
    assert verify_replay(replay) == []


def test_the_faults_of_a_seat_are_counted_by_kind_once() -> None:
    replay = _play([_seat("broken", Broken()), _seat("b", TakeOne())], max_faults=2)
    assert replay["seats"][0]["fault_kinds"] == {"illegal_move": 2}
    assert Replay.from_json(replay).faults_by_bot() == {"broken": {"illegal_move": 2, "forfeit": 1}}


class _Recording:
    """Plays the first legal move and keeps every request the runner sent it."""

    def __init__(self) -> None:
        self.requests: list[dict] = []

    def ask(self, request: dict, timeout_s: float) -> Reply:
        self.requests.append(request)
        return Reply(request["legal_moves"][0], 1.0)

    def notify(self, request: dict, timeout_s: float) -> None:
        self.requests.append(request)


@pytest.mark.parametrize(("game", "seats"), [("vulkan", 4), ("volcano", 3), ("catan-volcano", 3)])
def test_request_bytes_are_the_documented_compact_json_of_the_request(game: str, seats: int) -> None:
    # the protocol's spelling: compact separators, UTF-8, keys in the message's order; the faster
    # encoder must give exactly what the standard library's encoder gives for real requests
    agents = [_Recording() for _ in range(seats)]
    spec = MatchSpec.build(game=game, bots=[f"b{seat}" for seat in range(seats)], seed=5)
    run_match("m-bytes", spec, [Player(f"b{seat}", agent) for seat, agent in enumerate(agents)])
    sent = [request for agent in agents for request in agent.requests]
    assert {request["type"] for request in sent} == {"start", "move", "end"}
    for request in sent:
        assert encode(request) == json.dumps(request, separators=(",", ":"), ensure_ascii=False).encode()


def test_values_the_fast_encoder_refuses_are_still_encoded_as_json() -> None:
    # a key that is not a string, an integer beyond 64 bits
    body = encode({"observation": {1: "one", "big": 2**70, "name": "Été"}})
    assert json.loads(body) == {"observation": {"1": "one", "big": 2**70, "name": "Été"}}
    assert body == '{"observation":{"1":"one","big":1180591620717411303424,"name":"Été"}}'.encode()


def test_the_legal_moves_are_computed_once_per_move_for_the_request_check_and_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.referee import toy_game

    computed: list[int] = []
    in_engine: list[bool] = []
    legal_moves, apply = toy_game.NimState.legal_moves, toy_game.NimState.apply

    def counted(self: toy_game.NimState) -> list:
        if not in_engine:  # the engine's own check inside apply is the engine's business
            computed.append(1)
        return legal_moves(self)

    def applying(self: toy_game.NimState, move: dict) -> None:
        in_engine.append(True)
        try:
            apply(self, move)
        finally:
            in_engine.pop()

    monkeypatch.setattr(toy_game.NimState, "legal_moves", counted)
    monkeypatch.setattr(toy_game.NimState, "apply", applying)
    agent = _Recording()
    replay = _play([("a", agent), ("b", LocalAgent(Broken()))])  # seat 1's moves are fallbacks
    assert len(computed) == len(replay["moves"])
    assert any(m["source"] == "fallback" for m in replay["moves"])


class SteppedClock:
    """The runner's clock, moved by the agents as they think: no test waits for real time."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Thinking:
    """Takes one stone after ``think_s`` on the clock, or, given a shorter timeout, times out when
    the timeout has passed."""

    def __init__(self, clock: SteppedClock, think_s: float) -> None:
        self.clock = clock
        self.think_s = think_s
        self.timeouts: list[float] = []

    def ask(self, request: dict, timeout_s: float) -> Reply:
        self.timeouts.append(timeout_s)
        if timeout_s < self.think_s:
            self.clock.now += timeout_s
            return Reply(None, timeout_s * 1000, Fault.TIMEOUT, "no answer in time")
        self.clock.now += self.think_s
        return Reply({"take": 1}, self.think_s * 1000)

    def notify(self, request: dict, timeout_s: float) -> None:
        pass


def _timed(think_s: float, max_seconds: float, move_ms: int = 5000) -> tuple[dict, list[Thinking]]:
    clock = SteppedClock()
    agents = [Thinking(clock, think_s), Thinking(clock, think_s)]
    built = MatchSpec.build(
        game="nim", bots=["a", "b"], seed=11, options={"stones": 50}, time=TimeControl(move_ms=move_ms)
    )
    players = [Player("a", agents[0]), Player("b", agents[1])]
    replay = run_match("m1", built, players, max_seconds=max_seconds, clock=clock).to_json()
    return replay, agents


def test_a_match_past_its_time_limit_is_ended_by_the_runner_with_the_moves_so_far() -> None:
    replay, agents = _timed(think_s=2.0, max_seconds=10.0)
    assert len(replay["moves"]) == 5, "five moves of 2 s fill the 10 s; none is asked after"
    assert replay["result"]["reason"] == TIME_LIMIT and replay["result"]["places"] == [1, 1]
    assert replay["result"]["scores"] == [0.0, 0.0]
    assert all(seat["fault_kinds"] == {} for seat in replay["seats"])
    assert verify_replay(replay) == []


def test_a_move_asked_near_the_time_limit_gets_what_is_left_and_its_timeout_is_no_fault() -> None:
    replay, agents = _timed(think_s=4.0, max_seconds=10.0)
    # 4 s, 4 s, then 2 s left of a 5 s budget: asked with 2 s, no answer, the match ends there
    assert agents[0].timeouts == [5.0, 2.0] and agents[1].timeouts == [5.0]
    assert len(replay["moves"]) == 2
    assert replay["result"]["reason"] == TIME_LIMIT
    assert all(seat["fault_kinds"] == {} and not seat["forfeited"] for seat in replay["seats"])
    assert verify_replay(replay) == []


def test_a_match_within_its_time_limit_plays_to_its_end() -> None:
    replay, _ = _timed(think_s=0.001, max_seconds=10.0)
    assert len(replay["moves"]) == 50 and replay["result"]["reason"] != TIME_LIMIT
