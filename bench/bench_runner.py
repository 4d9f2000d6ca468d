"""Moves per second of the referee over HTTP, next to plain ``http.client`` calls to the same bot.

The bot plays the first legal move, behind the bot SDK's server, in a process of its own
(``bench/first_legal_bot.py``), so the referee does not share its interpreter with the bot. Two
ways of playing the same matches against it are timed, interleaved and repeated:

- ``referee``: ``referee.runner.run_match`` with one ``HttpAgent`` per seat, the agents built
  inside the timing (as a worker builds them for every match): the engine, request building,
  encoding, signing, the HTTP exchange, the answer check and the replay record;
- ``http.client``: the very same request bytes (recorded beforehand from the same matches: start
  notices, moves, end notices, in the same order), each signed inside the timing and sent with
  plain ``http.client`` over one persistent connection per seat, the answer read and not looked at.

A third timing, ``engine``, re-plays the same matches on the engine alone (the calls the runner
makes: the first state, then per move the legal moves, the observation, the move and the outcome,
and the observations of the notices); it is work the plain calls do not do, and it is not the
transport's.

The three are interleaved match by match (the order turned round at every match) and repeated
``--runs`` times; one untimed match of each kind warms both sides up first. Each figure is moves
per second over all the matches of one run. The ratio is referee / http.client within the same
run (1.0 would mean the referee costs nothing beyond the calls; the goal is at least 0.9). The
last line is (http.client time + engine time) / referee time within the same run: 1.0 would mean
the referee costs nothing beyond the calls and its engine.

    python bench/bench_runner.py [--runs 5] [--vulkan-matches 30] [--volcano-matches 15]
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from referee.match import MatchSpec, TimeControl
from referee.protocol import SIGNATURE_HEADER, encode, sign
from referee.registry import get_game
from referee.runner import Player, run_match
from referee.transport.agents import USER_AGENT, HttpAgent, Reply
from referee.transport.endpoints import EndpointPolicy

SECRET = "bench-secret"
LOOPBACK = EndpointPolicy.from_text("127.0.0.0/8")
GOAL = 0.9
BOT_SERVER = Path(__file__).with_name("first_legal_bot.py")


@dataclass(frozen=True)
class Scenario:
    game: str
    variant: str
    seats: int
    matches: int

    @property
    def label(self) -> str:
        return f"{self.game}/{self.variant}, {self.seats} seats"

    def specs(self) -> list[MatchSpec]:
        return [
            MatchSpec.build(
                game=self.game,
                variant=self.variant,
                bots=[f"bot-{seat}" for seat in range(self.seats)],
                seed=seed,
                time=TimeControl(move_ms=5000),
            )
            for seed in range(self.matches)
        ]


class _Recorder:
    """Plays the first legal move in-process and keeps the bytes of every request, per seat."""

    def __init__(self, seat: int, sent: list[tuple[int, bytes]]) -> None:
        self.seat = seat
        self.sent = sent

    def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
        self.sent.append((self.seat, encode(request)))
        return Reply(request["legal_moves"][0], 0.0)

    def notify(self, request: dict[str, Any], timeout_s: float) -> None:
        self.sent.append((self.seat, encode(request)))


def _match_id(index: int) -> str:
    return f"bench-{index}"


def record(scenario: Scenario) -> tuple[list[list[tuple[int, bytes]]], list[list[Any]]]:
    """Every match's requests in the order the referee sends them, and every match's moves."""
    requests, moves = [], []
    for index, spec in enumerate(scenario.specs()):
        sent: list[tuple[int, bytes]] = []
        players = [Player(f"bot-{seat}", _Recorder(seat, sent)) for seat in range(scenario.seats)]
        replay = run_match(_match_id(index), spec, players)
        requests.append(sent)
        moves.append([record.move for record in replay.moves])
    return requests, moves


def time_referee(scenario: Scenario, spec: MatchSpec, index: int, url: str, expected: list[Any]) -> float:
    """Seconds the referee takes to play one match; checks it is the recorded one, without faults."""
    started = time.perf_counter()
    players = [Player(f"bot-{seat}", HttpAgent(url, SECRET, LOOPBACK)) for seat in range(scenario.seats)]
    replay = run_match(_match_id(index), spec, players)
    elapsed = time.perf_counter() - started
    faults = sum(1 for record in replay.moves if record.fault is not None)
    if faults or [record.move for record in replay.moves] != expected:
        sys.exit(f"{scenario.label}: match {index} is not the recorded one ({faults} faults)")
    return elapsed


def time_plain(requests: list[tuple[int, bytes]], url: str, seats: int) -> float:
    """Seconds plain http.client calls take to send one match's recorded bytes, one connection a seat."""
    parts = urlsplit(url)
    host, port, path = parts.hostname or "127.0.0.1", parts.port, parts.path
    started = time.perf_counter()
    connections = [http.client.HTTPConnection(host, port, timeout=5) for _ in range(seats)]
    for seat, body in requests:
        headers = {
            "User-Agent": USER_AGENT,
            "Content-Type": "application/json",
            "Accept": "application/json",
            SIGNATURE_HEADER: sign(SECRET, body),
        }
        connection = connections[seat]
        connection.request("POST", path, body, headers)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            sys.exit(f"plain call answered with HTTP status {response.status}")
    for connection in connections:
        connection.close()
    return time.perf_counter() - started


