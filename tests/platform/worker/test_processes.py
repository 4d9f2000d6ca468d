"""``arena worker --processes N``: the node names and ports it gives, its supervisor, and N real worker
processes playing matches on a Redis of this module's own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from arena.api import create_app
from arena.cli.main import main
from arena.settings import Settings
from arena.worker import processes
from arena.worker.celery_app import redis_runtime
from arena.worker.processes import Child, Supervisor
from referee.protocol import new_secret
from tests.platform import bot_server
from tests.platform.conftest import ADMIN, BotServer
from tests.platform.own_redis import free_port, own_redis_server
from tests.platform.waiting import wait_until

ROOT = Path(__file__).resolve().parents[3]


# -- numbers and names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0", "argument --processes: must be at least 1, not 0"),
        ("-1", "argument --processes: must be at least 1, not -1"),
        ("x", "argument --processes: not a number of processes: 'x' (a whole number from 1, or auto)"),
    ],
)
def test_a_bad_processes_option_is_a_usage_error_not_a_traceback(
    value: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["worker", f"--processes={value}"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_command_line_rejects_bad_processes_with_exit_2_and_no_traceback() -> None:
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:1/0", "PYTHONPATH": str(ROOT)}
    for argv in (["--processes", "0"], ["--processes", "-1"], ["--processes", "x"]):
        done = subprocess.run(
            [sys.executable, "-m", "arena.cli.main", "worker", *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, argv
        assert "argument --processes" in done.stderr and "Traceback" not in done.stderr, done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "worker"],
        env={**env, "ARENA_WORKER_PROCESSES": "x"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "ARENA_WORKER_PROCESSES" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_metrics_port_with_no_room_for_every_process_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("ARENA_METRICS_PORT", "65535")
    assert main(["worker", "--processes", "2"]) == 2
    assert "leaves no room for 2 processes" in capsys.readouterr().err


def test_each_process_has_a_node_name_and_a_metrics_port_of_its_own() -> None:
    assert processes.node_names(1) == ["celery@%h"]  # Celery's default, as before
    assert processes.node_names(3) == ["arena-1@%h", "arena-2@%h", "arena-3@%h"]
    assert processes.node_names(2, "match@box") == ["match-1@box", "match-2@box"]
    assert processes.expand_host("arena-1@%h", "box") == "arena-1@box"
    assert processes.metrics_ports(9100, 3) == [9100, 9101, 9102]
    assert processes.metrics_ports(None, 2) == [None, None]


# -- the supervisor, with stand-in children -----------------------------------------------------------

STAND_IN = textwrap.dedent(
    """
    import os, signal, sys, time
    marker = sys.argv[1]
    def stop(signum, frame):
        open(marker, "w").write(signal.Signals(signum).name)
        sys.exit(0)
    signal.signal(signal.SIGTERM, stop)
    open(marker + ".up", "w").close()
    if len(sys.argv) > 2:  # exit by itself once the other one is up
        while not os.path.exists(sys.argv[2]):
            time.sleep(0.05)
        sys.exit(3)
    time.sleep(60)
    sys.exit(9)
    """
)


def test_a_process_that_exits_on_its_own_stops_the_others_and_the_worker_fails(tmp_path: Path) -> None:
    """Not restarted: the others get a warm shutdown and the supervisor exits with the dead one's status."""
    steady, dying = tmp_path / "steady", tmp_path / "dying"
    children = [
        Child("steady@test", [sys.executable, "-c", STAND_IN, str(steady)], dict(os.environ)),
        Child("dying@test", [sys.executable, "-c", STAND_IN, str(dying), f"{steady}.up"], dict(os.environ)),
    ]
    lines: list[str] = []
    handler = signal.getsignal(signal.SIGTERM)
    assert Supervisor(children, poll_s=0.05, say=lines.append).run() == 3
    assert steady.read_text() == "SIGTERM"  # told to stop, and it stopped with 0
    assert not dying.exists()  # it exited by itself, with 3
    assert any("dying@test" in line and "exited on its own, status 3" in line for line in lines), lines
    assert signal.getsignal(signal.SIGTERM) == handler  # the supervisor's handlers were put back


# -- real worker processes ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with own_redis_server("processes-pw") as url:
        yield url


def two_free_ports() -> int:
    """A port whose next one is free too (the second process serves on it)."""
    for _ in range(50):
        port = free_port()
        if port < 65535 and _free(port + 1):
            return port
    pytest.fail("no two free ports in a row")


