"""The island's fixed geometry: 19 hexes, 54 intersections, 72 edges, with stable integer ids.

Every board of every variant has the same shape, so the adjacency tables are computed once, at
import, as tuples of tuples that the rules code indexes directly (no dicts, no objects).

Ids, as the doc page describes them for bot authors:

- hexes 0..18 row by row from the top, left to right (rows of 3, 4, 5, 4, 3);
- intersections ("nodes") 0..53 by position, top to bottom, then left to right;
- edges 0..71 in order of (lower node id, higher node id);
- a hex's corners are listed clockwise from its top corner: corner 1 is the top, 2 upper right,
  3 lower right, 4 bottom, 5 lower left, 6 upper left (the lava die's numbers).

>>> len(HEX_NODES), len(NODE_HEXES), len(EDGE_NODES)
(19, 54, 72)
>>> HEX_NODES[9]  # the centre hex, corners 1..6
(18, 24, 30, 35, 29, 23)
>>> NODE_HEXES[18], NODE_NODES[18]  # the centre hex's top corner
((4, 5, 9), (13, 23, 24))
"""

from __future__ import annotations

HEX_COUNT = 19
RADIUS = 2

CORNER_OFFSETS: tuple[tuple[int, int], ...] = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
"""Corner positions around a hex centre, clockwise from the top, in half-width / third-height units
(pointy-top hexes): whole numbers, so corners shared by neighbouring hexes compare exactly."""


def _hex_axial() -> tuple[tuple[int, int], ...]:
    cells = [
        (q, r) for r in range(-RADIUS, RADIUS + 1) for q in range(-RADIUS, RADIUS + 1) if abs(q + r) <= RADIUS
    ]
    return tuple(cells)


def _build() -> tuple[
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, int], ...],
    tuple[tuple[int, int], ...],
]:
    corner_points = []
    for q, r in _hex_axial():
        x, y = 2 * q + r, 3 * r
        corner_points.append([(x + dx, y + dy) for dx, dy in CORNER_OFFSETS])
    points = sorted({p for corners in corner_points for p in corners}, key=lambda p: (p[1], p[0]))
    node_of = {p: i for i, p in enumerate(points)}
    hex_nodes = tuple(tuple(node_of[p] for p in corners) for corners in corner_points)
    edges = sorted(
        {tuple(sorted((corners[i], corners[(i + 1) % 6]))) for corners in hex_nodes for i in range(6)}
    )
    return hex_nodes, tuple(points), tuple((a, b) for a, b in edges)


HEX_NODES, NODE_POINTS, EDGE_NODES = _build()
"""``HEX_NODES[h]``: the hex's six corners (hexes in axial order, row by row), corner 1 first;
``NODE_POINTS[n]``: the node's (x, y) on the half-width grid; ``EDGE_NODES[e]``: its two ends."""

NODE_COUNT = len(NODE_POINTS)
EDGE_COUNT = len(EDGE_NODES)

NODE_HEXES: tuple[tuple[int, ...], ...] = tuple(
    tuple(h for h in range(HEX_COUNT) if n in HEX_NODES[h]) for n in range(NODE_COUNT)
)
"""The one to three hexes around each node, in hex order."""

NODE_EDGES: tuple[tuple[int, ...], ...] = tuple(
    tuple(e for e, ends in enumerate(EDGE_NODES) if n in ends) for n in range(NODE_COUNT)
)
"""The two or three edges at each node, in edge order."""

NODE_NODES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(EDGE_NODES[e][0] + EDGE_NODES[e][1] - n for e in NODE_EDGES[n])) for n in range(NODE_COUNT)
)
"""The neighbouring nodes of each node (one edge away): the distance rule's reach."""

EDGE_INDEX: dict[tuple[int, int], int] = {ends: e for e, ends in enumerate(EDGE_NODES)}
"""(lower node, higher node) to edge id."""

HEX_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        other
        for other in range(HEX_COUNT)
        if other != h and len(set(HEX_NODES[h]) & set(HEX_NODES[other])) == 2
    )
    for h in range(HEX_COUNT)
)
"""Hexes sharing a side with each hex (for keeping red numbers apart)."""


def edge_between(a: int, b: int) -> int:
    """The edge joining two neighbouring nodes; KeyError if they are not neighbours.

    >>> edge_between(24, 18), edge_between(18, 24)
    (28, 28)
    """
    return EDGE_INDEX[(a, b) if a < b else (b, a)]


def corner_node(hex_id: int, corner: int) -> int:
    """The node at a hex's corner, corners numbered 1..6 clockwise from the top.

    >>> corner_node(9, 1), corner_node(9, 4)
    (18, 35)
    """
    return HEX_NODES[hex_id][corner - 1]


def describe() -> dict[str, list[list[int]]]:
    """The static geometry as JSON, the same for every game: what bots need to plan.

    ``hex_nodes[h]`` lists hex h's corners 1..6, ``edge_nodes[e]`` edge e's two nodes,
    ``node_hexes[n]`` and ``node_edges[n]`` what touches node n.
    """
    return {
        "hex_nodes": [list(nodes) for nodes in HEX_NODES],
        "edge_nodes": [list(ends) for ends in EDGE_NODES],
        "node_hexes": [list(hexes) for hexes in NODE_HEXES],
        "node_edges": [list(edges) for edges in NODE_EDGES],
    }
