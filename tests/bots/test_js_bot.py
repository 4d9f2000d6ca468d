"""The Node starter bot (bots/starter-js/bot.js) against the platform: whole games through
``arena play`` with no fault, and its signature check.

Needs ``node`` (Debian's ``nodejs``; ``make node`` installs it as root). Without it the tests are
skipped, except under CI (``CI`` set), where its absence fails the run.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.api import create_app
from arena.cli.main import main
from referee.protocol import SIGNATURE_HEADER, encode, new_secret, sign
from tests.platform.conftest import ListQueue, make_runtime

pytestmark = pytest.mark.integration

BOT_JS = Path(__file__).resolve().parents[2] / "bots" / "starter-js" / "bot.js"
SECRET = "js-test-secret-long-enough-to-register"


def _node() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        reason = "node is not installed (Debian package nodejs; `make node` as root)"
        if os.environ.get("CI"):
            pytest.fail(reason + "; CI must have it (.ci/run installs it)")
        pytest.skip(reason)
    return node


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def js_bot() -> Iterator[tuple[str, int]]:
    """The starter bot in its own process, on a free port, with :data:`SECRET` given on its command line."""
    port = _free_port()
    process = subprocess.Popen(
        [_node(), str(BOT_JS), "--port", str(port), "--secret", SECRET],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    stdout = process.stdout
    assert stdout is not None
    threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
    try:
        try:
            banner = lines.get(timeout=30)
        except queue.Empty:
            banner = ""
        assert f"bot listening on http://127.0.0.1:{port}/" in banner, banner
        yield f"http://127.0.0.1:{port}/", port
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize(("game", "others"), [("vulkan", "random"), ("boulderville", "random,random,random")])
def test_the_js_bot_plays_whole_games_without_a_fault(
    js_bot: tuple[str, int], game: str, others: str, capsys
) -> None:
    url, _port = js_bot
    assert main(["play", game, "--bots", f"{url},{others}", "--secret", SECRET, "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "no faults" in out
    row = next(line.split() for line in out.splitlines() if line.strip().startswith("#1 "))
    assert row[-1] == url and row[-2] == "0"  # bot #1, the JavaScript bot: no forfeits


def test_arena_play_with_another_secret_is_refused_and_explained(js_bot: tuple[str, int], capsys) -> None:
    url, _port = js_bot
    assert main(["play", "vulkan", "--bots", f"{url},random"]) == 0  # signed with 'local'
    out = capsys.readouterr().out
    assert "http_status: HTTP status 401" in out and "check --secret" in out


def test_the_platform_registers_it_once_its_ping_passes(
    js_bot: tuple[str, int], nim_registered: None
) -> None:
    url, _port = js_bot
    client = create_app(make_runtime(ListQueue())).test_client()
    body = {"name": "js", "endpoint": url, "games": ["nim"], "secret": new_secret()}
    refused = client.post("/api/v1/bots", json=body)  # the bot runs with SECRET, not this one
    assert refused.status_code == 422 and "check the secret" in refused.get_json()["errors"]["secret"][0]
    registered = client.post("/api/v1/bots", json={**body, "secret": SECRET})
    assert registered.status_code == 201, registered.get_json()


def _post(port: int, body: bytes, headers: dict[str, str]) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", "/", body=body, headers={"Content-Type": "application/json", **headers})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_only_requests_signed_with_its_secret_are_answered(js_bot: tuple[str, int]) -> None:
    _url, port = js_bot
    legal = [{"take": 2}, {"take": 1}]
    body = encode({"protocol": 1, "type": "move", "match_id": "m", "seat": 0, "legal_moves": legal})
    assert _post(port, body, {SIGNATURE_HEADER: sign(SECRET, body)}) == (200, {"move": {"take": 2}})
    assert _post(port, body, {SIGNATURE_HEADER: sign("another secret", body)})[0] == 401
    assert _post(port, body, {})[0] == 401
    tampered = body.replace(b'"take":2', b'"take":3')
    assert tampered != body
    assert _post(port, tampered, {SIGNATURE_HEADER: sign(SECRET, body)})[0] == 401
    notice = encode({"protocol": 1, "type": "start", "match_id": "m", "seat": 0})
    assert _post(port, notice, {SIGNATURE_HEADER: sign(SECRET, notice)}) == (200, {"ok": True})
    ping = encode({"protocol": 1, "type": "ping", "nonce": "n-41"})
    assert _post(port, ping, {SIGNATURE_HEADER: sign(SECRET, ping)}) == (200, {"pong": "n-41"})
    assert _post(port, ping, {SIGNATURE_HEADER: sign("another secret", ping)})[0] == 401
