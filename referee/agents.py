"""The referee's side of a seat: an in-process bot or a bot endpoint over HTTP.

Both answer :meth:`Agent.ask` with a :class:`Reply` that carries either a move or a :class:`Fault`,
never an exception: a misbehaving bot must not be able to crash a referee or a worker.

The HTTP agent is written on raw sockets rather than on ``requests`` for two reasons no library
covers together: the deadline must bound the whole exchange (a bot that trickles its answer byte by
byte is cut at the deadline, where per-read timeouts would let it run on), and the connection must
go to the very address the endpoint policy just checked (no second DNS look-up in between).
"""

from __future__ import annotations

import json
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Any, Protocol

from referee.bot import Bot
from referee.endpoints import EndpointPolicy, EndpointRefused, ParsedEndpoint
from referee.protocol import (
    SIGNATURE_HEADER,
    BadResponse,
    Fault,
    encode,
    parse_move_response,
    sign,
)

DEFAULT_MAX_BYTES = 64 * 1024
HEADER_LIMIT_BYTES = 16 * 1024
USER_AGENT = "volcano-arena-referee/1"


@dataclass(frozen=True)
class Reply:
    """A bot's answer to one move request: a move, or a fault with a short detail."""

    move: dict[str, Any] | None
    think_ms: float
    fault: Fault | None = None
    detail: str = ""
    log: str | None = None

    @classmethod
    def from_answer(cls, document: Any, think_ms: float) -> Reply:
        """The reply for a decoded answer: its move and log, or an invalid-response fault."""
        try:
            move, log = parse_move_response(document)
        except BadResponse as error:
            return cls(None, think_ms, Fault.INVALID_RESPONSE, str(error))
        return cls(move, think_ms, log=log)

    @classmethod
    def failed(cls, fault: Fault, detail: str, started: float) -> Reply:
        return cls(None, _elapsed_ms(started), fault, detail[:300])


class Agent(Protocol):
    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        """Send a move request; never raises."""
        ...

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        """Send a start or end notice; its answer and failures are ignored. Never raises."""
        ...


def _elapsed_ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000.0, 3)


