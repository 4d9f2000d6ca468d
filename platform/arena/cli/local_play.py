"""``arena play`` and ``arena replay verify``: whole matches in-process, no server, no queue.

Bot authors use it to test a bot (an endpoint, a Python file, a module's function) against the
reference bots before registering it: one game, or many with win rates, and each seat's first fault
explained. The replay it writes is the same ``arena-replay/1`` document the platform stores.
"""

from __future__ import annotations

import gzip
import importlib
import importlib.util
import inspect
import json
import os
import sys
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any, cast
from urllib.parse import urlsplit

from arena.cli.tally import DRAW_SCORE, FirstFault, Record, rotation, seat_outcome, tally
from bots import registry as bot_registry
from referee.bot import Bot, Request
from referee.game import JSON, SetupError
from referee.match import MatchSpec, TimeControl
from referee.notation import CUT_MARK, MOVE_JSON_LIMIT
from referee.protocol import PROTOCOL_VERSION, Fault
from referee.replay import MoveRecord, Replay, sent_words, verify_replay
from referee.rng import derive_seed
from referee.runner import Player, run_match
from referee.transport.agents import HttpAgent, LocalAgent
from referee.transport.endpoints import EndpointPolicy

LOCAL_POLICY = EndpointPolicy.from_text("0.0.0.0/0,::/0")
"""Local play calls whatever the user names, their own machine included: it runs on their behalf."""

DEFAULT_SECRET = "local"
"""What ``arena play`` signs URL bots' requests with unless ``--secret`` says otherwise."""


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
    secret: str = DEFAULT_SECRET
    protocol: int = PROTOCOL_VERSION
    """The protocol version URL bots are spoken to (in-process bots always get the legal moves)."""
    rotate: bool = True
    """Whether game ``g`` seats the bots rotated by ``g`` (:func:`arena.cli.tally.rotation`), so
    that seat advantage evens out over the games; False keeps the order given in every game."""


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


# --- which bot plays a seat -------------------------------------------------------------------

BOT_NAMES_IN_FILES = ("Bot", "choose")
"""What ``arena play`` looks for in a ``file.py`` bot, in this order: ``Bot``, a class or factory
called once per game and seat (with that seat's seed when it takes an argument) and returning an
object with ``choose(request)``; else ``choose(request)``, a function returning one of the
request's ``legal_moves``."""


class _FunctionBot:
    def __init__(self, choose: Callable[[Request], Any]) -> None:
        self.choose = choose


def _bot_maker(target: object, where: str, is_factory: bool) -> Callable[[int], Bot]:
    """Seed -> a fresh bot, from a loaded object: a class or factory, or a choose function."""
    if not callable(target):
        raise UsageError(f"{where} is not callable")
    if is_factory:
        try:
            takes_seed = len(inspect.signature(target).parameters) > 0
        except (TypeError, ValueError):
            takes_seed = True
        maker = cast(Callable[..., Bot], target)

        def make(seed: int) -> Bot:
            try:
                return maker(seed) if takes_seed else maker()
            except Exception as error:  # the author's constructor: one line, never a traceback
                call = f"{where}({'seed' if takes_seed else ''})"
                raise UsageError(f"{call} raised {type(error).__name__}: {error}") from None

        make(0)  # a constructor that cannot work is said before any game starts
        return make
    function = cast(Callable[[Request], Any], target)
    return lambda _seed: cast(Bot, _FunctionBot(function))


