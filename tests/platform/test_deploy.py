"""docker-compose.yml, deploy/ and docs/deploy.md: valid, pointing at things that exist, consistent.

There is no container engine where the tests run, so the files are checked statically: the compose
file against the Compose specification's JSON Schema, its references against each other and the
repository, the lock against pyproject.toml, and the health-check script for real against loopback
HTTP servers and a Celery worker on a real Redis.
"""

from __future__ import annotations

import base64
import contextlib
import http.server
import importlib.util
import json
import os
import re
import runpy
import shlex
import socket
import subprocess
import sys
import threading
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import ModuleType

import jsonschema
import pytest
import yaml
from celery import Celery
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from prometheus_client import REGISTRY
from redis import Redis

from arena.settings import Settings
from tests.platform.own_redis import free_port, own_redis_server
from tests.platform.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = (ROOT / "docker-compose.yml").read_text()
SCHEMA = json.loads((ROOT / "tests" / "platform" / "data" / "compose_spec.json").read_text())
LOCK = (ROOT / "deploy" / "requirements.lock").read_text()
DOCKERFILE = (ROOT / "deploy" / "Dockerfile").read_text()
DOC = (ROOT / "docs" / "deploy.md").read_text()
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
LONG_RUNNING = ("redis", "api", "worker", "beat", "flower", "bots")
FERNET_KEY = base64.b64encode(bytes(range(200, 232))).decode().translate(str.maketrans("+/", "-_"))
"""A key made as deploy/example.env says (``openssl rand -base64 32 | tr '+/' '-_'``), from fixed bytes."""
REQUIRED_ENV = {
    "REDIS_PASSWORD": "p" * 32,
    "ARENA_ADMIN_TOKEN": "t" * 32,
    "ARENA_SECRETS_KEY": FERNET_KEY,
    "ARENA_METRICS_TOKEN": "m" * 32,
}
"""What a .env must set for compose: the rest of the settings are compose's defaults."""


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE)


# Compose's variable syntax: ${NAME}, ${NAME:-default} (unset or empty), ${NAME:?error} (required).
VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([-?])([^}]*))?\}")


def interpolate(text: str, env: Mapping[str, str]) -> str:
    """``text`` with its variables replaced as compose does; a missing required one raises KeyError."""

    def value(match: re.Match[str]) -> str:
        name, kind, rest = match.groups()
        if env.get(name):
            return env[name]
        if kind == "?":
            raise KeyError(f"{name}: {rest}")
        return rest if kind == "-" else ""

    return VARIABLE.sub(value, text)


def load_healthcheck() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deploy_healthcheck", ROOT / "deploy" / "healthcheck.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the compose file ---------------------------------------------------------------------------------


def test_the_compose_file_follows_the_compose_specification(compose: dict) -> None:
    validator = jsonschema.Draft201909Validator(SCHEMA)  # the draft the schema's $schema names
    validator.check_schema(SCHEMA)
    errors = [f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(compose)]
    assert errors == []
    # and the schema is strict enough to catch a misspelt setting
    misspelt = json.loads(json.dumps(compose))
    misspelt["services"]["api"]["healthcheck"]["intervall"] = "5s"
    assert not validator.is_valid(misspelt)


def test_everything_a_service_names_is_declared(compose: dict) -> None:
    services = compose["services"]
    for name, service in services.items():
        for dependency in service.get("depends_on", {}):
            assert dependency in services, (name, dependency)
        for network in service.get("networks", []):
            assert network in compose["networks"], (name, network)
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                assert (ROOT / source).is_file(), (name, source)
            else:
                assert source in compose["volumes"], (name, source)
        if "build" in service:
            assert (ROOT / service["build"]["context"] / service["build"]["dockerfile"]).is_file()


def test_the_services(compose: dict) -> None:
    services = compose["services"]
    assert set(services) == {"redis", "api", "worker", "beat", "flower", "bots", "prometheus"}
    assert services["api"]["command"][-1] == "arena.wsgi:app"
    assert services["prometheus"]["profiles"] == ["monitoring"]  # started only when asked for
    for name in ("worker", "beat", "flower", "bots"):
        assert services[name]["image"] == services["api"]["image"]  # one image for the platform


