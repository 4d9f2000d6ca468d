"""Vulkan!: tiles with their values and loads, the volcano, tiles won and removed, the seats."""

from __future__ import annotations

from collections import Counter

from arena.boards import render_svg, render_text
from referee.vulkan.drawing import LOAD_COLOURS
from tests.platform.boards.replays import middle, parse, replay, with_class


def test_every_tile_on_the_table_is_drawn_with_its_value_and_loads() -> None:
    state = middle(replay("vulkan"))
    view = state.observation(0)
    root = parse(render_svg("vulkan", state))
    forest = [tile for tile in view["tiles"] if tile["at"] != view["volcano"]]
    drawn = with_class(root, "tile")
    assert Counter(int(g.get("data-value", 0)) for g in drawn) == Counter(t["value"] for t in forest)
    values = [e.text for e in with_class(root, "tile-value")]
    assert Counter(values) == Counter(str(t["value"]) for t in forest)
    loads = Counter(e.get("fill") for e in with_class(root, "load"))
    assert loads == Counter(LOAD_COLOURS[c] for t in forest for c in t["loads"])
    free = sum(t["spaces"] - len(t["loads"]) for t in forest)
    assert len(with_class(root, "space")) == free
    assert len(with_class(root, "volcano")) == 1


def test_tiles_won_and_removed_are_drawn_where_they_lay() -> None:
    state = middle(replay("vulkan"))
    view = state.observation(0)
    root = parse(render_svg("vulkan", state))
    won = [a for seat in view["seats"] for a in seat["awarded"] if a.get("at")]
    assert won, "the seeded game has tiles won by its middle"
    assert len(with_class(root, "awarded-tile")) == len(won)
    assert len(with_class(root, "removed-tile")) == len(view["removed"])


def test_the_text_shows_the_tiles_and_each_seats_score() -> None:
    state = middle(replay("vulkan"))
    view = state.observation(0)
    text = render_text("vulkan", state)
    assert "VV" in text
    for seat, info in enumerate(view["seats"]):
        assert f"seat {seat} ({'+'.join(info['colours'])}): score {info['score']}," in text
    table = text.split("\n\n")[1]
    digits = Counter(ch for ch in table if ch.isdigit())
    assert digits == Counter(str(t["value"]) for t in view["tiles"] if t["at"] != view["volcano"])


def test_reveal_changes_nothing_in_an_open_game() -> None:
    state = middle(replay("vulkan"))
    assert render_svg("vulkan", state, reveal=False) == render_svg("vulkan", state)
