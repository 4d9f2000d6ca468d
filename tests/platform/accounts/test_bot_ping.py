"""Registration, a new endpoint and a new secret are accepted only once the bot answered a ping
signed with the secret that would be in force; each failure is a 422 naming ``secret`` or
``endpoint`` with the reason."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from arena.accounts import bot_ping
from arena.api import create_app
from referee.protocol import Fault, new_secret, ping_validator
from referee.transport.ping import PingResult, ping
from tests.platform import bot_server
from tests.platform.conftest import LOOPBACK, Arena, BotServer, ListQueue, make_runtime

ERROR_KEYS = {"code", "status", "message", "errors"}


def _register(arena: Arena, path: str, secret: str, endpoint: str | None = None) -> Any:
    body = {"name": "n", "endpoint": endpoint or arena.bots.url(path), "games": ["nim"], "secret": secret}
    return arena.client.post("/api/v1/bots", json=body)


def _refusal(answer: Any) -> dict[str, Any]:
    assert answer.status_code == 422, answer.get_json()
    body = answer.get_json()
    assert set(body) == ERROR_KEYS and body["code"] == 422
    return body["errors"]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_bot_started_with_the_secret_passes_the_ping_and_is_registered(arena: Arena) -> None:
    secret = arena.bots.secrets["/first/pinged"] = new_secret()
    before = len(bot_server.PINGS)
    answer = _register(arena, "/first/pinged", secret)
    assert answer.status_code == 201, answer.get_json()
    pings = bot_server.PINGS[before:]
    assert [path for path, _ in pings] == ["/first/pinged"]  # one ping, to the endpoint registered
    assert list(ping_validator().iter_errors(pings[0][1])) == []
    assert arena.runtime.store.bots.get(answer.get_json()["id"]).secret == secret


def test_a_bot_started_with_another_secret_is_refused_naming_the_secret(arena: Arena) -> None:
    arena.bots.secrets["/first/other"] = new_secret()
    errors = _refusal(_register(arena, "/first/other", new_secret()))
    assert set(errors) == {"secret"}
    assert errors["secret"] == [
        "the bot answered 401 to the ping: check the secret it was started with "
        "(it must be the one sent here)"
    ]
    assert arena.get("/api/v1/bots") == [], "nothing is registered"


def test_an_unreachable_bot_is_refused_naming_the_endpoint(arena: Arena) -> None:  # nothing on the port
    endpoint = f"http://127.0.0.1:{_closed_port()}/bot"
    errors = _refusal(_register(arena, "", new_secret(), endpoint))
    assert set(errors) == {"endpoint"}
    assert errors["endpoint"][0].startswith("not reachable: is the bot running")
    assert arena.get("/api/v1/bots") == []


def test_a_bot_that_does_not_answer_in_time_is_refused(toy_games: None, bots: BotServer) -> None:
    runtime = make_runtime(ListQueue(), ping_timeout_s=0.3)
    client = create_app(runtime).test_client()
    body = {"name": "n", "endpoint": bots.url("/hang/h"), "games": ["nim"], "secret": new_secret()}
    errors = _refusal(client.post("/api/v1/bots", json=body))
    assert errors["endpoint"][0].startswith("too slow: the bot did not answer the ping within 0.3 s")


@pytest.mark.parametrize(
    ("path", "fragment"),
    [
        ("/noping/old", 'the bot answered 200 to the ping, not with {"pong": <the ping\'s nonce>}'),
        ("/nothing/here", "the bot answered 404 to the ping: check the endpoint's path"),
    ],
)
def test_a_bad_answer_is_refused_naming_the_endpoint(arena: Arena, path: str, fragment: str) -> None:
    errors = _refusal(_register(arena, path, new_secret()))
    assert set(errors) == {"endpoint"} and fragment in errors["endpoint"][0]


def test_the_request_is_checked_before_any_ping(arena: Arena) -> None:
    before = len(bot_server.PINGS)
    body = {"name": "n", "endpoint": arena.bots.url("/first/z"), "games": ["chess"], "secret": new_secret()}
    assert "games" in _refusal(arena.client.post("/api/v1/bots", json=body))
    body = {**body, "games": ["nim"], "secret": "too short"}
    assert "secret" in _refusal(arena.client.post("/api/v1/bots", json=body))
    assert bot_server.PINGS[before:] == []


def test_a_new_endpoint_is_pinged_with_the_bots_secret(arena: Arena) -> None:
    bot = arena.register("mover", "/first/old-home", ["nim"])
    owner = {"Authorization": f"Bearer {bot['token']}"}
    url = f"/api/v1/bots/{bot['id']}"
    secret = arena.bots.secrets["/first/old-home"]
    arena.bots.secrets["/first/wrong-home"] = new_secret()
    moved = arena.client.patch(url, json={"endpoint": arena.bots.url("/first/wrong-home")}, headers=owner)
    assert "check the secret" in _refusal(moved)["secret"][0]
    moved = arena.client.patch(url, json={"endpoint": arena.bots.url("/noping/x")}, headers=owner)
    assert "endpoint" in _refusal(moved)
    assert arena.runtime.store.bots.get(bot["id"]).endpoint == arena.bots.url("/first/old-home")
    arena.bots.secrets["/first/new-home"] = secret
    before = len(bot_server.PINGS)
    moved = arena.client.patch(url, json={"endpoint": arena.bots.url("/first/new-home")}, headers=owner)
    assert moved.status_code == 200 and moved.get_json()["endpoint"] == arena.bots.url("/first/new-home")
    assert [path for path, _ in bot_server.PINGS[before:]] == ["/first/new-home"]
    renamed = arena.client.patch(url, json={"name": "settled"}, headers=owner)
    assert renamed.status_code == 200 and len(bot_server.PINGS) == before + 1, (
        "no ping without a new endpoint"
    )


@pytest.mark.integration
def test_a_new_secret_for_a_bot_gone_offline_is_refused_and_the_old_one_kept(toy_games: None) -> None:
    runtime = make_runtime(ListQueue())
    client = create_app(runtime).test_client()
    gone, base = bot_server.start({})
    secret = new_secret()
    body = {"name": "n", "endpoint": f"{base}/first/g", "games": ["nim"], "secret": secret}
    created = client.post("/api/v1/bots", json=body).get_json()
    gone.shutdown()
    gone.server_close()
    answer = client.post(
        f"/api/v1/bots/{created['id']}/secret",
        json={"secret": new_secret()},
        headers={"Authorization": f"Bearer {created['token']}"},
    )
    assert _refusal(answer)["endpoint"][0].startswith("not reachable")
    assert runtime.store.bots.get(created["id"]).secret == secret


def test_the_ping_is_signed_with_the_secret_sent(arena: Arena) -> None:
    secret = arena.bots.secrets["/first/signed"] = new_secret()
    before = len(bot_server.PINGS)
    assert _register(arena, "/first/signed", secret).status_code == 201
    # the bot server answered only because the signature matched; the nonce is fresh each time
    assert _register(arena, "/first/signed", secret).status_code == 201
    nonces = [message["nonce"] for _, message in bot_server.PINGS[before:]]
    assert len(nonces) == 2 and nonces[0] != nonces[1]


@pytest.mark.parametrize(
    ("result", "field", "fragment"),
    [
        (PingResult(Fault.HTTP_STATUS, "HTTP status 403", 1.0, 403), "secret", "answered 403"),
        (PingResult(Fault.HTTP_STATUS, "HTTP status 405", 1.0, 405), "endpoint", "check the endpoint's path"),
        (
            PingResult(Fault.HTTP_STATUS, "HTTP status 302", 1.0, 302),
            "endpoint",
            "redirects are not followed",
        ),
        (PingResult(Fault.HTTP_STATUS, "HTTP status 503", 1.0, 503), "endpoint", "the bot failed on it"),
        (PingResult(Fault.HTTP_STATUS, "HTTP status 400", 1.0, 400), "endpoint", "know the ping request"),
        (
            PingResult(Fault.ENDPOINT_REFUSED, "endpoint host 'x.invalid' does not resolve", 1.0),
            "endpoint",
            "x.invalid",
        ),
        (PingResult(Fault.TIMEOUT, "no connection before the deadline", 3000.0), "endpoint", "within 3 s"),
        (PingResult(Fault.INVALID_RESPONSE, "the answer is not JSON", 1.0, 200), "endpoint", "answered 200"),
    ],
)
def test_each_failure_names_its_field_and_says_what_to_check(
    result: PingResult, field: str, fragment: str
) -> None:
    errors = bot_ping.reasons(result, 3.0)
    assert list(errors) == [field] and fragment in errors[field][0]


def test_a_passed_ping_has_no_reasons() -> None:
    assert bot_ping.reasons(PingResult(None, "pong", 1.0, 200), 3.0) == {}


# -- what a failed ping says: no more than a bot author needs ----------------------------------------


@contextlib.contextmanager
def _closed() -> Iterator[str]:
    """A port nothing listens on."""
    yield f"http://127.0.0.1:{_closed_port()}/bot"


@contextlib.contextmanager
def _hangs_up() -> Iterator[str]:
    """A TCP server that takes each connection and closes it without a byte of HTTP."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with contextlib.suppress(OSError):  # the listener closed: the test is over
            while True:
                connection, _ = listener.accept()
                connection.close()

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/bot"
    finally:
        listener.close()