def test_redis_keeps_its_data_needs_a_password_and_refuses_writes_when_full(compose: dict) -> None:
    redis = compose["services"]["redis"]
    command = redis["command"]
    options = dict(zip(command[1::2], command[2::2], strict=True))
    assert command[0] == "redis-server"
    assert options["--appendonly"] == "yes"
    assert any(volume.endswith(":/data") for volume in redis["volumes"])
    assert options["--maxmemory-policy"] == "noeviction"
    assert interpolate(options["--maxmemory"], {}) == "1gb"
    assert options["--requirepass"].startswith("${REDIS_PASSWORD:?")  # no password, no start
    assert "ports" not in redis  # only the platform's own network reaches the store
    # the health check authenticates with the same password (redis-cli reads REDISCLI_AUTH)
    assert redis["environment"]["REDISCLI_AUTH"] == options["--requirepass"]
    assert "redis-cli ping" in redis["healthcheck"]["test"][1]


def test_the_platform_reaches_redis_with_its_password(compose: dict) -> None:
    redis_command = compose["services"]["redis"]["command"]
    password = redis_command[redis_command.index("--requirepass") + 1]
    env = {"REDIS_PASSWORD": "0f1e2d3c", "ARENA_ADMIN_TOKEN": "token"}
    url = interpolate(compose["services"]["api"]["environment"]["REDIS_URL"], env)
    connection = Redis.from_url(url).connection_pool.connection_kwargs
    assert (connection["host"], connection["port"], connection["db"]) == ("redis", 6379, 0)
    assert connection["password"] == interpolate(password, env) == "0f1e2d3c"
    with pytest.raises(KeyError, match="REDIS_PASSWORD"):
        interpolate(compose["services"]["api"]["environment"]["REDIS_URL"], {"ARENA_ADMIN_TOKEN": "token"})


def test_workers_can_be_scaled(compose: dict) -> None:
    worker = compose["services"]["worker"]
    assert "container_name" not in worker and "ports" not in worker


def test_every_platform_process_shares_the_settings_and_redis(compose: dict) -> None:
    services = compose["services"]
    environment = services["api"]["environment"]
    assert services["worker"]["environment"].items() >= environment.items()
    shared = {name: value for name, value in environment.items() if name != "ARENA_SECRETS_KEY"}
    for name in ("beat", "flower"):
        assert services[name]["environment"].items() >= shared.items(), name
    assert environment["ARENA_ADMIN_TOKEN"].startswith("${ARENA_ADMIN_TOKEN:?")
    subnet = compose["networks"]["bots"]["ipam"]["config"][0]["subnet"]
    assert environment["ARENA_ENDPOINT_ALLOWLIST"] == "${ARENA_ENDPOINT_ALLOWLIST:-" + subnet + "}"
    assert "backend" not in services["bots"]["networks"]  # a bot endpoint cannot reach Redis


def test_only_the_api_and_the_workers_hold_the_key_of_bots_secrets(compose: dict) -> None:
    services = compose["services"]
    holders = {
        name for name, service in services.items() if "ARENA_SECRETS_KEY" in service.get("environment", {})
    }
    assert holders == {"api", "worker"}
    key = services["api"]["environment"]["ARENA_SECRETS_KEY"]
    assert (
        key.startswith("${ARENA_SECRETS_KEY:?")
        and services["worker"]["environment"]["ARENA_SECRETS_KEY"] == key
    )
    for name in ("beat", "flower"):
        assert not any("ARENA_SECRETS_KEY" in str(value) for value in services[name].values()), name


def test_the_platform_starts_once_redis_is_healthy(compose: dict) -> None:
    for name in ("api", "worker", "beat", "flower"):
        assert compose["services"][name]["depends_on"]["redis"] == {"condition": "service_healthy"}, name


def test_the_commands_are_ones_the_arena_cli_accepts(compose: dict) -> None:
    from arena.cli.main import build_parser

    parser = build_parser()
    for name in ("worker", "bots"):
        command = compose["services"][name]["command"]
        assert command[0] == "arena"
        parser.parse_args(command[1:])


