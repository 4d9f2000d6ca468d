"""A plain-text picture of the table, for the doc page, test failure messages and curious humans.

Each tile is its fire value followed by one letter per load in drop order and a dot per free space;
the volcano is ``VV``. Rows are hex rows (``r``); each row is shifted half a tile from the last.

>>> from referee.vulkan import GAME
>>> setup = {"tiles": [{"at": [0, 0], "value": 5, "loads": ["red"]}, {"at": [1, 0], "value": 2},
...                    {"at": [0, 1], "value": 1}], "volcano": [1, 0]}
>>> print(render(GAME.start("competitive", 2, 0, setup=setup)))
  5r..  VV
     1.
"""

from __future__ import annotations

from referee.vulkan.position import COLOURS
from referee.vulkan.state import VulkanState

CELL_WIDTH = 6


def tile_text(state: VulkanState, cell: int) -> str:
    board = state.board
    if cell == board.volcano:
        return "VV"
    loads = "".join(COLOURS[c][0] for c in board.loads[cell])
    return f"{board.values[cell]}{loads}{'.' * (board.spaces[cell] - len(board.loads[cell]))}"


def render(state: VulkanState) -> str:
    """The tiles still on the table, one text line per hex row."""
    board = state.board
    cells = [cell for cell in range(len(board.present)) if board.present[cell]]
    if not cells:
        return ""
    coords = board.layout.coords
    left = min(2 * coords[c][0] + coords[c][1] for c in cells)
    rows: dict[int, list[tuple[int, str]]] = {}
    for cell in cells:
        q, r = coords[cell]
        column = (2 * q + r - left) * CELL_WIDTH // 2
        rows.setdefault(r, []).append((column, tile_text(state, cell)))
    lines = []
    for r in range(min(rows), max(rows) + 1):
        line = ""
        for column, text in sorted(rows.get(r, [])):
            line = line.ljust(column + 2) + text
        lines.append(line.rstrip())
    return "\n".join(lines)
