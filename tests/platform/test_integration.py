"""The platform on a real Redis with real ``arena worker`` processes and HTTP bots on loopback.

Uses database 13 of the Redis at 127.0.0.1:6379 (started here when none is running) with a key
prefix and queue names of its own, removed afterwards. Skipped only when redis-server is not
installed.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from redis import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from arena import wsgi
from arena.api import create_app
from arena.runtime import Runtime
from arena.settings import Settings
from arena.worker.celery_app import redis_runtime
from bots.registry import bots_for
from referee.protocol import new_secret
from referee.replay import verify_replay
from tests import misbehaving_bots
from tests.platform import bot_server
from tests.platform.conftest import ADMIN, BotServer
from tests.platform.waiting import wait_until

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = "redis://127.0.0.1:6379/13"


def _redis_up() -> bool:
    try:
        return bool(Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping())
    except RedisConnectionError:
        return False


@pytest.fixture(scope="module")
def redis_server() -> Iterator[None]:
    if _redis_up():
        yield
        return
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    process = subprocess.Popen(
        ["redis-server", "--port", "6379", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(_redis_up, 10, "redis-server did not start within 10 s")
    except BaseException:  # pytest's failure too
        process.kill()
        raise
    yield
    process.terminate()
    process.wait(10)


@dataclass
class Platform:
    """One isolated platform on the real Redis: its own key prefix and queue."""

    env: dict[str, str]
    runtime: Runtime
    client: FlaskClient
    logs: Path
    workers: list[subprocess.Popen]

    def start_worker(self) -> subprocess.Popen:
        log = self.logs / f"worker-{len(self.workers)}.log"
        with log.open("w") as sink:
            worker = subprocess.Popen(
                [sys.executable, "-m", "tests.platform.nim_worker", "--loglevel=INFO"],
                cwd=ROOT,
                env=self.env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        self.workers.append(worker)
        wait_until(lambda: "ready." in log.read_text(), 30, f"worker did not start; log:\n{log}")
        return worker

    def register(self, name: str, endpoint: str, bots: BotServer | None = None, path: str = "") -> str:
        """Register a bot with a fresh secret, told first to ``bots`` (for ``path``) when given."""
        secret = new_secret()
        if bots is not None:
            bots.secrets[path] = secret
        body = {"name": name, "endpoint": endpoint, "games": ["nim"], "secret": secret}
        answer = self.client.post("/api/v1/bots", json=body)
        assert answer.status_code == 201, answer.get_json()
        return answer.get_json()["id"]

    def post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = self.client.post(url, json=body, headers={"Authorization": f"Bearer {ADMIN}"})
        assert answer.status_code == 202, answer.get_json()
        return answer.get_json()

    def get(self, url: str) -> dict[str, Any]:
        return self.client.get(url).get_json()


@pytest.fixture
def platform(redis_server: None, toy_games: None, tmp_path: Path) -> Iterator[Platform]:
    tag = uuid.uuid4().hex[:10]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "REDIS_URL": REDIS_URL,
        "ARENA_ADMIN_TOKEN": ADMIN,
        "ARENA_KEY_PREFIX": f"arena-it-{tag}:",
        "ARENA_QUEUE": f"arena-it-{tag}",
        "ARENA_ENDPOINT_ALLOWLIST": "127.0.0.0/8",
        "ARENA_VISIBILITY_TIMEOUT": "4",
        "ARENA_LEASE_SECONDS": "3",
        "ARENA_WORKER_CONCURRENCY": "10",
    }
    settings = Settings.from_env(env)
    runtime = redis_runtime(settings)
    platform = Platform(env, runtime, create_app(runtime).test_client(), tmp_path, [])
    yield platform
    for worker in platform.workers:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)
    for worker in platform.workers:
        try:
            worker.wait(15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
    redis = runtime.store.redis
    stale = list(redis.scan_iter(match=f"{settings.key_prefix}*", count=500))
    stale += [
        f"{name}{settings.queue}".encode() for name in ("", "_kombu.binding.", "_kombu.binding_permanent.")
    ]
    if stale:
        redis.delete(*stale)


@pytest.fixture(scope="module")
def misbehaving() -> Iterator[str]:
    server, base = misbehaving_bots.start_server()
    yield base
    server.shutdown()


def finished(platform: Platform, match_ids: list[str], timeout: float) -> list[dict[str, Any]]:
    def all_done() -> list[dict[str, Any]] | None:
        matches = [platform.get(f"/api/v1/matches/{match_id}") for match_id in match_ids]
        return matches if all(m["status"] in ("finished", "aborted") for m in matches) else None

    return wait_until(all_done, timeout, f"matches did not end within {timeout} s")


def test_misbehaving_bots_get_faults_and_forfeit_while_matches_finish(
    platform: Platform, bots: BotServer, misbehaving: str
) -> None:
    platform.start_worker()
    good = platform.register("good", bots.url("/first/it-good"), bots, "/first/it-good")
    expected = {
        "/slow": "timeout",
        "/trickle": "timeout",
        "/big": "invalid_response",
        "/notjson": "invalid_response",
        "/status500": "http_status",
        "/illegal": "illegal_move",
        "refused": "connection_error",
    }
    # each passed the ping at registration and misbehaves from then on
    endpoints = {path: f"{misbehaving}/registered{path}" for path in expected}
    gone, gone_base = bot_server.start({})
    endpoints["refused"] = f"{gone_base}/first/gone"
    bad_ids = {path: platform.register(path, endpoint) for path, endpoint in endpoints.items()}
    gone.shutdown()
    gone.server_close()  # nothing listens there any more: every request is refused
    match_ids = {
        path: platform.post(
            "/api/v1/matches",
            {"game": "nim", "bots": [bot_id, good], "time": {"move_ms": 300}, "max_faults": 2, "seed": 1},
        )["id"]
        for path, bot_id in bad_ids.items()
    }
    matches = finished(platform, list(match_ids.values()), timeout=45)
    assert [m["status"] for m in matches] == ["finished"] * len(expected)
    for path, match_id in match_ids.items():
        match = platform.get(f"/api/v1/matches/{match_id}")
        bad_seat, good_seat = match["seats"]
        assert (bad_seat["faults"], bad_seat["forfeited"]) == (2, True), path
        assert (good_seat["faults"], good_seat["forfeited"]) == (0, False), path
        assert match["result"]["forfeited"] == [0] and match["result"]["places"] == [2, 1]
        replay = json.loads(platform.client.get(f"/api/v1/matches/{match_id}/replay").data)
        kinds = {move["fault"]["kind"] for move in replay["moves"] if move["seat"] == 0 and move["fault"]}
        assert kinds == {expected[path], "forfeited"}, path
        assert verify_replay(replay) == []
        faults = platform.get(f"/api/v1/bots/{bad_ids[path]}")["faults"]
        assert faults == {"total": 3, "by_kind": {expected[path]: 2, "forfeit": 1}}, path
    ladder = platform.get("/api/v1/ladders/nim")["entries"]
    assert ladder[0]["bot_id"] == good and ladder[0]["wins"] == len(expected)


def test_a_worker_killed_mid_match_loses_nothing_and_the_result_counts_once(
    platform: Platform, bots: BotServer
) -> None:
    first = platform.start_worker()
    ids = [
        platform.register(name, bots.url(f"/sleepy/{name}"), bots, f"/sleepy/{name}") for name in ("k1", "k2")
    ]
    match_id = platform.post("/api/v1/matches", {"game": "nim", "bots": ids, "seed": 2})["id"]
    url = f"/api/v1/matches/{match_id}"
    wait_until(lambda: platform.get(url)["moves"] >= 2, 20, "the match did not get going")
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    assert platform.get(url)["status"] == "running"  # the dead worker never finished it
    platform.start_worker()
    (match,) = finished(platform, [match_id], timeout=45)
    assert match["status"] == "finished" and match["attempts"] == 2
    assert match["moves"] == 9 and match["result"]["places"] == [1, 2]
    ladder = {entry["bot_id"]: entry for entry in platform.get("/api/v1/ladders/nim")["entries"]}
    assert [ladder[bot]["games"] for bot in ids] == [1, 1]
    assert [ladder[bot]["rating"] for bot in ids] == [1520.0, 1480.0]
    assert platform.runtime.store.finishing.is_applied(match_id)
    replay = json.loads(platform.client.get(f"{url}/replay").data)
    assert verify_replay(replay) == [] and replay["match_id"] == match_id


def test_a_tournament_runs_to_its_end_across_two_workers(
    platform: Platform, bots: BotServer, misbehaving: str
) -> None:
    platform.start_worker()
    platform.start_worker()
    ids = [
        platform.register("first", bots.url("/first/t1"), bots, "/first/t1"),
        platform.register("last", bots.url("/last/t2"), bots, "/last/t2"),
        platform.register("chunked", misbehaving + "/registered/chunked"),
    ]
    tournament = platform.post(
        "/api/v1/tournaments",
        {"name": "it", "game": "nim", "format": "round_robin", "bots": ids, "seats_per_match": 2, "seed": 4},
    )
    url = f"/api/v1/tournaments/{tournament['id']}"
    done = wait_until(
        lambda: (t := platform.get(url))["status"] == "finished" and t, 45, "tournament unfinished"
    )
    assert done["progress"] == {
        "done": 6,
        "total": 6,
        "finished": 6,
        "aborted": 0,
        "cancelled": 0,
        "running": 0,
        "queued": 0,
    }
    assert sum(row["points"] for row in done["standings"]) == 6.0
    assert all(row["played"] == 4 for row in done["standings"])
    ladder = platform.get("/api/v1/ladders/nim")["entries"]
    assert sorted(entry["games"] for entry in ladder) == [4, 4, 4]


def _entrants(platform: Platform, bots: BotServer, count: int) -> list[str]:
    """``count`` Nim bots, first and last players in turn."""
    paths = [f"/{('first', 'last')[n % 2]}/e{n}" for n in range(count)]
    return [platform.register(f"e{n}", bots.url(path), bots, path) for n, path in enumerate(paths)]


def _played(platform: Platform, body: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
    base = {"name": "e2e", "game": "nim", "seats_per_match": 2, "seed": 6, "options": {"stones": 7}}
    created = platform.post("/api/v1/tournaments", {**base, **body})
    url = f"/api/v1/tournaments/{created['id']}"
    return wait_until(lambda: (t := platform.get(url))["status"] == "finished" and t, timeout, "unfinished")


@pytest.mark.parametrize(("count", "rounds", "byes"), [(6, 3, 2), (9, 4, 7)])
def test_a_knockout_with_byes_is_won_by_its_finals_winner(
    platform: Platform, bots: BotServer, count: int, rounds: int, byes: int
) -> None:
    platform.start_worker()
    done = _played(platform, {"format": "knockout", "bots": _entrants(platform, bots, count)})
    made = done["rounds_made"]
    assert len(made) == rounds == len(done["bracket"]["rounds"]) == done["bracket"]["planned_rounds"]
    assert len(made[0]["byes"]) == byes and all(not r["byes"] for r in made[1:])
    assert len(done["matches"]) == count - 1, "each match puts one bot out"
    by_id = {match["id"]: match for match in done["matches"]}
    final = by_id[made[-1]["matches"][0]]
    champion = final["bots"][final["result"]["places"].index(1)]
    assert done["winner"] == champion and done["winners"] == [champion]
    assert [row["rank"] for row in done["standings"]] == list(range(1, count + 1))
    assert done["standings"][0]["bot_id"] == champion
    assert {match["round"] for match in done["matches"]} == set(range(1, rounds + 1))


def test_a_swiss_of_seven_over_four_rounds_pairs_everyone_once_a_round_without_rematches(
    platform: Platform, bots: BotServer
) -> None:
    platform.start_worker()
    entrants = _entrants(platform, bots, 7)
    done = _played(platform, {"format": "swiss", "bots": entrants, "rounds": 4})
    made = done["rounds_made"]
    assert [(len(r["matches"]), len(r["byes"])) for r in made] == [(3, 1)] * 4
    assert len({bot for r in made for bot in r["byes"]}) == 4, "no bot sits out twice"
    by_id = {match["id"]: match for match in done["matches"]}
    for r in made:
        seated = [bot for match_id in r["matches"] for bot in by_id[match_id]["bots"]]
        assert sorted(seated + r["byes"]) == sorted(entrants)
    pairs = [frozenset(match["bots"]) for match in done["matches"]]
    assert len(pairs) == len(set(pairs)) == 12
    assert sum(row["points"] for row in done["standings"]) == 12 + 4, "a point a match and a bye"
    columns = {"buchholz", "sonneborn_berger", "byes"}
    assert all(columns <= set(row) for row in done["standings"])
    assert done["winners"] == [row["bot_id"] for row in done["standings"] if row["rank"] == 1]


def test_a_round_robin_cancelled_while_matches_run_stops_them_and_counts_none(
    platform: Platform, bots: BotServer
) -> None:
    platform.start_worker()
    paths = [f"/sleepy/c{n}" for n in range(4)]
    ids = [platform.register(f"c{n}", bots.url(path), bots, path) for n, path in enumerate(paths)]
    created = platform.post(
        "/api/v1/tournaments",
        {
            "name": "x",
            "game": "nim",
            "format": "round_robin",
            "bots": ids,
            "seats_per_match": 2,
            "seed": 1,
            "options": {"stones": 9},
        },
    )
    url = f"/api/v1/tournaments/{created['id']}"
    wait_until(
        lambda: (
            any(m["status"] == "running" for m in platform.get(url)["matches"])
            and platform.get(url)["progress"]["running"] >= 2
        ),
        20,
        "no match got going",
    )
    answer = platform.client.delete(url, headers={"Authorization": f"Bearer {ADMIN}"})
    assert answer.status_code == 204
    # nothing of it runs a few seconds later (the worker looks every half second)
    done = wait_until(
        lambda: (t := platform.get(url))["progress"]["running"] + t["progress"]["queued"] == 0 and t,
        10,
        "matches of the cancelled tournament still run",
    )
    assert done["status"] == "cancelled" and done["winners"] == []
    statuses = {match["status"] for match in done["matches"]}
    assert statuses <= {"finished", "cancelled"} and "cancelled" in statuses
    stopped = [
        platform.get(f"/api/v1/matches/{match['id']}")
        for match in done["matches"]
        if match["status"] == "cancelled"
    ]
    cut = [match for match in stopped if match["moves"] > 0]
    assert cut, "a running match was stopped part way"
    for match in cut:
        replay = json.loads(platform.client.get(f"/api/v1/matches/{match['id']}/replay").data)
        assert len(replay["moves"]) == match["moves"] < 9 and replay["result"]["reason"] == "stopped"
        assert verify_replay(replay) == []
    finished_count = done["progress"]["finished"]
    assert sum(row["played"] for row in done["standings"]) == 2 * finished_count
    ladder = platform.get("/api/v1/ladders/nim")
    games = sum(entry["games"] for entry in ladder.get("entries", []))
    assert games == 2 * finished_count, "cancelled matches are rated for nobody"


def test_house_bots_the_organizer_asks_for_play_on_a_gevent_worker(platform: Platform) -> None:
    """``ARENA_HOUSE_BOTS=1`` on Redis: the API under gunicorn registers them, a worker on gevent plays
    them in-process (no endpoint to reach), every move on time."""
    wsgi.build(Settings.from_env({**platform.env, "ARENA_HOUSE_BOTS": "1"}))
    house = {bot["name"]: bot["id"] for bot in platform.get("/api/v1/bots?game=volcano") if bot["house"]}
    assert set(house) == {f"volcano/{name} (house)" for name in bots_for("volcano")}
    platform.start_worker()
    seats = [house["volcano/greedy (house)"], house["volcano/random (house)"]]
    match_id = platform.post("/api/v1/matches", {"game": "volcano", "bots": seats, "seed": 5})["id"]
    (match,) = finished(platform, [match_id], timeout=60)
    assert match["status"] == "finished"
    assert [seat["faults"] for seat in match["seats"]] == [0, 0]