# -- health checks ------------------------------------------------------------------------------------


def healthcheck_args(service: dict) -> list[str]:
    """The arguments a service's health check gives deploy/healthcheck.py (which the image holds)."""
    test = service["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "/app/deploy/healthcheck.py"], test
    assert "COPY deploy ./deploy" in DOCKERFILE and "WORKDIR /app" in DOCKERFILE
    return test[3:]


def test_every_service_has_a_health_check(compose: dict) -> None:
    assert set(LONG_RUNNING) < set(compose["services"])
    for name, service in compose["services"].items():
        assert service["healthcheck"]["test"], name
    prometheus = compose["services"]["prometheus"]
    assert prometheus["healthcheck"]["test"][-1] == "http://127.0.0.1:9090/-/healthy"


def test_every_service_runs_read_only_without_capabilities_and_within_limits(compose: dict) -> None:
    for name, service in compose["services"].items():
        assert service["read_only"] is True, name
        assert any(mount.split(":")[0] == "/tmp" for mount in service["tmpfs"]), name
        assert service["cap_drop"] == ["ALL"], name
        assert "no-new-privileges:true" in service["security_opt"], name
        for limit in ("mem_limit", "cpus", "pids_limit"):
            assert str(service[limit]).strip(), (name, limit)
        # what the service still may do is named, and only Redis' entrypoint needs anything
        assert service.get("cap_add", []) == (["CHOWN", "SETGID", "SETUID"] if name == "redis" else []), name
    # beat's schedule, which its health check reads, is on the writable /tmp
    assert compose["services"]["beat"]["command"][-1].startswith("/tmp/")


def test_images_are_pinned_to_exact_releases(compose: dict) -> None:
    exact = re.compile(r"^[a-z0-9./-]+:v?\d+\.\d+\.\d+[a-z0-9.-]*$")
    for name, service in compose["services"].items():
        if "build" not in service:  # pulled, not built here
            assert exact.match(service["image"]), (name, service["image"])
    (base,) = re.findall(r"^FROM (\S+)", DOCKERFILE, re.MULTILINE)
    assert exact.match(base) and base.startswith("python:3.11."), base


def test_the_api_is_healthy_when_its_health_endpoint_answers(compose: dict) -> None:
    args = load_healthcheck().build_parser().parse_args(healthcheck_args(compose["services"]["api"]))
    gunicorn = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    port = gunicorn["bind"].rsplit(":", 1)[1]
    assert (args.check, args.url) == ("http", f"http://127.0.0.1:{port}/api/v1/health")


def test_a_worker_is_healthy_when_it_answers_a_ping_itself(compose: dict) -> None:
    worker = compose["services"]["worker"]
    args = load_healthcheck().build_parser().parse_args(healthcheck_args(worker))
    assert (args.check, args.node) == ("worker", [])  # none given: this container's own processes
    # the ping's wait fits in the time Docker gives the check
    assert args.timeout < int(worker["healthcheck"]["timeout"].removesuffix("s"))


def test_flower_and_the_bots_are_checked_on_their_own_ports(compose: dict) -> None:
    parser = load_healthcheck().build_parser()
    flower = parser.parse_args(healthcheck_args(compose["services"]["flower"]))
    assert flower.url == "http://127.0.0.1:5555/healthcheck"
    assert "--port=5555" in compose["services"]["flower"]["command"]
    bots = parser.parse_args(healthcheck_args(compose["services"]["bots"]))
    assert bots.url == "http://127.0.0.1:8100/" and compose["services"]["bots"]["command"][-1] == "8100"


def test_beat_is_checked_on_the_schedule_file_it_is_started_with(compose: dict) -> None:
    beat = compose["services"]["beat"]
    args = load_healthcheck().build_parser().parse_args(healthcheck_args(beat))
    command = beat["command"]
    assert args.check == "beat" and args.schedule == command[command.index("--schedule") + 1]
    # beat writes its schedule at least every 3 minutes, sleeping at most 5 between looks
    assert args.max_age > 180 + 300


def test_the_beat_check_wants_a_schedule_file_written_lately(tmp_path: Path) -> None:
    healthcheck = load_healthcheck()
    schedule = tmp_path / "celerybeat-schedule"
    healthy, message = healthcheck.schedule_fresh(str(schedule))
    assert not healthy and "has not started" in message
    written = tmp_path / "celerybeat-schedule.dat"  # the suffix dbm.dumb adds
    written.write_bytes(b"x")
    os.utime(written, (1_000_000.0, 1_000_000.0))
    assert healthcheck.schedule_fresh(str(schedule), 600, now=1_000_000.0 + 599)[0]
    healthy, message = healthcheck.schedule_fresh(str(schedule), 600, now=1_000_000.0 + 601)
    assert not healthy and "stuck or stopped" in message
    other = tmp_path / "unrelated.db"
    other.write_bytes(b"x")  # a fresh file of another name does not count
    assert not healthcheck.schedule_fresh(str(schedule), 600, now=1_000_000.0 + 601)[0]
    assert healthcheck.main(["beat", str(tmp_path / "missing" / "schedule")]) == 1


class _Answer(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        status = int(self.path.strip("/"))
        self.send_response(status)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def http_server() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    server.server_close()


def test_the_http_check_passes_on_200_only(http_server: int) -> None:
    healthcheck = load_healthcheck()
    assert healthcheck.main(["http", f"http://127.0.0.1:{http_server}/200"]) == 0
    assert healthcheck.main(["http", f"http://127.0.0.1:{http_server}/503"]) == 1
    assert healthcheck.main(["--timeout", "2", "http", f"http://127.0.0.1:{free_port()}/"]) == 1


def test_the_worker_check_wants_a_pong_from_that_very_worker() -> None:
    healthcheck = load_healthcheck()

    def replies(*answers: dict) -> object:
        return lambda node, timeout_s: list(answers)

    def unreachable(node: str, timeout_s: float) -> list:
        raise ConnectionRefusedError("no broker")

    node = "celery@box"
    assert healthcheck.worker_answers(replies({node: {"ok": "pong"}}), node)[0]
    assert not healthcheck.worker_answers(replies(), node)[0]
    assert not healthcheck.worker_answers(replies({"celery@other": {"ok": "pong"}}), node)[0]
    assert not healthcheck.worker_answers(replies({node: {"error": "boom"}}), node)[0]
    healthy, message = healthcheck.worker_answers(unreachable, node)
    assert not healthy and "no broker" in message


def test_the_worker_check_wants_a_pong_from_every_process_of_the_worker() -> None:
    healthcheck = load_healthcheck()
    asked: list[list[str]] = []

    def replies(*answers: dict) -> object:
        def ping(nodes: list[str], timeout_s: float) -> list[dict]:
            asked.append(nodes)
            return list(answers)

        return ping

    nodes = ["arena-1@box", "arena-2@box"]
    pong = {"ok": "pong"}
    assert healthcheck.worker_answers(replies({nodes[0]: pong}, {nodes[1]: pong}), nodes)[0]
    assert asked[-1] == nodes  # one ping to both
    healthy, message = healthcheck.worker_answers(replies({nodes[0]: pong}), nodes)
    assert not healthy and message.startswith("arena-2@box did not answer")


def test_the_worker_check_names_the_processes_as_the_worker_does() -> None:
    healthcheck = load_healthcheck()
    host = socket.gethostname()
    assert healthcheck.default_nodes({}) == [f"celery@{host}"]
    assert healthcheck.default_nodes({"ARENA_WORKER_PROCESSES": "1"}) == [f"celery@{host}"]
    assert healthcheck.default_nodes({"ARENA_WORKER_PROCESSES": "3"}) == [
        f"arena-{index}@{host}" for index in (1, 2, 3)
    ]


def test_the_worker_container_tells_its_health_check_how_many_processes_it_runs(compose: dict) -> None:
    """The check reads ARENA_WORKER_PROCESSES from the container's environment, so the worker must
    take its number from there too, not from a --processes of its command."""
    worker = compose["services"]["worker"]
    assert worker["environment"]["ARENA_WORKER_PROCESSES"] == "${ARENA_WORKER_PROCESSES:-1}"
    assert "--processes" not in worker["command"]


def test_the_worker_check_without_a_broker_url_fails_with_a_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert load_healthcheck().main(["worker"]) == 1
    assert "REDIS_URL" in capsys.readouterr().err


@pytest.fixture(scope="module")
def redis_with_password() -> Iterator[str]:
    """A redis-server of this module's own, on a free loopback port, with a password as deployed."""
    with own_redis_server("pw123") as url:
        yield url


WORKER = """
import os, sys, time
from celery import Celery
app = Celery("healthcheck-test", broker=os.environ["REDIS_URL"])

@app.task(name="nap")
def nap():
    time.sleep(60)

app.worker_main(["worker", "--pool=threads", "--concurrency=1", "--hostname=" + sys.argv[1],
                 "--without-gossip", "--without-mingle", "--loglevel=INFO"])
"""


@pytest.mark.integration
def test_the_worker_check_pings_a_real_worker_through_redis(redis_with_password: str, tmp_path: Path) -> None:
    """The worker answers while its only thread is busy, and stops answering once it is gone."""
    env = {"REDIS_URL": redis_with_password, "PATH": "/usr/bin:/bin"}
    node = "celery@healthcheck-test"
    check = [sys.executable, str(ROOT / "deploy" / "healthcheck.py"), "--timeout", "3", "worker"]
    log = tmp_path / "worker.log"

    def wait_for_log(text: str) -> None:
        def logged() -> bool:
            assert worker.poll() is None, log.read_text()
            return text in log.read_text()

        wait_until(logged, 30, f"the worker did not log {text!r} (see {log})")

    def run_check(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*check, *args], env=env, capture_output=True, text=True, timeout=30)

    with log.open("w") as sink:
        worker = subprocess.Popen(
            [sys.executable, "-c", WORKER, node], env=env, stdout=sink, stderr=subprocess.STDOUT
        )
    client = Celery("healthcheck-client", broker=redis_with_password, set_as_current=False)
    try:
        wait_for_log("ready.")
        client.send_task("nap")
        wait_for_log("Task nap[")  # taken: the worker's one thread sleeps from now on
        answered = run_check(node)
        assert answered.returncode == 0, answered.stderr
        nobody = run_check("celery@nobody")
        assert nobody.returncode == 1 and "did not answer" in nobody.stderr
    finally:
        client.close()
        worker.kill()
        worker.wait(30)
    gone = run_check(node)
    assert gone.returncode == 1 and "did not answer" in gone.stderr


SLOW_CLIENTS = 100


def _health(port: int, timeout_s: float) -> int:
    """The status of the API's health endpoint on ``port``, or 0 when it does not answer in time."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=timeout_s) as answer:
            return int(answer.status)
    except (OSError, urllib.error.HTTPError):
        return 0


@contextlib.contextmanager
def deployed_api(redis_url: str, tmp_path: Path) -> Iterator[int]:
    """The API under gunicorn with the deployed settings (one process), on a free port once it is
    healthy; its port."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "platform"),
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": "t" * 32,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
    }
    log = tmp_path / "gunicorn.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "arena.wsgi:app"],
            cwd=ROOT,
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while _health(port, 2.0) != 200:
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.mark.integration
def test_slow_clients_do_not_stop_the_api_under_the_deployed_settings(
    redis_with_password: str, tmp_path: Path
) -> None:
    """Slowloris: clients that send a request's head one line at a time, never ending it, must not
    hold what serves the other clients (a thread pool of 4 per process was held by 4 of them)."""
    slow: list[socket.socket] = []
    stop = threading.Event()

    def drip() -> None:
        """One more header line on every slow socket every half second, until stopped (a minute at most)."""
        for line in range(120):
            if stop.wait(0.5):
                return
            for sock in slow:
                with contextlib.suppress(OSError):
                    sock.sendall(b"X-Slow-%d: %d\r\n" % (line, line))

    dripping = threading.Thread(target=drip, daemon=True)
    with deployed_api(redis_with_password, tmp_path) as port:
        try:
            for _ in range(SLOW_CLIENTS):
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                sock.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                slow.append(sock)
            dripping.start()
            time.sleep(1.0)  # every slow client has been taken in by the server and keeps dripping
            # a health check's own bound, as the compose health check's: the API answers all the same
            assert [_health(port, 5.0) for _ in range(3)] == [200] * 3, (
                tmp_path / "gunicorn.log"
            ).read_text()
        finally:
            stop.set()
            for sock in slow:
                sock.close()


