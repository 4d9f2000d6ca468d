"""The bot author's helper: signatures, notices, per-match bots, the move answer."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import urllib.request
from pathlib import Path

import pytest

from arena.cli.main import main
from bots.sdk import DEFAULT_PORT, create_bot_app, new_secret, run_bot
from referee.protocol import MIN_SECRET_LENGTH, SIGNATURE_HEADER, encode, sign
from tests.platform.waiting import wait_until

SECRET = "s3cret"


def _message(kind: str, match_id: str = "m1", seat: int = 0) -> dict:
    message = {"protocol": 1, "type": kind, "match_id": match_id, "seat": seat, "observation": {}}
    if kind == "move":
        message["legal_moves"] = [{"take": 1}, {"take": 2}]
    return message


def _post(client, message: dict, secret: str | None = SECRET):
    body = encode(message)
    headers = {SIGNATURE_HEADER: sign(secret, body)} if secret else {}
    return client.post("/", data=body, headers=headers, content_type="application/json")


def test_a_signed_move_request_gets_the_functions_move() -> None:
    client = create_bot_app(lambda request: request["legal_moves"][-1], secret=SECRET).test_client()
    response = _post(client, _message("move"))
    assert response.status_code == 200
    assert response.get_json() == {"move": {"take": 2}}


def test_unsigned_or_wrongly_signed_requests_are_refused() -> None:
    client = create_bot_app(lambda request: request["legal_moves"][0], secret=SECRET).test_client()
    assert _post(client, _message("move"), secret=None).status_code == 401
    assert _post(client, _message("move"), secret="other").status_code == 401
    body = encode(_message("move"))
    tampered = body.replace(b'"seat":0', b'"seat":1')
    response = client.post("/", data=tampered, headers={SIGNATURE_HEADER: sign(SECRET, body)})
    assert response.status_code == 401


def test_notices_are_answered_and_each_match_seat_gets_its_own_bot() -> None:
    built: list[tuple[str, int]] = []

    class Counter:
        def __init__(self, message: dict) -> None:
            built.append((message["match_id"], message["seat"]))
            self.moves = 0

        def choose(self, request: dict) -> dict:
            self.moves += 1
            return {"take": self.moves}

    client = create_bot_app(factory=Counter, secret=SECRET).test_client()
    assert _post(client, _message("start")).get_json() == {"ok": True}
    assert _post(client, _message("move")).get_json() == {"move": {"take": 1}}
    assert _post(client, _message("move")).get_json() == {"move": {"take": 2}}
    assert _post(client, _message("move", match_id="m2")).get_json() == {"move": {"take": 1}}
    assert _post(client, _message("end")).get_json() == {"ok": True}
    assert _post(client, _message("move")).get_json() == {"move": {"take": 1}}  # a new bot after end
    assert built == [("m1", 0), ("m2", 0), ("m1", 0)]


def test_a_signed_ping_is_answered_with_its_nonce_and_an_unsigned_one_refused() -> None:
    client = create_bot_app(lambda request: request["legal_moves"][0], secret=SECRET).test_client()
    ping = {"protocol": 1, "type": "ping", "nonce": "n-7f3a"}
    assert _post(client, ping).get_json() == {"pong": "n-7f3a"}
    assert _post(client, ping, secret="another").status_code == 401
    assert _post(client, ping, secret=None).status_code == 401


def test_a_bot_changing_secrets_accepts_the_new_one_and_the_old_one_and_nothing_else() -> None:
    new = new_secret()
    client = create_bot_app(lambda request: request["legal_moves"][0], secret=[new, SECRET]).test_client()
    ping = {"protocol": 1, "type": "ping", "nonce": "n-1"}
    assert _post(client, ping, secret=new).get_json() == {"pong": "n-1"}  # the new secret's ping
    assert _post(client, _message("move"), secret=SECRET).get_json() == {
        "move": {"take": 1}
    }  # a match in play
    assert _post(client, _message("move"), secret="neither").status_code == 401
    assert _post(client, _message("move"), secret=None).status_code == 401


@pytest.mark.parametrize("secret", [[], [""], ("ok", None)])
def test_an_empty_list_of_secrets_is_refused_at_start_not_on_every_request(secret) -> None:
    with pytest.raises(ValueError, match="secret"):
        create_bot_app(lambda request: request["legal_moves"][0], secret=secret)


def test_new_secret_is_long_enough_to_register_and_fresh_each_time() -> None:
    first, second = new_secret(), new_secret()
    assert first != second and len(first) >= MIN_SECRET_LENGTH and first.isalnum()


def test_garbage_is_a_400_not_a_crash() -> None:
    client = create_bot_app(lambda request: {}, secret=None).test_client()
    assert client.post("/", data=b"not json").status_code == 400
    assert client.post("/", data=json.dumps({"type": "dance"})).status_code == 400


# --- the README's bot, exactly as written, against `arena play` exactly as written ---------------


def _readme_section() -> str:
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    start = text.index("## Writing a bot")
    return text[start : text.index("\n## ", start + 1)]


def _code_block(section: str, language: str) -> str:
    match = re.search(rf"```{language}\n(.*?)```", section, re.S)
    assert match, f"no {language} block in the README's 'Writing a bot'"
    return match.group(1)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _first_line(process: subprocess.Popen[str], timeout_s: float) -> str:
    """The process's first line of output, or '' when it printed none in time."""
    assert process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(process.stdout.readline()), daemon=True).start()  # type: ignore[union-attr]
    try:
        return lines.get(timeout=timeout_s)
    except queue.Empty:
        return ""


