"""Ladders in the store: pages of a sorted set with competition ranks, finishing a match touching
only its bots' rows, names without bot records, renames and deletes, the paged API, the refit."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cli import ratings_command
from arena.ladders import ladder
from arena.ladders.rows import display_row, new_row, rank_key
from arena.records import GAME_ENTRANT
from arena.storage import Store
from arena.storage.bots import Bots
from referee.game import VariantSpec
from tests.platform.conftest import Arena

_ENDS = {"end_reasons": frozenset({"end"}), "max_moves": 10}
RATED = VariantSpec("duel", seats=(2, 3, 4), description="", **_ENDS)
UNRATED = VariantSpec("practice", seats=(2,), description="", rated=False, **_ENDS)


def _row(spec: VariantSpec, mu: float, sigma: float, games: int, wins: int, score: float) -> dict:
    row = {**new_row(spec), "games": games, "wins": wins, "losses": games - wins, "score_sum": score}
    if spec.rated:
        row.update(mu=mu, sigma=sigma)
    return {**row, "key": rank_key(row, spec)}


rows_strategy = st.dictionaries(
    st.text("abcdefgh", min_size=1, max_size=3).map(lambda s: "b-" + s),
    st.tuples(
        st.sampled_from([20.0, 25.0, 30.0]),  # few values: many ties
        st.sampled_from([1.0, 2.0]),
        st.integers(1, 4),
        st.integers(0, 4),
        st.sampled_from([0.0, 3.0, 7.5]),
    ),
    max_size=25,
)


@settings(max_examples=50, deadline=None)
@given(rows_strategy, st.sampled_from([RATED, UNRATED]), st.integers(1, 7))
def test_pages_concatenate_to_the_whole_ladder_with_competition_ranks(raw, spec, size) -> None:
    rows = {
        bot: _row(spec, mu, sigma, games, min(wins, games), score)
        for bot, (mu, sigma, games, wins, score) in raw.items()
    }
    store = Store.in_memory()
    names = {bot: bot.upper() for bot in rows}
    store.ladders.put_rows("g", "v", rows, names)
    pages = [ladder.page(store, "g", "v", spec, offset, size) for offset in range(0, len(rows) + size, size)]
    assert all(p["total"] == len(rows) for p in pages)
    joined = [entry for p in pages for entry in p["entries"]]
    assert [e["bot_id"] for e in joined] == sorted(rows, key=lambda bot: (-rows[bot]["key"], bot))
    for entry in joined:  # competition rank: 1 + how many rank strictly above
        bot = entry["bot_id"]
        assert entry == {**display_row(bot, names[bot], rows[bot], spec), "rank": entry["rank"]}
        assert entry["rank"] == 1 + sum(1 for other in rows.values() if other["key"] > rows[bot]["key"])


def test_unrated_ladders_rank_by_win_rate_then_mean_score_in_one_key() -> None:
    better_rate = _row(UNRATED, 0, 0, games=4, wins=3, score=0.0)
    worse_rate_more_score = _row(UNRATED, 0, 0, games=4, wins=2, score=400.0)
    same_rate_more_score = _row(UNRATED, 0, 0, games=8, wins=6, score=8.0)
    negative = _row(UNRATED, 0, 0, games=1, wins=0, score=-(10**9))  # clamped, still ranks
    assert better_rate["key"] > worse_rate_more_score["key"] > negative["key"]
    assert same_rate_more_score["key"] > better_rate["key"]


@pytest.fixture
def duelists(arena: Arena) -> tuple[dict, dict, dict]:
    return (
        arena.register("Ann", "/first/ann", ["nim", "party"]),
        arena.register("Bob", "/first/bob", ["nim", "party"]),
        arena.register("Cy", "/last/cy", ["nim", "party"]),
    )


def play(arena: Arena, *bots: dict, **extra) -> None:
    """One Nim match with one stone: the first seat always takes it and wins."""
    arena.match(game="nim", bots=[b["id"] for b in bots], options={"stones": 1}, **extra)
    arena.run_queue()


def test_a_match_writes_its_bots_rows_keys_names_and_result_and_nothing_else(arena: Arena, duelists) -> None:
    ann, bob, cy = duelists
    store = arena.runtime.store
    bystander = _row(RATED, 40.0, 1.0, games=9, wins=9, score=0.0)
    store.ladders.put_rows("nim", "standard", {cy["id"]: bystander}, {cy["id"]: "Cy"})
    play(arena, ann, bob)
    assert store.ladders.row("nim", "standard", cy["id"]) == bystander
    won, lost = (store.ladders.row("nim", "standard", b["id"]) for b in (ann, bob))
    assert won is not None and lost is not None
    assert (won["wins"], lost["losses"], won["rating"], lost["rating"]) == (1, 1, 1520.0, 1480.0)
    assert won["mu"] > 25.0 > lost["mu"] and won["key"] == rank_key(won, RATED)
    results = store.ladders.results("nim", "standard")
    assert [(r["bots"], r["places"]) for r in results] == [([ann["id"], bob["id"]], [1, 2])]
    shown = arena.get("/api/v1/ladders/nim")
    assert [(e["rank"], e["name"]) for e in shown["entries"]] == [(1, "Cy"), (2, "Ann"), (3, "Bob")]
    entry = shown["entries"][1]
    assert entry["conservative"] == pytest.approx(entry["mu"] - 3 * entry["sigma"], abs=2e-3)
    assert entry["refit"] is None and shown["refit"] is None and shown["total"] == 3


def test_a_page_never_reads_bot_records(arena: Arena, duelists, monkeypatch) -> None:
    ann, bob, _ = duelists
    play(arena, ann, bob)

    def refuse(*args, **kwargs):
        raise AssertionError("a ladder read a bot record")

    monkeypatch.setattr(Bots, "get_many", refuse)
    monkeypatch.setattr(Bots, "get", refuse)
    assert [e["name"] for e in arena.get("/api/v1/ladders/nim")["entries"]] == ["Ann", "Bob"]
    assert arena.client.get("/games/nim/ladder").status_code == 200


def test_renamed_and_deleted_bots_keep_the_ladder_right(arena: Arena, duelists) -> None:
    ann, bob, cy = duelists
    play(arena, ann, bob)
    play(arena, cy, bob)
    owner = {"Authorization": f"Bearer {ann['token']}"}
    answer = arena.client.patch(f"/api/v1/bots/{ann['id']}", json={"name": "Anna"}, headers=owner)
    assert answer.status_code == 200
    names = [e["name"] for e in arena.get("/api/v1/ladders/nim")["entries"]]
    assert "Anna" in names and "Ann" not in names
    owner = {"Authorization": f"Bearer {bob['token']}"}
    answer = arena.client.delete(f"/api/v1/bots/{bob['id']}", headers=owner)
    assert answer.status_code == 204
    shown = arena.get("/api/v1/ladders/nim")
    assert shown["total"] == 2 and bob["id"] not in {e["bot_id"] for e in shown["entries"]}
    # Ann beat a newcomer, Cy a Bob who had lost once: Ann gained more
    assert [(e["rank"], e["name"]) for e in shown["entries"]] == [(1, "Anna"), (2, "Cy")]


def test_pages_use_page_and_page_size_with_x_pagination(arena: Arena, duelists) -> None:
    store = arena.runtime.store
    rows = {f"b-{i:02d}": _row(RATED, 30.0 - (i // 3), 1.0, games=1, wins=1, score=0.0) for i in range(7)}
    store.ladders.put_rows("nim", "standard", rows, {bot: bot for bot in rows})
    answer = arena.client.get("/api/v1/ladders/nim?page=2&page_size=2")
    assert answer.status_code == 200
    paging = json.loads(answer.headers["X-Pagination"])
    assert (paging["total"], paging["total_pages"], paging["page"]) == (7, 4, 2)
    body = answer.get_json()
    # keys 27, 27, 27, 26, 26, 26, 25: ranks 1 1 1 4 4 4 7; page 2 holds rows 3 and 4
    assert [(e["bot_id"], e["rank"]) for e in body["entries"]] == [("b-02", 1), ("b-03", 4)]
    assert arena.client.get("/api/v1/ladders/nim?page=0").status_code == 422
    assert arena.client.get("/api/v1/ladders/nim?page_size=501").status_code == 422
    assert arena.get("/api/v1/ladders/nim?page=9")["entries"] == []


def test_a_team_variant_rates_the_team_against_the_game_which_is_no_row(arena: Arena, duelists) -> None:
    ann, bob, _ = duelists  # both pick 0: 0 < 2, the crew loses
    arena.match(game="party", variant="crew", bots=[ann["id"], bob["id"]])
    arena.run_queue()
    store = arena.runtime.store
    shown = arena.get("/api/v1/ladders/party?variant=crew")
    assert {e["bot_id"] for e in shown["entries"]} == {ann["id"], bob["id"]} and shown["total"] == 2
    assert all(e["rating"] == 1500.0 and e["mu"] < 25.0 for e in shown["entries"])  # Elo: lost, unrated
    assert store.ladders.row("party", "crew", GAME_ENTRANT)["mu"] > 25.0


def test_refit_stores_intervals_that_the_ladder_shows(arena: Arena, duelists) -> None:
    ann, bob, cy = duelists
    for _ in range(3):
        play(arena, ann, bob)
        play(arena, bob, cy)
    play(arena, bob, ann)
    play(arena, cy, ann)
    done = ratings_command.refit_ladder(arena.runtime.store, "nim", "standard", samples=50, seed=1)
    assert (done["matches"], done["bots"], done["samples"]) == (8, 3, 50)
    shown = arena.get("/api/v1/ladders/nim")
    assert shown["refit"]["matches"] == 8 and shown["refit"]["seed"] == 1
    fits = {e["name"]: e["refit"] for e in shown["entries"]}
    assert all(f["low"] <= f["rating"] <= f["high"] for f in fits.values())
    assert fits["Ann"]["rating"] > fits["Bob"]["rating"] > fits["Cy"]["rating"]


def test_refit_of_an_unrated_ladder_or_without_redis_is_refused(arena: Arena, capsys, monkeypatch) -> None:
    from arena.cli.local_play import UsageError
    from arena.cli.main import main

    with pytest.raises(UsageError):
        ratings_command.refit_ladder(arena.runtime.store, "party", "coop", samples=5, seed=0)
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["ratings", "refit", "nim", "standard"]) == 2
    assert "needs REDIS_URL" in capsys.readouterr().err
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    assert main(["ratings", "refit", "chess", "standard"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert main(["ratings", "refit", "nim", "blitz"]) == 2
    assert "no variant" in capsys.readouterr().err


def test_ladders_kept_the_old_way_move_to_the_paged_layout(arena: Arena, duelists) -> None:
    ann, bob, _ = duelists
    store = arena.runtime.store
    old = {
        "rating": 1540.0,
        "rated_games": 2,
        "games": 2,
        "wins": 2,
        "draws": 0,
        "losses": 0,
        "score_sum": 4.0,
        "team_games": 0,
        "team_wins": 0,
        "last_match": "m-1",
    }
    legacy = {ann["id"]: old, bob["id"]: {**old, "rating": 1460.0, "wins": 0, "losses": 2}, "b-gone": old}
    old_key = store.key("ladder", "nim", "standard")
    store.redis.hset(old_key, mapping={bot: json.dumps(row) for bot, row in legacy.items()})
    assert arena.get("/api/v1/ladders/nim")["entries"] == []  # not seen until moved
    assert ratings_command.migrate(store) == {("nim", "standard"): 2}
    shown = arena.get("/api/v1/ladders/nim")["entries"]
    assert {(e["name"], e["rating"], e["games"], e["mu"]) for e in shown} == {
        ("Ann", 1540.0, 2, 25.0),
        ("Bob", 1460.0, 2, 25.0),
    }
    assert [e["rank"] for e in shown] == [1, 1]  # no skill history yet: equal conservative estimates
    assert store.ladders.legacy_rows("nim", "standard") == {} and ratings_command.migrate(store) == {}


def test_a_page_is_exactly_what_its_schema_documents(arena: Arena, duelists) -> None:
    from arena.api.schemas.ladders import LadderSchema

    ann, bob, cy = duelists
    play(arena, ann, bob)
    play(arena, cy, ann)
    ratings_command.refit_ladder(arena.runtime.store, "nim", "standard", samples=5, seed=0)
    for url in ("/api/v1/ladders/nim", "/api/v1/ladders/party?variant=coop"):
        body = arena.get(url)
        assert LadderSchema().dump(body) == body
        assert set(body) == set(LadderSchema().fields)
