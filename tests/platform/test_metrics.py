"""arena.metrics: counters move with the calls, /metrics serves them, the queue depth comes from Redis."""

from __future__ import annotations

import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import fakeredis
import pytest
from celery import Celery
from flask import Flask
from flask.testing import FlaskClient
from prometheus_client import REGISTRY, CollectorRegistry, Counter
from redis import Redis

from arena import metrics, wsgi
from arena.settings import Settings, SettingsError
from referee.protocol import Fault
from referee.registry import game_ids
from referee.replay import FaultRecord, MoveRecord
from referee.runner import MatchSpec, Player, run_match
from referee.transport.agents import LocalAgent
from tests.platform.own_redis import free_port, own_redis_server


def sample(name: str, **labels: str) -> float:
    """A sample of the default registry, 0 when the series does not exist yet."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


def move(think_ms: float, fault: Fault | None = None) -> MoveRecord:
    return MoveRecord(
        turn=0,
        seat=0,
        move={"x": 1},
        source="bot" if fault is None else "fallback",
        fault=None if fault is None else FaultRecord(fault, "detail"),
        think_ms=think_ms,
    )


# -- counting ---------------------------------------------------------------------------------------


def test_match_ended_counts_runs_by_game_and_outcome() -> None:
    finished = sample("arena_matches_total", game="volcano", outcome="finished")
    aborted = sample("arena_matches_total", game="volcano", outcome="aborted")
    other_game = sample("arena_matches_total", game="vulkan", outcome="finished")
    durations = sample("arena_match_duration_seconds_count", game="volcano")
    up_to_30 = sample("arena_match_duration_seconds_bucket", game="volcano", le="30.0")
    up_to_60 = sample("arena_match_duration_seconds_bucket", game="volcano", le="60.0")

    metrics.match_ended("volcano", "finished", seconds=42.0)
    metrics.match_ended("volcano", "finished")
    metrics.match_ended("volcano", "aborted", seconds=3.0)

    assert sample("arena_matches_total", game="volcano", outcome="finished") == finished + 2
    assert sample("arena_matches_total", game="volcano", outcome="aborted") == aborted + 1
    assert sample("arena_matches_total", game="vulkan", outcome="finished") == other_game
    # only the finished run that gave its time is in the histogram, in the bucket holding 42 s
    assert sample("arena_match_duration_seconds_count", game="volcano") == durations + 1
    assert sample("arena_match_duration_seconds_bucket", game="volcano", le="60.0") == up_to_60 + 1
    assert sample("arena_match_duration_seconds_bucket", game="volcano", le="30.0") == up_to_30


def test_a_run_that_did_not_end_is_not_a_match_outcome() -> None:
    for outcome in ("busy", "already_ended", "missing", "FINISHED"):
        with pytest.raises(ValueError, match="finished or aborted"):
            metrics.match_ended("volcano", outcome)


def test_every_known_game_has_its_match_series_from_the_start() -> None:
    for game in game_ids():
        for outcome in metrics.MATCH_OUTCOMES:
            labels = {"game": game, "outcome": outcome}
            assert REGISTRY.get_sample_value("arena_matches_total", labels) is not None


def test_a_move_counts_its_think_time_in_seconds() -> None:
    count = sample("arena_move_think_seconds_count", game="boulderville")
    total = sample("arena_move_think_seconds_sum", game="boulderville")
    fast = sample("arena_move_think_seconds_bucket", game="boulderville", le="0.1")
    slow = sample("arena_move_think_seconds_bucket", game="boulderville", le="0.25")

    metrics.move_played("boulderville", move(think_ms=120.0))

    assert sample("arena_move_think_seconds_count", game="boulderville") == count + 1
    assert sample("arena_move_think_seconds_sum", game="boulderville") == pytest.approx(total + 0.12)
    assert sample("arena_move_think_seconds_bucket", game="boulderville", le="0.1") == fast
    assert sample("arena_move_think_seconds_bucket", game="boulderville", le="0.25") == slow + 1


def test_a_faulty_move_counts_its_kind_and_a_forfeited_seat_counts_nothing() -> None:
    timeouts = sample("arena_faults_total", game="catan-volcano", kind="timeout")
    illegal = sample("arena_faults_total", game="catan-volcano", kind="illegal_move")
    forfeited = sample("arena_faults_total", game="catan-volcano", kind="forfeited")
    moves = sample("arena_move_think_seconds_count", game="catan-volcano")

    metrics.move_played("catan-volcano", move(2000.0, Fault.TIMEOUT))
    metrics.move_played("catan-volcano", move(3.0, Fault.ILLEGAL_MOVE))
    metrics.move_played("catan-volcano", move(0.0, Fault.FORFEITED))

    assert sample("arena_faults_total", game="catan-volcano", kind="timeout") == timeouts + 1
    assert sample("arena_faults_total", game="catan-volcano", kind="illegal_move") == illegal + 1
    assert sample("arena_faults_total", game="catan-volcano", kind="forfeited") == forfeited
    # the forfeited seat's move asked no bot: no think time either
    assert sample("arena_move_think_seconds_count", game="catan-volcano") == moves + 2


class FirstMove:
    def choose(self, request: dict) -> dict:
        return request["legal_moves"][0]


class IllegalOnEvenTurns:
    """Answers a move that is never legal on even turns, the first legal one otherwise."""

    def choose(self, request: dict) -> dict:
        if request["turn"] % 2 == 0:
            return {"not": "a move"}
        return request["legal_moves"][0]


def test_counting_moves_as_the_runners_callback_counts_every_move_and_fault_of_a_match() -> None:
    seen: list[MoveRecord] = []
    moves = sample("arena_move_think_seconds_count", game="volcano")
    illegal = sample("arena_faults_total", game="volcano", kind="illegal_move")
    spec = MatchSpec.build(game="volcano", bots=["a", "b"], seed=11, max_faults=1000)
    players = [Player("a", LocalAgent(FirstMove())), Player("b", LocalAgent(IllegalOnEvenTurns()))]

    replay = run_match("m-metrics", spec, players, on_move=metrics.counting_moves("volcano", seen.append))

    assert seen == list(replay.moves)  # the caller's own callback still sees every move
    assert sample("arena_move_think_seconds_count", game="volcano") == moves + len(replay.moves)
    faults = sum(seat.faults.get("illegal_move", 0) for seat in replay.seats)
    assert faults > 0
    assert sample("arena_faults_total", game="volcano", kind="illegal_move") == illegal + faults


# -- the queue ----------------------------------------------------------------------------------------


@pytest.fixture
def fake_redis() -> Redis:
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


def collected(registry: CollectorRegistry, name: str, **labels: str) -> float | None:
    return registry.get_sample_value(name, labels)


def test_queue_depth_is_the_length_of_the_queues_lists_read_at_each_scrape(fake_redis: Redis) -> None:
    registry = metrics.api_registry(fake_redis, ["arena.matches", "other"])
    assert collected(registry, "arena_queue_depth", queue="arena.matches") == 0
    fake_redis.rpush("arena.matches", "m1", "m2", "m3")
    fake_redis.rpush("other", "x")
    assert collected(registry, "arena_queue_depth", queue="arena.matches") == 3
    assert collected(registry, "arena_queue_depth", queue="other") == 1
    fake_redis.lpop("arena.matches")
    assert collected(registry, "arena_queue_depth", queue="arena.matches") == 2
    assert collected(registry, "arena_broker_up") == 1


def test_queue_depth_adds_the_lists_kombu_keeps_for_message_priorities(fake_redis: Redis) -> None:
    registry = metrics.api_registry(fake_redis, ["arena.matches"])
    fake_redis.rpush("arena.matches", "plain")
    fake_redis.rpush("arena.matches\x06\x169", "urgent", "urgent too")
    fake_redis.rpush("arena.matches.other", "not ours")
    assert collected(registry, "arena_queue_depth", queue="arena.matches") == 3


def test_unacknowledged_messages_are_the_entries_of_the_unacked_hash(fake_redis: Redis) -> None:
    registry = metrics.api_registry(fake_redis, ["arena.matches"])
    assert collected(registry, "arena_queue_unacked") == 0
    fake_redis.hset("unacked", mapping={"tag-1": "message", "tag-2": "message"})
    assert collected(registry, "arena_queue_unacked") == 2


def test_a_broker_that_does_not_answer_is_reported_not_raised() -> None:
    server = fakeredis.FakeServer()
    server.connected = False
    registry = metrics.api_registry(fakeredis.FakeRedis(server=server), ["arena.matches"])
    assert collected(registry, "arena_broker_up") == 0
    assert collected(registry, "arena_queue_depth", queue="arena.matches") is None


def test_the_api_registry_holds_only_figures_read_from_redis(fake_redis: Redis) -> None:
    """So any of gunicorn's processes answers a scrape the same way."""
    registry = metrics.api_registry(fake_redis, ["arena.matches"])
    names = {family.name for family in registry.collect()}
    assert names == {"arena_queue_depth", "arena_queue_unacked", "arena_broker_up"}


