"""The replay format ``arena-replay/1`` and the check that a replay re-plays to what it says.

A replay is everything needed to play a match again without its bots: game, variant, engine
version, seed, options and setup, the seats, the time control, the initial state, every move with
its seat, source (``bot`` or ``fallback``), fault and think time, and the result. ``docs/replay.md``
describes each field.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from typing import Any

from referee.game import IllegalMove, Outcome, SetupError, canonical_json
from referee.registry import get_game

REPLAY_FORMAT = "arena-replay/1"
RESULT_FIELDS = ("places", "scores", "reason", "team_won", "details", "forfeited")


def result_with_forfeits(outcome: Outcome, forfeited: Sequence[int]) -> dict[str, Any]:
    """The match result: the engine's outcome with forfeited seats ranked last (sharing that place).

    The other seats keep their order among themselves.

    >>> result_with_forfeits(Outcome((1, 2, 3), (9, 5, 1), "end"), [0])["places"]
    [3, 1, 2]
    """
    gone = set(forfeited)
    standing = [seat for seat in range(len(outcome.places)) if seat not in gone]
    places = list(outcome.places)
    for seat in standing:
        places[seat] = 1 + sum(1 for other in standing if outcome.places[other] < outcome.places[seat])
    for seat in gone:
        places[seat] = len(standing) + 1
    result = outcome.to_json()
    result["places"] = places
    result["forfeited"] = sorted(gone)
    return result


def compress(replay: dict[str, Any]) -> bytes:
    """Gzip of the compact JSON: replays of long games shrink about tenfold."""
    return gzip.compress(json.dumps(replay, separators=(",", ":")).encode(), compresslevel=6)


def decompress(data: bytes) -> dict[str, Any]:
    return json.loads(gzip.decompress(data))


def verify_replay(replay: dict[str, Any]) -> list[str]:
    """Re-play a replay through the engine; return what does not match (empty when all does).

    Checks the format and engine version, that the seed, options and setup give the recorded initial
    state, that each move was the recorded seat's to make and legal, and that the result (with the
    recorded forfeits) is the one the engine reaches.
    """
    problems: list[str] = []
    if replay.get("format") != REPLAY_FORMAT:
        return [f"format is {replay.get('format')!r}, expected {REPLAY_FORMAT!r}"]
    try:
        game = get_game(replay["game"])
        seats = len(replay["seats"])
        state = game.new_state(
            replay["variant"],
            seats=seats,
            seed=replay["seed"],
            options=replay.get("options"),
            setup=replay.get("setup"),
        )
    except (KeyError, TypeError) as error:
        return [f"replay lacks a field: {error}"]
    except SetupError as error:
        return [f"the replay's game cannot be set up: {error}"]
    if replay.get("engine_version") != game.version:
        problems.append(f"made with {game.id} engine {replay.get('engine_version')}, this is {game.version}")
    recorded_initial = replay.get("initial_state")
    if recorded_initial is not None and canonical_json(state.to_json()) != canonical_json(recorded_initial):
        return [*problems, "initial state differs from the one the seed, options and setup give"]
    for index, record in enumerate(replay.get("moves", [])):
        where = f"move {index} (seat {record.get('seat')})"
        if state.outcome() is not None:
            return [*problems, f"{where}: the game was already over"]
        if record.get("seat") != state.current_seat:
            return [*problems, f"{where}: the engine has seat {state.current_seat} to move"]
        try:
            state.apply(record["move"])
        except IllegalMove:
            return [*problems, f"{where}: illegal move {canonical_json(record.get('move'))}"]
    outcome = state.outcome()
    if outcome is None:
        return [*problems, f"after {len(replay.get('moves', []))} moves the game is not over"]
    recorded = replay.get("result") or {}
    expected = result_with_forfeits(outcome, recorded.get("forfeited", []))
    for name in RESULT_FIELDS:
        if canonical_json(expected.get(name)) != canonical_json(recorded.get(name)):
            problems.append(
                f"result.{name}: replay says {canonical_json(recorded.get(name))}, "
                f"the engine gives {canonical_json(expected.get(name))}"
            )
    return problems
