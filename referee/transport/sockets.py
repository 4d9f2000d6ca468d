"""A bot's socket under a deadline: sending by it, reading an answer that must arrive by it, and
when each piece of the answer arrived (the kernel's arrival times), below the HTTP exchange of
:mod:`referee.transport.connection`.

Apart from the exchange because it is the part that speaks to the operating system (``poll``
outside gevent's patching, ``SO_TIMESTAMPNS``, ``recvmsg``), and the part a benchmark or a test
changes (:data:`KERNEL_ARRIVAL_TIMES`, :func:`send_all`).
"""

from __future__ import annotations

import os
import select
import socket
import struct
import sys
import time

RECV_BYTES = 64 * 1024
"""The most one read takes off the socket."""

_SO_TIMESTAMPNS = 35
"""Linux's ``SO_TIMESTAMPNS`` (``SO_TIMESTAMPNS_OLD``), which the socket module does not name: the
kernel then gives every read the time its data reached the socket, as a native ``struct timespec``
of ``CLOCK_REALTIME``. 35 on the architectures whose socket options are asm-generic's."""
_TIMESPEC = struct.Struct("@ll")
_STAMPING_MACHINES = frozenset(("x86_64", "aarch64", "arm64", "riscv64", "s390x", "ppc64le", "ppc64"))
KERNEL_ARRIVAL_TIMES = sys.platform == "linux" and os.uname().machine in _STAMPING_MACHINES
"""Whether plain (http) connections ask the kernel when each answer arrived. Where it cannot (another
system, TLS), an answer ends when it was read, and a deadline passed is a timeout, as before arrival
times were kept; a benchmark sets it False to measure that timing."""
_ANCILLARY_BYTES = socket.CMSG_SPACE(_TIMESPEC.size) if hasattr(socket, "CMSG_SPACE") else 0
_CLOCK_SLACK_S = 0.005
"""How far a timestamp may fall outside the time between the send and the read before it is not
believed (the wall clock stepped): the two clocks run at rates a slewing NTP can part a little."""


def _unpatched_poll() -> type[select.poll]:
    """``select.poll`` as the standard library has it, even in a process gevent has patched.

    The idle check asks the kernel once and must not wait: gevent's patched ``poll`` and ``select``
    hand control to the event loop on every call, even with a zero timeout, which puts the match
    behind every other ready match once per move. ``poll`` rather than ``select``: ``select``
    refuses file descriptors from 1024 on, which a worker playing hundreds of matches holds.
    """
    monkey = sys.modules.get("gevent.monkey")
    if monkey is None:  # nothing can have patched this process (yet): what it has is the original
        return select.poll
    poll: type[select.poll] = monkey.get_original("select", "poll")
    return poll


_POLL = _unpatched_poll()


class IdleWatch:
    """Tells whether a kept connection's socket has become readable while idle (data, end of stream
    or an error), asking the kernel once and never waiting.

    One poll object per connection, registered when the connection opens, rather than one built
    and registered for every request: the check runs before every move a match sends.
    """

    def __init__(self, descriptor: int) -> None:
        self._poller = _POLL()
        self._poller.register(descriptor, select.POLLIN)

    def readable_now(self) -> bool:
        return bool(self._poller.poll(0))


class Deadline(Exception):
    """The deadline passed before the socket was done with (sending, or the answer's arrival)."""


def remaining(deadline: float) -> float:
    left = deadline - time.perf_counter()
    if left <= 0:
        raise Deadline
    return left


def send_all(sock: socket.socket, data: bytes, deadline: float) -> None:
    view = memoryview(data)
    while view:
        sock.settimeout(remaining(deadline))
        try:
            sent = sock.send(view)
        except TimeoutError:
            raise Deadline from None
        view = view[sent:]


def ask_arrival_times(sock: socket.socket) -> bool:
    """Ask the kernel to time each read's data on arrival; whether it will."""
    if not KERNEL_ARRIVAL_TIMES:
        return False
    try:
        sock.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
    except OSError:
        return False
    return True