# -- serving ----------------------------------------------------------------------------------------


SCRAPER = "prometheus-scrapes-with-this"
"""The metrics token of these tests."""


def test_metrics_on_a_flask_app_serve_the_text_format_outside_the_api(fake_redis: Redis) -> None:
    fake_redis.rpush("arena.matches", "m1", "m2")
    app = Flask(__name__)
    metrics.expose(app, metrics.api_registry(fake_redis, ["arena.matches"]), token=SCRAPER)
    client = app.test_client()

    answer = client.get("/metrics", headers={"Authorization": f"Bearer {SCRAPER}"})

    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("text/plain; version=")
    lines = answer.get_data(as_text=True).splitlines()
    assert "# TYPE arena_queue_depth gauge" in lines
    assert 'arena_queue_depth{queue="arena.matches"} 2.0' in lines
    assert "arena_broker_up 1.0" in lines
    assert client.get("/api/v1/metrics").status_code == 404
    assert client.post("/metrics").status_code == 405
    assert client.get("/metrics").status_code != 200  # the token, or nothing


@pytest.fixture(scope="module")
def deployed_redis() -> Iterator[str]:
    with own_redis_server("metrics-password") as url:
        yield url


def deployed(redis_url: str, tmp_path: Path, metrics_token: str) -> FlaskClient:
    """The API as gunicorn serves it (``arena.wsgi``), with its settings read from the environment."""
    env = {
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": "organizer",
        "ARENA_REPLAY_DIR": str(tmp_path),
        "ARENA_METRICS_TOKEN": metrics_token,
    }
    return wsgi.build(Settings.from_env(env)).test_client()


