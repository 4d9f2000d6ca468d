"""The JSON in ``docs/games/volcano.md`` is what the engine takes and gives, and what the rules say.

The page's examples are read from the page itself, so an edit to the engine that changes them, or a
hand edit to the page that gets them wrong, fails here. Every figure is worked out from the rule text
by this file's own small reading of it (:func:`_rule_flow`, :func:`_rule_steps`), never copied from
the engine's output: the legal moves of the setup example, the flows and captures of both worked
eruptions, the trios they make; the observation example must then be exactly the engine's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from referee.volcano import GAME

DOC = Path(__file__).resolve().parents[3] / "docs" / "games" / "volcano.md"
EMPTY_ROW = [{"stack": [], "cap": None} for _ in range(5)]
DELTAS = {
    "N": (-1, 0),
    "NE": (-1, 1),
    "E": (0, 1),
    "SE": (1, 1),
    "S": (1, 0),
    "SW": (1, -1),
    "W": (0, -1),
    "NW": (-1, -1),
}


def _json_blocks() -> list[str]:
    return re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)


def _setup() -> dict[str, Any]:
    """The page's setup, its "rows 1 to 4" placeholder read as four empty rows, as the page says."""
    data = json.loads(_json_blocks()[0])
    data["board"] = [row if isinstance(row, list) else None for row in data["board"]]
    first = data["board"].index(None)
    data["board"][first : first + 1] = [EMPTY_ROW] * 4
    return data


def _on_board(row: int, column: int) -> bool:
    return 0 <= row < 5 and 0 <= column < 5


def _rule_steps(board: list[list[dict]]) -> int:
    """Cap steps by the rules: any cap, any of eight directions, onto a square on the board without a cap."""
    count = 0
    for row in range(5):
        for column in range(5):
            if board[row][column].get("cap") is None:
                continue
            for dr, dc in DELTAS.values():
                to = (row + dr, column + dc)
                count += _on_board(*to) and board[to[0]][to[1]].get("cap") is None
    return count


def _rule_flow(board: list[list[dict]], origin: list[int], direction: str) -> dict[str, Any]:
    """The rule text's eruption, read off the board before anything moves: the uncovered pieces flow,
    top first, the first two squares from the cap's start, the next three, and so on, until they run
    out or the next landing square is off the board or capped; a piece landing on a top piece of its
    own size is captured. Landing squares are all different, so the board before the move decides."""
    dr, dc = DELTAS[direction]
    stack = list(board[origin[0]][origin[1]]["stack"])
    flow, stopped = [], "spent"
    for distance, piece in enumerate(reversed(stack), start=2):
        row, column = origin[0] + distance * dr, origin[1] + distance * dc
        if not _on_board(row, column):
            stopped = "edge"
            break
        square = board[row][column]
        if square.get("cap") is not None:
            stopped = "cap"
            break
        top = square["stack"][-1] if square["stack"] else None
        flow.append(
            {
                "piece": piece,
                "to": [row, column],
                "captured": top is not None and top["size"] == piece["size"],
            }
        )
    return {"flow": flow, "stopped": stopped, "left_behind": len(stack) - len(flow)}


def _rule_trios(pieces: list[dict]) -> dict[str, int]:
    """The best grouping by the rules: the scarcest size, and per colour its scarcest size, summed."""

    def count(colour: str | None, size: int) -> int:
        return sum(p["size"] == size and colour in (None, p["colour"]) for p in pieces)

    colours = {p["colour"] for p in pieces}
    single = sum(min(count(colour, size) for size in (1, 2, 3)) for colour in colours)
    return {"single_colour": single, "any_colour": min(count(None, size) for size in (1, 2, 3))}


def _order(pieces: list[dict]) -> list[dict]:
    colours = ["red", "orange", "yellow", "green", "cyan", "blue", "purple", "clear"]
    return sorted(pieces, key=lambda p: (colours.index(p["colour"]), p["size"]))


def test_the_setup_example_has_the_legal_moves_the_rules_give_and_the_page_counts() -> None:
    setup = _setup()
    state = GAME.start("fiesta-caldera", seats=2, seed=0, setup=setup)
    kinds = {json.dumps(p, sort_keys=True) for p in setup["captures"][setup["to_move"]]}
    uncapped = sum(square.get("cap") is None for row in setup["board"] for square in row)
    steps = _rule_steps(setup["board"])

    moves = state.legal_moves()
    assert sum(move["type"] == "step" for move in moves) == steps
    assert (
        len(moves) == steps + len(kinds) * uncapped
    )  # a Power Play: any held kind, any square without a cap

    counted = re.search(r"has (\d+) legal moves: (\d+) steps", DOC.read_text(encoding="utf-8"))
    assert counted is not None and (int(counted[1]), int(counted[2])) == (len(moves), steps)


def test_the_move_examples_are_legal_and_the_eruption_captures_what_lands_on_its_own_size() -> None:
    setup = _setup()
    state = GAME.start("fiesta-caldera", seats=2, seed=0, setup=setup)
    examples = {move["type"]: move for move in map(json.loads, _json_blocks()[1].splitlines())}
    step, power_play = examples["step"], examples["power_play"]
    assert state.is_legal(step) and state.is_legal(power_play)

    board = json.loads(json.dumps(setup["board"]))  # the table after the Power Play, by the rules
    row, column = power_play["to"]
    board[row][column]["stack"].append(power_play["piece"])
    expected = _rule_flow(board, step["from"], step["dir"])
    held = list(setup["captures"][0])
    held.remove(power_play["piece"])
    held += [landing["piece"] for landing in expected["flow"] if landing["captured"]]

    state.apply(power_play)
    state.apply(step)

    observed = state.observation(0)
    eruption = observed["last_eruption"]
    assert eruption["flow"] == expected["flow"]
    assert (eruption["stopped"], eruption["left_behind"]) == (expected["stopped"], expected["left_behind"])
    assert observed["captures"][0] == _order(held)
    assert observed["trios"][0] == _rule_trios(held)
    # what the page says of it: the whole red nest captured, one single-colour trio, nothing left
    assert all(landing["captured"] for landing in expected["flow"]) and expected["left_behind"] == 0
    assert '"trios": [{"single_colour": 1, "any_colour": 1}' in DOC.read_text(encoding="utf-8")
    assert observed["trios"][0] == {"single_colour": 1, "any_colour": 1}


def test_the_observation_example_is_the_engines_and_the_rules_after_the_worked_eruption() -> None:
    state = GAME.start("fiesta-caldera", seats=2, seed=7)
    board = json.loads(json.dumps(state.observation(0)["board"]))
    move = {"type": "step", "from": [2, 3], "dir": "W"}
    state.apply(move)

    observed = dict(state.observation(1))
    observed.pop("board")
    page = json.loads(_json_blocks()[2])
    assert observed == page

    expected = _rule_flow(board, move["from"], move["dir"])
    eruption = page["last_eruption"]
    assert eruption["cap"] == {"colour": board[2][3]["cap"], "from": [2, 3], "to": [2, 2], "dir": "W"}
    assert eruption["flow"] == expected["flow"]
    assert (eruption["stopped"], eruption["left_behind"]) == (expected["stopped"], expected["left_behind"])
    captured = [landing["piece"] for landing in expected["flow"] if landing["captured"]]
    assert page["captures"] == [_order(captured), []]
    assert page["trios"] == [_rule_trios(captured), _rule_trios([])]
    # an eruption ends the turn: the other seat moves, nothing of its turn is played yet
    assert (page["to_move"], page["turn"], page["steps_this_turn"], page["turn_moves"]) == (1, 1, 0, [])
