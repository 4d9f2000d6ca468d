"""The HTTP agent against real loopback bots that misbehave in each way the protocol names, and its
kept connection: reused, opened again when the bot closed it, never read after a fault."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import socket
import socketserver
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest
import trustme

from bots.sdk import create_bot_app, serve_app_in_thread
from referee.match import MatchSpec, TimeControl
from referee.protocol import Fault
from referee.replay import MoveRecord
from referee.runner import Player, run_match
from referee.transport.agents import HttpAgent, LocalAgent
from referee.transport.endpoints import EndpointPolicy
from referee.transport.ping import ping
from tests.misbehaving_bots import SECRET, nim_move_request, start_server

LOOPBACK = EndpointPolicy.from_text("127.0.0.0/8")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    server, url = start_server()
    yield url
    server.shutdown()


def _request() -> dict:
    return nim_move_request(move_ms=300)


def _ask(url: str, timeout_s: float = 0.3, secret: str = SECRET, policy: EndpointPolicy = LOOPBACK):
    return HttpAgent(url, secret, policy).ask(_request(), timeout_s)


def test_a_good_bot_answers_with_its_move_log_and_think_time(base_url: str) -> None:
    reply = _ask(f"{base_url}/good", timeout_s=2.0)
    assert reply.fault is None
    assert reply.move == {"take": 1}
    assert reply.log == "first legal move"
    assert reply.think_ms > 0  # the round trip is measured and recorded


def test_requests_are_signed_with_the_bots_secret(base_url: str) -> None:
    reply = _ask(f"{base_url}/good", timeout_s=2.0, secret="not the secret")
    assert reply.fault is Fault.HTTP_STATUS
    assert "401" in reply.detail


def test_chunked_answers_are_read(base_url: str) -> None:
    reply = _ask(f"{base_url}/chunked", timeout_s=2.0)
    assert reply.fault is None and reply.move == {"take": 1}


@pytest.mark.parametrize(
    ("path", "fault"),
    [
        ("/slow", Fault.TIMEOUT),
        ("/trickle", Fault.TIMEOUT),
        ("/big", Fault.INVALID_RESPONSE),
        ("/endless-chunk-size", Fault.INVALID_RESPONSE),
        ("/notjson", Fault.INVALID_RESPONSE),
        ("/badschema", Fault.INVALID_RESPONSE),
        ("/status500", Fault.HTTP_STATUS),
        ("/redirect", Fault.HTTP_STATUS),
        ("/missing", Fault.HTTP_STATUS),
    ],
)
def test_each_misbehaviour_becomes_its_fault(base_url: str, path: str, fault: Fault) -> None:
    reply = _ask(f"{base_url}{path}")
    assert reply.fault is fault
    assert reply.move is None
    assert reply.detail


@pytest.mark.parametrize(
    ("path", "sent"),
    [("/notjson", '"this is not json"'), ("/badschema", '{"mov":{"take":1}}'), ("/status500", None)],
)
def test_an_answer_that_is_not_a_move_is_kept_as_sent(base_url: str, path: str, sent: str | None) -> None:
    assert _ask(f"{base_url}{path}").sent == sent


def test_a_trickling_bot_is_cut_at_the_deadline_not_after_its_last_byte(base_url: str) -> None:
    # each byte comes 50 ms after the last, well within any per-read timeout; only a deadline on
    # the whole exchange stops the answer (which would otherwise arrive complete and valid)
    reply = _ask(f"{base_url}/trickle", timeout_s=0.3)
    assert reply.fault is Fault.TIMEOUT
    assert reply.detail == "no complete answer before the deadline"
    assert reply.move is None


def test_the_checked_address_is_connected_to_without_a_second_lookup(base_url: str, monkeypatch) -> None:
    # the address the policy checked is the one connected to: no name service is asked again when
    # the connection opens (a second answer could differ from the one that was checked)
    def no_lookup(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"getaddrinfo{args} called while connecting")

    monkeypatch.setattr(socket, "getaddrinfo", no_lookup)
    reply = _ask(f"{base_url}/good", timeout_s=2.0)
    assert reply.fault is None and reply.move == {"take": 1}


def _ipv6_loopback_available() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _ipv6_loopback_available(), reason="no IPv6 loopback on this machine")
def test_a_bot_on_an_ipv6_address_is_reached() -> None:
    server, url = start_server("::1")
    try:
        reply = HttpAgent(f"{url}/good", SECRET, EndpointPolicy.from_text("::1/128")).ask(_request(), 2.0)
    finally:
        server.shutdown()
    assert url.startswith("http://[::1]:")
    assert reply.fault is None and reply.move == {"take": 1}


def test_connection_refused_until_the_deadline_is_one_connection_fault() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    reply = _ask(f"http://127.0.0.1:{port}/bot")
    assert reply.fault is Fault.CONNECTION
    assert "refused" in reply.detail


def test_the_endpoint_policy_is_checked_at_every_call(base_url: str) -> None:
    reply = _ask(f"{base_url}/good", timeout_s=2.0, policy=EndpointPolicy())
    assert reply.fault is Fault.ENDPOINT_REFUSED
    assert "loopback" in reply.detail


def test_an_endpoint_no_request_line_can_carry_is_a_fault_not_a_crash(base_url: str) -> None:
    # a bot registered before endpoints had to be ASCII: the seat faults, the referee goes on
    reply = _ask(f"{base_url}/g\u0151\u2603d", timeout_s=2.0)
    assert reply.fault is Fault.ENDPOINT_REFUSED and "ASCII" in reply.detail


class _Raising:
    def choose(self, request: dict) -> dict:
        raise RuntimeError("bot bug")


class _NotJson:
    def choose(self, request: dict) -> object:
        return {"take": {1, 2}}


class _Echo:
    def __init__(self) -> None:
        self.seen: list[dict] = []

    def choose(self, request: dict) -> dict:
        self.seen.append(request)
        return request["legal_moves"][-1]


def test_local_agent_turns_exceptions_and_non_json_moves_into_faults() -> None:
    assert LocalAgent(_Raising()).ask(_request(), 1.0).fault is Fault.BOT_ERROR
    assert LocalAgent(_NotJson()).ask(_request(), 1.0).fault is Fault.BOT_ERROR


def test_local_agent_gives_the_bot_a_copy_of_the_wire_request() -> None:
    bot = _Echo()
    original = _request()
    reply = LocalAgent(bot).ask(original, 1.0)
    assert reply.move == {"take": 2}
    assert bot.seen[0] == original and bot.seen[0] is not original


@pytest.fixture(scope="module")
def https_bot() -> Iterator[tuple[str, trustme.CA]]:
    """The misbehaving-bots server behind TLS, with a certificate for 127.0.0.1 from a test CA."""
    ca = trustme.CA()
    server, url = start_server()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    yield url.replace("http://", "https://"), ca
    server.shutdown()


def test_https_endpoints_are_called_with_the_certificate_checked_for_the_host(https_bot) -> None:
    url, ca = https_bot
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    reply = HttpAgent(f"{url}/good", SECRET, LOOPBACK, tls=trusting).ask(_request(), 2.0)
    assert reply.fault is None and reply.move == {"take": 1}
    untrusted = HttpAgent(f"{url}/good", SECRET, LOOPBACK).ask(_request(), 2.0)
    assert untrusted.fault is Fault.CONNECTION and "CERTIFICATE_VERIFY_FAILED" in untrusted.detail


# -- the kept connection ---------------------------------------------------------------------------


class _CountingBot(socketserver.ThreadingTCPServer):
    """A loopback bot on raw sockets that plays the first legal move and counts its connections.

    ``behaviour(n)`` says what to do with the n-th request it receives (from 1, over all
    connections): ``answer`` (and keep the connection), ``close-header`` (answer with
    ``Connection: close``, then close), ``drop`` (answer, then close without saying so),
    ``hangup`` (close without answering), ``late`` (answer ``{"take": 2}`` after a second),
    ``split`` (the head, a pause, then the body) or ``extra`` (the answer followed by bytes nobody
    asked for).
    """

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, behaviour, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), _CountingHandler)
        self.behaviour = behaviour
        self.connections = 0
        self.requests = 0
        self.lock = threading.Lock()
        self.closed_by_client = threading.Event()
        self.open_sockets: set[socket.socket] = set()
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/bot"

    def go_away(self) -> None:
        """Stop as a killed bot process does: no longer listen, and drop every open connection."""
        self.shutdown()
        self.server_close()
        with self.lock:
            for sock in self.open_sockets:
                with contextlib.suppress(OSError):  # the referee closed it first
                    sock.shutdown(socket.SHUT_RDWR)


class _CountingHandler(socketserver.StreamRequestHandler):
    server: _CountingBot

    def setup(self) -> None:
        super().setup()
        with self.server.lock:
            self.server.open_sockets.add(self.request)

    def finish(self) -> None:
        with self.server.lock:
            self.server.open_sockets.discard(self.request)
        with contextlib.suppress(OSError):  # the connection was dropped under it (go_away)
            super().finish()

    def handle(self) -> None:
        with self.server.lock:
            self.server.connections += 1
        while True:
            body = self._read_request()
            if body is None:
                self.server.closed_by_client.set()
                return
            with self.server.lock:
                self.server.requests += 1
                action = self.server.behaviour(self.server.requests)
            if action == "hangup":
                return
            message = json.loads(body)
            move = message.get("legal_moves", [{}])[0]
            if action == "late":
                threading.Event().wait(1.0)
                move = {"take": 2}
            answer = json.dumps({"move": move}).encode()
            head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(answer)}\r\n"
            if action == "close-header":
                head += "Connection: close\r\n"
            try:
                if action == "split":
                    self.wfile.write(head.encode() + b"\r\n")
                    self.wfile.flush()
                    threading.Event().wait(0.05)
                stray = b"HTTP/1.1 200 OK\r\n" if action == "extra" else b""  # in the answer's write
                self.wfile.write((b"" if action == "split" else head.encode() + b"\r\n") + answer + stray)
            except OSError:  # the referee gave up on this answer and closed the connection
                return
            if action in ("close-header", "drop"):
                return

    def _read_request(self) -> bytes | None:
        length = 0
        while True:
            line = self.rfile.readline()
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return self.rfile.read(length)


@pytest.fixture
def counting_bot() -> Iterator:
    servers: list[_CountingBot] = []

    def start(behaviour, port: int = 0) -> _CountingBot:
        servers.append(_CountingBot(behaviour, port))
        return servers[-1]

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.mark.integration
@pytest.mark.usefixtures("nim_registered")
def test_a_bot_restarted_mid_match_keeps_its_match(counting_bot) -> None:
    # the bot (both seats) goes away after the fourth move and is back on its port 0.3 s later, well
    # within a move's time: every move is still its own, no fault is counted, nobody forfeits
    bot = counting_bot(lambda n: "answer")
    port = bot.server_address[1]
    back: list[_CountingBot] = []

    def restart_after_the_fourth_move(record: MoveRecord) -> None:
        if record.turn == 3:
            bot.go_away()
            threading.Timer(0.3, lambda: back.append(counting_bot(lambda n: "answer", port))).start()

    spec = MatchSpec.build(
        game="nim", bots=["a", "b"], seed=3, options={"stones": 20}, time=TimeControl(move_ms=5000)
    )
    players = [Player(name, HttpAgent(bot.url, SECRET, LOOPBACK)) for name in ("a", "b")]
    replay = run_match("m-restart", spec, players, on_move=restart_after_the_fourth_move)
    assert [(seat.faults, seat.forfeited) for seat in replay.seats] == [({}, False)] * 2
    assert [move.source for move in replay.moves] == ["bot"] * len(replay.moves)
    assert back and back[0].requests > 0, "the moves after the restart went to the restarted bot"


def _notice(kind: str) -> dict:
    return {**_request(), "type": kind}


def test_one_connection_carries_every_request_of_a_seat(counting_bot) -> None:
    bot = counting_bot(lambda n: "answer")
    agent = HttpAgent(bot.url, SECRET, LOOPBACK)
    agent.notify(_notice("start"), 2.0)
    replies = [agent.ask(_request(), 2.0) for _ in range(3)]
    assert [reply.move for reply in replies] == [{"take": 1}] * 3
    assert (bot.connections, bot.requests) == (1, 4)


@pytest.mark.parametrize(
    ("behaviour", "connections"),
    [
        ("split", 1),  # the body after a pause behind its head: read whole, the connection kept
        ("extra", 2),  # bytes after the answer could be taken for the next one: a new connection
    ],
)
def test_answers_split_or_followed_by_stray_bytes(counting_bot, behaviour: str, connections: int) -> None:
    bot = counting_bot(lambda n: behaviour)
    agent = HttpAgent(bot.url, SECRET, LOOPBACK)
    replies = [agent.ask(_request(), 2.0) for _ in range(2)]
    agent.close()
    assert [reply.move for reply in replies] == [{"take": 1}] * 2
    assert (bot.connections, bot.requests) == (connections, 2)


def test_a_connection_on_a_file_descriptor_above_1023_is_kept(counting_bot) -> None:
    # a worker playing hundreds of matches holds over a thousand sockets; select() refuses file
    # descriptors from 1024 on (FD_SETSIZE), and an idle check built on it took every such kept
    # connection for a broken one and opened a new connection for every request
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"the open-file limit ({hard}) is too low to reach descriptor 1024")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    bot = counting_bot(lambda n: "answer")
    fillers = [os.dup(0)]
    fillers += [os.dup(0) for _ in range(1030 - fillers[0])]
    try:
        agent = HttpAgent(bot.url, SECRET, LOOPBACK)
        replies = [agent.ask(_request(), 2.0) for _ in range(3)]
        descriptor = agent._connection._sock.fileno()
        agent.close()
    finally:
        for filler in fillers:
            os.close(filler)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert descriptor >= 1024
    assert [reply.move for reply in replies] == [{"take": 1}] * 3
    assert (bot.connections, bot.requests) == (1, 3)


def test_the_end_notice_closes_the_seats_connection(counting_bot) -> None:
    bot = counting_bot(lambda n: "answer")
    agent = HttpAgent(bot.url, SECRET, LOOPBACK)
    assert agent.ask(_request(), 2.0).fault is None
    agent.notify(_notice("end"), 2.0)
    assert bot.closed_by_client.wait(5.0), "the referee kept the connection after the match"


def test_a_bot_that_closes_after_every_answer_still_plays(counting_bot) -> None:
    for behaviour in ("close-header", "drop"):
        bot = counting_bot(lambda n, behaviour=behaviour: behaviour)
        agent = HttpAgent(bot.url, SECRET, LOOPBACK)
        replies = [agent.ask(_request(), 2.0) for _ in range(3)]
        assert [reply.fault for reply in replies] == [None] * 3, behaviour
        assert bot.connections == 3, behaviour


def test_a_connection_lost_before_the_answer_is_opened_again_once(counting_bot) -> None:
    # the bot hangs up on the second request as it arrives (an idle timeout racing the request):
    # the agent sends it again on a new connection and gets its answer
    bot = counting_bot(lambda n: "hangup" if n == 2 else "answer")
    agent = HttpAgent(bot.url, SECRET, LOOPBACK)
    assert agent.ask(_request(), 2.0).fault is None
    reply = agent.ask(_request(), 2.0)
    assert reply.fault is None and reply.move == {"take": 1}
    assert (bot.connections, bot.requests) == (2, 3)


def test_a_bot_that_keeps_hanging_up_is_one_connection_fault_once_out_of_time(counting_bot) -> None:
    # hanging up without an answer is what a bot restarting looks like: it is tried again, on new
    # connections, until the move's deadline, and only then is the move one fault
    bot = counting_bot(lambda n: "answer" if n == 1 else "hangup")
    agent = HttpAgent(bot.url, SECRET, LOOPBACK)
    assert agent.ask(_request(), 2.0).fault is None
    reply = agent.ask(_request(), 0.5)
    assert reply.fault is Fault.CONNECTION
    assert "closed before the response headers" in reply.detail
    assert bot.connections > 2


def test_a_ping_or_a_notice_to_a_bot_that_hangs_up_is_not_sent_again(counting_bot) -> None:
    # only a move waits for the bot: a ping tells whether it answers now, a notice's loss is ignored
    bot = counting_bot(lambda n: "hangup")
    agent = HttpAgent(bot.url, SECRET, LOOPBACK)
    agent.notify(_notice("start"), 2.0)
    assert (bot.connections, bot.requests) == (1, 1)
    result = ping(bot.url, SECRET, LOOPBACK, timeout_s=2.0)
    assert result.fault is Fault.CONNECTION
    assert (bot.connections, bot.requests) == (2, 2)


def test_an_answer_that_comes_after_the_deadline_is_never_taken_for_the_next_one(counting_bot) -> None:
    bot = counting_bot(lambda n: "late" if n == 1 else "answer")
    agent = HttpAgent(bot.url, SECRET, LOOPBACK)
    late = agent.ask(_request(), 0.3)
    assert late.fault is Fault.TIMEOUT
    reply = agent.ask(_request(), 3.0)
    # the late answer ({"take": 2}) went to the connection the timeout closed
    assert reply.fault is None and reply.move == {"take": 1}
    assert bot.connections == 2


def test_the_sdk_server_keeps_the_referees_connection() -> None:
    app = create_bot_app(lambda request: request["legal_moves"][-1], secret=SECRET)
    server, base = serve_app_in_thread(app)
    accepted: list[object] = []
    accept = server.get_request

    def counting_accept():
        accepted.append(None)
        return accept()

    server.get_request = counting_accept  # type: ignore[method-assign]
    try:
        agent = HttpAgent(f"{base}/", SECRET, LOOPBACK)
        agent.notify(_notice("start"), 2.0)
        replies = [agent.ask(_request(), 2.0) for _ in range(3)]
        agent.notify(_notice("end"), 2.0)
    finally:
        server.shutdown()
    assert [reply.move for reply in replies] == [{"take": 2}] * 3
    assert len(accepted) == 1


def test_no_tls_context_is_built_for_plain_http(monkeypatch: pytest.MonkeyPatch, base_url: str) -> None:
    def refuse() -> None:
        raise AssertionError("a TLS context was built for an http endpoint")

    monkeypatch.setattr(ssl, "create_default_context", refuse)
    reply = HttpAgent(f"{base_url}/good", SECRET, LOOPBACK).ask(_request(), 2.0)
    assert reply.fault is None


def test_under_gevent_the_idle_check_does_not_hand_the_loop_to_other_matches() -> None:
    # gevent's patched select and poll yield to its loop on every call, even with a zero timeout;
    # the check before each request must not, or each move waits behind every other ready match
    script = """
from gevent import monkey
monkey.patch_all()
import socket
import gevent
from referee.transport.sockets import IdleWatch
turns = []
def other_match():
    while True:
        turns.append(1)
        gevent.sleep(0)
gevent.spawn(other_match)
gevent.sleep(0)
left, right = socket.socketpair()
before = len(turns)
watch = IdleWatch(left.fileno())
checks = [watch.readable_now() for _ in range(100)]
print(len(turns) - before, any(checks))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.split() == ["0", "False"]