def time_engine(scenario: Scenario, spec: MatchSpec, played: list[Any]) -> float:
    """Seconds the engine alone takes for the runner's calls on one match's recorded moves."""
    game = get_game(scenario.game)
    started = time.perf_counter()
    state = game.new_state(spec.config)
    state.to_json()
    for seat in range(scenario.seats):
        state.observation(seat)  # the start notices
    for move in played:
        seat = state.current_seat
        state.legal_moves()
        state.observation(seat)
        state.apply(move)
        state.outcome()
    for seat in range(scenario.seats):
        state.observation(seat)  # the end notices
    return time.perf_counter() - started


def _spread(values: list[float], form: str) -> str:
    return "  ".join(format(v, form) for v in (min(values), statistics.median(values), max(values)))


def bench(scenario: Scenario, url: str, runs: int) -> None:
    specs = scenario.specs()
    requests, moves = record(scenario)
    total_moves = sum(len(match) for match in moves)
    time_referee(scenario, specs[0], 0, url, moves[0])  # warm-up, untimed
    time_plain(requests[0], url, scenario.seats)
    timings: dict[str, Callable[[int], float]] = {
        "referee": lambda i: time_referee(scenario, specs[i], i, url, moves[i]),
        "http.client": lambda i: time_plain(requests[i], url, scenario.seats),
        "engine": lambda i: time_engine(scenario, specs[i], moves[i]),
    }
    measured: dict[str, list[float]] = {name: [] for name in timings}
    for run in range(runs):
        # interleaved match by match, the order turned round every match, so that load from
        # elsewhere on the machine falls on every side alike
        seconds = dict.fromkeys(timings, 0.0)
        for index in range(scenario.matches):
            names = list(timings) if (run + index) % 2 == 0 else list(reversed(timings))
            for name in names:
                seconds[name] += timings[name](index)
        for name in timings:
            measured[name].append(total_moves / seconds[name])
    ratios = [r / p for r, p in zip(measured["referee"], measured["http.client"], strict=True)]
    beyond = [
        (1 / p + 1 / e) * r
        for r, p, e in zip(measured["referee"], measured["http.client"], measured["engine"], strict=True)
    ]
    calls = sum(len(match) for match in requests)
    print(f"{scenario.label}: {scenario.matches} matches, {total_moves} moves ({calls} calls) per run")
    print(f"  {'moves/s':<26}{'min':>9}  {'median':>9}  {'max':>9}")
    for name, values in measured.items():
        print(f"  {name:<26}{_spread(values, '9.0f')}")
    print(f"  {'ratio referee/http.client':<26}{_spread(ratios, '9.2f')}   goal >= {GOAL:.2f}")
    print(f"  {'ratio referee/(http+engine)':<26}{_spread(beyond, '9.2f')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="interleaved runs per game (at least 3)")
    parser.add_argument("--vulkan-matches", type=int, default=30, help="4-seat Vulkan! matches a run")
    parser.add_argument("--volcano-matches", type=int, default=15, help="3-seat Volcano matches a run")
    args = parser.parse_args()
    if args.runs < 3:
        parser.error("--runs must be at least 3")
    if args.vulkan_matches < 1 or args.volcano_matches < 1:
        parser.error("the match counts must be at least 1")
    scenarios = [
        Scenario("vulkan", "competitive", 4, args.vulkan_matches),
        Scenario("volcano", get_game("volcano").default_variant, 3, args.volcano_matches),
    ]
    bot = subprocess.Popen(
        [sys.executable, str(BOT_SERVER), "--secret", SECRET],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert bot.stdout is not None
        url = bot.stdout.readline().strip()
        if not url:
            sys.exit("the bot server did not start")
        print(f"bot: first legal move, bot SDK server in process {bot.pid}; {args.runs} interleaved runs")
        for scenario in scenarios:
            bench(scenario, f"{url}/", args.runs)
    finally:
        assert bot.stdin is not None
        bot.stdin.close()
        bot.wait(timeout=10)


if __name__ == "__main__":
    main()
