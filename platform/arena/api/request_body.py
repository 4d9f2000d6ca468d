"""A request body over the size limit is a 413, however it is sent.

Flask refuses a body whose ``Content-Length`` is over ``MAX_CONTENT_LENGTH`` before reading it. A
chunked body (no ``Content-Length``; gunicorn and werkzeug's server de-chunk it and say so with
``wsgi.input_terminated``) is read up to the limit by werkzeug, which then stops as if the body had
ended there: the first megabyte of a larger body was parsed, and answered 400 "not valid JSON".
:class:`BoundedRequest` reads one byte past the limit instead, and a body that has it is a 413.
"""

from __future__ import annotations

from typing import IO, cast

from flask import Request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.utils import cached_property
from werkzeug.wsgi import LimitedStream, get_input_stream


class _NoMoreThan(LimitedStream):
    """A stream of unknown length read up to one byte past ``most``: that byte is a 413."""

    def __init__(self, stream: IO[bytes], most: int) -> None:
        super().__init__(stream, most + 1, is_max=True)
        self.most = most

    def readinto(self, buffer: bytearray) -> int | None:  # type: ignore[override]  # werkzeug's own signature
        count = super().readinto(buffer)
        if self.tell() > self.most:
            raise RequestEntityTooLarge(f"The body is larger than {self.most} bytes.")
        return count


class BoundedRequest(Request):
    """Flask's request, its streamed (chunked) body held to ``MAX_CONTENT_LENGTH`` as a sized one is."""

    @cached_property
    def stream(self) -> IO[bytes]:
        limit = self.max_content_length
        if self.shallow or limit is None or self.content_length is not None:
            return get_input_stream(self.environ, max_content_length=limit)  # werkzeug's checks
        if not self.environ.get("wsgi.input_terminated"):
            return get_input_stream(self.environ, max_content_length=limit)  # an empty stream
        return cast(IO[bytes], _NoMoreThan(self.environ["wsgi.input"], limit))
