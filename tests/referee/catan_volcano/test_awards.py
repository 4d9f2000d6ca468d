"""Longest road (broken by an opponent's settlement) and largest army."""

from __future__ import annotations

from referee.catan_volcano import awards
from referee.catan_volcano.geometry import edge_between
from tests.referee.catan_volcano.positions import (
    deal_card,
    events,
    give,
    road,
    settlement,
    start_turn,
    table,
)

# a path of six edges along the top of the island, and one along the second row
TOP = (3, 0, 4, 1, 5, 2, 6)
SECOND = (11, 7, 12, 8, 13, 9, 14)


def test_five_roads_in_a_row_take_the_longest_road() -> None:
    state = table("base", 4)
    settlement(state, 0, 3)
    road(state, 0, 3, 0, 4, 1, 5)  # four
    assert state.longest_road == -1 and state.road_length[0] == 4
    start_turn(state, 0, "main")
    give(state, 0, wood=1, brick=1)
    state.apply({"type": "build_road", "edge": edge_between(5, 2)})
    assert state.road_length[0] == 5 and state.longest_road == 0
    assert awards.visible_points(state, 0) == 1 + 2
    assert events(state, "longest_road")[-1]["seat"] == 0


def test_a_branch_does_not_count_twice_but_a_loop_does() -> None:
    state = table("base", 4)
    road(state, 0, 3, 0, 4, 1, 5)
    road(state, 0, 4, 8)  # a branch: still four
    assert state.road_length[0] == 4
    # a ring around hex 0 (six edges) plus a tail: the trail runs the ring and the tail
    ring = table("base", 4)
    road(ring, 1, 0, 4, 8, 12, 7, 3, 0)
    assert ring.road_length[1] == 6
    road(ring, 1, 7, 11)
    assert ring.road_length[1] == 7


def test_only_a_strictly_longer_road_takes_the_award() -> None:
    state = table("base", 4)
    road(state, 0, *TOP[:6])  # five
    road(state, 1, *SECOND[:6])  # five as well
    assert state.longest_road == 0
    road(state, 1, SECOND[5], SECOND[6])  # six
    assert state.longest_road == 1


def test_an_opponents_settlement_breaks_a_road_and_the_award_moves() -> None:
    state = table("base", 4)
    road(state, 0, *TOP)  # six
    road(state, 1, *SECOND[:6])  # five
    assert state.longest_road == 0
    start_turn(state, 2, "main")
    road(state, 2, 8, 4)
    give(state, 2, wood=1, brick=1, sheep=1, wheat=1)
    # node 4 lies in the middle of seat 0's road: 3-0-4 | 4-1-5-2-6 leaves four
    state.apply({"type": "build_settlement", "node": 4})
    assert state.road_length[0] == 4
    assert state.longest_road == 1


def test_a_broken_road_with_a_tie_for_longest_sets_the_award_aside() -> None:
    state = table("base", 4)
    road(state, 0, *TOP)  # six
    road(state, 1, *SECOND[:6])  # five
    road(state, 2, 21, 27, 33, 28, 34, 29)  # five
    start_turn(state, 3, "main")
    road(state, 3, 8, 4)
    give(state, 3, wood=1, brick=1, sheep=1, wheat=1)
    state.apply({"type": "build_settlement", "node": 4})
    assert state.road_length[:3] == [4, 5, 5]
    assert state.longest_road == -1
    assert events(state, "longest_road")[-1]["seat"] is None


def test_the_holder_keeps_the_award_while_still_tied_for_longest() -> None:
    state = table("base", 4)
    road(state, 0, *TOP, 10)  # seven
    road(state, 1, *SECOND[:6])  # five
    start_turn(state, 2, "main")
    road(state, 2, 8, 4)
    give(state, 2, wood=1, brick=1, sheep=1, wheat=1)
    state.apply({"type": "build_settlement", "node": 4})  # 3-0-4 | 4-1-5-2-6-10: five
    assert state.road_length[:2] == [5, 5]
    assert state.longest_road == 0


def test_three_knights_take_the_largest_army_and_only_more_take_it_away() -> None:
    state = table("base", 4)
    settlement(state, 0, 18)
    for turn in range(3):
        start_turn(state, 0, "main")
        deal_card(state, 0, "knight")
        state.apply({"type": "play_knight"})
        state.apply({"type": "move_robber", "hex": 0 if turn % 2 == 0 else 1, "victim": None})
    assert state.largest_army == 0
    assert awards.visible_points(state, 0) == 1 + 2
    for turn in range(3):
        start_turn(state, 1, "main")
        deal_card(state, 1, "knight")
        state.apply({"type": "play_knight"})
        state.apply({"type": "move_robber", "hex": 2 if turn % 2 == 0 else 3, "victim": None})
    assert state.largest_army == 0  # three is not more than three
    start_turn(state, 1, "main")
    deal_card(state, 1, "knight")
    state.apply({"type": "play_knight"})
    assert state.largest_army == 1
