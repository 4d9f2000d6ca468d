"""Set-up, as the rule text's "Set-up" section and the card sections describe it."""

from __future__ import annotations

import pytest

from referee.boulderville import GAME
from referee.boulderville.deal import seeded_table
from referee.boulderville.edition import EDITION, NON_ROCK, ROCK
from referee.boulderville.table import Table
from referee.game import SetupError

SEEDS = range(12)


def fresh(seed: int) -> Table:
    """The table as dealt, before the first turn's phases run."""
    return seeded_table("standard", 4, seed, GAME.variant("standard").resolve_options(None))


@pytest.mark.parametrize("seed", SEEDS)
def test_every_marker_starts_at_zero(seed: int) -> None:
    table = fresh(seed)
    assert table.eruption == 0 and table.rescue == 0
    assert [s.renown for s in table.scientists] == [0, 0, 0, 0]
    assert [s.tokens for s in table.scientists] == [0, 0, 0, 0]


@pytest.mark.parametrize("seed", SEEDS)
def test_one_scientist_card_is_dealt_face_up_to_each_player(seed: int) -> None:
    table = fresh(seed)
    ids = [s.id for s in table.scientists]
    assert len(set(ids)) == 4 and set(ids) <= set(EDITION.scientists)
    shown = GAME.start("standard", seats=4, seed=seed).observation(1)["scientists"]
    assert [s["id"] for s in shown] == ids


@pytest.mark.parametrize("seed", SEEDS)
def test_townspeople_fill_the_start_positions_and_four_housing_estate_spaces(seed: int) -> None:
    table = fresh(seed)
    spaces = [p.space for p in table.people]
    housing = set(EDITION.board.spaces_of("housing_estate"))
    assert set(EDITION.board.start_positions) <= set(spaces)
    assert sum(1 for s in spaces if s in housing) == 4
    assert len(spaces) == len(set(spaces)) == len(EDITION.board.start_positions) + 4
    assert all(p.status == "unconvinced" for p in table.people)


def test_the_four_filled_housing_estate_spaces_are_picked_at_random() -> None:
    housing = set(EDITION.board.spaces_of("housing_estate"))
    picks = {frozenset(p.space for p in fresh(seed).people if p.space in housing) for seed in SEEDS}
    assert len(picks) > 3


@pytest.mark.parametrize("seed", SEEDS)
def test_three_action_cards_to_each_player_from_the_shuffled_deck(seed: int) -> None:
    table = fresh(seed)
    assert [len(s.hand) for s in table.scientists] == [3, 3, 3, 3]
    everything = sorted(table.action_deck + [c for s in table.scientists for c in s.hand])
    assert everything == sorted(EDITION.action_deck())


@pytest.mark.parametrize("seed", SEEDS)
def test_the_eruption_deck_is_five_build_up_on_five_pre_eruption_and_the_eruption_on_five_post(
    seed: int,
) -> None:
    deck = fresh(seed).eruption_deck
    assert len(deck) == 16
    stage = [EDITION.eruption_cards[card].deck for card in deck]
    assert stage == ["build_up"] * 5 + ["pre_eruption"] * 6 + ["post_eruption"] * 5
    assert deck[5:11].count(EDITION.eruption_card) == 1
    assert len(set(deck)) == 16


def test_the_eruption_card_is_shuffled_among_the_pre_eruption_cards() -> None:
    where = {fresh(seed).eruption_deck.index(EDITION.eruption_card) for seed in range(40)}
    assert where <= set(range(5, 11)) and len(where) >= 4


def test_the_first_turn_reveals_the_top_eruption_card_before_anyone_decides() -> None:
    dealt = fresh(5)
    state = GAME.start("standard", seats=4, seed=5)
    assert state.table.revealed == dealt.eruption_deck[:1]
    assert state.table.eruption_deck == dealt.eruption_deck[1:]
    assert state.table.stage == "place" and state.current_seat == 0


def test_the_same_seed_deals_the_same_game_and_another_seed_another() -> None:
    assert fresh(3).to_json() == fresh(3).to_json()
    assert fresh(3).to_json() != fresh(4).to_json()


def test_the_edition_has_both_kinds_of_scientist_and_the_cards_the_issue_asks_for() -> None:
    kinds = {s.type for s in EDITION.scientists.values()}
    assert kinds == {ROCK, NON_ROCK}
    assert len(EDITION.scientists) == 6
    assert len(EDITION.townspeople) >= 24
    roles = {t.role for t in EDITION.townspeople.values()}
    assert {"mayor", "sheriff"} <= roles
    assert 17 <= len(EDITION.actions) <= 18
    assert sum(card.copies for card in EDITION.actions.values()) == 50
    for card in EDITION.actions.values():
        uses = [use.use for use in card.uses]
        assert "renown" in uses and "help" in uses, card.id
        assert len(uses) == len(set(uses)), card.id


def test_every_renown_use_scores_only_at_a_science_location() -> None:
    science = set(EDITION.rules.science_locations)
    assert science == {"science_station", "upper_observation", "hot_springs", "crater"}
    for card in EDITION.actions.values():
        for use in card.uses:
            assert set(use.tokens) <= science


def test_the_board_has_every_place_the_text_names() -> None:
    board = EDITION.board
    for location in (
        "science_station",
        "upper_observation",
        "hot_springs",
        "crater",
        "town_hall",
        "housing_estate",
        "freeway",
        "country_road",
    ):
        assert board.spaces_of(location), location
    assert board.location_of(board.bridge) == "freeway"
    assert board.location_of(board.exits["freeway"]) == "freeway"
    assert board.location_of(board.exits["country_road"]) == "country_road"


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        ({"no_such_field": 1}, "setup.no_such_field"),
        ({"seats": 3}, "setup.seats"),
        ({"people": [{"id": "t99", "space": "bridge"}]}, "setup.people"),
        ({"people": [{"id": "t01", "space": "bridge"}, {"id": "t02", "space": "bridge"}]}, "setup.people"),
        ({"people": [{"id": "t01", "space": "nowhere"}]}, "setup.people"),
        ({"terrain": {"bridge": "custard"}}, "setup.terrain"),
        ({"stage": "tea_break"}, "setup.stage"),
        ({"eruption_deck": ["not_a_card"]}, "setup.eruption_deck"),
    ],
)
def test_a_bad_setup_is_refused_naming_the_field(setup: dict, field: str) -> None:
    with pytest.raises(SetupError) as caught:
        GAME.start("standard", seats=4, seed=0, setup=setup)
    assert caught.value.field_name == field


def test_only_four_seats_play() -> None:
    with pytest.raises(SetupError):
        GAME.start("standard", seats=3, seed=0)