@pytest.mark.integration
def test_a_long_url_gets_the_apis_error_body_under_the_deployed_settings(
    redis_with_password: str, tmp_path: Path
) -> None:
    """A query string of some kilobytes got gunicorn's own HTML 414 (its default request line is 4094
    bytes); now gunicorn reads it and the app answers with its JSON error body."""
    with deployed_api(redis_with_password, tmp_path) as port:
        url = f"http://127.0.0.1:{port}/api/v1/matches?game=" + "x" * 6000
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url, timeout=10)
        assert refused.value.code == 414
        assert refused.value.headers["Content-Type"] == "application/json"
        body = json.loads(refused.value.read())
        assert body["code"] == 414 and body["message"] == "The URL is longer than 4096 bytes."


# -- Flower and metrics -------------------------------------------------------------------------------


def test_flower_watches_the_platforms_queue_behind_a_password_on_loopback(compose: dict) -> None:
    flower = compose["services"]["flower"]
    assert flower["command"][:4] == ["celery", "-A", "arena.worker.celery_app", "flower"]
    assert flower["environment"]["FLOWER_BASIC_AUTH"].startswith("${FLOWER_BASIC_AUTH:?")
    assert all(port.startswith("127.0.0.1:") for port in flower["ports"])
    assert re.search(r"^flower==\d", LOCK, re.MULTILINE)