class Reader:
    """Reads one answer off a socket under its deadline, and keeps when it arrived.

    Made right after the request's last byte went out, it takes the time then on two clocks:
    ``time.perf_counter()``, the deadline's, and ``time.time_ns()``, the realtime clock the kernel
    stamps arrivals with. The answer's deadline is ``budget_s`` after that send (or the exchange's,
    when the bot's time runs from an earlier first try).

    On a stamped socket every read is a ``recvmsg`` whose ancillary data says when the data it
    returns reached the socket (for TCP, the last segment read; segments queued together carry the
    latest one's time). That instant is put on perf_counter's clock through the pair:
    ``sent + (stamp - sent_ns)``, which is believed only if it falls between the send and the read
    (give or take :data:`_CLOCK_SLACK_S`); else the wall clock stepped, and the read time stands, as
    for a socket without stamps (TLS: ``ssl.SSLSocket`` has no ``recvmsg``).

    The deadline is judged on arrival: data that arrived after it ends the exchange as a timeout;
    an answer that arrived before it but was read after it (the event loop was busy elsewhere) is
    on time. So when the deadline has passed, a stamped socket still gives what it holds already,
    without waiting; a socket without stamps times out there, as before. An empty read (the
    connection's end) carries no stamp, and counts as read.
    """

    __slots__ = ("arrived", "deadline", "sent", "sent_ns", "sock", "stamped")

    def __init__(self, sock: socket.socket, deadline: float, budget_s: float | None, stamped: bool) -> None:
        self.sent = time.perf_counter()
        self.sent_ns = time.time_ns()
        self.sock = sock
        self.deadline = deadline if budget_s is None else self.sent + budget_s
        self.stamped = stamped
        self.arrived = self.sent  # until the first read: when the last data read arrived

    def recv(self) -> bytes:
        """The next chunk (empty at the connection's end); raise :class:`Deadline` when there is
        none that arrived in time."""
        left = self.deadline - time.perf_counter()
        if left > 0:
            self.sock.settimeout(left)
            try:
                return self._read(late=False)
            except TimeoutError:
                pass
        if not self.stamped:
            raise Deadline
        self.sock.settimeout(0.0)  # past the deadline: only what is there already
        try:
            return self._read(late=True)
        except BlockingIOError:
            raise Deadline from None

    def _read(self, late: bool) -> bytes:
        if not self.stamped:
            chunk = self.sock.recv(RECV_BYTES)
            self.arrived = time.perf_counter()
            return chunk
        chunk, ancillary, _flags, _address = self.sock.recvmsg(RECV_BYTES, _ANCILLARY_BYTES)
        read_at = time.perf_counter()
        arrived = self._arrival(ancillary, read_at) if chunk else None
        if arrived is None:  # no stamp to trust: the read time, which is past the deadline if late
            if late:
                raise Deadline
            arrived = read_at
        elif arrived > self.deadline:
            raise Deadline
        self.arrived = arrived
        return chunk

    def _arrival(self, ancillary: list[tuple[int, int, bytes]], read_at: float) -> float | None:
        """When the data of a read reached the socket, on perf_counter's clock, if it says and it
        fits between the send and the read."""
        for level, kind, data in ancillary:
            if level == socket.SOL_SOCKET and kind == _SO_TIMESTAMPNS and len(data) >= _TIMESPEC.size:
                seconds, nanoseconds = _TIMESPEC.unpack_from(data)
                since_sent = (int(seconds) * 1_000_000_000 + int(nanoseconds) - self.sent_ns) / 1e9
                until_read = read_at - self.sent
                if not -_CLOCK_SLACK_S <= since_sent <= until_read + _CLOCK_SLACK_S:
                    return None
                return self.sent + min(max(since_sent, 0.0), until_read)
        return None