def _load_file(path: str) -> ModuleType:
    file = Path(path)
    if not file.is_file():
        raise UsageError(f"no bot file {path}")
    spec = importlib.util.spec_from_file_location(f"arena_play_bot_{uuid.uuid4().hex[:8]}", file)
    if spec is None or spec.loader is None:
        raise UsageError(f"cannot load {path} as Python")
    module = importlib.util.module_from_spec(spec)
    folder = str(file.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # so the bot's own helper modules beside it import
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # the author's code: one line, never a traceback
        raise UsageError(f"cannot load {path}: {type(error).__name__}: {error}") from None
    return module


def _load_attribute(text: str) -> object:
    module_name, _, attribute = text.partition(":")
    if not module_name or not attribute:
        raise UsageError(f"{text!r}: give module:function")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # the author's own modules, as `python -c` would find them
    try:
        module = importlib.import_module(module_name)
    except Exception as error:
        raise UsageError(f"cannot import {module_name}: {type(error).__name__}: {error}") from None
    target: object = module
    for part in attribute.split("."):
        if not hasattr(target, part):
            raise UsageError(f"module {module_name} has no {attribute!r}")
        target = getattr(target, part)
    return target


@dataclass(frozen=True)
class BotSource:
    """One seat's bot as named on the command line: resolved once, made afresh for every game."""

    name: str
    make: Callable[[int], Bot] | None = None
    """Seed -> an in-process bot; None for a URL."""

    def player(self, match: LocalMatch, seat: int, game_seed: int) -> Player:
        if self.make is None:
            return Player(self.name, HttpAgent(self.name, match.secret, LOCAL_POLICY), match.protocol)
        return Player(self.name, LocalAgent(self.make(derive_seed(game_seed, "seat", seat, self.name))))


def _checked_url(url: str) -> str:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (reading it checks it)
    except ValueError as error:
        raise UsageError(f"{url!r} is not a valid URL: {error}") from None
    if not parts.hostname:
        raise UsageError(f"{url!r} has no host: give http://HOST:PORT/PATH")
    return url


def resolve_bot(game_id: str, spec: str) -> BotSource:
    """An http(s) URL, ``path/to/file.py``, ``module:function`` (a class there is a bot class) or a
    reference bot's name."""
    if spec.startswith(("http://", "https://")):
        return BotSource(_checked_url(spec))
    if spec.endswith(".py"):
        module = _load_file(spec)
        for attribute in BOT_NAMES_IN_FILES:
            if hasattr(module, attribute):
                target = getattr(module, attribute)
                return BotSource(spec, _bot_maker(target, f"{spec}:{attribute}", attribute == "Bot"))
        raise UsageError(f"{spec} defines neither {' nor '.join(BOT_NAMES_IN_FILES)}")
    if ":" in spec:
        target = _load_attribute(spec)
        return BotSource(spec, _bot_maker(target, spec, isinstance(target, type)))
    factories = bot_registry.bots_for(game_id)
    if spec not in factories:
        known = ", ".join(sorted(factories)) or "none"
        raise UsageError(
            f"no reference bot {spec!r} for {game_id} (reference bots: {known}), "
            "or give an http(s) URL, a file.py or module:function"
        )
    factory = factories[spec]
    return BotSource(spec, lambda seed: factory(seed))


# --- playing ----------------------------------------------------------------------------------


def game_seeds(seed: int, games: int) -> list[int]:
    """The first game plays ``seed`` itself (so ``--seed`` alone replays it), the others seeds
    derived from it; every game's seed is printed with its first fault."""
    return [seed if index == 0 else derive_seed(seed, "game", index) for index in range(games)]


def _spec(match: LocalMatch, seed: int) -> MatchSpec:
    return MatchSpec.build(
        game=match.game_id,
        variant=match.variant,
        bots=match.bots,
        seed=seed,
        options=match.options,
        setup=match.setup,
        time=match.time,
        max_faults=match.max_faults,
    )


def play(
    match: LocalMatch,
    sources: Sequence[BotSource] | None = None,
    on_move: Callable[[MoveRecord], None] | None = None,
) -> Replay:
    """Play one match from ``match.seed``; returns the replay. Raises :class:`UsageError` or
    :class:`SetupError`."""
    spec = _spec(match, match.seed)
    if sources is None:
        sources = [resolve_bot(match.game_id, name) for name in match.bots]
    players = [source.player(match, seat, match.seed) for seat, source in enumerate(sources)]
    return run_match(f"local-{uuid.uuid4().hex[:12]}", spec, players, on_move)


def play_games(
    match: LocalMatch,
    games: int,
    on_move: Callable[[int, MoveRecord], None] | None = None,
    on_game: Callable[[int, Replay], None] | None = None,
) -> list[Replay]:
    """``games`` games from :func:`game_seeds`, one after the other, the seats of each rotated
    unless ``match.rotate`` is False (:func:`arena.cli.tally.rotation`)."""
    if games < 1:
        raise UsageError("--games must be at least 1")
    _spec(match, match.seed)  # a bad variant, option or setup: said before any bot is loaded
    sources = [resolve_bot(match.game_id, name) for name in match.bots]
    replays: list[Replay] = []
    for index, seed in enumerate(game_seeds(match.seed, games)):
        hook = None if on_move is None else _bind_game(on_move, index)
        order = rotation(index, len(sources), match.rotate)
        seated = replace(match, seed=seed, bots=[match.bots[entry] for entry in order])
        replays.append(play(seated, [sources[entry] for entry in order], hook))
        if on_game is not None:
            on_game(index, replays[-1])
    return replays


def _bind_game(on_move: Callable[[int, MoveRecord], None], index: int) -> Callable[[MoveRecord], None]:
    return lambda move: on_move(index, move)


# --- results ----------------------------------------------------------------------------------


def fault_hint(fault: FirstFault, bot: str, match: LocalMatch) -> str:
    """What the bot's author can do about a fault, in one line."""
    kind, detail = fault.fault.kind, fault.fault.detail
    if kind == Fault.HTTP_STATUS:
        if detail.endswith(" 401"):
            return (
                "check --secret: the bot must verify with the secret arena play signs with "
                f"(here {match.secret!r})"
            )
        if detail.endswith((" 404", " 405")):
            return f"check the URL's path: the bot must answer POST requests at {bot}"
        if detail.endswith(" 400") and match.protocol != PROTOCOL_VERSION:
            return (
                f"was the bot started for protocol {match.protocol}? (the bot SDK refuses a version "
                "it was not started for with 400; --protocol 1 speaks version 1)"
            )
        return 'the bot must answer HTTP 200 with {"move": ...}'
    if kind == Fault.TIMEOUT:
        bank = f", plus a {match.time.bank_ms} ms bank per seat" if match.time.bank_ms else ""
        return (
            f"each move must be answered within {match.time.move_ms} ms{bank} "
            "(--move-ms, --bank-ms), connecting and reading included"
        )
    if kind == Fault.CONNECTION:
        where = urlsplit(bot)
        port = where.port or (443 if where.scheme == "https" else 80)
        if "refused" in detail.lower():
            return f"nothing listens on {where.hostname} port {port}: is the bot running, and on that port?"
        return f"the connection to {where.hostname} port {port} broke: did the bot crash or close it?"
    if kind == Fault.ILLEGAL_MOVE:
        if match.protocol != PROTOCOL_VERSION and bot.startswith(("http://", "https://")):
            return (
                f"the move must be one of the legal moves of the position the observation shows "
                f"(protocol {match.protocol} sends no legal_moves: was the bot started for it?)"
            )
        return "the move must be one of the request's legal_moves, compared as JSON (same keys and values)"
    if kind == Fault.INVALID_RESPONSE:
        return 'answer with a JSON object {"move": <one of legal_moves>}'
    if kind == Fault.BOT_ERROR:
        return f"the bot raised an exception; --seed {fault.seed} --games 1 plays that game again"
    return ""


def sent_line(game_id: str, sent: str) -> str:
    """What a bot sent, for a fault's report: in the game's words (:func:`referee.replay.sent_words`)
    and, when the words are not the JSON itself, the JSON too (cut to a line), as it was sent."""
    words = sent_words(game_id, sent)
    exact = sent if len(sent) <= MOVE_JSON_LIMIT else sent[: MOVE_JSON_LIMIT - len(CUT_MARK)] + CUT_MARK
    return words if words == exact else f"{words}  (as sent: {exact})"


def format_result(replay: Replay) -> str:
    """One game: how it ended, each seat's place, score, win, draw or loss, and faults."""
    result = replay.result
    spec = replay.spec
    lines = [
        f"{spec.game} / {spec.variant}, seed {spec.seed}: {len(replay.moves)} moves, ended: {result.reason}"
    ]
    if result.team_won is not None:
        lines.append("team " + ("won" if result.team_won else "lost"))
    lines.append(f"{'seat':>4}  {'place':>5}  {'score':>7}  {'result':<6}  {'faults':>6}  bot")
    for seat in replay.seats:
        index = seat.seat
        flag = "  (forfeited)" if seat.forfeited else ""
        outcome = seat_outcome(result.places, result.team_won, index)
        lines.append(
            f"{index:>4}  {result.places[index]:>5}  {result.scores[index]:>7g}  {outcome:<6}  "
            f"{seat.fault_count:>6}  {seat.name}{flag}"
        )
    return "\n".join(lines)


def _counts(record: Record) -> str:
    return f"{record.games:>5}  {record.wins:>4}  {record.draws:>5}  {record.losses:>6}"


def format_summary(match: LocalMatch, replays: Sequence[Replay]) -> str:
    """Several games: each bot's games, wins, draws (a shared first place) and losses, its win rate
    (a draw counting half) with its 95% Wilson interval, mean score and forfeits; then the same
    for each seat each bot held."""
    spec = replays[0].spec
    seating = "seats rotated every game" if match.rotate else "seats as given in every game"
    tallies = tally(match.bots, replays, match.rotate)
    lines = [
        f"{spec.game} / {spec.variant}: {len(replays)} games from seed {match.seed}, {seating}",
        f"{'bot':>4}  {'games':>5}  {'wins':>4}  {'draws':>5}  {'losses':>6}  "
        f"{'win rate (95% interval)':<23}  {'mean score':>10}  {'forfeits':>8}  name",
    ]
    team = any(replay.result.team_won is not None for replay in replays)
    if team:
        lines[1] = lines[1].replace("  name", "  team wins  name")
    for entry in tallies:
        record = entry.overall
        low, high = record.interval
        rate = f"{record.win_rate:.0%} ({low:.0%}-{high:.0%})"
        team_wins = f"{record.team_wins:>9}  " if team else ""
        lines.append(
            f"{'#' + str(entry.entry + 1):>4}  {_counts(record)}  {rate:<23}  "
            f"{record.mean_score:>10.4g}  {record.forfeits:>8}  {team_wins}{entry.name}"
        )
    lines.append("by seat:")
    lines.append(f"{'seat':>4}  {'bot':>4}  {'games':>5}  {'wins':>4}  {'draws':>5}  {'losses':>6}  win rate")
    for seat in range(len(match.bots)):
        for entry in tallies:
            in_seat = entry.by_seat.get(seat)
            if in_seat is not None:
                label = "#" + str(entry.entry + 1)
                lines.append(f"{seat:>4}  {label:>4}  {_counts(in_seat)}  {in_seat.win_rate:.0%}")
    lines.append(f"a draw is a shared first place; the win rate counts it as {DRAW_SCORE:g} of a win")
    if team:
        lines.append(
            "a team game: team wins are the games the team won; a win is a first place alone in a game "
            "the team won (the game's own ranking), a lost team game a loss for every seat"
        )
    return "\n".join(lines)


def format_faults(match: LocalMatch, replays: Sequence[Replay]) -> str:
    """Each bot that faulted: its faults by kind, its forfeits, its first fault with what it sent,
    and a hint. Empty when no bot faulted."""
    lines: list[str] = []
    for entry in tally(match.bots, replays, match.rotate):
        first = entry.first_fault
        if first is None:
            continue
        counts = ", ".join(f"{count} {kind}" for kind, count in sorted(entry.fault_kinds.items()))
        headline = f"#{entry.entry + 1} {entry.name}: {counts}"
        if entry.overall.forfeits:
            headline += f"; FORFEITED {entry.overall.forfeits} of {entry.overall.games} games"
        where = f"game {first.game + 1} (seed {first.seed}), " if len(replays) > 1 else ""
        lines.append(headline)
        lines.append(
            f"  first fault: {where}seat {first.seat}, turn {first.turn}: "
            f"{first.fault.kind}: {first.fault.detail}"
        )
        if first.fault.sent is not None:
            lines.append(f"  sent: {sent_line(match.game_id, first.fault.sent)}")
        hint = fault_hint(first, entry.name, match)
        if hint:
            lines.append(f"  hint: {hint}")
    return "\n".join(["faults:", *lines]) if lines else ""


def verify_file(path: str) -> tuple[list[str], dict[str, Any]]:
    replay = load_json_file(path, "replay")
    if not isinstance(replay, dict):
        raise UsageError(f"replay {path} is not a JSON object")
    return verify_replay(replay), replay


__all__ = [
    "DEFAULT_SECRET",
    "LocalMatch",
    "SetupError",
    "UsageError",
    "format_faults",
    "format_result",
    "format_summary",
    "game_seeds",
    "parse_option",
    "play",
    "play_games",
    "resolve_bot",
    "verify_file",
]
