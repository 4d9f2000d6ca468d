"""The JSON in ``docs/games/volcano.md`` is what the engine takes and gives.

The page's examples are read from the page itself, so an edit to the engine that changes them, or a
hand edit to the page that gets them wrong, fails here: the explicit setup starts a game with the
legal moves the page counts, the move examples are legal in it, the worked Power Play captures the
whole red nest, and the observation after the worked eruption (seed 7) is the engine's own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from referee.volcano import GAME

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "volcano.md"
EMPTY_ROW = [{"stack": [], "cap": None} for _ in range(5)]


def _json_blocks() -> list[str]:
    return re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)


def _setup() -> dict[str, Any]:
    """The page's setup, its "rows 1 to 4" placeholder read as four empty rows, as the page says."""
    data = json.loads(_json_blocks()[0])
    data["board"] = [row if isinstance(row, list) else None for row in data["board"]]
    first = data["board"].index(None)
    data["board"][first : first + 1] = [EMPTY_ROW] * 4
    return data


def test_the_setup_example_has_the_legal_moves_the_page_counts() -> None:
    state = GAME.start("fiesta-caldera", seats=2, seed=0, setup=_setup())
    counted = re.search(r"has (\d+) legal moves: (\d+) steps", DOC.read_text(encoding="utf-8"))
    assert counted is not None
    moves = state.legal_moves()
    assert len(moves) == int(counted[1])
    assert sum(move["type"] == "step" for move in moves) == int(counted[2])


def test_the_move_examples_are_legal_in_the_setup_example_and_capture_the_red_nest() -> None:
    state = GAME.start("fiesta-caldera", seats=2, seed=0, setup=_setup())
    examples = {move["type"]: move for move in map(json.loads, _json_blocks()[1].splitlines())}
    step, power_play = examples["step"], examples["power_play"]

    assert state.is_legal(step) and state.is_legal(power_play)
    state.apply(power_play)
    state.apply(step)

    observed = state.observation(0)
    assert {"colour": "red", "size": 1} in observed["captures"][0]
    assert observed["trios"][0] == {"single_colour": 1, "any_colour": 1}
    assert observed["last_eruption"]["stopped"] == "spent" and observed["last_eruption"]["left_behind"] == 0


def test_the_observation_example_is_the_engines_after_the_worked_eruption() -> None:
    state = GAME.start("fiesta-caldera", seats=2, seed=7)
    state.apply({"type": "step", "from": [2, 3], "dir": "W"})

    observed = state.observation(1)
    observed.pop("board")
    assert observed == json.loads(_json_blocks()[2])
