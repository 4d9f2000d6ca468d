"""``arena play`` and ``arena replay verify``: a whole match in-process, no server, no queue.

Bot authors use it to test an endpoint against the reference bots before registering it; the
replay it writes is the same ``arena-replay/1`` document the platform stores.
"""

from __future__ import annotations

import gzip
import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bots.registry import UnknownBot, make_bot
from referee.agents import HttpAgent, LocalAgent
from referee.endpoints import EndpointPolicy
from referee.game import JSON, SetupError
from referee.match import MatchSpec, TimeControl
from referee.replay import Replay, verify_replay
from referee.rng import derive_seed
from referee.runner import Player, run_match

LOCAL_POLICY = EndpointPolicy.from_text("0.0.0.0/0,::/0")
"""Local play calls whatever the user names, their own machine included: it runs on their behalf."""


class UsageError(ValueError):
    """Bad command-line input; the CLI prints it and exits 2."""


@dataclass(frozen=True)
class LocalMatch:
    game_id: str
    variant: str | None
    bots: list[str]
    seed: int
    options: dict[str, JSON]
    setup: dict[str, JSON] | None
    time: TimeControl
    max_faults: int
    secret: str


def parse_option(text: str) -> tuple[str, JSON]:
    """``name=value``; the value is read as JSON when it parses (``true``, ``3``), else as a string."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise UsageError(f"--option takes name=value, not {text!r}")
    try:
        return name, json.loads(raw)
    except ValueError:
        return name, raw


def load_json_file(path: str, what: str) -> Any:
    try:
        raw = Path(path).read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        return json.loads(raw)
    except OSError as error:
        raise UsageError(f"cannot read {what} {path}: {error.strerror or error}") from None
    except ValueError as error:
        raise UsageError(f"{what} {path} is not JSON: {error}") from None


def player(match: LocalMatch, seat: int, spec: str) -> Player:
    if spec.startswith(("http://", "https://")):
        return Player(spec, HttpAgent(spec, match.secret, LOCAL_POLICY))
    try:
        bot = make_bot(match.game_id, spec, derive_seed(match.seed, "seat", seat, spec))
    except UnknownBot as error:
        raise UsageError(f"{error}, or give an http(s) URL") from None
    return Player(spec, LocalAgent(bot))


def play(match: LocalMatch) -> Replay:
    """Play the match; returns the replay. Raises :class:`UsageError` or :class:`SetupError`."""
    spec = MatchSpec.build(
        game=match.game_id,
        variant=match.variant,
        bots=match.bots,
        seed=match.seed,
        options=match.options,
        setup=match.setup,
        time=match.time,
        max_faults=match.max_faults,
    )
    players = [player(match, seat, name) for seat, name in enumerate(match.bots)]
    return run_match(f"local-{uuid.uuid4().hex[:12]}", spec, players)


def format_result(replay: Replay) -> str:
    result = replay.result
    spec = replay.spec
    lines = [
        f"{spec.game} / {spec.variant}, seed {spec.seed}: {len(replay.moves)} moves, ended: {result.reason}"
    ]
    if result.team_won is not None:
        lines.append("team " + ("won" if result.team_won else "lost"))
    lines.append(f"{'seat':>4}  {'place':>5}  {'score':>7}  {'faults':>6}  bot")
    for seat in replay.seats:
        index = seat.seat
        flag = "  (forfeited)" if seat.forfeited else ""
        lines.append(
            f"{index:>4}  {result.places[index]:>5}  {result.scores[index]:>7g}  "
            f"{seat.fault_count:>6}  {seat.name}{flag}"
        )
    return "\n".join(lines)


def verify_file(path: str) -> tuple[list[str], dict[str, Any]]:
    replay = load_json_file(path, "replay")
    if not isinstance(replay, dict):
        raise UsageError(f"replay {path} is not a JSON object")
    return verify_replay(replay), replay


__all__ = ["LocalMatch", "SetupError", "UsageError", "format_result", "parse_option", "play", "verify_file"]
