"""A request's body must arrive within a set time of its head, or the request is a 408 and its
connection is closed.

gunicorn gives a request's head ``keepalive`` seconds to arrive (``deploy/gunicorn.conf.py``), but
nothing bounds the body: the app reads it from the socket as it comes, and a client sending one
byte now and then held its connection, and the greenlet or thread serving it, for as long as it
liked (40 of 40 such clients were still held after 240 s). One address opening a few such
connections a minute would, in a few hours, hold every connection a process takes.

:class:`BodyDeadline` wraps the WSGI app: for a request with a body (a ``Content-Length`` above 0,
or chunked), it starts a timer of ``seconds`` when the app gets the request (its head has arrived
then). Should the timer fire before the body was read, the socket's reading side is shut: the
read waiting on it returns at once, and the read turns into :class:`~werkzeug.exceptions.RequestTimeout`,
which the app answers with its error body (408). The server then finds the connection's end where
it would read the next request, and closes it. The same works on gunicorn's gevent workers (the
timer is a greenlet there, as gevent patches ``threading``) and on the threads of ``arena serve``.

Once the body is read whole, or the app returns, the timer is cancelled: a request whose work takes
long after its body came is not cut, and a body the app never read (a request refused before its
body matters) is the server's to discard, which gunicorn does within ``keepalive``.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from werkzeug.exceptions import RequestTimeout

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

SOCKET_KEYS = ("gunicorn.socket", "werkzeug.socket")
"""Where gunicorn and werkzeug's server put the request's socket in the WSGI environment."""


def _has_body(environ: WSGIEnvironment) -> bool:
    if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        return True
    length = environ.get("CONTENT_LENGTH", "")
    return length.isdecimal() and int(length) > 0


class _TimedInput:
    """``wsgi.input`` read under the deadline: past it, a read that gets nothing more (the socket's
    reading side shut) or fails is a 408."""

    def __init__(self, stream: IO[bytes], sock: Any, seconds: float, length: int | None) -> None:
        self._stream = stream
        self._sock = sock
        self._left = length  # bytes of the body still to come, when its length is given
        self._lock = threading.Lock()
        self._over = False  # the read side is shut: the request is past its time
        self._done = False  # the app returned: the timer has nothing left to cut
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True
        self._timer.start()

    def _cut(self) -> None:
        with self._lock:
            if self._done:
                return
            self._over = True
        if self._sock is not None:  # gunicorn's (gevent's, on its gevent workers) or werkzeug's
            with contextlib.suppress(OSError):  # already closed by the client: nothing to cut
                self._sock.shutdown(socket.SHUT_RD)

    def disarm(self) -> None:
        """No cut from now on: the body is all read, or the app has returned."""
        with self._lock:
            self._done = True
        self._timer.cancel()

    def _timed_out(self) -> RequestTimeout:
        return RequestTimeout("The request's body did not arrive in time.")

    def _checked(self, data: bytes) -> bytes:
        if not data and self._over:
            raise self._timed_out()
        if self._left is not None:
            self._left -= len(data)
        if not data or self._left == 0:  # the whole body is in: nothing more to wait for
            self.disarm()
        return data

    def read(self, size: int | None = -1) -> bytes:
        try:
            return self._checked(self._stream.read(-1 if size is None else size))
        except Exception as error:  # the server's own errors too (gunicorn's for a chunk cut short)
            if self._over:
                raise self._timed_out() from error
            raise

    def readline(self, size: int | None = -1) -> bytes:
        try:
            return self._checked(self._stream.readline(-1 if size is None else size))
        except Exception as error:
            if self._over:
                raise self._timed_out() from error
            raise

    def readlines(self, hint: int = -1) -> list[bytes]:
        lines = []
        total = 0
        while line := self.readline():
            lines.append(line)
            total += len(line)
            if 0 < hint <= total:
                break
        return lines

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line


class BodyDeadline:
    """WSGI middleware: every request's body within ``seconds`` of its head (see the module)."""

    def __init__(self, app: WSGIApplication, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        if not _has_body(environ):
            return self.app(environ, start_response)
        sock = next((environ[key] for key in SOCKET_KEYS if key in environ), None)
        length = environ.get("CONTENT_LENGTH", "")
        sized = length.isdecimal() and "chunked" not in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        timed = _TimedInput(environ["wsgi.input"], sock, self.seconds, int(length) if sized else None)
        environ["wsgi.input"] = timed
        try:
            return self.app(environ, start_response)
        finally:
            timed.disarm()
