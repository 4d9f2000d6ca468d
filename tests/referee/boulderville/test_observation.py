"""Hidden information: a seat sees its own hand, only the size of the others', and no deck order."""

from __future__ import annotations

import copy
import json

import pytest

from referee.boulderville import GAME
from referee.rng import Rng
from tests.referee.boulderville.helpers import FAR, everyone_passes, place, position, scientist


def secret_hands():
    """Seat 0 alone holds helicopters; the deck holds loudhailers, which nobody holds yet."""
    scientists = [scientist(0, hand=["helicopter"] * 3)] + [
        scientist(seat, hand=["bulldozer"] * 3) for seat in range(1, 4)
    ]
    return position(stage="place", lead=0, scientists=scientists, action_deck=["loudhailer"] * 5, discards=[])


def text(state, seat: int) -> str:
    return json.dumps(state.observation(seat))


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others() -> None:
    state = secret_hands()
    mine = state.observation(0)
    assert mine["hand"] == ["helicopter"] * 3
    assert [s["hand_size"] for s in mine["scientists"]] == [3, 3, 3, 3]
    for seat in (1, 2, 3):
        assert "helicopter" not in text(state, seat)
        assert state.observation(seat)["hand"] == ["bulldozer"] * 3


def test_the_decks_and_the_generator_stay_hidden() -> None:
    state = secret_hands()
    for seat in range(4):
        seen = state.observation(seat)
        assert "loudhailer" not in text(state, seat)
        assert "rng" not in seen and "action_deck" not in seen and "eruption_deck" not in seen
        assert seen["action_cards_left"] == 5 and seen["eruption_cards_left"] == 0


def test_cards_drawn_or_discarded_are_shown_only_to_their_owner() -> None:
    state = secret_hands()
    place(state, FAR)
    everyone_passes(state)
    state.apply({"type": "discard", "cards": ["helicopter"]})
    drawn = [e for e in state.observation(0)["events"] if e["kind"] == "cards_drawn"]
    assert drawn[-1]["private"] == {"cards": ["loudhailer"]}
    for seat in (1, 2, 3):
        events = state.observation(seat)["events"]
        assert [e for e in events if e["kind"] == "cards_drawn"][-1] == {
            "turn": 1,
            "kind": "cards_drawn",
            "seat": 0,
            "count": 1,
        }
        assert "loudhailer" not in text(state, seat) and "helicopter" not in text(state, seat)


def test_a_seat_s_legal_moves_name_only_its_own_cards() -> None:
    state = secret_hands()
    place(state, FAR | {0: "observation_deck"})
    assert state.current_seat == 0
    cards = {m.get("card") for m in state.legal_moves()} - {None}
    assert cards == {"helicopter"}


def test_a_played_card_is_public() -> None:
    state = secret_hands()
    place(state, FAR | {0: "observation_deck"})
    state.apply({"type": "play", "card": "helicopter", "use": "renown"})
    assert "helicopter" in text(state, 2)


def test_the_seeded_game_hides_every_hand_from_the_other_seats() -> None:
    state = GAME.start("standard", seats=4, seed=11)
    for seat in range(4):
        seen = state.observation(seat)
        assert sorted(seen["hand"]) == sorted(state.table.scientists[seat].hand)
        assert all("hand" not in s for s in seen["scientists"])


def test_renown_is_always_public_tokens_and_track_alike() -> None:
    scientists = [scientist(seat, tokens=seat, renown=10 + seat) for seat in range(4)]
    state = position(stage="place", scientists=scientists)
    for viewer in range(4):
        shown = state.observation(viewer)["scientists"]
        assert [(s["tokens"], s["renown"]) for s in shown] == [(0, 10), (1, 11), (2, 12), (3, 13)]


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_what_a_seat_sees_does_not_depend_on_anything_hidden_from_it(seed: int) -> None:
    # a twin of a real game with other cards in seats 1 to 3's hands, other private draws and
    # discards, the decks in another order and another generator: seat 0 must see no difference
    state = GAME.start("standard", seats=4, seed=seed)
    chooser = Rng(seed)
    while state.table.turn < 4 or state.current_seat != 0:
        state.apply(chooser.choice(state.legal_moves()))
    data = state.to_json()
    twin = copy.deepcopy(data)
    for held in twin["scientists"][1:]:
        size = len(held["hand"])
        held["hand"], twin["action_deck"] = (
            twin["action_deck"][:size],
            twin["action_deck"][size:] + held["hand"],
        )
    assert [s["hand"] for s in twin["scientists"][1:]] != [s["hand"] for s in data["scientists"][1:]]
    twin["action_deck"].reverse()
    twin["eruption_deck"].reverse()
    twin["rng"] ^= 0x5DEECE66D
    for event in twin["events"]:
        if "private" in event and event["seat"] != 0:
            event["private"] = {"cards": ["helicopter"] * len(event["private"]["cards"])}
    hidden = GAME.load_state(twin)
    assert hidden.observation(0) == state.observation(0)
    assert hidden.legal_moves() == state.legal_moves()
