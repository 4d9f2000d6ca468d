"""A game from outside the tree, ``examples/connect_four``, installed on its own (``pip install
--target``, no network, no build isolation) and then listed, played, drawn, rated and used in every
tournament format by a platform that was not changed for it; and it passes the engines' conformance
and schema tests as the project's own games do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "connect_four"
GAME_ID = "connect-four"

pytestmark = pytest.mark.integration  # pip and the platform each in a process of their own


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a process that sees the example game installed (in a directory of its own)."""
    target = tmp_path_factory.mktemp("site")
    command = [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
    ]
    subprocess.run(
        [*command, "--target", str(target), str(EXAMPLE)], check=True, cwd=tmp_path_factory.mktemp("build")
    )
    assert (target / "connect_four" / "rules.md").is_file() and (
        target / "connect_four" / "schemas" / "move.json"
    ).is_file()
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), str(ROOT)])}


def _run(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def test_the_platform_lists_plays_draws_rates_and_schedules_a_game_it_does_not_ship(
    installed: dict[str, str],
) -> None:
    done = _run(installed, "-m", "tests.examples.plugin_tour", GAME_ID)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["cli"].startswith(f"{GAME_ID} / classic: 2 games")
    assert GAME_ID in seen["listed"] and "vulkan" in seen["listed"]
    assert seen["schema_keys"] == ["move", "observation", "variant"]
    assert seen["rules"] == "# Connect Four"
    assert seen["house_bots"] == [f"{GAME_ID}/greedy (house)", f"{GAME_ID}/random (house)"]
    assert all(count > 0 for count in seen["formats"].values()) and len(seen["formats"]) == 4
    assert seen["ladder"] == [[f"{GAME_ID}/greedy (house)", True], [f"{GAME_ID}/random (house)", True]]
    assert seen["match_page_has_board"] and seen["board"] == [200, "image/svg+xml", True]
    assert seen["game_page_links"] == [True, True] and seen["rules_page"] == 1


def test_the_example_game_passes_the_engines_conformance_and_schema_checks(installed: dict[str, str]) -> None:
    checks = [
        "tests/referee/test_conformance.py",
        "tests/referee/test_observation_suffices.py",
        "tests/referee/test_schemas.py",
    ]
    done = _run(installed, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", GAME_ID, *checks)
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "deselected" in done.stdout


def test_without_the_package_the_game_is_not_there() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = _run(env, "-c", "from referee.registry import game_ids; print(game_ids())")
    assert GAME_ID not in done.stdout and "vulkan" in done.stdout
