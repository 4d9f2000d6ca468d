"""Random play never breaks an invariant: cards are conserved, points are what the table gives,
no win goes unseen, the distance rule always holds, awards sit where they belong, and every game
ends. (The cached answers, road lengths among them, are checked in ``test_caches.py``.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catan_volcano import GAME, CatanState, awards
from referee.catan_volcano.edition import EDITION, KNIGHT, VICTORY_POINT
from referee.catan_volcano.geometry import NODE_NODES
from referee.rng import Rng

TURN_LIMIT = 300
MOVE_BOUND = 20_000

games = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(sorted(GAME.variants)),
        "seats": st.sampled_from((3, 4)),
        "seed": st.integers(0, 2**32),
        "trades": st.booleans(),
        "board": st.sampled_from(("beginner", "random")),
    }
)


def _check(state: CatanState) -> None:
    n = state.seats
    for resource in range(5):
        assert state.bank[resource] + sum(hand[resource] for hand in state.hands) == EDITION.bank_per_resource
        assert min(state.bank[resource], *(hand[resource] for hand in state.hands)) >= 0
    for kind in range(5):
        in_play = sum(
            devs[kind] + played[kind] for devs, played in zip(state.devs, state.played, strict=True)
        )
        assert state.deck[kind] + in_play == EDITION.deck[kind]
    on_board = [[0, 0, 0] for _ in range(n)]
    for node, owner in enumerate(state.node_owner):
        if owner >= 0:
            on_board[owner][state.node_level[node]] += 1
            assert all(state.node_owner[other] == -1 for other in NODE_NODES[node]), "distance rule"
    for edge_owner in state.edge_owner:
        if edge_owner >= 0:
            on_board[edge_owner][0] += 1
    for seat in range(n):
        roads, settlements, cities = on_board[seat]
        assert state.pieces[seat] == [
            EDITION.pieces["roads"] - roads,
            EDITION.pieces["settlements"] - settlements,
            EDITION.pieces["cities"] - cities,
        ]
        expected = settlements + 2 * cities + state.devs[seat][VICTORY_POINT]
        expected += 2 * (state.longest_road == seat) + 2 * (state.largest_army == seat)
        assert awards.points(state, seat) == expected
    if state.phase != "over":  # the win is looked at only when points may have moved: none goes unseen
        assert awards.points(state, state.turn_seat) < EDITION.points_to_win, "a win went unseen"
    if state.longest_road >= 0:
        holder = state.road_length[state.longest_road]
        assert holder >= EDITION.longest_road_minimum and holder == max(state.road_length)
    if state.largest_army >= 0:
        knights = [played[KNIGHT] for played in state.played]
        assert knights[state.largest_army] >= EDITION.largest_army_minimum
        assert knights[state.largest_army] == max(knights)


@settings(max_examples=20, deadline=None)
@given(games)
def test_random_play_keeps_every_invariant_and_ends(game: dict) -> None:
    options = {"trades": game["trades"], "board": game["board"], "turn_limit": TURN_LIMIT}
    state = GAME.start(game["variant"], game["seats"], seed=game["seed"], options=options)
    chooser = Rng(game["seed"])
    moves = 0
    while state.outcome() is None:
        legal = state.legal_moves()
        assert legal and state.current_seat is not None
        state.apply(chooser.choice(legal))
        moves += 1
        assert moves < MOVE_BOUND, "the game did not end"
        _check(state)
    outcome = state.outcome()
    assert outcome.reason in ("points", "turn_limit")
    assert state.turn <= TURN_LIMIT
    if outcome.reason == "points":
        winner = outcome.places.index(1)
        assert awards.points(state, winner) >= EDITION.points_to_win and state.turn_seat == winner
    observed = [state.observation(seat)["players"] for seat in range(state.seats)]
    assert all(view == observed[0] for view in observed)  # the public part is the same for everyone
