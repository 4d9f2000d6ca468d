"""Instructions a move of each engine on the referee path (callgrind), alone or beside another checkout.

The clock benches (``bench_vulkan.py``, ``bench_volcano.py``...) move with the CPU, the interpreter's
build and whatever else runs on the machine, so a change worth a few percent hides in their noise.
callgrind counts the instructions executed, which repeat for the same interpreter, code and seeds,
so two revisions of an engine can be set side by side on any machine, busy or not.

Each move takes the referee's path: the observation of the seat to move, its legal moves, ``apply``
of one of them chosen by a :class:`referee.rng.Rng` seeded with the game's seed. Every variant of each
registered game (``referee.registry``) is played with default options at the most seats it allows
(Vulkan! 4, its solitaire 1; Volcano 3; Catan 4; Boulderville 4), the seat counts of the goals in
``docs/benchmarks.md``.

Each engine plays in a child process under callgrind twice: a warm-up game of every variant alone,
then the warm-up and ``--games`` seeded games of every variant; the difference, over the moves of
those games, is the count a move (the interpreter's start, the imports and what a first game builds
cancel out). The children run with ``PYTHONHASHSEED=0`` and ``PYTHONPATH`` set to the checkout
under test, so ``--against PATH`` plays the same driver on the engines of ``PATH`` (a checkout of
another revision, which is only read). A third child per engine and checkout, not under callgrind,
plays the same games again and hashes the moves chosen and every final state (canonical JSON), so
"the same games" is checked byte for byte without the hashing being counted.

    python bench/engine_instructions.py
    python bench/engine_instructions.py --against /work/baseline
    python bench/engine_instructions.py --game vulkan --game volcano --games 10

Needs valgrind (Debian's package). Under callgrind the engines run about 50 times slower; the
default games (Vulkan! 20 a variant, Volcano 5, Boulderville 5, Catan 1) keep a run to about two
minutes, three to four with ``--against``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import referee
from referee.game import canonical_json
from referee.registry import game_ids as registered_ids
from referee.registry import get_game
from referee.rng import Rng

HERE = Path(__file__).resolve().parent.parent
"""The checkout this script belongs to: the engines counted when ``--against`` is not given."""

WARM_UP_SEED = 10_000
"""The game of every variant played first in every child, so that what a first game builds is not counted."""

DEFAULT_GAMES = {"vulkan": 20, "volcano": 5, "boulderville": 5, "catan-volcano": 1}
"""Seeded games a variant, by engine: a few thousand moves each, a minute or less under callgrind."""

GAMES_OF_A_NEW_ENGINE = 3
"""Seeded games a variant for a registered game not in :data:`DEFAULT_GAMES`."""

_COLLECTED = re.compile(r"Collected : (\d+)")


def play(game_id: str, seeds: range, record: bool) -> dict[str, Any]:
    """Every variant of one game for ``seeds``, the way the runner drives the engine.

    Returns the moves played, the variants with their seats, where ``referee`` was imported from
    and, when ``record``, a digest of the moves chosen and the final states (left out of counted
    runs: hashing would be counted as the engine's work)."""
    game = get_game(game_id)
    digest = hashlib.blake2b(digest_size=16)
    variants = [(spec.name, max(spec.seats)) for spec in game.variants.values()]
    moves = 0
    for variant, seats in variants:
        for seed in seeds:
            state = game.start(variant, seats, seed)
            chooser = Rng(seed)
            while (seat := state.current_seat) is not None:
                state.observation(seat)
                move = chooser.choice(state.legal_moves())
                state.apply(move)
                moves += 1
                if record:
                    digest.update(canonical_json(move).encode())
            if record:
                digest.update(canonical_json(state.to_json()).encode())
    return {
        "moves": moves,
        "variants": [f"{variant} {seats}" for variant, seats in variants],
        "referee": str(Path(referee.__file__).resolve().parent.parent),
        "digest": digest.hexdigest() if record else None,
    }


def child_main(game_id: str, games: int, record: bool) -> None:
    """A child's work: the warm-up game of every variant, then ``games`` seeded games of each."""
    play(game_id, range(WARM_UP_SEED, WARM_UP_SEED + 1), record=False)
    print(json.dumps(play(game_id, range(games), record)))


def run_child(
    game_id: str, games: int, checkout: Path, callgrind_out: str | None
) -> tuple[int, dict[str, Any]]:
    """Run a child on ``checkout``'s engines: under callgrind when ``callgrind_out`` is a file name
    (its instruction count, else 0), and what the child reported."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child", game_id, "--games", str(games)]
    if callgrind_out is None:
        command.append("--record")
    else:
        command[:0] = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={callgrind_out}"]
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(checkout))
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    found = _COLLECTED.search(done.stderr) if callgrind_out else None
    if done.returncode != 0 or (callgrind_out and found is None):
        raise SystemExit(
            f"the {game_id} child on {checkout} failed ({done.returncode}):\n{done.stderr[-2000:]}"
        )
    reported: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(reported["referee"]) != checkout:
        raise SystemExit(f"the {game_id} child imported referee from {reported['referee']}, not {checkout}")
    return (int(found.group(1)) if found else 0), reported


@dataclass
class Count:
    """One engine of one checkout: its instructions over the counted moves, and the games' digest."""

    instructions: int
    moves: int
    variants: list[str]
    digest: str

    @property
    def per_move(self) -> float:
        return self.instructions / self.moves


def count(game_id: str, games: int, checkout: Path) -> Count:
    """Instructions a move of ``game_id`` on ``checkout``: the two counted children's difference."""
    with tempfile.TemporaryDirectory() as workdir:
        alone, _ = run_child(game_id, 0, checkout, os.path.join(workdir, "alone.out"))
        total, played = run_child(game_id, games, checkout, os.path.join(workdir, "games.out"))
    _, recorded = run_child(game_id, games, checkout, None)
    if recorded["moves"] != played["moves"]:
        raise SystemExit(
            f"{game_id} on {checkout}: {played['moves']} moves counted, {recorded['moves']} recorded"
        )
    return Count(total - alone, played["moves"], played["variants"], recorded["digest"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, help="seeded games a variant (default: by engine, see DEFAULT_GAMES)"
    )
    parser.add_argument(
        "--game", action="append", choices=registered_ids(), help="this engine only (repeatable)"
    )
    parser.add_argument(
        "--against", type=Path, help="a checkout of another revision to count the same games on"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--record", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # (0 games: the warm-up alone)
        child_main(args.child, args.games, args.record)
        return
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    checkouts = [HERE] if args.against is None else [HERE, args.against.resolve()]
    game_ids = args.game or registered_ids()

    print("referee path (observation, legal moves, apply of a seeded Rng's choice), default options")
    # the count depends on the interpreter's version and build (not on the CPU or the load)
    print(f"interpreter: {' '.join(sys.version.split())} at {Path(sys.executable).resolve()}")
    print(f"instructions (callgrind) after a warm-up game a variant, PYTHONHASHSEED=0; here: {HERE}")
    if args.against is not None:
        print(f"there: {checkouts[1]}")
    header = f"\n{'engine':<14} {'games':>5} {'moves':>6} {'here k/move':>12}"
    if args.against is not None:
        header += f" {'there k/move':>12} {'here/there':>10} {'same games':>10}"
    print(header + "  variants (seats)")
    for game_id in game_ids:
        games = args.games or DEFAULT_GAMES.get(game_id, GAMES_OF_A_NEW_ENGINE)
        counts = [count(game_id, games, checkout) for checkout in checkouts]
        mine = counts[0]
        line = f"{game_id:<14} {games * len(mine.variants):>5} {mine.moves:>6} {mine.per_move / 1e3:>12.1f}"
        if args.against is not None:
            theirs = counts[1]
            same = mine.digest == theirs.digest and mine.variants == theirs.variants
            ratio = mine.per_move / theirs.per_move
            line += f" {theirs.per_move / 1e3:>12.1f} {ratio:>10.3f} {'yes' if same else 'NO':>10}"
        print(f"{line}  {', '.join(mine.variants)}", flush=True)


if __name__ == "__main__":
    main()