LARGE = b"x" * 100_000
"""An answer body far beyond what a ping reads (``referee.transport.ping.PING_MAX_BYTES``)."""
LARGE_ANSWERS = {
    "large_sized": b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(LARGE), LARGE),
    "large_chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n"
    % (len(LARGE), LARGE),
    "large_unsized": b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n%s" % LARGE,
    "large_not_found": b"HTTP/1.1 404 Not Found\r\nContent-Length: %d\r\n\r\n%s" % (len(LARGE), LARGE),
}


@contextlib.contextmanager
def _answers(answer: bytes) -> Iterator[str]:
    """An HTTP server that reads each request's head and sends ``answer`` back, then closes."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with contextlib.suppress(OSError):  # the listener closed: the test is over
            while True:
                connection, _ = listener.accept()
                with connection:
                    connection.recv(65536)
                    connection.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/bot"
    finally:
        listener.close()


@contextlib.contextmanager
def _not_found(bots: BotServer) -> Iterator[str]:
    """An HTTP server that answers 404 (the bot server, at a path that is no bot)."""
    yield bots.url("/nothing/here")


@contextlib.contextmanager
def _silent() -> Iterator[str]:
    """A server that lets the connection in (the kernel's backlog) and never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/bot"
    finally:
        listener.close()


@pytest.mark.parametrize(
    ("server", "said", "advice"),
    [
        ("closed", "not reachable", "is the bot running"),
        ("hangs_up", "not an HTTP answer", "is this the bot's port"),
        ("not_found", "answered 404", "check the endpoint's path"),
        ("silent", "too slow", "within 0.3 s"),
        ("large_sized", "answer too large", "more than 4096 bytes"),
        ("large_chunked", "answer too large", "more than 4096 bytes"),
        ("large_unsized", "answer too large", "more than 4096 bytes"),
        ("large_not_found", "answered 404", "check the endpoint's path"),
    ],
)
def test_a_failed_ping_says_only_what_a_bot_author_needs(
    bots: BotServer, server: str, said: str, advice: str
) -> None:
    """Each kind of host behind an endpoint, on real sockets: the outcome is one of a few fixed
    phrases, and no system error ("Connection refused", "reset by peer") reaches the answer."""
    servers = {
        "closed": _closed,
        "hangs_up": _hangs_up,
        "not_found": lambda: _not_found(bots),
        "silent": _silent,
        **{name: (lambda answer=answer: _answers(answer)) for name, answer in LARGE_ANSWERS.items()},
    }
    with servers[server]() as endpoint:
        result = ping(endpoint, new_secret(), LOOPBACK, 0.3)
    assert bot_ping.outcome(result) == said, result.detail
    (message,) = bot_ping.reasons(result, 0.3)["endpoint"]
    assert said in message and advice in message
    for leak in ("errno", "refused", "reset", "closed", "connect:", "deadline"):
        assert leak not in message.lower()