@pytest.fixture(scope="module")
def prometheus(compose: dict) -> dict:
    service = compose["services"]["prometheus"]
    config_flag = next(arg for arg in service["command"] if arg.startswith("--config.file="))
    mounted = {volume.split(":")[1]: volume.split(":")[0] for volume in service["volumes"]}
    source = mounted[config_flag.split("=", 1)[1]]
    return yaml.safe_load((ROOT / source).read_text())


def scrape(prometheus: dict, job: str) -> dict:
    return next(config for config in prometheus["scrape_configs"] if config["job_name"] == job)


def test_prometheus_scrapes_the_api_every_worker_and_flower_where_they_serve(
    compose: dict, prometheus: dict
) -> None:
    services = compose["services"]
    api = scrape(prometheus, "arena-api")
    assert api["metrics_path"] == "/metrics" and api["static_configs"][0]["targets"] == ["api:8000"]
    worker = scrape(prometheus, "arena-worker")["dns_sd_configs"][0]
    assert worker["names"] == ["worker"]  # every replica of the service
    assert str(worker["port"]) == services["worker"]["environment"]["ARENA_METRICS_PORT"]
    assert str(worker["port"]) in services["worker"]["expose"]
    assert scrape(prometheus, "flower")["static_configs"][0]["targets"] == ["flower:5555"]
    for target in ("api", "worker", "flower"):
        assert set(services["prometheus"]["networks"]) & set(services[target]["networks"]), target


