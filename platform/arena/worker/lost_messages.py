"""Matches whose message the broker lost: queued again within the visibility timeout.

kombu's Redis transport takes a message off the queue with ``BRPOP`` (or ``RPOP``), which removes it,
and only then, in a second command, records it among the unacknowledged ones (``unacked``, from
which :func:`arena.worker.celery_app.restore_unacked` hands a dead worker's messages out again). A
worker killed between the two (SIGKILL, out of memory) takes the message with it: it is in neither
place, and nothing hands it out again. Under gevent that window is no instant: the ``BRPOP``'s answer
waits in the socket until the hub runs the consumer again, behind every match greenlet that holds the
loop meanwhile, and the record needs a connection of the pool. One of five worker kills lost a
queued match that way, which only the sweeper's last resort (an empty queue, then the visibility
timeout, two leases and a sweep: 180 s) brought back.

So the workers, as often as they restore unacknowledged messages (a quarter of the visibility
timeout), look for it, one look a period among them all (a key of the broker says who looks): the
matches the store has had ``queued`` for longer than that quarter whose message is neither waiting
in the queue nor among the unacknowledged. A match found so on two looks in a row (no live worker
holds a message between its two commands for a quarter of the visibility timeout, at least
:data:`MIN_GAP_S`) is queued again.
A second message for a match costs nothing: its run finds the match played or being played (its
lease) and drops it. The queue is read whole; a backlog longer than :data:`MOST_READ` is left to
the sweeper's last resort.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from typing import Any

from redis import Redis

from arena.runtime import Runtime

log = logging.getLogger(__name__)
MOST_READ = 5000
"""The longest queue read whole to look for a match's message."""
MIN_GAP_S = 5.0
"""The least time between two looks, however short the visibility timeout (a test's): a live
worker's consumer, its event loop busy, may hold a message between its two commands for a second or
two, never for this long twice over."""


def message_match_id(raw: bytes | str, task_name: str) -> str | None:
    """The match id a queued message of ``task_name`` carries (its first argument), else None.

    >>> body = base64.b64encode(json.dumps([["m-1"], {}, {}]).encode()).decode()
    >>> message = {"body": body, "headers": {"task": "run"}, "properties": {"body_encoding": "base64"}}
    >>> message_match_id(json.dumps(message), "run"), message_match_id(json.dumps(message), "other")
    ('m-1', None)
    """
    try:
        message = json.loads(raw)
        if message.get("headers", {}).get("task") != task_name:
            return None
        body: Any = message["body"]
        if message.get("properties", {}).get("body_encoding") == "base64":
            body = base64.b64decode(body)
        args = json.loads(body)[0]
        return str(args[0]) if args else None
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, binascii.Error):
        return None


def _held_ids(redis: Redis, queue_keys: list[str], unacked_key: str, task_name: str) -> set[str] | None:
    """The match ids of every message waiting in the queue or unacknowledged, read in one
    transaction (a message moving between the two while they are read, taken by a worker or given
    back, is seen in one of them); None when the queue is longer than :data:`MOST_READ`."""
    with redis.pipeline(transaction=True) as pipe:
        for key in queue_keys:
            pipe.llen(key)
            pipe.lrange(key, 0, MOST_READ - 1)
        pipe.hvals(unacked_key)
        *lists, unacked = pipe.execute()
    if sum(int(length) for length in lists[0::2]) > MOST_READ:
        return None
    held = {message_match_id(raw, task_name) for waiting in lists[1::2] for raw in waiting}
    for entry in unacked:
        try:
            held.add(message_match_id(json.dumps(json.loads(entry)[0]), task_name))
        except (ValueError, KeyError, IndexError, TypeError):
            continue
    return {match_id for match_id in held if match_id}


def requeue_lost(
    runtime: Runtime,
    redis: Redis,
    queue_keys: list[str],
    unacked_key: str,
    task_name: str,
    every_s: float,
) -> list[str]:
    """One look (see the module): queue again the matches missing from the broker on this look and
    the one before; returns their ids. ``redis`` is the broker's client, ``queue_keys`` the queue's
    lists (one per priority, the first its own name), ``every_s`` how often the workers look."""
    gap_s = max(every_s, MIN_GAP_S)
    # one look a period among all the workers: the queue is read once, not once per worker
    if not redis.set(f"{queue_keys[0]}.arena-lost-look", "1", nx=True, ex=max(1, round(gap_s))):
        return []
    missing_key = f"{queue_keys[0]}.arena-missing"
    waiting_long = runtime.store.queue.queued_before(runtime.clock.time() - gap_s)
    held = _held_ids(redis, queue_keys, unacked_key, task_name) if waiting_long else set()
    if held is None:
        return []
    missing = {match_id for match_id in waiting_long if match_id not in held}
    before = set(json.loads(redis.get(missing_key) or "[]"))
    lost = sorted(missing & before)
    for match_id in lost:
        runtime.queue.enqueue(match_id)
        runtime.store.queue.requeued_now(match_id)
        log.warning("match %s: its message was lost by the broker (a killed worker): queued again", match_id)
    redis.set(missing_key, json.dumps(sorted(missing - set(lost))), ex=max(1, round(4 * gap_s)))
    return lost
