"""Each tournament format drawn in the browser: a knockout's bracket (byes, the winner's path), a
Swiss's rounds with pairings, a round robin's cross table; every match of each linked from it."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.platform.web.conftest import Site, Visitor

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def entrants(site: Site) -> list[str]:
    """Six Nim bots, first and last players in turn, registered once (registrations are rate limited)."""
    return [site.register(f"entrant{n}", f"/{('first', 'last')[n % 2]}/entrant{n}") for n in range(1, 7)]


def play(site: Site, name: str, bots: list[str], **request: object) -> dict:
    """A tournament of ``bots`` at Nim, played to its end."""
    body = {
        "name": name,
        "game": "nim",
        "bots": bots,
        "seats_per_match": 2,
        "seed": 3,
        "options": {"stones": 9},
    }
    created = site.api("POST", "/api/v1/tournaments", json={**body, **request})
    return site.wait(f"/api/v1/tournaments/{created['id']}", lambda t: t["status"] == "finished", timeout=90)


def linked_matches(visitor: Visitor, selector: str) -> set[str]:
    links = visitor.driver.find_elements(By.CSS_SELECTOR, f"{selector} a[href*='/matches/']")
    return {link.get_attribute("href").rsplit("/", 1)[1] for link in links}


def look_narrow(visitor: Visitor, name: str) -> int:
    """A screenshot 400 px wide; how far the page overflows the window sideways (0: not at all)."""
    size = visitor.driver.get_window_size()
    visitor.driver.set_window_size(400, size["height"])
    try:
        visitor.screenshot(name)
        return int(
            visitor.driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
        )
    finally:
        visitor.driver.set_window_size(size["width"], size["height"])


def test_a_knockout_draws_its_bracket_with_byes_every_match_linked_and_the_winners_path(
    visitor: Visitor, site: Site, entrants: list[str]
) -> None:
    done = play(site, "Knock cup", entrants, format="knockout")
    visitor.visit(f"/tournaments/{done['id']}")
    driver = visitor.driver
    rounds = driver.find_elements(By.CSS_SELECTOR, "[data-bracket] .bracket-round[data-round]")
    assert [r.find_element(By.TAG_NAME, "h3").text for r in rounds] == ["Round 1", "Round 2", "Final"]
    assert len(rounds[0].find_elements(By.CSS_SELECTOR, "a.pod")) == 2
    byes = rounds[0].find_elements(By.CSS_SELECTOR, "[data-bye]")
    assert sorted(b.find_element(By.CSS_SELECTOR, ".seed").text for b in byes) == ["1", "2"]
    assert linked_matches(visitor, "[data-bracket]") == {m["id"] for m in done["matches"]}
    winner = done["winner"]
    winner_name = next(r["name"] for r in done["standings"] if r["bot_id"] == winner)
    final = rounds[2].find_element(By.CSS_SELECTOR, "a.pod")
    assert "path" in final.get_attribute("class")
    path_names = {e.text for e in driver.find_elements(By.CSS_SELECTOR, "[data-bracket] .entrant.path .who")}
    assert path_names == {winner_name}
    assert winner_name in driver.find_element(By.CSS_SELECTOR, ".notice-winner").text
    assert driver.find_element(By.CSS_SELECTOR, "[data-standings] tr .bot").text == winner_name
    visitor.screenshot("tournament-knockout")
    assert look_narrow(visitor, "tournament-knockout-400") == 0
    assert visitor.console_errors() == []


def test_a_knockout_replaying_ties_shows_a_replayed_pods_every_match_linked(
    visitor: Visitor, site: Site
) -> None:
    # Party: /first picks 0, /last 2; seeds in entry order, so the pod of seeds 1 and 4 always draws
    paths = ("/first/tie1", "/last/tie2", "/first/tie3", "/first/tie4")
    bots = [site.register_bot(path.rsplit("/", 1)[1], path, "party") for path in paths]
    body = {"name": "Tie cup", "game": "party", "bots": bots, "seats_per_match": 2, "seed": 4}
    created = site.api(
        "POST", "/api/v1/tournaments", json={**body, "format": "knockout", "pod_ties": "replay"}
    )
    done = site.wait(f"/api/v1/tournaments/{created['id']}", lambda t: t["winner"] is not None, timeout=90)
    tied = done["rounds_made"][0]["matches"][0]
    played = [tied, *done["rounds_made"][0]["replays"][tied]]
    visitor.visit(f"/tournaments/{done['id']}")
    pod = visitor.driver.find_element(By.CSS_SELECTOR, f"[data-bracket] .pod-replayed[data-pod='{tied}']")
    links = pod.find_elements(By.CSS_SELECTOR, "a.pod-play")
    assert [link.text for link in links] == ["match", "replay 1", "replay 2"]
    assert [link.get_attribute("href").rsplit("/", 1)[1] for link in links] == played
    assert "decided" in links[-1].get_attribute("class")
    advanced = pod.find_elements(By.CSS_SELECTOR, ".entrant.advanced .seed")
    assert [seed.text for seed in advanced] == ["1"], "still tied after two replays: the better seed"
    assert linked_matches(visitor, "[data-bracket]") == {m["id"] for m in done["matches"]}
    assert (
        "a match tied for going on is replayed"
        in visitor.driver.find_element(By.CSS_SELECTOR, "[data-result]").text
    )
    links[1].click()
    assert visitor.driver.current_url.endswith(f"/matches/{played[1]}")
    visitor.visit(f"/tournaments/{done['id']}")
    visitor.screenshot("tournament-knockout-replayed")
    assert look_narrow(visitor, "tournament-knockout-replayed-400") == 0
    assert visitor.console_errors() == []


def test_a_swiss_draws_each_round_with_its_pairings_and_byes(
    visitor: Visitor, site: Site, entrants: list[str]
) -> None:
    done = play(site, "Swiss open", entrants[:5], format="swiss", rounds=3)
    visitor.visit(f"/tournaments/{done['id']}")
    driver = visitor.driver
    rounds = driver.find_elements(By.CSS_SELECTOR, "[data-rounds] .swiss-round")
    assert [r.find_element(By.TAG_NAME, "h3").text for r in rounds] == ["Round 1", "Round 2", "Round 3"]
    assert [len(r.find_elements(By.CSS_SELECTOR, "tr.bye")) for r in rounds] == [1, 1, 1]
    assert linked_matches(visitor, "[data-rounds]") == {m["id"] for m in done["matches"]}
    headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "table.standings th")]
    assert headers[-3:] == ["byes", "Buchholz", "Sonneborn-Berger"]
    visitor.screenshot("tournament-swiss")
    assert look_narrow(visitor, "tournament-swiss-400") == 0
    assert visitor.console_errors() == []


def test_a_round_robin_draws_its_cross_table_every_match_linked(visitor: Visitor, site: Site) -> None:
    shown = site.api("GET", f"/api/v1/tournaments/{site.tournament}")
    visitor.visit(f"/tournaments/{site.tournament}")
    driver = visitor.driver
    rows = driver.find_elements(By.CSS_SELECTOR, "[data-cross] tbody tr")
    assert [row.find_element(By.CSS_SELECTOR, ".bot").text for row in rows] == [
        r["name"] for r in shown["standings"]
    ]
    assert len(driver.find_elements(By.CSS_SELECTOR, "[data-cross] td.cross-self")) == 3
    assert linked_matches(visitor, "[data-cross]") == {m["id"] for m in shown["matches"]}
    top = rows[0].find_elements(By.CSS_SELECTOR, "td.cross-cell .cross-total")
    assert sum(float(cell.text.replace("½", ".5") or 0) for cell in top) == shown["standings"][0]["points"]
    visitor.screenshot("tournament-round-robin")
    assert look_narrow(visitor, "tournament-round-robin-400") == 0
    assert visitor.console_errors() == []
