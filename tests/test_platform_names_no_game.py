"""The platform and the referee's common modules name no game: a game is a plugin
(:mod:`referee.registry`), so nothing outside a game's own package may know one by name, be it a
file named after it, a dict keyed by its id, or a doctest playing it."""

from __future__ import annotations

import re
from pathlib import Path

from referee.registry import declared

ROOT = Path(__file__).resolve().parents[1]
PROJECT_NAME = re.compile(r"volcano[ _-]arena", re.IGNORECASE)
"""The project's own name (its entry-point group, its title) is not a game's."""


def _game_words() -> set[str]:
    """Every installed game's id and package name, and their parts (``catan-volcano``: ``catan``)."""
    words: set[str] = set()
    for game_id, target in declared().items():
        package = target.partition(":")[0].split(".")
        for name in (game_id, *package[1:]):
            words.add(name.lower())
            words.update(part.lower() for part in re.split(r"[-_]", name) if len(part) > 3)
    return words - {"game", "games"}


def _common_files() -> list[Path]:
    """platform/arena whole, and referee/ but for the game packages (those an entry names)."""
    game_packages = {
        target.partition(":")[0].split(".")[1]
        for target in declared().values()
        if target.startswith("referee.") and target.count(".") >= 1
    }
    files = [path for path in (ROOT / "platform" / "arena").rglob("*") if path.is_file()]
    for path in (ROOT / "referee").rglob("*"):
        inside = path.relative_to(ROOT / "referee").parts
        if path.is_file() and inside[0] not in game_packages:
            files.append(path)
    return [path for path in files if "__pycache__" not in path.parts]


def test_the_game_words_are_known() -> None:
    assert {"vulkan", "volcano", "boulderville", "catan-volcano", "catan_volcano", "catan"} <= _game_words()


def test_no_file_of_the_platform_or_the_referee_outside_the_games_names_a_game() -> None:
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _game_words()))) + r")\b", re.IGNORECASE)
    found = []
    for path in _common_files():
        relative = path.relative_to(ROOT)
        if pattern.search(str(relative)):
            found.append(f"{relative}: named after a game")
        if path.suffix in {".png", ".ico", ".woff", ".woff2"}:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(PROJECT_NAME.sub("", line)):
                found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []
