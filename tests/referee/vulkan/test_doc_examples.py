"""The JSON examples on docs/games/vulkan.md are the engine's output, and stay so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee.rng import Rng
from referee.vulkan import GAME
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import DIRECTIONS, classic_cells, enclosed
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
    example = examples()["explicit_setup"]
    state = GAME.start("competitive", seats=2, seed=0, setup=example)
    seat0, seat1 = state.observation(0)["seats"]
    assert seat0["supply"] == example["seats"][0]["supply"]
    # a score is the sum of the values of the tiles awarded, given as a value or as {"at", "value"}
    given = [a if isinstance(a, int) else a["value"] for a in example["seats"][0]["awarded"]]
    assert seat0["score"] == sum(given)
    # a seat left without a supply gets its standard allotment (no loads of its colours on the table)
    names = EDITION.colours
    assert seat1["supply"] == {names[c]: n for c, n in enumerate(EDITION.allotments[2][1]) if n}
    assert state.current_seat == example["to_move"]


def straight_runs(cells: set[tuple[int, int]]) -> list[tuple[tuple[int, int], ...]]:
    """Every ordered straight run of cells, counted from the rule (one-tile runs once)."""
    runs = [(cell,) for cell in cells]
    for cell in cells:
        for dq, dr in DIRECTIONS:
            run = [cell]
            while (run[-1][0] + dq, run[-1][1] + dr) in cells:
                run.append((run[-1][0] + dq, run[-1][1] + dr))
                runs.append(tuple(run))
    return runs


def test_the_move_counts_quoted_on_the_page_follow_from_the_rules() -> None:
    text = DOC.read_text()
    quoted = re.search(r"seed 7 has (\d+) volcano choices.*?seat 1 has (\d+) flights", text, re.DOTALL)
    assert quoted is not None
    volcanoes, flights = map(int, quoted.groups())
    cells = set(classic_cells(3, (3, -3)))
    state = GAME.start("competitive", seats=2, seed=7)
    # the volcano goes on a tile enclosed on all six edges
    assert volcanoes == len(enclosed(cells)) == len(state.legal_moves())
    state.apply({"type": "volcano", "tile": [0, 0]})
    # every straight run avoiding the volcano (no tile is full yet), in each of seat 1's two colours
    runs = straight_runs(cells - {(0, 0)})
    assert flights == 2 * len(runs) == len(state.legal_moves())
    # first in the documented order: green, the lowest cell [q, r], its one-tile run
    assert state.legal_moves()[0] == {"type": "flight", "path": [list(min(cells))], "colour": "green"}


@pytest.mark.parametrize(
    ("name", "variant", "seats"), [("competitive", "competitive", 3), ("cooperative", "cooperative", 2)]
)
def test_the_outcome_examples_are_the_games_the_page_names(name: str, variant: str, seats: int) -> None:
    state = GAME.start(variant, seats=seats, seed=5)
    chooser = Rng(5)
    while state.outcome() is None:
        state.apply(chooser.choice(state.legal_moves()))
    outcome = state.outcome().to_json()
    assert outcome == examples()[f"outcome_{name}"]  # the page shows what the engine gives
    # and what it gives follows the rules: scores are sums of the tiles awarded...
    sums = [sum(award["value"] for award in seat["awarded"]) for seat in state.observation(0)["seats"]]
    if variant == "competitive":
        assert outcome["scores"] == sums
        # ...places follow the scores, then the fewer own loads left on the table
        left = outcome["details"]["loads_on_table"]
        keys = [(score, -loads) for score, loads in zip(sums, left, strict=True)]
        assert outcome["places"] == [1 + sum(other > key for other in keys) for key in keys]
    else:
        assert outcome["details"]["seat_values"] == sums
        assert outcome["scores"] == [sum(sums)] * seats and outcome["places"] == [1] * seats
        gathered = outcome["details"]["tiles_left"] == 0 and not state.observation(0)["removed"]
        assert outcome["team_won"] == gathered