@pytest.mark.integration
def test_the_readme_bot_plays_the_readme_arena_play_command_without_a_fault(tmp_path: Path, capsys) -> None:
    section = _readme_section()
    bot_file = tmp_path / "my_bot.py"
    bot_file.write_text(_code_block(section, "python"))
    command = next(line for line in _code_block(section, "sh").splitlines() if " play " in line)
    assert f":{DEFAULT_PORT}/" in command  # the README points arena play where the SDK listens
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, str(bot_file)],
        env={**os.environ, "PORT": str(port), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        banner = _first_line(process, 30.0)
        assert f"bot listening on http://127.0.0.1:{port}/" in banner, banner
        argv = shlex.split(command.replace(f":{DEFAULT_PORT}/", f":{port}/"))
        assert argv[0].endswith("arena")
        assert main(argv[1:]) == 0
        # the same file, in-process (its run_bot is not reached: it is not __main__ there)
        assert main(["play", "vulkan", "--bots", f"{bot_file},random"]) == 0
    finally:
        process.terminate()
        process.wait(timeout=10)
    over_http, in_process = capsys.readouterr().out.split("vulkan / competitive, seed 0")
    assert over_http.count("no faults") == 1 and in_process.count("no faults") == 1
    row = next(line.split() for line in over_http.splitlines() if line.strip().startswith("#1 "))
    assert row[-1] == f"http://127.0.0.1:{port}/" and row[-2] == "0"  # bot #1: no forfeits


@pytest.mark.integration
def test_a_busy_port_is_one_clear_line_not_a_traceback() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(SystemExit) as exited:
            run_bot(lambda request: request["legal_moves"][0], port=port)
    assert f"cannot listen on 127.0.0.1 port {port}" in str(exited.value.code)
    assert "set PORT" in str(exited.value.code)


def _registration_blocks() -> list[str]:
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    start = text.index("### Registering it")
    section = text[start : text.index("\n## ", start)]  # its own and "Getting games"
    return [textwrap.dedent(block) for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def _stop(process: subprocess.Popen[str]) -> None:
    """Stop a process started in its own session, with whatever it started."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    process.wait(timeout=10)


@pytest.mark.integration
def test_the_readme_registration_walkthrough_registers_the_bot_with_the_ping_passing(tmp_path: Path) -> None:
    """The README's three terminals, as written (ports moved to free ones): the platform, the bot
    started with a fresh secret, and the curl registration, whose answer is the bot with its token."""
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    serve, bot, register, challenge = _registration_blocks()
    (tmp_path / "my_bot.py").write_text(_code_block(_readme_section(), "python"))
    (tmp_path / ".venv").symlink_to(sys.prefix)  # the README's commands name .venv/bin/...
    api_port, bot_port = _free_port(), _free_port()
    assert "arena serve" in serve and "8000" in register and ":8700/" in register
    platform = subprocess.Popen(
        ["bash", "-c", f"{serve.strip()} --port {api_port}"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    new_secret_line, run_line = bot.strip().splitlines()
    processes = [platform]
    try:
        assert "Volcano Arena API at" in _first_line(platform, 60.0)
        subprocess.run(["bash", "-c", new_secret_line], cwd=tmp_path, check=True, timeout=60)
        running = subprocess.Popen(
            ["bash", "-c", run_line],
            cwd=tmp_path,
            env={**os.environ, "PORT": str(bot_port), "PYTHONUNBUFFERED": "1"},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        processes.append(running)
        assert f"bot listening on http://127.0.0.1:{bot_port}/" in _first_line(running, 30.0)
        command = register.replace("8000", str(api_port)).replace(":8700/", f":{bot_port}/")
        answer = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, timeout=60
        )
        created = json.loads(answer.stdout)
        assert created["id"].startswith("b-") and created["token"], created
        assert "secret" not in created
        # "Getting games": the owner's challenge, the bot holding both seats, played to the end
        ids = {"MY_BOT_ID": created["id"], "OTHER_BOT_ID": created["id"], "MY_BOT_TOKEN": created["token"]}
        answer = subprocess.run(
            ["bash", "-c", challenge.replace("8000", str(api_port))],
            cwd=tmp_path,
            env={**os.environ, **ids},
            capture_output=True,
            text=True,
            timeout=60,
        )
        match = json.loads(answer.stdout)
        assert match["rated"] is False and match["bots"] == [created["id"]] * 2, match
        url = f"http://127.0.0.1:{api_port}/api/v1/matches/{match['id']}"

        def ended() -> dict | None:
            with urllib.request.urlopen(url, timeout=10) as reply:
                shown = json.loads(reply.read())
            return shown if shown["status"] in ("finished", "aborted") else None

        match = wait_until(ended, 120, "the challenge did not end", poll_s=0.5)
        assert match["status"] == "finished", match
    finally:
        for process in processes:
            _stop(process)