class LocalAgent:
    """An in-process bot. The request and the move cross a JSON round trip, as on the wire, so a
    reference bot cannot behave differently in-process than behind HTTP."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        started = time.perf_counter()
        try:
            move = self.bot.choose(json.loads(encode(request)))
            document = json.loads(json.dumps({"move": move}))
        except Exception as error:  # a bot's bug is a fault of that seat, never the referee's
            return Reply.failed(Fault.BOT_ERROR, f"{type(error).__name__}: {error}", started)
        think_ms = _elapsed_ms(started)
        if think_ms > timeout_s * 1000.0:
            return Reply(None, think_ms, Fault.TIMEOUT, f"answered after {think_ms:.0f} ms")
        return Reply.from_answer(document, think_ms)

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        notice = getattr(self.bot, "notice", None)
        if notice is None:
            return
        try:
            notice(json.loads(encode(request)))
        except Exception:  # notices never change a match
            return


class _Deadline(Exception):
    pass


class _Cut(Exception):
    """The exchange failed in a way that maps to one fault kind."""

    def __init__(self, fault: Fault, detail: str) -> None:
        super().__init__(detail)
        self.fault = fault
        self.detail = detail


class HttpAgent:
    """A bot endpoint, called with ``POST`` and the JSON request, signed with the bot's secret."""

    def __init__(
        self,
        url: str,
        secret: str,
        policy: EndpointPolicy | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.url = url
        self.secret = secret
        self.policy = policy if policy is not None else EndpointPolicy.from_env()
        self.max_bytes = max_bytes
        # how https endpoints are checked: the system's trusted CAs unless told otherwise
        self.tls = tls if tls is not None else ssl.create_default_context()

    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        started = time.perf_counter()
        try:
            status, body = self._exchange(encode(request), started + timeout_s)
        except _Cut as cut:
            return Reply.failed(cut.fault, cut.detail, started)
        think_ms = _elapsed_ms(started)
        if status != 200:
            return Reply(None, think_ms, Fault.HTTP_STATUS, f"HTTP status {status}")
        try:
            document = json.loads(body)
        except (ValueError, RecursionError):
            return Reply(None, think_ms, Fault.INVALID_RESPONSE, "answer is not JSON")
        return Reply.from_answer(document, think_ms)

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        try:
            self._exchange(encode(request), time.perf_counter() + timeout_s)
        except _Cut:
            return

    # -- the exchange, under one deadline ------------------------------------------------------

    def _exchange(self, body: bytes, deadline: float) -> tuple[int, bytes]:
        try:
            resolved = self.policy.resolve(self.url)
        except EndpointRefused as refused:
            raise _Cut(Fault.ENDPOINT_REFUSED, str(refused)) from None
        endpoint = resolved.endpoint
        try:
            sock = self._connect(str(resolved.address), endpoint, deadline, self.tls)
        except (_Deadline, TimeoutError):
            raise _Cut(Fault.TIMEOUT, "no connection before the deadline") from None
        except (OSError, ssl.SSLError) as error:
            raise _Cut(Fault.CONNECTION, f"connect: {error}") from None
        try:
            _send_all(sock, self._request_bytes(endpoint, body), deadline)
            return self._read_response(sock, deadline)
        except _Deadline:
            raise _Cut(Fault.TIMEOUT, "no complete answer before the deadline") from None
        except (OSError, ssl.SSLError) as error:
            raise _Cut(Fault.CONNECTION, f"connection: {error}") from None
        finally:
            sock.close()

    @staticmethod
    def _connect(
        address: str, endpoint: ParsedEndpoint, deadline: float, tls: ssl.SSLContext
    ) -> socket.socket:
        """Connect to the checked address; for https, verify the certificate for the URL's host name."""
        sock = socket.create_connection((address, endpoint.port), timeout=_remaining(deadline))
        if endpoint.scheme == "https":
            sock.settimeout(_remaining(deadline))
            sock = tls.wrap_socket(sock, server_hostname=endpoint.host)
        return sock

    def _request_bytes(self, endpoint: ParsedEndpoint, body: bytes) -> bytes:
        default_port = 443 if endpoint.scheme == "https" else 80
        host = endpoint.host if ":" not in endpoint.host else f"[{endpoint.host}]"
        if endpoint.port != default_port:
            host = f"{host}:{endpoint.port}"
        head = (
            f"POST {endpoint.path} HTTP/1.1\r\n"
            f"Host: {host}\r\n"
            f"User-Agent: {USER_AGENT}\r\n"
            "Content-Type: application/json\r\n"
            "Accept: application/json\r\n"
            f"Content-Length: {len(body)}\r\n"
            f"{SIGNATURE_HEADER}: {sign(self.secret, body)}\r\n"
            "Connection: close\r\n\r\n"
        )
        return head.encode("latin-1") + body

    def _read_response(self, sock: socket.socket, deadline: float) -> tuple[int, bytes]:
        buffer = bytearray()
        while b"\r\n\r\n" not in buffer:
            if len(buffer) > HEADER_LIMIT_BYTES:
                raise _Cut(Fault.INVALID_RESPONSE, "response headers too large")
            chunk = _recv(sock, deadline)
            if not chunk:
                raise _Cut(Fault.CONNECTION, "connection closed before the response headers")
            buffer += chunk
        head, _, rest = bytes(buffer).partition(b"\r\n\r\n")
        status, headers = _parse_head(head)
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = self._read_chunked(sock, bytearray(rest), deadline)
        else:
            length_text = headers.get("content-length")
            length = int(length_text) if length_text and length_text.isdecimal() else None
            if length is not None and length > self.max_bytes:
                raise _Cut(Fault.INVALID_RESPONSE, f"answer larger than {self.max_bytes} bytes")
            body = self._read_until(sock, bytearray(rest), length, deadline)
        return status, body

    def _read_until(self, sock: socket.socket, body: bytearray, length: int | None, deadline: float) -> bytes:
        while length is None or len(body) < length:
            if len(body) > self.max_bytes:
                raise _Cut(Fault.INVALID_RESPONSE, f"answer larger than {self.max_bytes} bytes")
            chunk = _recv(sock, deadline)
            if not chunk:
                if length is None:
                    break
                raise _Cut(Fault.CONNECTION, "connection closed in the middle of the answer")
            body += chunk
        if len(body) > self.max_bytes:
            raise _Cut(Fault.INVALID_RESPONSE, f"answer larger than {self.max_bytes} bytes")
        return bytes(body[:length] if length is not None else body)

    def _read_chunked(self, sock: socket.socket, data: bytearray, deadline: float) -> bytes:
        body = bytearray()
        while True:
            while b"\r\n" not in data:
                if len(data) > HEADER_LIMIT_BYTES:
                    raise _Cut(Fault.INVALID_RESPONSE, "bad chunked encoding: chunk-size line too long")
                data += self._more(sock, deadline)
            size_line, _, remainder = bytes(data).partition(b"\r\n")
            try:
                size = int(size_line.split(b";", 1)[0].strip() or b"x", 16)
            except ValueError:
                raise _Cut(Fault.INVALID_RESPONSE, "bad chunked encoding") from None
            data = bytearray(remainder)
            if size == 0:
                return bytes(body)
            if len(body) + size > self.max_bytes:
                raise _Cut(Fault.INVALID_RESPONSE, f"answer larger than {self.max_bytes} bytes")
            while len(data) < size + 2:
                data += self._more(sock, deadline)
            body += data[:size]
            data = data[size + 2 :]

    @staticmethod
    def _more(sock: socket.socket, deadline: float) -> bytes:
        chunk = _recv(sock, deadline)
        if not chunk:
            raise _Cut(Fault.CONNECTION, "connection closed in the middle of the answer")
        return chunk


def _remaining(deadline: float) -> float:
    left = deadline - time.perf_counter()
    if left <= 0:
        raise _Deadline
    return left


def _send_all(sock: socket.socket, data: bytes, deadline: float) -> None:
    view = memoryview(data)
    while view:
        sock.settimeout(_remaining(deadline))
        try:
            sent = sock.send(view)
        except TimeoutError:
            raise _Deadline from None
        view = view[sent:]


def _recv(sock: socket.socket, deadline: float) -> bytes:
    sock.settimeout(_remaining(deadline))
    try:
        return sock.recv(65536)
    except TimeoutError:
        raise _Deadline from None


def _parse_head(head: bytes) -> tuple[int, dict[str, str]]:
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdecimal():
        raise _Cut(Fault.INVALID_RESPONSE, "not an HTTP response")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return int(parts[1]), headers
