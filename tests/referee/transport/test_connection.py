"""A move's think time runs from the request's send to the answer's arrival, not to its reading.

A worker playing hundreds of matches on one event loop comes round to a match's socket late when
its CPU is busy; these tests hold the read (or the send) back on purpose and check that the wait is
not charged to the bot, and that an answer which really came late is still a timeout. No assertion
here is on how fast anything runs: each bound is the bot's own pause or the moment the test saw the
bot's answer go out.
"""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import pytest
import trustme

from referee.protocol import Fault
from referee.transport import connection, sockets
from referee.transport.agents import HttpAgent
from referee.transport.endpoints import EndpointPolicy
from referee.transport.sockets import Reader
from tests.misbehaving_bots import SECRET, nim_move_request

LOOPBACK = EndpointPolicy.from_text("127.0.0.0/8")
pytestmark = [
    pytest.mark.integration,  # every test here talks to a loopback bot
    pytest.mark.skipif(not sockets.KERNEL_ARRIVAL_TIMES, reason="no kernel arrival times on this system"),
]


class _PromptBot:
    """A loopback bot on a raw socket that answers each request with the first legal move after
    ``pause_s``, keeping the connection; with ``body_after_s`` it sends the answer's head first and
    its body that much later; with ``tls`` it speaks https. ``answered`` is set once an answer's
    last byte has been written."""

    def __init__(
        self, pause_s: float, body_after_s: float = 0.0, tls: ssl.SSLContext | None = None, port: int = 0
    ) -> None:
        self.pause_s = pause_s
        self.body_after_s = body_after_s
        self.answered = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", port))
        if tls is not None:
            self.listener = tls.wrap_socket(self.listener, server_side=True)
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}/bot"

    def close(self) -> None:
        self.listener.close()

    def _serve(self) -> None:
        try:
            connection, _ = self.listener.accept()
        except OSError:  # closed by the test
            return
        with connection, connection.makefile("rb") as incoming, contextlib.suppress(OSError):
            # OSError: the referee gave up on an answer and closed the connection
            while (body := _read_request(incoming)) is not None:
                time.sleep(self.pause_s)
                answer = json.dumps({"move": json.loads(body)["legal_moves"][0]}).encode()
                head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                if self.body_after_s:
                    connection.sendall(head % len(answer))
                    time.sleep(self.body_after_s)
                    connection.sendall(answer)
                else:
                    connection.sendall(head % len(answer) + answer)
                self.answered.set()


def _read_request(incoming) -> bytes | None:
    length = 0
    while True:
        line = incoming.readline()
        if not line:
            return None
        if line == b"\r\n":
            return bytes(incoming.read(length))
        name, _, value = line.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)


@pytest.fixture
def prompt_bot() -> Iterator[Callable[..., _PromptBot]]:
    bots: list[_PromptBot] = []

    def start(
        pause_s: float, body_after_s: float = 0.0, tls: ssl.SSLContext | None = None, port: int = 0
    ) -> _PromptBot:
        bots.append(_PromptBot(pause_s, body_after_s, tls, port))
        return bots[-1]

    yield start
    for bot in bots:
        bot.close()


@pytest.fixture
def held_read(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[Reader], None]], list[float]]:
    """Hold the referee's first read of an answer back with ``hold(reader)``, as a busy event loop
    does; returns a list that gets the perf_counter time the held read began."""

    def install(hold: Callable[[Reader], None]) -> list[float]:
        began: list[float] = []
        original = Reader.recv

        def recv(reader: Reader) -> bytes:
            if not began:
                hold(reader)
                began.append(time.perf_counter())
            return original(reader)

        monkeypatch.setattr(Reader, "recv", recv)
        return began

    return install


def _seen_answered(bot: _PromptBot) -> float:
    """Wait until the bot has written its answer; the time the test saw it (perf_counter)."""
    assert bot.answered.wait(10.0), "the bot never answered"
    return time.perf_counter()


def test_an_answer_that_arrived_in_time_but_was_read_after_the_deadline_is_on_time(
    prompt_bot, held_read
) -> None:
    bot = prompt_bot(pause_s=0.05)
    seen: list[float] = []

    def past_the_deadline(reader: Reader) -> None:
        seen.append(_seen_answered(bot))
        while time.perf_counter() <= reader.deadline + 0.1:  # the loop was busy elsewhere
            time.sleep(0.02)

    held_read(past_the_deadline)
    asked = time.perf_counter()
    reply = HttpAgent(bot.url, SECRET, LOOPBACK).ask(nim_move_request(move_ms=1000), 1.0)
    assert seen[0] < asked + 1.0, "the bot itself answered after the deadline: nothing to judge"
    assert reply.fault is None and reply.move == {"take": 1}
    # the bot's own pause is in it; the wait past the deadline (over a second) is not: the answer
    # had arrived by the time the test saw it written (a 50 ms allowance for the kernel's delivery)
    assert 50.0 <= reply.think_ms <= (seen[0] - asked) * 1000.0 + 50.0
    assert reply.think_ms < 1000.0


def test_an_answer_that_arrived_after_the_deadline_is_a_timeout_though_read_at_once(
    prompt_bot, held_read
) -> None:
    bot = prompt_bot(pause_s=0.6)
    held_read(lambda reader: _seen_answered(bot))  # all of it waits in the socket when read
    reply = HttpAgent(bot.url, SECRET, LOOPBACK).ask(nim_move_request(move_ms=300), 0.3)
    assert reply.fault is Fault.TIMEOUT
    assert reply.detail == "no complete answer before the deadline"


