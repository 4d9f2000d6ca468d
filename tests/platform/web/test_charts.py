"""The rating chart: one point, many points, equal values, and text that must not break the SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from arena.web.charts import MARKED_POINTS, rating_chart

SVG = "{http://www.w3.org/2000/svg}"


def _point(n: int, conservative: float = 1.0, at: str = "2026-11-28T05:00:00.000+00:00") -> dict[str, object]:
    return {
        "match": f"m-{n:016x}",
        "at": at,
        "rating": 1500.0,
        "mu": 25.0,
        "sigma": 8.0,
        "conservative": conservative,
    }


def test_one_point_is_a_dot_in_the_middle_and_the_svg_parses() -> None:
    svg = ET.fromstring(str(rating_chart([_point(1)], "a <b> & c")))
    (dot,) = svg.iter(f"{SVG}circle")
    title = svg.find(f"{SVG}title")
    assert float(dot.get("cx") or 0) > 100 and title is not None and title.text == "a <b> & c"


def test_many_points_are_lines_without_dots_and_days_apart_show_dates() -> None:
    points = [_point(n, conservative=n / 10) for n in range(MARKED_POINTS + 1)]
    points[-1]["at"] = "2026-12-01T05:00:00.000+00:00"
    svg = ET.fromstring(str(rating_chart(points, "t")))
    assert list(svg.iter(f"{SVG}circle")) == []
    lines = list(svg.iter(f"{SVG}polyline"))
    assert [line.get("class") for line in lines] == ["chart-conservative", "chart-mu"]
    assert len((lines[0].get("points") or "").split()) == MARKED_POINTS + 1
    labels = [text.text for text in svg.iter(f"{SVG}text")]
    assert "2026-11-28" in labels and "2026-12-01" in labels


def test_points_of_one_day_show_their_times_and_a_flat_line_stays_inside() -> None:
    points = [_point(1), _point(2, at="2026-11-28T06:30:00.000+00:00")]
    svg = ET.fromstring(str(rating_chart(points, "t")))
    labels = [text.text for text in svg.iter(f"{SVG}text")]
    assert "05:00 UTC" in labels and "06:30 UTC" in labels
    heights = [float(dot.get("cy") or 0) for dot in svg.iter(f"{SVG}circle")]
    assert heights[0] == heights[1] and 0 < heights[0] < 250
