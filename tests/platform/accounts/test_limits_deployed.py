"""The rate limits on the deployed shape: gunicorn with ``deploy/gunicorn.conf.py``, the limits'
counts in a real Redis, one reverse proxy in front (``ARENA_TRUSTED_PROXIES=1``, the proxy's part
played by the test: it connects from 127.0.0.1 and appends the client's address to
``X-Forwarded-For``).

Strangers aiming registrations at other ports of a bot's address, each from an address of its own,
spend that address's ping budget and are each counted apart; the bot's owner still gives it a new
secret and pings it on demand; every ``Retry-After`` is the limit's own.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.protocol import new_secret
from tests.platform.accounts.conftest import GatedPing
from tests.platform.conftest import BotServer
from tests.platform.own_redis import free_port, own_redis_server

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]
DAY_S = 24 * 3600


@contextlib.contextmanager
def deployed_api(redis_url: str, log: Path, **settings: str) -> Iterator[str]:
    """The API under gunicorn with the deployed settings (one process) and ``settings``; its base
    URL once it is healthy."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "platform"),
        "REDIS_URL": redis_url,
        "ARENA_ADMIN_TOKEN": "t" * 32,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
        **settings,
    }
    base = f"http://127.0.0.1:{port}/api/v1"
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
        while _call(f"{base}/health")[0] != 200:
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _call(
    url: str, body: dict[str, Any] | None = None, client: str | None = None, token: str | None = None
) -> tuple[int, dict[str, str], Any]:
    """Status, headers and JSON body of a request (a POST when ``body`` is given) sent as the proxy
    does for ``client``; status 0 when nothing answered."""
    headers = {"Content-Type": "application/json"}
    if client is not None:
        headers["X-Forwarded-For"] = client
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, headers=headers, method="GET" if body is None else "POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")
    except OSError:
        return 0, {}, None


def test_strangers_cannot_lock_an_owner_out_behind_the_deployed_proxy(
    bots: BotServer, tmp_path: Path
) -> None:
    with (
        own_redis_server("limits-deployed") as redis_url,
        deployed_api(
            redis_url,
            tmp_path / "gunicorn.log",
            ARENA_TRUSTED_PROXIES="1",
            ARENA_ENDPOINT_ALLOWLIST="127.0.0.0/8",
            ARENA_PING_HOST_LIMIT="4 per day",
            ARENA_REGISTRATION_LIMIT="2 per minute",
        ) as base,
    ):
        bots.secrets["/first/deployed-victim"] = secret = new_secret()
        victim = {"name": "victim", "endpoint": bots.url("/first/deployed-victim"), "games": ["vulkan"]}
        status, _, mine = _call(f"{base}/bots", {**victim, "secret": secret}, client="198.51.100.7")
        assert status == 201, mine
        probes = []
        for stranger in range(8):  # each from an address of its own, at another port of 127.0.0.1
            body = {"name": "probe", "endpoint": f"http://127.0.0.1:{1024 + stranger}/", "games": ["vulkan"]}
            status, headers, answer = _call(
                f"{base}/bots", {**body, "secret": new_secret()}, f"203.0.113.{stranger}"
            )
            probes.append(status)
            if status == 429:
                assert "pinged as often" in answer["message"]
                assert 0 < int(headers["Retry-After"]) <= DAY_S, "the address's day, not a minute"
            else:
                assert "Retry-After" not in headers, "a 422 is not about waiting"
        assert probes == [422, 422, 422] + [429] * 5
        # the owner, behind the same proxy, is not held by the address's spent budget
        bots.secrets["/first/deployed-victim"] = renewed = new_secret()
        status, headers, answer = _call(
            f"{base}/bots/{mine['id']}/secret", {"secret": renewed}, "198.51.100.7", mine["token"]
        )
        assert status == 200 and "Retry-After" not in headers, answer
        status, _, answer = _call(f"{base}/bots/{mine['id']}/ping", {}, "198.51.100.7", mine["token"])
        assert status == 200 and answer["ok"], answer
        # one client behind the proxy spends its own registration budget only
        spent = [_call(f"{base}/bots", {}, "198.51.100.9")[0] for _ in range(3)]
        assert spent == [422, 422, 429]
        status, headers, _ = _call(f"{base}/bots", {}, "198.51.100.9")
        assert status == 429 and 1 <= int(headers["Retry-After"]) <= 60, "the minute's limit"
        assert _call(f"{base}/bots", {}, "198.51.100.10")[0] == 422, "another client's budget"


def test_a_busy_ping_gate_says_the_pings_own_3_s_on_the_deployed_shape(
    gated: GatedPing, tmp_path: Path
) -> None:
    """The 503 of a platform pinging as many bots as it may says the ping's 3 s, not the registration
    limit's minute (flask-limiter wrote 60 over it)."""
    with (
        own_redis_server("limits-busy") as redis_url,
        deployed_api(
            redis_url, tmp_path / "gunicorn.log", ARENA_ENDPOINT_ALLOWLIST="127.0.0.0/8", ARENA_MAX_PINGS="1"
        ) as base,
    ):
        held = {"name": "held", "endpoint": gated.url, "games": ["vulkan"], "secret": new_secret()}
        answers: list[int] = []
        holder = threading.Thread(
            target=lambda: answers.append(_call(f"{base}/bots", held, "198.51.100.1")[0])
        )
        holder.start()
        try:
            assert gated.arrived.wait(30), "the held registration's ping never came"
            other = {**held, "name": "other", "endpoint": "http://127.0.0.1:9/"}
            status, headers, answer = _call(f"{base}/bots", other, "198.51.100.2")
            assert status == 503 and "as many bots as it may" in answer["message"], answer
            assert headers["Retry-After"] == "3"
        finally:
            gated.release.set()
            holder.join(30)
        assert answers == [201]
