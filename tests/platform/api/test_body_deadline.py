"""``arena.api.body_deadline`` without sockets: which requests it times, when it stops timing, and
what a read past the deadline becomes (the real cut, on gunicorn and werkzeug's server:
``tests/platform/test_slow_bodies.py``)."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

import pytest
from werkzeug.exceptions import RequestTimeout
from werkzeug.test import EnvironBuilder

from arena.api.body_deadline import BodyDeadline

LONG_S = 3600.0
"""A deadline no test reaches: the timer's state is looked at, never waited for."""


def environ(body: bytes, chunked: bool = False) -> dict[str, Any]:
    headers = {"Transfer-Encoding": "chunked"} if chunked else {}
    built = EnvironBuilder(method="POST", input_stream=io.BytesIO(body), headers=headers).get_environ()
    if chunked:
        del built["CONTENT_LENGTH"]
    else:
        built["CONTENT_LENGTH"] = str(len(body))
    return built


class Reader:
    """A WSGI app that reads ``reads`` pieces of the body and notes whether the deadline still runs."""

    def __init__(self, *reads: int) -> None:
        self.reads = reads
        self.got = b""
        self.timing_after_reads: bool | None = None
        self.stream: Any = None

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        self.stream = environ["wsgi.input"]
        for size in self.reads:
            self.got += self.stream.read(size)
        timer = getattr(self.stream, "_timer", None)
        self.timing_after_reads = timer is not None and not timer.finished.is_set()
        start_response("200 OK", [])
        return [b""]


def test_a_request_without_a_body_is_not_timed() -> None:
    app = Reader()
    BodyDeadline(app, LONG_S)(EnvironBuilder(method="GET").get_environ(), lambda *a: None)
    assert app.timing_after_reads is False


@pytest.mark.parametrize("chunked", [False, True])
def test_the_deadline_stops_once_the_body_is_read_whole(chunked: bool) -> None:
    body = b'{"name": "n"}'
    partial, whole = Reader(4), Reader(4, 100, 100)
    for app in (partial, whole):
        BodyDeadline(app, LONG_S)(environ(body, chunked), lambda *a: None)
    assert partial.timing_after_reads is True  # more to come: still timed
    assert whole.got == body and whole.timing_after_reads is False
    assert partial.stream._timer.finished.is_set()  # and the app's return stops it anyway


def test_a_read_past_the_deadline_that_gets_nothing_more_is_a_408() -> None:
    app = Reader(1)
    BodyDeadline(app, LONG_S)(environ(b"{}"), lambda *a: None)
    stream = app.stream
    stream._done = False
    stream._cut()  # as the timer does at the deadline (no socket here to shut)
    assert stream.read(1) == b"}"  # what had come in time is still read
    with pytest.raises(RequestTimeout):
        stream.read(1)
