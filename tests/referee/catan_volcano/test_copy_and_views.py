"""``copy()`` and the observation cache: a copy equals its original and lives apart from it; an
observation served from the cache is the one built from scratch."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.catan_volcano import GAME, view
from referee.catan_volcano.state import CatanState
from referee.game import canonical_json
from referee.rng import Rng

positions = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(sorted(GAME.variants)),
        "seats": st.sampled_from((3, 4)),
        "seed": st.integers(0, 2**32),
        "moves": st.integers(0, 400),
        "trades": st.booleans(),
    }
)


def _played(spec: dict) -> CatanState:
    """A position reached by ``moves`` random moves (fewer if the game ends first)."""
    state = GAME.start(spec["variant"], spec["seats"], seed=spec["seed"], options={"trades": spec["trades"]})
    chooser = Rng(spec["seed"] + 1)
    for _ in range(spec["moves"]):
        if state.current_seat is None:
            break
        state.apply(chooser.choice(state.legal_moves()))
    return state


def _random_position(variant: str, seed: int, chooser_seed: int, moves: int) -> CatanState:
    """A 4-seat game of ``variant`` after ``moves`` random moves drawn by ``Rng(chooser_seed)``."""
    state = GAME.start(variant, 4, seed=seed)
    chooser = Rng(chooser_seed)
    for _ in range(moves):
        state.apply(chooser.choice(state.legal_moves()))
    return state


def _fresh_observation(state: CatanState, seat: int) -> dict:
    """The observation built with no cache at all, from the state's JSON."""
    loaded = CatanState.from_json(state.to_json())
    return view.observation(loaded, seat)


@settings(max_examples=40, deadline=None)
@given(positions)
def test_a_copy_is_equal_and_independent(spec: dict) -> None:
    state = _played(spec)
    before = canonical_json(state.to_json())
    clone = state.copy()
    assert canonical_json(clone.to_json()) == before
    assert clone.legal_moves() == state.legal_moves()
    # play the copy on to the end: the original does not move
    chooser = Rng(spec["seed"] + 2)
    while clone.current_seat is not None:
        clone.apply(chooser.choice(clone.legal_moves()))
    assert canonical_json(state.to_json()) == before
    # and the original, played on, plays as a state loaded from its JSON does (the copy shares no list)
    loaded = GAME.load_state(state.to_json())
    chooser_a, chooser_b = Rng(5), Rng(5)
    for _ in range(200):
        if state.current_seat is None:
            break
        state.apply(chooser_a.choice(state.legal_moves()))
        loaded.apply(chooser_b.choice(loaded.legal_moves()))
    assert canonical_json(state.to_json()) == canonical_json(loaded.to_json())


@settings(max_examples=40, deadline=None)
@given(positions)
def test_every_seat_sees_the_observation_built_from_scratch(spec: dict) -> None:
    state = _played(spec)
    for seat in range(state.seats):
        served = state.observation(seat)
        assert canonical_json(served) == canonical_json(_fresh_observation(state, seat))
        assert state.observation(seat) is served  # built once per position


def test_an_observation_held_over_a_move_keeps_what_it_showed() -> None:
    state = GAME.start("gold", 4, seed=11)
    chooser = Rng(3)
    for _ in range(300):
        seat = state.current_seat
        assert seat is not None
        seen = state.observation(seat)
        shown = canonical_json(seen)
        state.apply(chooser.choice(state.legal_moves()))
        assert canonical_json(seen) == shown


def test_a_position_changed_by_hand_is_never_shown_from_stale_caches() -> None:
    """The caches (what the pieces imply, the seats' views, the event log's secrets) are checked
    against the state's own lists, so changing them by hand shows at once, as after a load."""
    state = GAME.start("gold", 4, seed=5)
    chooser = Rng(9)
    for _ in range(250):
        state.apply(chooser.choice(state.legal_moves()))
        if state.current_seat is not None:
            state.observation(state.current_seat)  # fill every cache
    seat = state.current_seat
    assert seat is not None
    # a road, a building, cards, a played knight and a secret event, all put in by hand
    free_edge = state.edge_owner.index(-1)
    state.edge_owner[free_edge] = seat
    free_node = next(node for node in range(len(state.node_owner)) if state.node_owner[node] == -1)
    state.node_owner[free_node] = (seat + 1) % 4
    state.node_level[free_node] = 1
    state.hands[(seat + 2) % 4][0] += 3
    state.played[(seat + 3) % 4][0] += 1
    state.events.append(
        {
            "type": "steal",
            "seat": seat,
            "victim": 1,
            "turn": state.turn,
            "secret": {"seats": [seat], "fields": {"resource": "ore"}},
        }
    )
    state.changed_by_hand()  # as the rule tests' positions.refresh does
    for viewer in range(4):
        assert canonical_json(state.observation(viewer)) == canonical_json(_fresh_observation(state, viewer))
    assert state.legal_moves() == GAME.load_state(state.to_json()).legal_moves()
    # and the events replaced by a list of other events
    state.events = [dict(event) for event in state.events[-3:]]
    state.remember_legal(state.legal_moves())
    assert canonical_json(state.observation(seat)) == canonical_json(_fresh_observation(state, seat))


