"""One persistent HTTP/1.1 connection from the referee to a bot endpoint, each exchange under a deadline.

Written on raw sockets rather than on ``http.client`` or ``requests`` for what no library covers
together:

- the bot's time (the move's) runs from the moment its request's last byte went out to the moment
  its answer's last byte arrived, and the exchange ends there, so a bot that trickles its answer
  byte by byte is cut at the deadline, where per-read timeouts would let it run on; before that,
  name resolution, connecting, the TLS handshake and sending must be done within the same time of
  the exchange's start (so an exchange never lasts more than twice the move's time);
- the connection goes to the very address the endpoint policy checked, never to a second DNS
  answer;
- the connection is kept for the next request of the match (keep-alive), and opened again, once
  per request, when the bot closed it while it was idle; anything that leaves the connection in
  doubt (a fault, an answer framed by closing, extra bytes) closes it, so that no stale answer can
  be taken for the next one;
- a bot that is not there for a moment (restarting: the connection refused, reset, or closed before
  any byte of its answer) is tried again, a little later each time, until the deadline, when the
  caller asks for it (a move); it is one failure, at the deadline, only if the bot does not come
  back in time. The time it was away is its own: its time then runs from the first try;
- the answer's end is when its last byte reached this machine, not when the referee came to read
  it: a worker playing hundreds of matches on one event loop may read an answer long after it
  arrived, and that wait is the platform's, not the bot's (see :class:`referee.transport.sockets.Reader`).

Every failure leaves here as :class:`Cut`, carrying the fault kind it maps to.
"""

from __future__ import annotations

import socket
import ssl
import threading
import time
from typing import NamedTuple

from referee.protocol import SIGNATURE_HEADER, Fault
from referee.transport.endpoints import (
    EndpointPolicy,
    EndpointRefused,
    IPAddress,
    ParsedEndpoint,
    ResolutionTimeout,
)
from referee.transport.sockets import Deadline, IdleWatch, Reader, ask_arrival_times, remaining, send_all

HEADER_LIMIT_BYTES = 16 * 1024
USER_AGENT = "volcano-arena-referee/1"
FIRST_RETRY_PAUSE_S = 0.01
"""The pause before trying an unreachable bot again; it doubles after every try, up to
:data:`LONGEST_RETRY_PAUSE_S`, so a bot back from a restart is seen within that much."""
LONGEST_RETRY_PAUSE_S = 0.1


class Answer(NamedTuple):
    """A bot's answer: its HTTP status and body, and the bot's time, from ``asked`` to ``arrived``
    (both on :func:`time.perf_counter`'s clock; :attr:`think_s` is the difference)."""

    status: int
    body: bytes
    asked: float
    """When the request's last byte was sent; when the bot was away and the request was sent
    again, when the first try began."""
    arrived: float
    """When the kernel received the answer's last byte (plain connections where
    :data:`referee.transport.sockets.KERNEL_ARRIVAL_TIMES`), else when the referee read it."""

    @property
    def think_s(self) -> float:
        return self.arrived - self.asked

    @property
    def think_ms(self) -> float:
        """:attr:`think_s` as replays and pings record it (:func:`as_ms`)."""
        return as_ms(self.think_s)


def as_ms(seconds: float) -> float:
    """Seconds as the milliseconds a replay's think time and a ping's round trip record: to the
    microsecond."""
    return round(seconds * 1000.0, 3)


def elapsed_ms(started: float) -> float:
    """The milliseconds since ``started`` (a :func:`time.perf_counter` reading), as recorded."""
    return as_ms(time.perf_counter() - started)


class Cut(Exception):
    """The exchange failed in a way that maps to one fault kind."""

    def __init__(self, fault: Fault, detail: str) -> None:
        super().__init__(detail)
        self.fault = fault
        self.detail = detail


class AnswerTooLarge(Cut):
    """The answer's body is over the connection's ``max_bytes``: an HTTP answer, but not one a bot
    sends (a ping tells it apart from something that is no HTTP answer at all)."""

    def __init__(self, max_bytes: int, status: int | None = None) -> None:
        super().__init__(Fault.INVALID_RESPONSE, f"answer larger than {max_bytes} bytes")
        self.status = status
        """The answer's HTTP status."""


