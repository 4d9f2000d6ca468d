"""The referee's per-move cost against a bot on loopback, next to plain HTTP calls to the same bot.

Three figures from one run, on the same bot server (the reference bots over HTTP, one thread per
request): a plain ``requests.post`` of each move request to the bot (a new connection each time, as
the referee makes), the engine alone re-playing the same moves, and the whole referee (request
building, signing, the HTTP agent, legality check, replay record). The ratio referee / (plain HTTP +
engine) is the referee's overhead; 1.0 would be none.

    python bench/bench_runner.py [--game vulkan] [--bot random] [--matches 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import requests

from bots.server import serve_in_thread
from referee.agents import HttpAgent
from referee.endpoints import EndpointPolicy
from referee.protocol import SIGNATURE_HEADER, encode, request_base, sign
from referee.registry import get_game
from referee.runner import SeatBot, TimeControl, run_match

SECRET = "bench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="vulkan")
    parser.add_argument("--bot", default="random")
    parser.add_argument("--matches", type=int, default=5)
    args = parser.parse_args()

    game = get_game(args.game)
    variant = game.variant(game.default_variant)
    seats = variant.seats[-1]
    path = f"{args.game}/{args.bot}"
    server, base_url = serve_in_thread(secrets={path: SECRET})
    url = f"{base_url}/{path}"
    policy = EndpointPolicy.from_text("127.0.0.0/8")
    try:
        referee_s, moves_total, replays = 0.0, 0, []
        for index in range(args.matches):
            players = [SeatBot(f"b{s}", args.bot, HttpAgent(url, SECRET, policy)) for s in range(seats)]
            started = time.perf_counter()
            replay = run_match(
                match_id=f"bench-{index}",
                game_id=args.game,
                variant=variant.name,
                seats=players,
                seed=index,
                time=TimeControl(move_ms=5000),
            )
            referee_s += time.perf_counter() - started
            moves_total += len(replay["moves"])
            replays.append(replay)

        engine_s, http_s, http_calls = 0.0, 0.0, 0
        session_less_post = requests.post
        for index, replay in enumerate(replays):
            state = game.start(variant.name, seats=seats, seed=index)
            for record in replay["moves"]:
                seat = record["seat"]
                message = request_base(
                    kind="move",
                    match_id=f"plain-{index}",
                    game=args.game,
                    variant=variant.name,
                    seat=seat,
                    seats=seats,
                    turn=record["turn"],
                    time={"move_ms": 5000, "bank_ms": 0},
                    observation=state.observation(seat),
                )
                message["legal_moves"] = state.legal_moves()
                body = encode(message)
                started = time.perf_counter()
                session_less_post(url, data=body, headers={SIGNATURE_HEADER: sign(SECRET, body)}, timeout=5)
                http_s += time.perf_counter() - started
                http_calls += 1
                started = time.perf_counter()
                state.apply(record["move"])
                engine_s += time.perf_counter() - started
    finally:
        server.shutdown()

    referee_ms = 1000 * referee_s / moves_total
    http_ms = 1000 * http_s / http_calls
    engine_ms = 1000 * engine_s / moves_total
    faults = sum(1 for r in replays for m in r["moves"] if m["fault"])
    think = statistics.median(m["think_ms"] for r in replays for m in r["moves"])
    print(f"game {args.game}/{variant.name}, {seats} seats, bot {args.bot} over loopback HTTP")
    print(f"matches {args.matches}, moves {moves_total}, faults {faults}")
    print(f"plain HTTP call per move       {http_ms:8.3f} ms")
    print(f"engine apply per move          {engine_ms:8.3f} ms")
    print(f"referee per move (everything)  {referee_ms:8.3f} ms   (median think time {think:.3f} ms)")
    print(f"ratio referee / plain HTTP      {referee_ms / http_ms:8.2f}")
    print(f"ratio referee / (HTTP + engine) {referee_ms / (http_ms + engine_ms):8.2f}")
    # the referee also sends a start and an end notice to every seat: more calls than moves
    calls = moves_total + 2 * seats * args.matches
    per_call = referee_s * 1000 / calls
    print(
        f"referee per HTTP call (notices included) {per_call:.3f} ms, "
        f"ratio to plain HTTP {per_call / http_ms:.2f}"
    )


if __name__ == "__main__":
    main()
