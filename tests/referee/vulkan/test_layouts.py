"""The two layout kinds and the seeded deal: what rules-notes asks of them."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.vulkan import GAME
from referee.vulkan.edition import EDITION
from referee.vulkan.hexes import enclosed, is_connected, touching


def dealt(layout: str, seed: int, seats: int = 2):
    state = GAME.start("competitive", seats=seats, seed=seed, options={"layout": layout})
    return state, state.observation(0)["tiles"]


def cells_of(tiles) -> set[tuple[int, int]]:
    return {tuple(entry["at"]) for entry in tiles}


def test_classic_is_a_hexagon_of_radius_3_less_one_corner() -> None:
    _, tiles = dealt("classic", 1)
    cells = cells_of(tiles)
    assert len(cells) == 36
    assert (3, -3) not in cells and (0, 0) in cells and (-3, 3) in cells
    assert all(max(abs(q), abs(r), abs(q + r)) <= 3 for q, r in cells)
    assert all(touching(cell, cells) >= 2 for cell in cells)
    assert len(enclosed(cells)) == 18  # 19 inner cells, less the one next to the missing corner


@pytest.mark.parametrize("seed", range(12))
def test_random_layouts_are_compact_clusters_with_a_place_for_the_volcano(seed: int) -> None:
    _, tiles = dealt("random", seed)
    cells = cells_of(tiles)
    assert len(cells) == 36
    assert is_connected(cells)
    assert all(touching(cell, cells) >= 2 for cell in cells)
    assert enclosed(cells)


def test_random_layouts_follow_the_seed() -> None:
    layouts = [frozenset(cells_of(dealt("random", seed)[1])) for seed in range(8)]
    assert len(set(layouts)) == 8
    assert cells_of(dealt("random", 3)[1]) == layouts[3]


@pytest.mark.parametrize("layout", ["classic", "random"])
def test_the_deal_puts_six_tiles_of_each_value_with_the_editions_spaces(layout: str) -> None:
    _, tiles = dealt(layout, 5)
    assert Counter(entry["value"] for entry in tiles) == {value: 6 for value in range(1, 7)}
    assert all(entry["spaces"] == EDITION.spaces_for(entry["value"]) for entry in tiles)
    assert sum(entry["spaces"] for entry in tiles) == 72
    assert all(entry["loads"] == [] for entry in tiles)


def test_the_deal_follows_the_seed_and_differs_between_seeds() -> None:
    def values(seed: int) -> list[int]:
        return [entry["value"] for entry in dealt("classic", seed)[1]]

    assert values(9) == values(9)
    assert values(9) != values(10)


@pytest.mark.parametrize(
    ("seats", "supplies"),
    [
        (1, [{"red": 12, "yellow": 12, "green": 12, "blue": 12}]),
        (2, [{"red": 12, "yellow": 12}, {"green": 12, "blue": 12}]),
        (3, [{"red": 12, "blue": 4}, {"yellow": 12, "blue": 4}, {"green": 12, "blue": 4}]),
        (4, [{"red": 12}, {"yellow": 12}, {"green": 12}, {"blue": 12}]),
    ],
)
def test_each_seat_count_hands_out_the_colours_of_the_rule_text(seats: int, supplies: list[dict]) -> None:
    variant = "solitaire" if seats == 1 else "competitive"
    observation = GAME.start(variant, seats=seats, seed=0).observation(0)
    assert [seat["supply"] for seat in observation["seats"]] == supplies
    assert [seat["colours"] for seat in observation["seats"]] == [list(row) for row in supplies]