class _Stale(Exception):
    """A reused connection turned out closed before any byte of the answer: safe to send again."""


class _Unreachable(Exception):
    """The bot was not there: the connection was refused, reset or closed before any byte of the
    answer (a bot restarting looks like this). Sending the request again is safe: no answer was
    read, and a bot may see a request twice (docs/protocol.md, Connections)."""


_default_tls: ssl.SSLContext | None = None
_default_tls_lock = threading.Lock()


def default_tls_context() -> ssl.SSLContext:
    """The system's trusted CAs, loaded once per process and only when an https endpoint is called
    (loading them costs tens of milliseconds and most of a megabyte)."""
    global _default_tls
    with _default_tls_lock:
        if _default_tls is None:
            _default_tls = ssl.create_default_context()
        return _default_tls


class BotConnection:
    """A keep-alive connection to one endpoint URL; :meth:`post` sends one signed request."""

    def __init__(
        self, url: str, policy: EndpointPolicy, max_bytes: int, tls: ssl.SSLContext | None = None
    ) -> None:
        self.url = url
        self.policy = policy
        self.max_bytes = max_bytes
        self.tls = tls
        self._sock: socket.socket | None = None
        self._idle: IdleWatch | None = None  # the kept plain socket's idle check
        self._stamped = False  # whether the kept socket's reads carry the kernel's arrival time
        self._head = b""  # the request head up to the Content-Length value, for this endpoint
        self.connected = False
        """Whether a TCP connection to the endpoint was ever made: something listened there, even if
        what followed failed (a ping tells "not reachable" from "not an HTTP answer" by it)."""

    def close(self) -> None:
        if self._sock is not None:
            sock, self._sock, self._idle = self._sock, None, None
            sock.close()

    def post(
        self, body: bytes, signature: str, started: float, timeout_s: float, retry_unreachable: bool = False
    ) -> Answer:
        """Send the body, signed, and return the answer; raise :class:`Cut`.

        ``started`` (on :func:`time.perf_counter`'s clock) is when the exchange began: the request
        must be out (the connection opened first if need be) by ``started + timeout_s``, and the
        answer's last byte must then arrive within ``timeout_s`` of the request's send. An answer
        that arrived in time is taken even when it is read later (:class:`~referee.transport.sockets.Reader`).

        With ``retry_unreachable`` a bot that is not there (see :class:`_Unreachable`) is tried
        again until ``started + timeout_s``, so that a bot restarted between two moves, or during
        one, loses no more than the time it was away; its time then counts from ``started`` and its
        answer must arrive by ``started + timeout_s``. What remains a failure is one
        ``connection_error`` fault. A ping does not ask for it: it tells whether the bot answers now.
        """
        deadline = started + timeout_s
        pause = FIRST_RETRY_PAUSE_S
        budget_s: float | None = timeout_s  # the first try: the bot's time runs from the send
        while True:
            try:
                answer = self._post_once(body, signature, deadline, budget_s)
            except _Unreachable as away:
                self.close()
                if not retry_unreachable or time.perf_counter() + pause >= deadline:
                    raise Cut(Fault.CONNECTION, str(away)) from None
            else:
                return answer if budget_s is not None else answer._replace(asked=started)
            time.sleep(pause)
            pause = min(2 * pause, LONGEST_RETRY_PAUSE_S)
            budget_s = None  # sent again: the bot's time runs from the first try

    def _post_once(self, body: bytes, signature: str, deadline: float, budget_s: float | None) -> Answer:
        try:
            return self._post(body, signature, deadline, budget_s)
        except Cut:
            self.close()
            raise
        except (Deadline, TimeoutError):
            self.close()
            raise Cut(Fault.TIMEOUT, "no complete answer before the deadline") from None
        except ConnectionError as error:
            raise _Unreachable(f"connection: {error}") from None
        except (OSError, ssl.SSLError) as error:
            self.close()
            raise Cut(Fault.CONNECTION, f"connection: {error}") from None

    def _post(self, body: bytes, signature: str, deadline: float, budget_s: float | None) -> Answer:
        reused = self._sock is not None and self._idle_and_open()
        if not reused:
            self.close()
            self._open(deadline)
        request = b"%s%d\r\n%s: %s\r\n\r\n%s" % (
            self._head,
            len(body),
            SIGNATURE_HEADER.encode(),
            signature.encode(),
            body,
        )
        try:
            return self._round_trip(request, deadline, budget_s, reused)
        except _Stale:
            # the bot closed the idle connection as the request went out: open a new one, once (a
            # fresh connection never raises _Stale)
            self.close()
            self._open(deadline)
            return self._round_trip(request, deadline, budget_s, reused=False)

    # -- opening -------------------------------------------------------------------------------

    def _open(self, deadline: float) -> None:
        try:
            resolved = self.policy.resolve(self.url, timeout_s=deadline - time.perf_counter())
        except ResolutionTimeout:
            raise Cut(Fault.TIMEOUT, "the endpoint's host name did not resolve before the deadline") from None
        except EndpointRefused as refused:
            raise Cut(Fault.ENDPOINT_REFUSED, str(refused)) from None
        endpoint = resolved.endpoint
        try:
            sock = self._connect(resolved.address, endpoint, deadline)
        except (Deadline, TimeoutError):
            raise Cut(Fault.TIMEOUT, "no connection before the deadline") from None
        except ConnectionError as error:
            raise _Unreachable(f"connect: {error}") from None
        except (OSError, ssl.SSLError) as error:
            raise Cut(Fault.CONNECTION, f"connect: {error}") from None
        self._sock = sock
        plain = not isinstance(sock, ssl.SSLSocket)
        self._idle = IdleWatch(sock.fileno()) if plain else None
        self._stamped = plain and ask_arrival_times(sock)
        self._head = _request_head(endpoint)

    def _connect(self, address: IPAddress, endpoint: ParsedEndpoint, deadline: float) -> socket.socket:
        """Connect to the checked address; for https, verify the certificate for the URL's host name.

        The socket is made for the address's family and connected to it directly: the address is
        already resolved and checked, and ``socket.create_connection`` would hand it to
        ``getaddrinfo`` once more (under gevent, a trip through its thread pool for every seat)."""
        family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(remaining(deadline))
            sock.connect((str(address), endpoint.port))
            self.connected = True
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if endpoint.scheme == "https":
                sock.settimeout(remaining(deadline))
                tls = self.tls if self.tls is not None else default_tls_context()
                sock = tls.wrap_socket(sock, server_hostname=endpoint.host)
        except BaseException:
            sock.close()
            raise
        return sock

    def _idle_and_open(self) -> bool:
        """Whether the kept connection still looks usable: nothing to read on it while idle (a
        readable idle socket is either closed by the bot or carries bytes nobody asked for)."""
        sock = self._sock
        assert sock is not None
        if self._idle is None:
            # TLS may legitimately send records while idle (session tickets): try it, and rely on
            # the one retry if the bot closed it meanwhile
            return isinstance(sock, ssl.SSLSocket) and sock.pending() == 0
        try:
            return not self._idle.readable_now()
        except (OSError, ValueError):
            return False

    # -- one request and its answer --------------------------------------------------------------

    def _round_trip(self, request: bytes, deadline: float, budget_s: float | None, reused: bool) -> Answer:
        """Send the request by ``deadline`` and read its answer, which must arrive within
        ``budget_s`` of the send (None: by ``deadline``)."""
        sock = self._sock
        assert sock is not None
        try:
            send_all(sock, request, deadline)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, ssl.SSLEOFError):
            if reused:
                raise _Stale from None
            raise
        reader = Reader(sock, deadline, budget_s, self._stamped)  # made right after the send
        status, body, keep = self._read_response(reader, reused)
        if not keep:
            self.close()
        return Answer(status, body, reader.sent, reader.arrived)

    def _read_response(self, reader: Reader, reused: bool) -> tuple[int, bytes, bool]:
        # bytes, not a bytearray, while reading the head: a bot's answer usually arrives whole in
        # the first read, and is then only sliced, never copied into a buffer and out again
        buffer = b""
        while True:
            end = buffer.find(b"\r\n\r\n")
            if end >= 0:
                status, version, headers = _parse_head(buffer[:end])
                buffer = buffer[end + 4 :]
                if 100 <= status < 200 and status != 101:
                    continue  # an interim answer (100 Continue): the real one follows
                break
            if len(buffer) > HEADER_LIMIT_BYTES:
                raise Cut(Fault.INVALID_RESPONSE, "response headers too large")
            try:
                chunk = reader.recv()
            except (ConnectionResetError, ConnectionAbortedError):
                if reused and not buffer:
                    raise _Stale from None
                raise
            if not chunk:
                if reused and not buffer:
                    raise _Stale
                if not buffer:
                    raise _Unreachable("connection closed before the response headers")
                raise Cut(Fault.CONNECTION, "connection closed before the response headers")
            buffer = buffer + chunk if buffer else chunk
        connection = headers.get("connection", "").lower()
        keep = "close" not in connection if version == "HTTP/1.1" else "keep-alive" in connection
        try:
            if status in (204, 304):
                body, clean = b"", not buffer
            elif "chunked" in headers.get("transfer-encoding", "").lower():
                body, clean = self._read_chunked(reader, bytearray(buffer))
            else:
                length_text = headers.get("content-length")
                length = int(length_text) if length_text and length_text.isdecimal() else None
                if length is not None and length > self.max_bytes:
                    raise AnswerTooLarge(self.max_bytes)
                if length is not None and len(buffer) >= length:
                    body, clean = buffer[:length], len(buffer) == length  # all of it came with the head
                else:
                    rest = bytearray(buffer)
                    body = self._read_until(reader, rest, length)
                    clean = length is not None and len(rest) == length
        except AnswerTooLarge as too_large:
            too_large.status = status
            raise
        return status, body, keep and clean

    def _read_until(self, reader: Reader, body: bytearray, length: int | None) -> bytes:
        """The body up to ``length`` bytes, or up to the connection's end when no length was given."""
        while length is None or len(body) < length:
            if len(body) > self.max_bytes:
                raise AnswerTooLarge(self.max_bytes)
            chunk = reader.recv()
            if not chunk:
                if length is None:
                    break
                raise Cut(Fault.CONNECTION, "connection closed in the middle of the answer")
            body += chunk
        if len(body) > self.max_bytes:
            raise AnswerTooLarge(self.max_bytes)
        return bytes(body[:length] if length is not None else body)

    def _read_chunked(self, reader: Reader, data: bytearray) -> tuple[bytes, bool]:
        """The de-chunked body, and whether the connection ended exactly at the answer's end."""
        body = bytearray()
        while True:
            while b"\r\n" not in data:
                if len(data) > HEADER_LIMIT_BYTES:
                    raise Cut(Fault.INVALID_RESPONSE, "bad chunked encoding: chunk-size line too long")
                data += _more(reader)
            size_line, _, remainder = bytes(data).partition(b"\r\n")
            try:
                size = int(size_line.split(b";", 1)[0].strip() or b"x", 16)
            except ValueError:
                raise Cut(Fault.INVALID_RESPONSE, "bad chunked encoding") from None
            data = bytearray(remainder)
            if size == 0:
                # no trailers and the final line already here: the connection can be used again
                return bytes(body), bytes(data) == b"\r\n"
            if len(body) + size > self.max_bytes:
                raise AnswerTooLarge(self.max_bytes)
            while len(data) < size + 2:
                data += _more(reader)
            body += data[:size]
            data = data[size + 2 :]


def _more(reader: Reader) -> bytes:
    """The next chunk of an answer, the connection's end being a fault (in the middle of it)."""
    chunk = reader.recv()
    if not chunk:
        raise Cut(Fault.CONNECTION, "connection closed in the middle of the answer")
    return chunk


def _request_head(endpoint: ParsedEndpoint) -> bytes:
    """Everything of a request's head that is the same for every request to the endpoint, up to
    the value of ``Content-Length`` (the length and the signature follow)."""
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
        "Content-Length: "
    )
    return head.encode("latin-1")


_FRAMING_HEADERS = frozenset(("connection", "content-length", "transfer-encoding"))


def _parse_head(head: bytes) -> tuple[int, str, dict[str, str]]:
    """The status, the HTTP version and the headers that frame the answer (``Connection``,
    ``Content-Length``, ``Transfer-Encoding``; names in lower case) of a response head."""
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdecimal():
        raise Cut(Fault.INVALID_RESPONSE, "not an HTTP response")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            name = name.strip().lower()
            if name in _FRAMING_HEADERS:  # the only ones read; the rest are not even trimmed
                headers[name] = value.strip()
    return int(parts[1]), parts[0], headers
