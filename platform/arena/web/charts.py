"""A bot's rating over time, drawn on the server as inline SVG: no script, no external library.

The drawing has a fixed coordinate box (``viewBox``) and takes the width of its container, so it
reads the same at 1400 px as at 400 px: its labels are sized for the narrow end. It plots the
conservative estimate (``mu - 3 sigma``, what the ladder ranks by) and ``mu`` after each counted match;
each point's ``<title>`` gives the match, its time and every value, Elo included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from markupsafe import Markup

WIDTH = 520
HEIGHT = 250
LEFT = 56
"""Room for the values along the left edge."""
RIGHT = 12
TOP = 14
BOTTOM = 40
"""Room for the first and last dates along the bottom."""
FONT = 19
"""Label size in the box's units: 12 px or more on a 400 px wide screen."""
MARKED_POINTS = 120
"""Up to this many points each get a dot with its details; more would hide the lines."""
SERIES = (("conservative", "chart-conservative"), ("mu", "chart-mu"))


def _ticks(low: float, high: float, count: int = 4) -> list[float]:
    """``count`` + 1 evenly spaced values from ``low`` to ``high``."""
    return [low + (high - low) * step / count for step in range(count + 1)]


def _label(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 10 else f"{value:.1f}"


def _when(at: str | None, same_day: bool) -> str:
    """A point's time along the bottom: its date, or its time of day when every point is of one day."""
    return (at or "")[11:16] + " UTC" if same_day else (at or "")[:10]


def rating_chart(points: Sequence[Mapping[str, Any]], title: str) -> Markup:
    """The SVG of ``points`` (``{match, at, rating, mu, sigma, conservative}``, oldest first)."""
    values = [float(point[name]) for point in points for name, _ in SERIES]
    low, high = min(values), max(values)
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + (plot_w * index / (len(points) - 1) if len(points) > 1 else plot_w / 2)

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg" font-size="{FONT}">',
        f"<title>{escape(title)}</title>",
    ]
    for tick in _ticks(low, high):
        level = f"{y(tick):.1f}"
        parts.append(
            f'<line class="chart-grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{level}" y2="{level}"/>'
            f'<text class="chart-label" x="{LEFT - 6}" y="{y(tick) + FONT / 3:.1f}" '
            f'text-anchor="end">{_label(tick)}</text>'
        )
    baseline = HEIGHT - BOTTOM + FONT + 4
    first, last = points[0]["at"], points[-1]["at"]
    same_day = (first or "")[:10] == (last or "")[:10]
    parts.append(
        f'<text class="chart-label" x="{LEFT}" y="{baseline}">{escape(_when(first, same_day))}</text>'
    )
    if len(points) > 1:
        parts.append(
            f'<text class="chart-label" x="{WIDTH - RIGHT}" y="{baseline}" text-anchor="end">'
            f"{escape(_when(last, same_day))}</text>"
        )
    for name, css in SERIES:
        path = " ".join(f"{x(i):.1f},{y(float(point[name])):.1f}" for i, point in enumerate(points))
        parts.append(f'<polyline class="{css}" fill="none" points="{path}"/>')
    if len(points) <= MARKED_POINTS:
        for index, point in enumerate(points):
            details = (
                f"{point['match']} · {point['at'] or ''}\n"
                f"skill {point['conservative']} (μ {point['mu']} ± σ {point['sigma']})"
                f" · Elo {point['rating']}"
            )
            parts.append(
                f'<circle class="chart-point" cx="{x(index):.1f}" cy="{y(float(point["conservative"])):.1f}" '
                f'r="4"><title>{escape(details)}</title></circle>'
            )
    parts.append("</svg>")
    return Markup("".join(parts))
