"""What the bots benches share: the 95% Wilson score interval of a win rate.

This is no benchmark itself: the ``*_bots.py`` scripts next to it import it by name (running
``python bench/<script>.py`` puts ``bench/`` on the path).
"""

from __future__ import annotations

import math


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate.

    >>> [round(end, 3) for end in wilson(50, 100)]
    [0.404, 0.596]
    """
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - spread, centre + spread


if __name__ == "__main__":
    print("shared code of the bots benches (bench/*_bots.py), no benchmark itself")
