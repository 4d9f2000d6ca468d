"""The broker's connection pool holds a connection for every match a worker plays at once.

With ``acks_late`` each match task acknowledges its message on a connection of kombu's pool when it
ends; on gevent hundreds end close together. kombu's pool refuses ("Too many connections") past its
limit instead of waiting, and an acknowledgement refused leaves the match's message to be handed out
again and its prefetch slot taken, so the pool must be as large as the worker's concurrency.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from arena.settings import Settings
from arena.worker.celery_app import CeleryQueue, make_celery
from tests.platform.own_redis import own_redis_server

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with own_redis_server("pool-test") as url:
        yield url


@pytest.mark.parametrize("concurrency", [40, 200])
def test_every_match_in_flight_can_hold_a_broker_connection_at_once(redis_url: str, concurrency: int) -> None:
    settings = Settings.from_env({"REDIS_URL": redis_url, "ARENA_WORKER_CONCURRENCY": str(concurrency)})
    app = make_celery(settings, lambda app: None)  # no task runs: no runtime needed
    with app.connection_for_write() as connection:
        pool = connection.default_channel.pool  # where kombu's channel takes a connection to ack
        held = [pool.get_connection() for _ in range(concurrency)]  # every match ending at once
        try:
            for held_connection in held:  # each a connection of its own, open to the broker
                held_connection.send_command("PING")
                assert held_connection.read_response() in (b"PONG", "PONG")
            assert len({id(held_connection) for held_connection in held}) == concurrency
        finally:
            for held_connection in held:
                pool.release(held_connection)


def test_queueing_on_a_broker_that_stops_answering_fails_instead_of_waiting_forever() -> None:
    # a listener that accepts connections (the kernel does, from its backlog) and never answers: what
    # the API or a worker sees of a broker cut off by a network partition
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        port = silent.getsockname()[1]
        broker = f"redis://127.0.0.1:{port}/0"
        settings = Settings.from_env({"REDIS_URL": broker, "ARENA_REDIS_TIMEOUT_SECONDS": "1"})
        app = make_celery(settings, lambda app: None)
        assert app.conf.broker_transport_options["socket_timeout"] == 1
        failures: list[BaseException] = []

        def queue_a_match() -> None:
            try:
                CeleryQueue(app, settings.queue).enqueue("m-1")
            except Exception as error:  # noqa: BLE001 - whatever kombu raises, it must raise
                failures.append(error)

        publisher = threading.Thread(target=queue_a_match, daemon=True)
        publisher.start()
        publisher.join(60)  # a bound for the test only: without a timeout the publish never ends
        assert not publisher.is_alive(), "the publish is still waiting for a broker that never answers"
    assert len(failures) == 1