def test_an_answer_whose_last_byte_arrived_after_the_deadline_is_a_timeout(prompt_bot, held_read) -> None:
    # the head came at once, the body after the deadline: the answer's end is its last byte
    bot = prompt_bot(pause_s=0.0, body_after_s=0.6)
    held_read(lambda reader: _seen_answered(bot))
    reply = HttpAgent(bot.url, SECRET, LOOPBACK).ask(nim_move_request(move_ms=300), 0.3)
    assert reply.fault is Fault.TIMEOUT


def test_think_time_leaves_out_a_delay_before_the_answer_is_read(prompt_bot, held_read) -> None:
    bot = prompt_bot(pause_s=0.05)
    seen: list[float] = []

    def late_by_half_a_second(reader: Reader) -> None:
        seen.append(_seen_answered(bot))
        time.sleep(0.5)

    began = held_read(late_by_half_a_second)
    asked = time.perf_counter()
    reply = HttpAgent(bot.url, SECRET, LOOPBACK).ask(nim_move_request(move_ms=5000), 5.0)
    assert reply.fault is None and reply.move == {"take": 1}
    assert began[0] - seen[0] >= 0.5
    assert 50.0 <= reply.think_ms <= (seen[0] - asked) * 1000.0 + 50.0  # without the 500 ms


def test_think_time_and_the_answers_time_run_from_the_send(prompt_bot, monkeypatch) -> None:
    # the request goes out 0.3 s into a 0.5 s move (the loop came round to it late), the bot takes
    # 0.3 s: it answered within its time of getting the request, 0.6 s after the exchange began
    bot = prompt_bot(pause_s=0.3)
    send_all = connection.send_all

    def late_send(sock: socket.socket, data: bytes, deadline: float) -> None:
        time.sleep(0.3)
        send_all(sock, data, deadline)

    monkeypatch.setattr(connection, "send_all", late_send)
    reply = HttpAgent(bot.url, SECRET, LOOPBACK).ask(nim_move_request(move_ms=500), 0.5)
    assert reply.fault is None and reply.move == {"take": 1}
    assert 300.0 <= reply.think_ms < 500.0


def test_a_request_sent_again_to_a_bot_that_was_away_is_timed_from_the_first_try(prompt_bot) -> None:
    # nothing listens on the port for 0.3 s (the bot restarting): the time it was away is its own
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    back = threading.Timer(0.3, lambda: prompt_bot(pause_s=0.0, port=port))
    back.start()
    try:
        reply = HttpAgent(f"http://127.0.0.1:{port}/bot", SECRET, LOOPBACK).ask(
            nim_move_request(move_ms=5000), 5.0
        )
    finally:
        back.join()
    assert reply.fault is None and reply.move == {"take": 1}
    assert reply.think_ms >= 300.0


def test_the_wall_clock_is_not_believed_outside_the_exchange(prompt_bot, monkeypatch) -> None:
    # a kernel stamp that falls outside the send and the read (the wall clock stepped) is not
    # believed: the read time stands, so no answer can look earlier than it was sent
    real_time_ns = time.time_ns
    monkeypatch.setattr(time, "time_ns", lambda: real_time_ns() + 3600 * 10**9)  # the send an hour on
    bot = prompt_bot(pause_s=0.05)
    reply = HttpAgent(bot.url, SECRET, LOOPBACK).ask(nim_move_request(move_ms=5000), 5.0)
    assert reply.fault is None and reply.think_ms >= 50.0


def test_over_tls_an_answer_read_after_the_deadline_is_a_timeout_as_before(prompt_bot, held_read) -> None:
    # ssl.SSLSocket has no recvmsg, so nothing says when a TLS answer arrived: it ends when it is
    # read, and a read after the deadline is a timeout (docs/protocol.md, Time)
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    bot = prompt_bot(pause_s=0.0, tls=context)
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)

    def past_the_deadline(reader: Reader) -> None:
        _seen_answered(bot)
        while time.perf_counter() <= reader.deadline + 0.05:
            time.sleep(0.02)

    agent = HttpAgent(bot.url.replace("http://", "https://"), SECRET, LOOPBACK, tls=trusting)
    assert agent.ask(nim_move_request(move_ms=1000), 1.0).fault is None  # https, connected
    bot.answered.clear()
    held_read(past_the_deadline)
    reply = agent.ask(nim_move_request(move_ms=1000), 1.0)
    assert reply.fault is Fault.TIMEOUT and bot.answered.is_set()


def test_under_gevent_a_loop_held_past_the_deadline_does_not_time_a_prompt_bot_out() -> None:
    # the real case: another match's greenlet keeps the CPU for a second while this move's bot (in
    # its own process) answers at once; the move's timer and its socket are both ready when the loop
    # comes back, and the answer, there since well before the deadline, is taken
    script = """
from gevent import monkey
monkey.patch_all()
import subprocess, sys, time
import gevent
from referee.transport.agents import HttpAgent
from referee.transport.endpoints import EndpointPolicy
from tests.misbehaving_bots import SECRET, nim_move_request
bot = subprocess.Popen(
    [sys.executable, "-c",
     "import threading; from tests.misbehaving_bots import start_server; "
     "server, url = start_server(); print(url, flush=True); threading.Event().wait()"],
    stdout=subprocess.PIPE, text=True)
try:
    url = bot.stdout.readline().strip()
    agent = HttpAgent(url + "/good", SECRET, EndpointPolicy.from_text("127.0.0.0/8"))
    assert agent.ask(nim_move_request(move_ms=5000), 5.0).fault is None  # connected, warmed up
    def other_match():
        held = time.perf_counter() + 1.0
        while time.perf_counter() < held:
            pass
    gevent.spawn(other_match)
    asked = time.perf_counter()
    reply = agent.ask(nim_move_request(move_ms=500), 0.5)
    print(reply.fault, reply.think_ms < 500.0, time.perf_counter() - asked > 0.9)
finally:
    bot.kill()
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["None", "True", "True"], done.stderr