def test_prometheus_reads_the_apis_metrics_with_the_token_the_api_asks_for(
    compose: dict, prometheus: dict, tmp_path: Path
) -> None:
    """The API's port is published on every interface, so its /metrics answers only with
    ARENA_METRICS_TOKEN; Prometheus sends it, from a file its entrypoint writes from the variable."""
    services = compose["services"]
    token = services["api"]["environment"]["ARENA_METRICS_TOKEN"]
    assert token.startswith("${ARENA_METRICS_TOKEN:?")  # no token, no start
    assert services["prometheus"]["environment"]["ARENA_METRICS_TOKEN"] == token
    authorization = scrape(prometheus, "arena-api")["authorization"]
    assert authorization["type"] == "Bearer"
    token_file = authorization["credentials_file"]
    assert token_file.startswith("/tmp/") and any(
        mount.startswith("/tmp:") for mount in services["prometheus"]["tmpfs"]
    )  # in memory, on a read-only container
    # the entrypoint as the container runs it, its two paths moved here and Prometheus a stand-in
    shell, flag, script, *names = services["prometheus"]["entrypoint"]
    assert (shell, flag) == ("/bin/sh", "-c")
    stand_in = tmp_path / "prometheus"
    stand_in.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$@\" > {tmp_path / 'arguments'}\n")
    stand_in.chmod(0o755)
    script = script.replace("$$", "$")  # compose's escape of a literal $
    script = script.replace(token_file, str(tmp_path / "token")).replace("/bin/prometheus", str(stand_in))
    secret = "a token with $pace's and \\ in it"
    env = {"ARENA_METRICS_TOKEN": secret, "PATH": "/usr/bin:/bin"}
    command = [str(arg) for arg in services["prometheus"]["command"]]
    subprocess.run(["/bin/sh", "-c", script, *names, *command], env=env, check=True, timeout=30)
    assert (tmp_path / "token").read_text() == secret  # as it is: no newline, nothing expanded
    assert (tmp_path / "token").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "arguments").read_text().splitlines() == command


