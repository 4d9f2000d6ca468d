"""``docs/games/boulderville.md`` stays true to the code: its tables, its JSON examples, its positions.

The doc explains the edition value by value, so its tables are read back and compared with the
data files; its setup example must start a game, its moves must be moves the engine lists somewhere,
and its observation must be the one the engine gives for the procedure the doc names.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from referee.boulderville import GAME
from referee.boulderville.edition import EDITION
from referee.rng import Rng

DOC = (Path(__file__).parents[3] / "docs" / "games" / "boulderville.md").read_text()
BLOCKS = re.findall(r"```json\n(.*?)```", DOC, flags=re.DOTALL)
SETUP, MOVES, OBSERVATION = BLOCKS


def rows(first_cell: str) -> list[list[str]]:
    """Cells of the doc's table rows whose first cell matches the pattern ``first_cell``."""
    found = []
    for line in DOC.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and re.fullmatch(first_cell, cells[0]):
            found.append(cells)
    return found


def code(cell: str) -> str:
    """The first ``code`` span of a cell: the id the row is about."""
    match = re.search(r"`([^`]+)`", cell)
    assert match, cell
    return match.group(1)


def test_the_townspeople_table_is_the_data_file() -> None:
    table = {row[0].strip("`"): (row[1], row[2] or None, *map(int, row[3:7])) for row in rows(r"`t\d\d`")}
    data = {
        card.id: (card.name, card.role, card.belief, card.willingness, card.speed, card.value)
        for card in EDITION.townspeople.values()
    }
    assert table == data


def test_the_scientists_table_is_the_data_file() -> None:
    table = {
        code(row[0]): row[1].replace("-", "_") for row in rows("`[a-z_]+`") if row[1] in ("rock", "non-rock")
    }
    assert table == {card.id: card.type for card in EDITION.scientists.values()}


def test_the_action_deck_table_has_every_card_with_its_copies() -> None:
    table = {code(row[0]): int(row[1]) for row in rows("`[a-z_]+` .+") if row[1].isdigit()}
    assert table == {card.id: card.copies for card in EDITION.actions.values()}


def test_the_eruption_table_has_every_card_with_its_pool_and_value() -> None:
    pools = {"build-up": "build_up", "pre-eruption": "pre_eruption", "post-eruption": "post_eruption"}
    table = {
        code(row[1]): (pools.get(row[0], "pre_eruption"), int(row[2]))
        for row in rows(r"build-up|pre-eruption|post-eruption|\(shuffled in\)")
    }
    assert table == {card.id: (card.deck, card.value) for card in EDITION.eruption_cards.values()}


def test_the_setup_example_starts_the_game_it_describes() -> None:
    example = json.loads(SETUP)
    state = GAME.start("standard", seats=4, seed=0, setup=example)
    assert state.current_seat == 0 and state.table.eruption == example["eruption"]
    assert {"type": "clear", "space": "north_road"} in state.legal_moves()


def shapes_in_play(games: int = 6) -> set[tuple]:
    """(type, keys, use) of every move random games list, a move's shape without its values."""
    seen: set[tuple] = set()
    for seed in range(games):
        state = GAME.start("standard", seats=4, seed=seed)
        chooser = Rng(seed)
        while state.outcome() is None:
            legal = state.legal_moves()
            seen |= {(m["type"], tuple(sorted(m)), m.get("use")) for m in legal}
            state.apply(chooser.choice(legal))
    return seen


@pytest.mark.parametrize("line", [line for line in MOVES.splitlines() if line.strip()])
def test_every_example_move_has_a_shape_the_engine_lists_and_names_real_things(line: str) -> None:
    move: dict[str, Any] = json.loads(line)
    assert (move["type"], tuple(sorted(move)), move.get("use")) in SHAPES
    if "space" in move:
        assert move["space"] in EDITION.board.order
    if move["type"] == "play":
        assert move["use"] in [use.use for use in EDITION.actions[move["card"]].uses]
    for card in move.get("cards", []):
        assert card in EDITION.actions


SHAPES = shapes_in_play()


def test_the_observation_example_is_what_the_engine_shows() -> None:
    # the procedure the doc names: seed 7, Rng(7) choosing, until turn 9's placing asks seat 0
    state = GAME.start("standard", seats=4, seed=7)
    chooser = Rng(7)
    while not (state.table.turn == 9 and state.table.stage == "place" and state.current_seat == 0):
        state.apply(chooser.choice(state.legal_moves()))
    shown, seen = json.loads(OBSERVATION), state.observation(0)
    assert set(shown) == set(seen)
    for key in set(seen) - {"townspeople", "events"}:
        assert shown[key] == seen[key], key
    assert all(person in seen["townspeople"] for person in shown["townspeople"])
    assert shown["events"] == seen["events"][-len(shown["events"]) :]
    sentence = DOC[DOC.index("The first legal moves of seat 0") :]
    first = re.findall(r'\{"type": "place", "space":\s+"([a-z_]+)"\}', sentence)[:3]
    assert [move["space"] for move in state.legal_moves()[:3]] == first
