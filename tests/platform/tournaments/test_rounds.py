"""Rounds of a knockout and a Swiss through the API: a knockout seeded by ladder rating, and the next
round made when the last match of a round ends aborted."""

from __future__ import annotations

from dataclasses import replace

from arena.ladders import rows as ladder_rows
from arena.worker.execution import RunOutcome, execute
from referee.registry import get_game
from tests.platform.conftest import Arena


def register(arena: Arena, count: int) -> list[str]:
    paths = ["/first/w", "/last/x", "/first/y", "/first/z"][:count]
    return [arena.register(path, path, ["party"])["id"] for path in paths]


def rate(arena: Arena, ratings: dict[str, tuple[float, float]]) -> None:
    """Give bots ladder rows on party/open with these (mu, sigma)."""
    spec = get_game("party").variant("open")
    rows = {}
    for bot, (mu, sigma) in ratings.items():
        row = {**ladder_rows.new_row(spec), "mu": mu, "sigma": sigma, "games": 5}
        rows[bot] = {**row, "key": ladder_rows.rank_key(row, spec)}
    arena.runtime.store.ladders.put_rows("party", "open", rows, {bot: bot for bot in rows})


def create(arena: Arena, **body: object) -> dict:
    answer = arena.client.post("/api/v1/tournaments", json=body, headers=arena.admin())
    assert answer.status_code == 202, answer.get_json()
    return answer.get_json()


def test_a_knockout_is_seeded_by_conservative_rating_unrated_last(arena: Arena) -> None:
    w, x, y, z = register(arena, 4)
    # conservative mu - 3 sigma: z 27, x 20, y 10 (a high mu, but unsure); w has no row
    rate(arena, {x: (26.0, 2.0), y: (40.0, 10.0), z: (30.0, 1.0)})
    created = create(arena, name="k", game="party", format="knockout", bots=[w, x, y, z], seats_per_match=2)
    assert created["seeds"] == [z, x, y, w]
    assert created["bots"] == [w, x, y, z], "the entry list stays as given"
    first = [frozenset(match["bots"]) for match in created["matches"]]
    assert first == [frozenset({z, w}), frozenset({x, y})], "seed 1 meets seed 4, seed 2 seed 3"


def test_a_knockout_of_an_unrated_variant_is_seeded_in_entry_order(arena: Arena) -> None:
    bots = register(arena, 4)
    created = create(
        arena, name="k", game="party", variant="coop", format="knockout", bots=bots, seats_per_match=2
    )
    assert created["seeds"] == bots


def test_the_next_round_follows_when_the_last_match_of_a_round_is_aborted(arena: Arena) -> None:
    bots = register(arena, 4)
    created = create(arena, name="s", game="party", format="swiss", bots=bots, seats_per_match=2, rounds=2)
    first, last = created["rounds_made"][0]["matches"]
    arena.queue.ids.clear()
    assert execute(arena.runtime, first) is RunOutcome.FINISHED
    assert len(arena.get(f"/api/v1/tournaments/{created['id']}")["rounds_made"]) == 1
    giving_up = replace(arena.runtime, settings=replace(arena.runtime.settings, max_attempts=0))
    assert execute(giving_up, last) is RunOutcome.ABORTED
    shown = arena.get(f"/api/v1/tournaments/{created['id']}")
    assert len(shown["rounds_made"]) == 2 and len(arena.queue.ids) == 2
    played = next(match for match in shown["matches"] if match["id"] == first)
    points = {row["bot_id"]: row["points"] for row in shown["standings"]}
    buchholz = {row["bot_id"]: row["buchholz"] for row in shown["standings"]}
    one, other = played["bots"]
    assert (buchholz[one], buchholz[other]) == (points[other], points[one])
    assert points[one] + points[other] == 1.0, "the aborted match gave no points, so no Buchholz"


def test_the_swiss_page_shows_buchholz_and_other_formats_do_not(arena: Arena) -> None:
    bots = register(arena, 4)
    swiss = create(arena, name="s", game="party", format="swiss", bots=bots, seats_per_match=2)
    knockout = create(arena, name="k", game="party", format="knockout", bots=bots, seats_per_match=2)
    assert "Buchholz" in arena.client.get(f"/tournaments/{swiss['id']}").get_data(as_text=True)
    assert "Buchholz" not in arena.client.get(f"/tournaments/{knockout['id']}").get_data(as_text=True)