# -- the image and its lock -----------------------------------------------------------------------------


def pinned() -> dict[str, tuple[str, int]]:
    """The lock's packages: canonical name -> (version, number of hashes)."""
    entries: dict[str, tuple[str, int]] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", LOCK):
        match = re.match(r"([A-Za-z0-9._-]+)==([^\s\\]+)", block)
        if match:
            entries[canonicalize_name(match.group(1))] = (match.group(2), block.count("--hash=sha256:"))
    return entries


def test_the_lock_pins_every_dependency_to_one_version_with_its_hashes() -> None:
    lock = pinned()
    requirements = [
        *PYPROJECT["project"]["dependencies"],
        *PYPROJECT["project"]["optional-dependencies"]["flower"],
        *PYPROJECT["build-system"]["requires"],
    ]
    for text in requirements:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in lock, f"{name} is not in deploy/requirements.lock: run deploy/update-lock.sh"
        version, hashes = lock[name]
        assert requirement.specifier.contains(version, prereleases=True), (text, version)
        assert hashes >= 1, name
    for name, (version, hashes) in lock.items():
        assert hashes >= 1, f"{name}=={version} has no hash"
    assert "volcano-arena" not in lock  # the project itself is installed from the source


def test_the_image_installs_the_lock_then_the_project_without_dependencies() -> None:
    installs = [line for line in DOCKERFILE.splitlines() if "pip install" in line]
    assert installs[0].strip() == "RUN pip install --require-hashes --no-deps -r deploy/requirements.lock"
    assert "pip install --no-deps --no-build-isolation ." in installs[1]
    assert len(installs) == 2  # nothing else is installed, so nothing unpinned
    assert DOCKERFILE.index("COPY deploy/requirements.lock") < DOCKERFILE.index("COPY platform")
    assert "pip check" in DOCKERFILE


def test_the_dockerfile_copies_what_exists_and_the_gunicorn_settings_load() -> None:
    for line in DOCKERFILE.splitlines():
        if line.startswith("COPY "):
            *sources, _ = shlex.split(line)[1:]
            assert all((ROOT / source).exists() for source in sources), line
    config = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    assert config["worker_class"] == "gevent" and config["workers"] >= 1 and config["worker_connections"] >= 1
    assert config["keepalive"] >= 1  # the gevent worker's deadline on a request's head
    assert config["bind"].endswith(":8000")


def test_the_lock_is_made_by_the_script_the_doc_names() -> None:
    assert "#    deploy/update-lock.sh\n" in LOCK  # the lock's header says how it was made
    assert "deploy/update-lock.sh" in DOC


