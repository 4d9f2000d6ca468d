"""A fingerprint of Catan's behaviour: hash every observation, legal-move list and state of many random games.

A change meant only to make the engine faster must leave every game byte for byte as it was. This
script plays seeded random games of every variant, 3 and 4 seats, trades between seats on and off,
and hashes, on every move, the legal moves and the observation of the seat to move (as JSON, key
order included), every few moves the observations of all seats (in a changing order, since the
engine shares parts between the observations of one position) and the state's JSON, and the moves
of a copy of the state and of a world drawn from the observation (search bots do both) played a
little way ahead. It prints one digest per setting and one for the whole: run it on two checkouts
and compare.

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
from referee.catan_volcano import GAME, CatanState
from referee.catan_volcano.determinize import InconsistentObservation, from_observation
from referee.rng import Rng

SEAT_COUNTS = (3, 4)
TRADES = (False, True)
EVERY = 7
"""All seats' observations and the state's JSON are hashed on every ``EVERY``-th move."""
AHEAD = 40
"""On every ``AHEAD * EVERY``-th move a copy of the state is played this many moves ahead."""


def _dump(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def _ahead(state: CatanState, picker: Rng) -> bytes:
    """A few random moves ahead of ``state`` (a copy, or a world drawn from an observation, as the
    search bot plays them), as bytes: each observation and legal list, then the state; an error
    (a drawn world need not be consistent with every rule) ends it and is part of the result."""
    seen = hashlib.blake2b(digest_size=16)
    try:
        for _ in range(AHEAD):
            who = state.current_seat
            if who is None:
                break
            seen.update(_dump(state.observation(who)))
            legal = state.legal_moves()
            seen.update(_dump(legal))
            state.apply(picker.choice(legal))
        seen.update(_dump(state.to_json()))
    except Exception as error:  # the same error on both checkouts is the same game
        seen.update(f"{type(error).__name__}: {error}".encode())
    return seen.digest()


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
            digest.update(_ahead(state.copy(), Rng(seed + moves)))
            try:
                world = from_observation(state.observation(seat), Rng(seed + moves))
            except InconsistentObservation as refused:
                digest.update(str(refused).encode())
            else:
                digest.update(_ahead(world, Rng(seed + moves + 1)))
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
