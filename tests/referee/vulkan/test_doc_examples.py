"""The JSON examples on docs/games/vulkan.md are the engine's output, and stay so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.rng import Rng
from referee.vulkan import GAME
from referee.vulkan.render import render

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "vulkan.md"
EXAMPLE = re.compile(r"<!-- vulkan-example: (\w+) -->\s*```json\n(.*?)```", re.DOTALL)
PICTURE = re.compile(r"<!-- vulkan-picture: (\w+) -->\s*```text\n(.*?)```", re.DOTALL)


def examples() -> dict[str, object]:
    return {name: json.loads(body) for name, body in EXAMPLE.findall(DOC.read_text())}


def test_the_worked_turn_plays_as_the_page_says() -> None:
    found = examples()
    assert set(found) == {
        "explicit_setup",
        "setup",
        "observation",
        "move",
        "events",
        "outcome_competitive",
        "outcome_cooperative",
    }
    state = GAME.start("competitive", seats=4, seed=0, setup=found["setup"])
    assert state.observation(3) == found["observation"]
    pictures = dict(PICTURE.findall(DOC.read_text()))
    assert render(state) == pictures["before"].rstrip("\n")
    state.apply(found["move"])
    assert state.last["events"] == found["events"]
    assert render(state) == pictures["after"].rstrip("\n")


def test_the_setup_example_is_accepted_as_described() -> None:
    state = GAME.start("competitive", seats=2, seed=0, setup=examples()["explicit_setup"])
    seat0, seat1 = state.observation(0)["seats"]
    assert seat0["supply"] == {"red": 11, "yellow": 11} and seat0["score"] == 10
    assert seat1["supply"] == {"green": 12, "blue": 12}  # left out: the standard allotment
    assert state.current_seat == 1


def test_the_move_counts_quoted_on_the_page() -> None:
    state = GAME.start("competitive", seats=2, seed=7)
    assert len(state.legal_moves()) == 18
    state.apply({"type": "volcano", "tile": [0, 0]})
    moves = state.legal_moves()
    assert len(moves) == 854
    assert moves[0] == {"type": "flight", "path": [[-3, 0]], "colour": "green"}


@pytest.mark.parametrize(
    ("name", "variant", "seats"), [("competitive", "competitive", 3), ("cooperative", "cooperative", 2)]
)
def test_the_outcome_examples_are_the_games_the_page_names(name: str, variant: str, seats: int) -> None:
    state = GAME.start(variant, seats=seats, seed=5)
    chooser = Rng(5)
    while state.outcome() is None:
        state.apply(chooser.choice(state.legal_moves()))
    assert state.outcome().to_json() == examples()[f"outcome_{name}"]