# -- settings and documentation -------------------------------------------------------------------------


def test_the_example_env_names_every_variable_compose_requires() -> None:
    required = {name for name, kind, _ in VARIABLE.findall(COMPOSE) if kind == "?"}
    example = (ROOT / "deploy" / "example.env").read_text()
    named = set(re.findall(r"^([A-Z_]+)=", example, re.MULTILINE))
    assert required <= named, required - named
    assert required >= {"REDIS_PASSWORD", "ARENA_ADMIN_TOKEN", "FLOWER_BASIC_AUTH", "ARENA_SECRETS_KEY"}


def test_the_deploy_doc_explains_every_setting() -> None:
    settings_source = (ROOT / "platform" / "arena" / "settings.py").read_text()
    metrics_source = (ROOT / "platform" / "arena" / "metrics.py").read_text()
    names = set(re.findall(r'"((?:REDIS|ARENA)_[A-Z_]+)"', settings_source + metrics_source))
    names |= {"ARENA_ENDPOINT_ALLOWLIST"} | {name for name, _, _ in VARIABLE.findall(COMPOSE)}
    assert names >= {"REDIS_URL", "ARENA_ADMIN_TOKEN", "ARENA_WORKER_CONCURRENCY", "ARENA_METRICS_PORT"}
    for name in names:
        assert f"`{name}`" in DOC, name


def test_the_visibility_timeout_is_one_value_in_the_settings_compose_and_the_doc(compose: dict) -> None:
    # compose once set 3600 while the doc and the settings said 60: a dead worker's matches then
    # waited an hour for the broker to hand them out again
    required = REQUIRED_ENV
    for name in ("api", "worker", "beat"):
        environment = {
            key: interpolate(str(value), required)
            for key, value in compose["services"][name]["environment"].items()
        }
        composed = Settings.from_env(environment).visibility_timeout_s
        documented = re.search(r"^\| `ARENA_VISIBILITY_TIMEOUT` \| (\d+) \|", DOC, re.MULTILINE)
        assert documented is not None
        assert composed == Settings.from_env({}).visibility_timeout_s == int(documented.group(1)), name


def test_the_deploy_doc_names_every_metric() -> None:
    from arena import metrics

    families = {family.name for family in REGISTRY.collect() if family.name.startswith("arena_")}
    families |= {family.name for family in metrics.QueueDepthCollector(Redis(), []).describe()}
    assert {"arena_matches", "arena_move_think_seconds", "arena_faults", "arena_queue_depth"} <= families
    for family in families:
        kind = next((f.type for f in REGISTRY.collect() if f.name == family), "gauge")
        name = f"{family}_total" if kind == "counter" else family
        assert f"`{name}`" in DOC, name


def test_beat_sends_the_matchmaking_tick_and_the_tournaments_start_of_the_celery_app(compose: dict) -> None:
    from arena.settings import Settings
    from arena.worker.celery_app import START_EVERY_S, START_TASK_NAME, TICK_TASK_NAME, make_celery

    command = compose["services"]["beat"]["command"]
    assert command[:4] == ["celery", "-A", "arena.worker.celery_app", "beat"]
    app = make_celery(Settings(redis_url="redis://127.0.0.1:1/0", matchmaking_tick_s=7))
    sent = {entry["task"]: entry["schedule"] for entry in app.conf.beat_schedule.values()}
    assert sent == {TICK_TASK_NAME: 7.0, START_TASK_NAME: START_EVERY_S}
    app.loader.import_default_modules()  # the start task is in a module the app includes by name
    assert TICK_TASK_NAME in app.tasks and START_TASK_NAME in app.tasks


def test_a_compose_worker_plays_as_many_matches_at_once_as_its_pool_allows_by_default(compose: dict) -> None:
    # the settings a worker container reads when .env sets only what compose requires
    required = REQUIRED_ENV
    environment = {
        name: interpolate(str(value), required)
        for name, value in compose["services"]["worker"]["environment"].items()
    }
    settings = Settings.from_env(environment)
    assert (settings.worker_pool, settings.worker_concurrency) == ("gevent", 500)
