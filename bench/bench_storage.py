"""Redis RAM per finished match: the layout of today next to replays in files and archived matches.

Plays a few real matches of each game in-process (each game's first reference bot other than
``random``, as the demo's tournaments do, so the replays are of realistic length) and stores ``--matches``
finished matches (the played replays and results, reused under new match ids) on a redis-server of
the benchmark's own (a free loopback port, no persistence), three ways, each on an emptied Redis:

- ``old``: the layout before replays left Redis, written key by key as its ``finish_match`` wrote
  it: record, spec, the gzip replay, the ``applied`` mark and the ``matches`` index entry;
- ``files``: :meth:`arena.storage.finishing.Finishing.finish_match` now, replays in a directory: record, spec,
  the run token, the mark and the index entry stay in Redis;
- ``archived``: the same, then :func:`arena.matches.archive.archive_ended` (age 0): only the index entry
  stays.

Each figure is ``INFO memory`` ``used_memory`` after minus before, divided by the matches; the
ways are interleaved and repeated (``--runs``, min/median/max printed), and each is shown next to
the goal (600 bytes per archived match) and as a ratio to ``old``.

    python bench/bench_storage.py [--matches 1000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from redis import Redis

from arena.matches.archive import archive_ended
from arena.records import MatchRecord, MatchStatus
from arena.storage import MatchEnd, Store
from arena.storage.files import DirectoryStore
from bots.registry import bots_for, make_bot
from referee.match import MatchSpec
from referee.replay import Replay, compress
from referee.runner import Player, run_match
from referee.transport.agents import LocalAgent

GOAL_BYTES = 600
GAMES = {"vulkan": 2, "volcano": 2, "boulderville": 4, "catan-volcano": 4}
"""Each game with its seats."""
PREFIX = "bench:"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _play_samples(per_game: int) -> list[Replay]:
    replays = []
    for game, seats in GAMES.items():
        for seed in range(per_game):
            bots = [f"b-{secrets.token_hex(8)}" for _ in range(seats)]
            spec = MatchSpec.build(game=game, bots=bots, seed=seed)
            players = [Player(f"bot {seat}", _agent(game, seed * 10 + seat)) for seat in range(seats)]
            replays.append(run_match(f"m-{secrets.token_hex(8)}", spec, players))
    return replays


def _agent(game: str, seed: int) -> LocalAgent:
    name = next((name for name in bots_for(game) if name != "random"), "random")
    return LocalAgent(make_bot(game, name, seed))


def _matches(samples: list[Replay], count: int) -> list[tuple[MatchRecord, MatchSpec, Replay]]:
    """``count`` finished matches with ids of their own, the samples' specs, results and replays."""
    made = []
    for index in range(count):
        replay = samples[index % len(samples)]
        spec = replay.spec
        record = MatchRecord.new(
            f"m-{secrets.token_hex(8)}",
            spec.game,
            spec.variant,
            tuple(spec.bots),
            tuple(f"bot {seat}" for seat in range(len(spec.bots))),
            rated=True,
        )
        made.append((record, spec, replay))
    return made


def _finished(record: MatchRecord, replay: Replay) -> MatchRecord:
    return record.started().finished(replay.result, replay.seats, len(replay.moves))


def store_old_way(store: Store, matches: list[tuple[MatchRecord, MatchSpec, Replay]]) -> None:
    """The keys the store of the last release kept per finished match (its ``finish_match``)."""
    with store.blobs.pipeline(transaction=False) as pipe:
        for record, spec, replay in matches:
            done = _finished(record, replay)
            pipe.set(store.key("match", record.id), json.dumps(done.to_json(), separators=(",", ":")))
            pipe.set(store.key("match", record.id, "spec"), json.dumps(spec.to_json(), separators=(",", ":")))
            pipe.set(store.key("match", record.id, "replay"), compress(replay))
            pipe.set(store.key("applied", record.id), "1")
            pipe.zadd(store.key("matches"), {record.id: record.created_ts})
        pipe.execute()


def store_in_files(store: Store, matches: list[tuple[MatchRecord, MatchSpec, Replay]]) -> None:
    store.matches.add([(record, spec) for record, spec, _ in matches])
    for record, _, replay in matches:
        store.matches.start(record.id)
        end = MatchEnd(
            record.id,
            MatchStatus.FINISHED,
            compress(replay),
            len(replay.moves),
            result=replay.result,
            seats=replay.seats,
        )
        assert store.finishing.finish_match(end), record.id


def store_and_archive(store: Store, matches: list[tuple[MatchRecord, MatchSpec, Replay]]) -> None:
    store_in_files(store, matches)
    report = archive_ended(store, 0, now=time.time() + 86_400)
    assert report.archived == len(matches), report


def used_memory(redis: Redis) -> int:
    return int(redis.info("memory")["used_memory"])


def measure(port: int, way: Callable[[Store], None], files_root: Path, count: int) -> float:
    """Bytes of Redis RAM per match that ``way`` stores, on an emptied Redis and an empty directory."""
    redis = Redis(host="127.0.0.1", port=port, decode_responses=True)
    redis.flushall()
    shutil.rmtree(files_root, ignore_errors=True)
    store = Store(redis, Redis(host="127.0.0.1", port=port), PREFIX, DirectoryStore(files_root))
    before = used_memory(redis)
    way(store)
    time.sleep(1)  # Redis shrinks the tables of deleted keys in its background cron: let it
    after = used_memory(redis)
    return (after - before) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--samples", type=int, default=3, help="matches played per game (default 3)")
    args = parser.parse_args()
    if shutil.which("redis-server") is None:
        print("redis-server is not installed: nothing measured", file=sys.stderr)
        return 1
    samples = _play_samples(args.samples)
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="bench-storage-") as scratch:
        server = subprocess.Popen(
            [
                *("redis-server", "--port", str(port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--dir", scratch),
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            redis = Redis(host="127.0.0.1", port=port, decode_responses=True)
            for _ in range(100):
                try:
                    redis.ping()
                    break
                except Exception:
                    time.sleep(0.1)
            files_root = Path(scratch) / "files"
            results: dict[str, list[float]] = {"old": [], "files": [], "archived": []}
            for _ in range(args.runs):
                matches = _matches(samples, args.matches)
                ways: dict[str, Callable[[Store], None]] = {
                    "old": partial(store_old_way, matches=matches),
                    "files": partial(store_in_files, matches=matches),
                    "archived": partial(store_and_archive, matches=matches),
                }
                for name, way in ways.items():
                    results[name].append(measure(port, way, files_root, args.matches))
        finally:
            server.terminate()
            server.wait(10)
    sizes = [len(compress(replay)) for replay in samples]
    print(
        f"{args.matches} finished matches ({len(samples)} played matches of {len(GAMES)} games reused; "
        f"gzip replays {min(sizes)}-{max(sizes)} bytes, mean {statistics.mean(sizes):.0f}), {args.runs} runs"
    )
    print(f"{'layout':<10} {'bytes of Redis RAM per match: min':>34} {'median':>8} {'max':>8}  vs old  goal")
    old = statistics.median(results["old"])
    for name, figures in results.items():
        median = statistics.median(figures)
        goal = f"<= {GOAL_BYTES}: {'met' if median <= GOAL_BYTES else 'missed'}" if name == "archived" else ""
        spread = f"{min(figures):>34.0f} {median:>8.0f} {max(figures):>8.0f}"
        print(f"{name:<10} {spread}  {median / old:>6.2f}  {goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
