"""The bot author's helper: signatures, notices, per-match bots, the move answer."""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.cli import main
from bots.sdk import DEFAULT_PORT, create_bot_app, run_bot, serve_app_in_thread
from referee.protocol import SIGNATURE_HEADER, encode, sign

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
    row = next(line.split() for line in over_http.splitlines() if line.strip().startswith("0 "))
    assert row[-1] == f"http://127.0.0.1:{port}/" and row[-2] == "0"  # seat 0: no forfeits


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


# --- the keep-alive server, on the wire ----------------------------------------------------------


@pytest.fixture
def served() -> Iterator[int]:
    """The SDK's server with a bot that plays the last legal move, signed requests; its port."""
    server, _ = serve_app_in_thread(create_bot_app(lambda request: request["legal_moves"][-1], secret=SECRET))
    try:
        yield server.port
    finally:
        server.shutdown()
        server.server_close()


def _raw_request(body: bytes, *extra: str, version: str = "HTTP/1.1", sign_it: bool = True) -> bytes:
    lines = [f"POST / {version}", "Host: bot", f"Content-Length: {len(body)}", *extra]
    if sign_it:
        lines.append(f"{SIGNATURE_HEADER}: {sign(SECRET, body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def _read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One answer, read to its last byte and not beyond (a later answer stays on the socket)."""
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        assert byte, f"closed before an answer: {head!r}"
        head += byte
    lines = head.decode("latin-1").rstrip("\r\n").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    content = b""
    while len(content) < int(headers["content-length"]):
        content += sock.recv(int(headers["content-length"]) - len(content))
    return int(lines[0].split()[1]), headers, content


def _closed(sock: socket.socket) -> bool:
    sock.settimeout(5)
    return sock.recv(1) == b""


@pytest.mark.integration
def test_one_connection_carries_many_requests_even_sent_back_to_back(served: int) -> None:
    body = encode(_message("move"))
    with socket.create_connection(("127.0.0.1", served), timeout=5) as sock:
        sock.sendall(_raw_request(body) + _raw_request(body))  # the second before the first answer
        answers = [_read_answer(sock), _read_answer(sock)]
        sock.sendall(_raw_request(body))
        answers.append(_read_answer(sock))
    assert [(status, json.loads(content)) for status, _, content in answers] == [
        (200, {"move": {"take": 2}})
    ] * 3
    assert all("connection" not in headers for _, headers, _ in answers)


@pytest.mark.integration
def test_a_client_that_expects_100_continue_is_told_to_go_on(served: int) -> None:
    body = encode(_message("move"))
    with socket.create_connection(("127.0.0.1", served), timeout=5) as sock:
        request = _raw_request(body, "Expect: 100-continue")
        sock.sendall(request[: -len(body)])
        assert sock.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(body)
        status, _, content = _read_answer(sock)
    assert status == 200 and json.loads(content) == {"move": {"take": 2}}


@pytest.mark.integration
@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 411),
        (f"POST / HTTP/1.1\r\nContent-Length: {9 * 1024 * 1024}\r\n\r\n".encode(), 413),
        (b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", 413),
        (b"nonsense\r\n\r\n", 400),
        (b"POST / HTTP/1.1\r\n bad header\r\n\r\n", 400),
    ],
)
def test_requests_it_cannot_frame_are_answered_and_the_connection_closed(
    served: int, request_bytes: bytes, status: int
) -> None:
    with socket.create_connection(("127.0.0.1", served), timeout=5) as sock:
        sock.sendall(request_bytes)
        answered, headers, _ = _read_answer(sock)
        assert answered == status and headers["connection"] == "close"
        assert _closed(sock)


@pytest.mark.integration
@pytest.mark.parametrize(
    ("version", "extra"), [("HTTP/1.1", ("Connection: close",)), ("HTTP/1.0", ()), ("HTTP/1.1", ())]
)
def test_the_connection_is_kept_only_when_the_client_keeps_it(
    served: int, version: str, extra: tuple[str, ...]
) -> None:
    keeps = version == "HTTP/1.1" and not extra
    with socket.create_connection(("127.0.0.1", served), timeout=5) as sock:
        sock.sendall(_raw_request(encode(_message("move")), *extra, version=version))
        status, headers, _ = _read_answer(sock)
        assert status == 200
        assert ("connection" in headers) is not keeps
        if not keeps:
            assert headers["connection"] == "close" and _closed(sock)
        else:  # an unsigned request is the app's 401, on the same connection
            sock.sendall(_raw_request(encode(_message("move")), sign_it=False))
            assert _read_answer(sock)[0] == 401


@pytest.mark.integration
def test_a_failing_app_is_a_500_and_the_server_serves_on(served: int) -> None:
    app = create_bot_app(lambda request: 1 / 0, secret=None)
    app.testing = False
    server, _ = serve_app_in_thread(app)
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(_raw_request(encode(_message("move")), sign_it=False))
            assert _read_answer(sock)[0] == 500
    finally:
        server.shutdown()
        server.server_close()
