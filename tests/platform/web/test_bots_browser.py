"""The bots' pages in a real browser: the rating chart drawn, /bots listed, neither wider than a phone."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.platform.web.conftest import Site, Visitor

pytestmark = pytest.mark.integration

WIDTHS = (1400, 400)


def _pages(site: Site) -> dict[str, str]:
    return {"bots": "/bots", "bots-searched": "/bots?game=nim&q=a", "bot": f"/bots/{site.bots['alice']}"}


def _at_width(visitor: Visitor, width: int) -> None:
    visitor.driver.set_window_size(width, 900)


def test_the_rating_chart_is_drawn_with_a_point_per_rated_match(visitor: Visitor, site: Site) -> None:
    history = site.api("GET", f"/api/v1/bots/{site.bots['alice']}/history")
    assert history["points"], "the site's round robin is rated"
    visitor.visit(f"/bots/{site.bots['alice']}")
    chart = visitor.driver.find_element(By.CSS_SELECTOR, "svg.rating-chart")
    assert chart.size["width"] > 300 and chart.size["height"] > 100
    points = chart.find_elements(By.CSS_SELECTOR, "circle.chart-point")
    assert len(points) == len(history["points"])
    assert chart.find_element(By.CSS_SELECTOR, "polyline.chart-conservative").is_displayed()
    assert visitor.console_errors() == []


def test_the_bots_list_links_each_bot_with_its_ratings(visitor: Visitor, site: Site) -> None:
    visitor.visit("/")
    visitor.driver.find_element(By.LINK_TEXT, "Bots").click()
    rows = visitor.driver.find_elements(By.CSS_SELECTOR, "table.bots tbody tr")
    assert {row.get_attribute("data-bot-id") for row in rows} >= set(site.bots.values())
    alice = next(row for row in rows if row.get_attribute("data-bot-id") == site.bots["alice"])
    assert "nim · standard" in alice.find_element(By.CSS_SELECTOR, "td.ratings").text
    assert visitor.console_errors() == []


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_scrolls_sideways(visitor: Visitor, site: Site, width: int) -> None:
    _at_width(visitor, width)
    try:
        for name, path in _pages(site).items():
            visitor.visit(path)
            wide = visitor.driver.execute_script("return document.documentElement.scrollWidth")
            inner = visitor.driver.execute_script("return document.documentElement.clientWidth")
            assert wide <= inner, f"{path} is {wide} px wide in a {inner} px window"
            visitor.screenshot(f"{name}-{width}")
    finally:
        _at_width(visitor, 1280)
