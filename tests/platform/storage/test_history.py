"""A bot's rating history and head-to-head record, written by the transaction that stores a match's end."""

from __future__ import annotations

from dataclasses import replace

from arena.worker.execution import finish
from referee.replay import Replay, decompress
from tests.platform.conftest import Arena


def _play(arena: Arena, bots: list[str], *, rated: bool = True, seed: int = 1) -> str:
    match = arena.match(game="nim", bots=bots, rated=rated, seed=seed, options={"stones": 7})
    arena.run_queue()
    return str(match["id"])


def test_each_counted_match_appends_one_point_and_unrated_matches_none(arena: Arena) -> None:
    first = arena.register("first", "/first/h1", ["nim"])["id"]
    last = arena.register("last", "/last/h1", ["nim"])["id"]
    store = arena.runtime.store
    counted = [_play(arena, [first, last], seed=seed) for seed in (1, 2)]
    _play(arena, [first, last], rated=False, seed=3)

    history = store.history.ratings("nim", "standard", first)
    assert [point["match"] for point in history] == counted
    row = arena.get(f"/api/v1/bots/{first}")["ratings"][0]
    assert {key: history[-1][key] for key in ("rating", "mu", "sigma", "conservative")} == {
        key: row[key] for key in ("rating", "mu", "sigma", "conservative")
    }
    assert history[0]["at"] == arena.get(f"/api/v1/matches/{counted[0]}")["finished_at"]


def test_a_second_end_of_the_same_match_appends_nothing(arena: Arena) -> None:
    first = arena.register("first", "/first/h2", ["nim"])["id"]
    last = arena.register("last", "/last/h2", ["nim"])["id"]
    match_id = _play(arena, [first, last])
    store = arena.runtime.store
    record = store.matches.get(match_id)
    replay = store.replays.get(match_id)
    assert record is not None and replay is not None
    assert finish(arena.runtime, record, Replay.from_json(decompress(replay))) is False
    assert len(store.history.ratings("nim", "standard", first)) == 1
    assert [(v.opponent, v.wins + v.losses) for v in store.history.versus(first)] == [(last, 1)]


def test_the_history_keeps_only_the_newest_points(arena: Arena) -> None:
    arena.runtime.settings = replace(arena.runtime.settings, history_points=2)
    first = arena.register("first", "/first/h3", ["nim"])["id"]
    last = arena.register("last", "/last/h3", ["nim"])["id"]
    played = [_play(arena, [first, last], seed=seed) for seed in range(3)]
    assert [
        point["match"] for point in arena.runtime.store.history.ratings("nim", "standard", last)
    ] == played[1:]


def test_head_to_head_counts_every_finished_match_by_opponent(arena: Arena) -> None:
    first = arena.register("first", "/first/h4", ["nim"])["id"]
    last = arena.register("last", "/last/h4", ["nim"])["id"]
    other = arena.register("other", "/first/h4b", ["nim"])["id"]
    _play(arena, [first, last], seed=1)
    _play(arena, [first, last], rated=False, seed=2)
    _play(arena, [first, other], seed=3)
    _play(arena, [first, first], seed=4)  # against itself: no opponent
    store = arena.runtime.store
    record = {v.opponent: (v.wins, v.draws, v.losses) for v in store.history.versus(first)}
    assert set(record) == {last, other}
    assert sum(record[last]) == 2 and sum(record[other]) == 1
    mirrored = {v.opponent: (v.losses, v.draws, v.wins) for v in store.history.versus(last)}
    assert mirrored == {first: record[last]}


def test_an_unrated_variant_keeps_no_history_and_a_deleted_bot_leaves_none(arena: Arena) -> None:
    one = arena.register("one", "/first/h5", ["party"])
    two = arena.register("two", "/first/h5b", ["party"])["id"]
    arena.match(game="party", variant="coop", bots=[one["id"], two], seed=1)
    arena.match(game="party", variant="open", bots=[one["id"], two], seed=2)
    arena.run_queue()
    store = arena.runtime.store
    assert store.history.ratings("party", "coop", one["id"]) == []
    assert len(store.history.ratings("party", "open", one["id"])) == 1
    coop = arena.get(f"/api/v1/bots/{one['id']}/history?variant=coop")
    assert coop["rated"] is False and coop["points"] == []
    answer = arena.client.delete(
        f"/api/v1/bots/{one['id']}", headers={"Authorization": f"Bearer {one['token']}"}
    )
    assert answer.status_code == 204
    assert store.history.ratings("party", "open", one["id"]) == [] and store.history.versus(one["id"]) == []
    assert [v.opponent for v in store.history.versus(two)] == [one["id"]]  # its opponents keep theirs
