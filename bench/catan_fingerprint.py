"""A fingerprint of Catan's behaviour: hash every observation, legal-move list and state of many random games.

A change meant only to make the engine faster must leave every game byte for byte as it was. This
script plays seeded random games of every variant, 3 and 4 seats, trades between seats on and off,
and hashes, on every move, the legal moves and the observation of the seat to move (as JSON, key
order included), every few moves the observations of all seats (in a changing order, since the
engine shares parts between the observations of one position) and the state's JSON, and the moves
of a copy of the state played a little way ahead (search bots do that). It prints one digest per
setting and one for the whole: run it on two checkouts and compare.

    python bench/catan_fingerprint.py [--games 120] [--jobs 2]
    PYTHONPATH=<a checkout of main> python bench/catan_fingerprint.py   # the same on main

It times nothing; the digests are all it is for.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import referee
from referee.catan_volcano import GAME
from referee.rng import Rng

SEAT_COUNTS = (3, 4)
TRADES = (False, True)
EVERY = 7
"""All seats' observations and the state's JSON are hashed on every ``EVERY``-th move."""
AHEAD = 40
"""On every ``AHEAD * EVERY``-th move a copy of the state is played this many moves ahead."""


def _dump(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def game_digest(variant: str, seats: int, trades: bool, seed: int) -> str:
    """The hash of one seeded random game on the referee's path, with the extra looks above."""
    board = "random" if seed % 2 else "beginner"
    state = GAME.start(variant, seats, seed=seed, options={"trades": trades, "board": board})
    chooser = Rng(seed)
    digest = hashlib.blake2b(digest_size=16)
    moves = 0
    while state.current_seat is not None:
        seat = state.current_seat
        digest.update(_dump(state.observation(seat)))
        legal = state.legal_moves()
        digest.update(_dump(legal))
        if moves % EVERY == 0:
            for offset in range(seats):
                other = (seat + offset * (moves // EVERY + 1)) % seats
                digest.update(_dump(state.observation(other)))
            digest.update(_dump(state.to_json()))
        if moves % (EVERY * AHEAD) == 0:
            ahead, picker = state.copy(), Rng(seed + moves)
            for _ in range(AHEAD):
                who = ahead.current_seat
                if who is None:
                    break
                digest.update(_dump(ahead.observation(who)))
                ahead.apply(picker.choice(ahead.legal_moves()))
            digest.update(_dump(ahead.to_json()))
        state.apply(chooser.choice(legal))
        moves += 1
    digest.update(_dump(state.to_json()))
    outcome = state.outcome()
    assert outcome is not None
    digest.update(_dump([outcome.reason, list(outcome.places)]))
    return digest.hexdigest()


def setting_digest(setting: tuple[str, int, bool, int]) -> tuple[str, int, bool, str]:
    variant, seats, trades, games = setting
    digest = hashlib.blake2b(digest_size=16)
    for seed in range(games):
        digest.update(game_digest(variant, seats, trades, seed).encode())
    return variant, seats, trades, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120, help="games per variant, seat count and trades")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    args = parser.parse_args()
    settings = [
        (variant, seats, trades, args.games)
        for variant in sorted(GAME.variants)
        for seats in SEAT_COUNTS
        for trades in TRADES
    ]
    whole = hashlib.blake2b(digest_size=16)
    with ProcessPoolExecutor(args.jobs) as pool:
        for variant, seats, trades, digest in pool.map(setting_digest, settings):
            print(f"{variant:<20} {seats} seats trades {'on ' if trades else 'off'}  {digest}")
            whole.update(digest.encode())
    source = Path(referee.__file__).resolve().parent.parent
    print(f"engine at {source}, version {GAME.version}, {args.games} games per setting: {whole.hexdigest()}")


if __name__ == "__main__":
    main()
