"""The fairness benchmark's bot: answers every move after a fixed delay and says how long it took.

``python -m bench.stamped_bot PORT DELAY_MS SECRET``. A keep-alive HTTP/1.1 server on raw sockets
under gevent (hundreds of kept connections, no thread each), so that it can time itself the way the
referee now times it: each connection asks the kernel when data arrives (``SO_TIMESTAMPNS``), and
a move's answer carries, as its ``log``, ``own_us=N``: the microseconds from the kernel's arrival
time of the request's last byte to just before the answer is written. That is the bot's own think
time, its event loop's delays included (they are the bot's); the referee's record of the move
should exceed it only by the loopback's transit. It checks the signature and reads the first legal
move off the request's bytes (:func:`bench.instant_bot.first_legal_answer`), so it costs little
CPU and leaves the cores to the referee. Not a benchmark itself.
"""

from __future__ import annotations

import sys
import time
from typing import Any

_SO_TIMESTAMPNS = 35  # as in referee.transport.connection (Linux, asm-generic architectures)
_RECV_BYTES = 64 * 1024


def main(port: int, delay_ms: float, secret: str) -> None:
    from gevent import monkey

    monkey.patch_all()  # only when run: importing this module patches nothing
    import resource
    import socket
    import struct

    import gevent
    from gevent.server import StreamServer

    from bench.instant_bot import first_legal_answer
    from referee.protocol import SIGNATURE_HEADER, signature_matches

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # two sockets a match in flight
    timespec = struct.Struct("@ll")
    ancillary_bytes = socket.CMSG_SPACE(timespec.size)
    signature_name = SIGNATURE_HEADER.lower().encode()

    def read(connection: Any) -> tuple[bytes, int]:
        """A chunk and the realtime (ns) its last data reached the socket (now, if unsaid)."""
        data, ancillary, _flags, _address = connection.recvmsg(_RECV_BYTES, ancillary_bytes)
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == _SO_TIMESTAMPNS:
                seconds, nanoseconds = timespec.unpack_from(payload)
                return data, seconds * 1_000_000_000 + nanoseconds
        return data, time.time_ns()

    def answer(connection: Any, status: bytes, body: bytes) -> None:
        head = b"HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
        connection.sendall(head % (status, len(body)) + body)

    def handle(connection: Any, address: Any) -> None:
        connection.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        buffer = b""
        try:
            while True:
                arrived_ns = time.time_ns()  # a request already read whole (none is, one at a time)
                while b"\r\n\r\n" not in buffer:
                    chunk, arrived_ns = read(connection)
                    if not chunk:
                        return
                    buffer += chunk
                head, _, rest = buffer.partition(b"\r\n\r\n")
                length, signature = 0, None
                for line in head.split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    name = name.strip().lower()
                    if name == b"content-length":
                        length = int(value)
                    elif name == signature_name:
                        signature = value.strip().decode("latin-1")
                while len(rest) < length:
                    chunk, arrived_ns = read(connection)
                    if not chunk:
                        return
                    rest += chunk
                body, buffer = rest[:length], rest[length:]
                if not signature_matches(secret, body, signature):
                    answer(connection, b"401 Unauthorized", b'{"error":"bad or missing signature"}')
                    continue
                reply = first_legal_answer(body)
                if reply.startswith(b'{"move":'):
                    gevent.sleep(delay_ms / 1000.0)
                    own_us = (time.time_ns() - arrived_ns) // 1000
                    reply = reply[:-1] + b',"log":"own_us=%d"}' % own_us
                answer(connection, b"200 OK", reply)
        except OSError:  # the referee closed the connection
            return
        finally:
            connection.close()

    listener = socket.create_server(("127.0.0.1", port), backlog=4096)
    StreamServer(listener, handle).serve_forever()


if __name__ == "__main__":
    main(int(sys.argv[1]), float(sys.argv[2]), sys.argv[3])
