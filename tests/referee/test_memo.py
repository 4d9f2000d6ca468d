from __future__ import annotations

import importlib

from referee.memo import MEMOS, Memo

ENGINE_MEMOS = {
    "rng.limits",
    "volcano.placements",
    "boulderville.open_ground",
    "boulderville.plays",
    "boulderville.plans",
    "boulderville.distinct_cards",
    "boulderville.renown",
    "boulderville.fronts",
    "boulderville.lead_orders",
    "boulderville.distances",
    "boulderville.person_views",
    "boulderville.scientist_views",
    "vulkan.flights",
    "vulkan.rebuild_tables",
    "vulkan.layouts",
    "catan.development_counts",
    "catan.pieces_left",
    "catan.dice",
}


def test_every_engine_memo_is_listed_with_a_bound() -> None:
    for game in ("vulkan", "volcano", "boulderville", "catan_volcano"):
        importlib.import_module(f"referee.{game}")
    importlib.import_module("referee.vulkan.rebuild")
    assert set(MEMOS) >= ENGINE_MEMOS
    assert all(0 < MEMOS[name].limit <= 200_000 for name in ENGINE_MEMOS)


def test_a_memo_at_its_bound_starts_afresh_and_keeps_the_new_entry() -> None:
    memo = Memo[str, int]("test.bound", limit=3, process_wide=False)
    for number, key in enumerate("abc"):
        assert memo.keep(key, number) == number
    assert memo.table == {"a": 0, "b": 1, "c": 2}
    memo.keep("d", 3)
    assert memo.table == {"d": 3}
    assert "test.bound" not in MEMOS
