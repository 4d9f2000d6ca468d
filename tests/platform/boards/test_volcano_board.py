"""Volcano: every stack's pieces in order by colour and size, the caps, the captures per seat."""

from __future__ import annotations

from arena.boards import render_svg, render_text
from tests.platform.boards.replays import middle, parse, replay, with_class


def test_every_stack_is_drawn_piece_by_piece_bottom_to_top() -> None:
    state = middle(replay("volcano"))
    board = state.observation(0)["board"]
    root = parse(render_svg("volcano", state))
    stacks = {g.get("data-square"): g for g in with_class(root, "stack")}
    assert len(stacks) == 25
    for row, squares in enumerate(board):
        for column, square in enumerate(squares):
            group = stacks[f"{row},{column}"]
            drawn = [(p.get("data-colour"), int(p.get("data-size", 0))) for p in with_class(group, "piece")]
            assert drawn == [(p["colour"], p["size"]) for p in square["stack"]], (row, column)


def test_caps_and_captures_are_drawn() -> None:
    state = middle(replay("volcano"))
    view = state.observation(0)
    root = parse(render_svg("volcano", state))
    caps = sorted(sq["cap"] for row in view["board"] for sq in row if sq.get("cap"))
    assert sorted(e.get("data-cap") for e in with_class(root, "cap")) == caps
    for seat, pieces in enumerate(view["captures"]):
        assert len([e for e in with_class(root, "captured") if e.get("data-seat") == str(seat)]) == len(
            pieces
        )


def test_the_text_shows_every_stack_and_the_captures() -> None:
    state = middle(replay("volcano"))
    view = state.observation(0)
    text = render_text("volcano", state)
    letters = {
        "red": "R",
        "orange": "O",
        "yellow": "Y",
        "green": "G",
        "cyan": "C",
        "blue": "B",
        "purple": "P",
        "clear": "L",
    }
    rows = text.splitlines()[3:8]
    for row, squares in zip(rows, view["board"], strict=True):
        cells = row.split()[1:]
        expected = [
            ("".join(f"{letters[p['colour']]}{p['size']}" for p in sq["stack"]) or ".")
            + (f"+{sq['cap'][0]}" if sq.get("cap") else "")
            for sq in squares
        ]
        assert cells == expected
    for seat, pieces in enumerate(view["captures"]):
        held = " ".join(f"{letters[p['colour']]}{p['size']}" for p in pieces) or "-"
        assert f"seat {seat}: captured {held};" in text