def test_every_observation_of_a_game_is_the_one_built_from_scratch() -> None:
    """Each observation starts as a copy of the last one built and writes only the parts whose facts
    moved since (``view.Kept``): observed at every move, as the referee does, each equals one built
    with no cache at all, in every variant, with trades between seats on and off."""
    for number, variant in enumerate(sorted(GAME.variants)):
        for trades in (True, False):
            state = GAME.start(variant, 3 + number % 2, seed=number, options={"trades": trades})
            chooser = Rng(number + 7)
            for _ in range(250):
                seat = state.current_seat
                if seat is None:
                    break
                assert canonical_json(state.observation(seat)) == canonical_json(
                    _fresh_observation(state, seat)
                )
                state.apply(chooser.choice(state.legal_moves()))


def test_a_kept_part_is_written_again_when_its_fact_changes() -> None:
    """``view.Kept`` compares each part of the last observation with the state's fact it shows, so
    a fact changed since shows at once (here by hand, which ``remember_legal`` would also cover by
    starting the kept parts afresh)."""
    state = _random_position("gold", seed=3, chooser_seed=4, moves=200)
    seat = state.current_seat
    assert seat is not None
    before = view.observation(state, seat)
    changes = {
        "robber": lambda: setattr(state, "robber", (state.robber + 1) % 19),
        "turn": lambda: setattr(state, "turn", state.turn + 1),
        "turn_seat": lambda: setattr(state, "turn_seat", (state.turn_seat + 1) % 4),
        "dice": lambda: setattr(state, "dice", (6, 6) if state.dice != (6, 6) else (1, 1)),
        "development_card_played": lambda: setattr(state, "dev_played", not state.dev_played),
        "offers_made": lambda: setattr(state, "offers_made", state.offers_made + 1),
        "bank": lambda: state.bank.__setitem__(0, state.bank[0] + 1),
        "development_cards_left": lambda: state.deck.__setitem__(0, state.deck[0] + 1),
    }
    for part, change in changes.items():
        change()
        seen = view.observation(state, seat)
        assert seen[part] != before[part], part
        assert canonical_json(seen) == canonical_json(_fresh_observation(state, seat)), part


def test_the_roads_are_shown_from_the_edges_whatever_the_log_says() -> None:
    """The roads shown are put together from those shown before and the roads the event log
    recorded since, only when the edges say exactly that (``Derived.roads_after``): a road on the
    board that the log does not record, and one the log records that is not on the board, show as
    the edges have them."""
    state = _random_position("base", seed=8, chooser_seed=2, moves=150)
    seat = state.current_seat
    assert seat is not None
    view.observation(state, seat)  # the roads shown so far, kept
    empty = [edge for edge, owner in enumerate(state.edge_owner) if owner == -1]
    state.edge_owner[empty[0]] = seat  # on the board, not in the log
    state.events.append({"type": "build_road", "seat": seat, "edge": empty[1], "turn": state.turn})
    state.board_moves += 1  # as the engine counts a change of the board
    roads = view.observation(state, seat)["roads"]
    assert {"edge": empty[0], "seat": seat} in roads
    assert {"edge": empty[1], "seat": seat} not in roads
    assert canonical_json(view.observation(state, seat)) == canonical_json(_fresh_observation(state, seat))


def test_every_seat_observed_at_every_move_sees_that_position() -> None:
    """The other seats' observations of a position are kept with the first one they copy: asked of
    every seat at every move, in an order that turns, none is served from a position before."""
    state = GAME.start("base", 4, seed=21)
    chooser = Rng(4)
    for move in range(150):
        if state.current_seat is None:
            break
        for k in range(state.seats):
            seat = (move + k) % state.seats
            assert canonical_json(state.observation(seat)) == canonical_json(_fresh_observation(state, seat))
        state.apply(chooser.choice(state.legal_moves()))


def _seat_to_move(state: CatanState) -> int | None:
    """The common interface's answer worked out from the phase and the seat to decide."""
    return None if state.phase == "over" else state.current


@settings(max_examples=25, deadline=None)
@given(positions)
def test_current_seat_follows_the_position_after_every_move_copy_load_and_hand_change(spec: dict) -> None:
    """``current_seat`` is an attribute kept by ``apply`` and ``remember_legal``, not worked out on
    each read: it must agree with the phase and the seat to decide wherever a position comes from."""
    state = GAME.start(spec["variant"], spec["seats"], seed=spec["seed"], options={"trades": spec["trades"]})
    chooser = Rng(spec["seed"] + 3)
    for _ in range(spec["moves"] + 600):
        assert state.current_seat == _seat_to_move(state)
        if state.current_seat is None:
            break
        state.apply(chooser.choice(state.legal_moves()))
    for other in (state.copy(), GAME.load_state(state.to_json()), CatanState.from_json(state.to_json())):
        assert other.current_seat == state.current_seat
    if state.phase != "over":  # a position ended by hand, as the rule tests set one up
        state.phase = "over"
        state.changed_by_hand()
        assert state.current_seat is None
        assert state.legal_moves() == []