def _free(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@dataclass
class Worker:
    """An ``arena worker --processes 2`` (the test worker, with the test games) and its platform."""

    process: subprocess.Popen[bytes]
    log: Path
    env: dict[str, str]
    client: FlaskClient

    def children(self) -> list[int]:
        pid = self.process.pid
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]

    def register(self, bots: BotServer, path: str) -> str:
        secret = new_secret()
        bots.secrets[path] = secret
        body = {"name": path, "endpoint": bots.url(path), "games": ["nim"], "secret": secret}
        answer = self.client.post("/api/v1/bots", json=body)
        assert answer.status_code == 201, answer.get_json()
        return str(answer.get_json()["id"])

    def match(self, bots: list[str], **extra: Any) -> str:
        body = {"game": "nim", "bots": bots, **extra}
        answer = self.client.post("/api/v1/matches", json=body, headers={"Authorization": f"Bearer {ADMIN}"})
        assert answer.status_code == 202, answer.get_json()
        return str(answer.get_json()["id"])

    def get(self, match_id: str) -> dict[str, Any]:
        return dict(self.client.get(f"/api/v1/matches/{match_id}").get_json())


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.fixture
def worker(redis_url: str, toy_games: None, tmp_path: Path) -> Iterator[Worker]:
    tag = uuid.uuid4().hex[:10]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": ADMIN,
        "ARENA_KEY_PREFIX": f"arena-wp-{tag}:",
        "ARENA_QUEUE": f"arena-wp-{tag}",
        "ARENA_ENDPOINT_ALLOWLIST": "127.0.0.0/8",
        "ARENA_WORKER_CONCURRENCY": "2",
        "ARENA_WORKER_PROCESSES": "2",
        "ARENA_METRICS_PORT": str(two_free_ports()),
    }
    runtime = redis_runtime(Settings.from_env(env))
    log = tmp_path / "worker.log"
    with log.open("w") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.platform.nim_worker", "--loglevel=INFO"],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    started = Worker(process, log, env, create_app(runtime).test_client())
    children: list[int] = []
    try:
        wait_until(
            lambda: log.read_text().count(" ready.") == 2 or process.poll() is not None,
            60,
            "the two worker processes did not start",
        )
        assert process.poll() is None, log.read_text()
        children = started.children()
        yield started
    finally:
        bot_server.GATE.set()
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for child in children:
            if running(child):
                os.kill(child, signal.SIGKILL)


def finished_matches(port: int) -> float:
    """``arena_matches_total{game="nim", outcome="finished"}`` on the metrics server at ``port``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    for line in text.splitlines():
        if line.startswith('arena_matches_total{game="nim",outcome="finished"}'):
            return float(line.split()[-1])
    return 0.0


@pytest.mark.integration
def test_two_processes_both_play_queued_matches_and_each_answers_for_itself(
    worker: Worker, bots: BotServer
) -> None:
    """Two matches at once per process, eight queued, each lasting over a second: the second
    process must play some. Each process counts its own on its own metrics port, and the health
    check finds both by the names it works out from ARENA_WORKER_PROCESSES."""
    ids = [worker.register(bots, f"/sleepy/wp-{seat}") for seat in range(2)]
    matches = [worker.match(ids, seed=seed, options={"stones": 6}) for seed in range(8)]
    wait_until(
        lambda: all(worker.get(match_id)["status"] == "finished" for match_id in matches),
        120,
        "the queued matches did not all finish",
    )
    assert all(worker.get(match_id)["attempts"] == 1 for match_id in matches)
    base = int(worker.env["ARENA_METRICS_PORT"])
    counts = [finished_matches(base), finished_matches(base + 1)]
    assert sum(counts) == 8 and min(counts) >= 1, counts
    log = worker.log.read_text()
    host = os.uname().nodename
    assert f"arena-1@{host} ready." in log and f"arena-2@{host} ready." in log
    check = subprocess.run(
        [sys.executable, str(ROOT / "deploy" / "healthcheck.py"), "--timeout", "10", "worker"],
        env=worker.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stderr
    assert f"arena-1@{host}, arena-2@{host} answered" in check.stdout


@pytest.mark.integration
def test_sigterm_lets_the_match_in_flight_finish_then_every_process_exits(
    worker: Worker, bots: BotServer
) -> None:
    bot_server.GATE.clear()  # the gated bot holds the match after its first move
    ids = [worker.register(bots, f"/gated/wp-{seat}") for seat in range(2)]
    match_id = worker.match(ids, options={"stones": 6}, time={"move_ms": 30_000})
    wait_until(
        lambda: (m := worker.get(match_id))["status"] == "running" and m["moves"] >= 1,
        60,
        "the match did not start",
    )
    children = worker.children()
    assert len(children) == 2
    worker.process.send_signal(signal.SIGTERM)
    wait_until(lambda: worker.log.read_text().count("Warm shutdown") == 2, 30, "the processes were not told")
    # warm shutdown: the match still holds its process, so nothing has exited
    assert worker.get(match_id)["status"] == "running"
    assert worker.process.poll() is None and all(running(child) for child in children)
    bot_server.GATE.set()
    assert worker.process.wait(60) == 0, worker.log.read_text()[-3000:]
    match = worker.get(match_id)
    assert (match["status"], match["attempts"], match["moves"]) == ("finished", 1, 6)
    wait_until(lambda: not any(running(child) for child in children), 10, "a worker process outlived it")


@pytest.mark.integration
def test_a_killed_supervisor_leaves_no_worker_process_running(worker: Worker) -> None:
    children = worker.children()
    assert len(children) == 2 and all(running(child) for child in children)
    worker.process.send_signal(signal.SIGKILL)
    worker.process.wait(10)
    wait_until(
        lambda: not any(running(child) for child in children),
        60,
        "worker processes outlived their killed supervisor",
    )


@pytest.mark.integration
def test_a_worker_process_that_dies_stops_the_worker_with_a_failure(worker: Worker) -> None:
    first, second = worker.children()
    os.kill(first, signal.SIGKILL)
    assert worker.process.wait(60) == 128 + signal.SIGKILL
    wait_until(lambda: not running(second), 10, "the other worker process was not stopped")
    assert "exited on its own, status 137" in worker.log.read_text()
