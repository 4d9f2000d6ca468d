"""docker-compose.yml, deploy/ and docs/deploy.md: valid, pointing at things that exist, consistent."""

from __future__ import annotations

import re
import runpy
import shlex
from pathlib import Path

import pytest
import yaml

from arena.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = (ROOT / "docker-compose.yml").read_text()


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE)


def test_services_redis_api_worker_and_bots(compose: dict) -> None:
    services = compose["services"]
    assert set(services) == {"redis", "api", "worker", "bots"}
    redis = services["redis"]
    assert redis["command"][:3] == ["redis-server", "--appendonly", "yes"]
    assert any(volume.endswith(":/data") for volume in redis["volumes"])
    assert "ports" not in redis  # only the platform's own network reaches the store
    for name in ("api", "worker", "bots"):
        build = services[name]["build"]
        assert (ROOT / build["context"] / build["dockerfile"]).is_file()
    assert services["api"]["command"][-1] == "arena.wsgi:app"


def test_workers_can_be_scaled(compose: dict) -> None:
    worker = compose["services"]["worker"]
    assert "container_name" not in worker and "ports" not in worker


def test_api_and_workers_share_the_settings_and_redis(compose: dict) -> None:
    services = compose["services"]
    environment = services["api"]["environment"]
    assert services["worker"]["environment"] == environment
    assert environment["REDIS_URL"].startswith("redis://redis:6379/")
    assert environment["ARENA_ADMIN_TOKEN"].startswith("${ARENA_ADMIN_TOKEN:?")
    subnet = compose["networks"]["bots"]["ipam"]["config"][0]["subnet"]
    assert environment["ARENA_ENDPOINT_ALLOWLIST"] == "${ARENA_ENDPOINT_ALLOWLIST:-" + subnet + "}"
    assert "backend" not in services["bots"]["networks"]  # a bot endpoint cannot reach Redis


def test_the_commands_are_ones_the_arena_cli_accepts(compose: dict) -> None:
    parser = build_parser()
    for name in ("worker", "bots"):
        command = compose["services"][name]["command"]
        assert command[0] == "arena"
        parser.parse_args(command[1:])


def test_the_dockerfile_copies_what_exists_and_the_gunicorn_settings_load() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    for line in dockerfile.splitlines():
        if line.startswith("COPY "):
            *sources, _ = shlex.split(line)[1:]
            assert all((ROOT / source).exists() for source in sources), line
    config = runpy.run_path(str(ROOT / "deploy" / "gunicorn.conf.py"))
    assert config["worker_class"] == "gthread" and config["workers"] >= 1 and config["threads"] >= 1
    assert config["bind"].endswith(":8000")


def test_the_deploy_doc_explains_every_setting() -> None:
    doc = (ROOT / "docs" / "deploy.md").read_text()
    settings_source = (ROOT / "platform" / "arena" / "settings.py").read_text()
    names = set(re.findall(r'"((?:REDIS|ARENA)_[A-Z_]+)"', settings_source)) | {"ARENA_ENDPOINT_ALLOWLIST"}
    assert names >= {"REDIS_URL", "ARENA_ADMIN_TOKEN", "ARENA_WORKER_CONCURRENCY"}
    for name in names:
        assert f"`{name}`" in doc, name