@pytest.mark.integration
def test_the_apis_metrics_answer_only_with_the_metrics_token(deployed_redis: str, tmp_path: Path) -> None:
    client = deployed(deployed_redis, tmp_path, f"  {SCRAPER} ")
    refusals = {
        "no header": {},
        "another token": {"Authorization": "Bearer organizer"},
        "the token, less its end": {"Authorization": f"Bearer {SCRAPER[:-1]}"},
        "another scheme": {"Authorization": f"Basic {SCRAPER}"},
        "no scheme": {"Authorization": SCRAPER},
    }
    for what, headers in refusals.items():
        answer = client.get("/metrics", headers=headers)
        assert answer.status_code == 401, what
        assert answer.headers["WWW-Authenticate"].startswith("Bearer"), what
        body = answer.get_json()
        assert body == {"code": 401, "status": "Unauthorized", "message": body["message"], "errors": {}}
        assert "metrics token" in body["message"] and SCRAPER not in answer.get_data(as_text=True)

    answer = client.get("/metrics", headers={"Authorization": f"Bearer {SCRAPER}"})
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("text/plain; version=")
    assert "arena_broker_up 1.0" in answer.get_data(as_text=True).splitlines()


@pytest.mark.integration
def test_without_a_metrics_token_the_api_serves_no_metrics(deployed_redis: str, tmp_path: Path) -> None:
    client = deployed(deployed_redis, tmp_path, "")
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 404
    assert client.get("/api/v1/health").status_code == 200  # the rest of the API is there


def test_the_metrics_token_comes_from_the_environment() -> None:
    assert Settings.from_env({}).metrics_token == ""
    assert Settings.from_env({"ARENA_METRICS_TOKEN": " abc "}).metrics_token == "abc"


def test_the_worker_metrics_port_comes_from_the_environment() -> None:
    assert metrics.metrics_port({}) is None
    assert metrics.metrics_port({"ARENA_METRICS_PORT": " "}) is None
    assert metrics.metrics_port({"ARENA_METRICS_PORT": "9100"}) == 9100
    for bad in ("http", "0", "65536", "-1"):
        with pytest.raises(SettingsError, match="ARENA_METRICS_PORT"):
            metrics.metrics_port({"ARENA_METRICS_PORT": bad})


def fetch(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        return answer.read().decode()


def test_the_metrics_server_serves_its_registry_over_http() -> None:
    registry = CollectorRegistry()
    Counter("arena_test_things", "things", registry=registry).inc(3)
    server = metrics.serve_metrics(0, "127.0.0.1", registry)
    try:
        assert "arena_test_things_total 3.0" in fetch(server.port).splitlines()
    finally:
        server.close()


def test_a_worker_starts_one_metrics_server_and_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metrics, "_worker_server", None)
    assert metrics.start_worker_metrics({}) is None
    port = free_port()
    env = {"ARENA_METRICS_PORT": str(port), "ARENA_METRICS_ADDR": "127.0.0.1"}
    server = metrics.start_worker_metrics(env)
    try:
        assert server is not None and server.port == port
        assert metrics.start_worker_metrics(env) is server  # a second call starts nothing
        metrics.match_ended("vulkan", "aborted")
        body = fetch(port)
        count = sample("arena_matches_total", game="vulkan", outcome="aborted")
        assert f'arena_matches_total{{game="vulkan",outcome="aborted"}} {count}' in body.splitlines()
    finally:
        server.close()


def test_a_port_that_cannot_be_opened_is_a_settings_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(SettingsError, match="cannot serve metrics"):
            metrics.serve_metrics(taken.getsockname()[1], "127.0.0.1", CollectorRegistry())


# -- against a real Redis and kombu -----------------------------------------------------------------


@pytest.fixture(scope="module")
def real_redis_url() -> Iterator[str]:
    """A redis-server of this module's own on a free loopback port, with a password as deployed."""
    with own_redis_server("s3cret") as url:
        yield url


@pytest.mark.integration
def test_the_depth_counts_what_celery_queued_at_every_priority(real_redis_url: str) -> None:
    redis = Redis.from_url(real_redis_url)
    registry = metrics.api_registry(redis, ["arena.metrics-test"])
    app = Celery("metrics-test", broker=real_redis_url, set_as_current=False)
    try:
        app.send_task("arena.run_match", args=["m-1"], queue="arena.metrics-test")
        app.send_task("arena.run_match", args=["m-2"], queue="arena.metrics-test", priority=9)
        app.send_task("arena.run_match", args=["m-3"], queue="arena.elsewhere")
        assert collected(registry, "arena_queue_depth", queue="arena.metrics-test") == 2
    finally:
        app.close()
        redis.flushdb()
