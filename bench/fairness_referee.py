"""The fairness benchmark's referee: one gevent process keeping N matches in flight against one bot.

``python -m bench.fairness_referee URL SECRET --load N --seconds S [--move-ms 150] [--burn-us 150]
[--timing arrival|read] [--turn-limit 20]``; prints one JSON object. Not a
benchmark itself (``bench/bench_fairness.py`` runs it).

Each of N greenlets plays two-seat Volcano matches against the bot at URL back to back, with one
``HttpAgent`` a seat built for every match, as a worker does, until ``--seconds`` (after a warm-up)
have passed; then each match ends at its next move (``run_match``'s ``should_stop``). Before every
move the process burns ``--burn-us`` of CPU: the work a worker does beside the exchange and the
engine (storage, Celery, replays), so that a move costs it about what it costs a worker.

For every move answered in the measured window it keeps what the replay records (``think_ms``,
the fault), the bot's own think time (the ``own_us`` its answer's log carries, see
:mod:`bench.stamped_bot`) and the old timing of the same exchange: ``time.perf_counter()`` around
the agent's ``ask``, which ends when the answer was read. ``--timing read`` turns the kernel's
arrival times off (:data:`referee.transport.sockets.KERNEL_ARRIVAL_TIMES`), so the referee itself
times and judges by the read, as before they were kept.
"""

from __future__ import annotations

if __name__ == "__main__":
    from gevent import monkey  # patched first, as arena.cli.gevent_worker does

    monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

WARM_UP_S = 3.0
"""Left out of the figures: every match opens its connections at once first."""


def percentile(values: list[float], share: float) -> float:
    """The value ``share`` of the way up the sorted values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def summary(thinks: list[float], own: list[float], move_ms: int, timeouts: int | None) -> dict[str, Any]:
    """Think times against the bot's own (ms): p50, p99 and max of the difference, how many exceed
    the move's time, and the timeouts counted (None: not known for this timing)."""
    differences = [think - mine for think, mine in zip(thinks, own, strict=True)] or [0.0]
    return {
        "p50": statistics.median(differences),
        "p99": percentile(differences, 0.99),
        "max": max(differences),
        "over": sum(1 for think in thinks if think > move_ms),
        "timeouts": timeouts,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("secret")
    parser.add_argument("--load", type=int, required=True, help="matches in flight")
    parser.add_argument("--seconds", type=float, required=True, help="measured time, after the warm-up")
    parser.add_argument("--move-ms", type=int, default=150)
    parser.add_argument("--burn-us", type=float, default=150.0, help="CPU burnt before every move")
    parser.add_argument("--timing", choices=("arrival", "read"), default="arrival")
    parser.add_argument("--turn-limit", type=int, default=20)
    args = parser.parse_args()

    import gevent

    from referee.match import MatchSpec, TimeControl
    from referee.protocol import Fault
    from referee.registry import get_game
    from referee.replay import MoveRecord
    from referee.runner import Player, run_match
    from referee.transport import sockets
    from referee.transport.agents import HttpAgent, Reply
    from referee.transport.endpoints import EndpointPolicy

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # two sockets a match in flight
    sockets.KERNEL_ARRIVAL_TIMES = args.timing == "arrival"
    policy = EndpointPolicy.from_text("127.0.0.0/8")
    variant = get_game("volcano").default_variant
    burn_s = args.burn_us / 1e6

    begun = time.perf_counter()
    window_start = begun + WARM_UP_S
    stop = window_start + args.seconds
    # per move answered in the window: recorded think, the bot's own, the old timing (ms); faults
    recorded: list[float] = []
    own: list[float] = []
    old: list[float] = []
    faults: dict[str, int] = {}
    moves_in_window = 0

    class Timed:
        """An agent that burns the worker's other work before each move and times the exchange
        as the referee used to: perf_counter around ``ask``."""

        def __init__(self, agent: HttpAgent) -> None:
            self.agent = agent
            self.last_ms = 0.0

        def ask(self, request: dict[str, Any], timeout_s: float) -> Reply:
            until = time.perf_counter() + burn_s
            while time.perf_counter() < until:
                pass
            started = time.perf_counter()
            reply = self.agent.ask(request, timeout_s)
            self.last_ms = (time.perf_counter() - started) * 1000.0
            return reply

        def notify(self, request: dict[str, Any], timeout_s: float) -> None:
            self.agent.notify(request, timeout_s)

    def play(index: int) -> None:
        seed = index
        while time.perf_counter() < stop:
            seats = [Timed(HttpAgent(args.url, args.secret, policy)) for _ in range(2)]
            spec = MatchSpec.build(
                game="volcano",
                variant=variant,
                bots=["a", "b"],
                seed=seed,
                options={"turn_limit": args.turn_limit},
                time=TimeControl(move_ms=args.move_ms),
            )

            def on_move(record: MoveRecord, seats: list[Timed] = seats) -> None:
                nonlocal moves_in_window
                now = time.perf_counter()
                if not window_start <= now < stop:
                    return
                moves_in_window += 1
                if record.fault is not None:
                    faults[record.fault.value] = faults.get(record.fault.value, 0) + 1
                log = record.log or ""
                if record.fault is Fault.FORFEITED or not log.startswith("own_us="):
                    return  # no answer came, or none in time
                recorded.append(record.think_ms)
                own.append(int(log.removeprefix("own_us=")) / 1000.0)
                old.append(seats[record.seat].last_ms)

            try:
                run_match(
                    f"fair-{index}-{seed}",
                    spec,
                    [Player(name, agent) for name, agent in zip("ab", seats, strict=True)],
                    on_move=on_move,
                    should_stop=lambda: time.perf_counter() >= stop,
                )
            finally:
                for seat in seats:
                    seat.agent.close()
            seed += args.load

    cpu_at: dict[str, float] = {}

    def mark(name: str, at: float) -> None:
        gevent.sleep(max(0.0, at - time.perf_counter()))
        cpu_at[name] = time.process_time()

    marks = [gevent.spawn(mark, "start", window_start), gevent.spawn(mark, "stop", stop)]
    gevent.joinall([gevent.spawn(play, index) for index in range(args.load)] + marks)
    cpu_s = cpu_at["stop"] - cpu_at["start"]
    print(
        json.dumps(
            {
                "load": args.load,
                "timing": args.timing,
                "moves": moves_in_window,
                "moves_s": moves_in_window / args.seconds,
                "cpu_ms_per_move": 1000.0 * cpu_s / max(1, moves_in_window),
                "cpu_share": cpu_s / args.seconds,
                "own_p50": statistics.median(own) if own else 0.0,
                "own_p99": percentile(own, 0.99) if own else 0.0,
                # what the replay records, and its timeout faults
                "recorded": summary(recorded, own, args.move_ms, faults.get(Fault.TIMEOUT.value, 0)),
                # the same answers timed to their reading; which of them the referee would have
                # cut is not known (gevent hands a ready socket over before its timer)
                "read": summary(old, own, args.move_ms, None),
                "faults": faults,
            }
        )
    )


if __name__ == "__main__":
    main()
