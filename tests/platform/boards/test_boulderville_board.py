"""Boulderville: the map, lava and rubble, townspeople, scientists, the tracks, hidden hands."""

from __future__ import annotations

from arena.boards import render_svg, render_text
from referee.boulderville.edition import EDITION
from tests.platform.boards.replays import middle, parse, replay, with_class


def test_every_space_of_the_map_and_every_line_is_drawn() -> None:
    state = middle(replay("boulderville"))
    root = parse(render_svg("boulderville", state))
    names = {e.get("data-space") for e in with_class(root, "space")}
    assert names == {space.id for space in EDITION.board.spaces}
    lines = sum(len(n) for n in EDITION.board.adjacent.values()) // 2
    assert len(with_class(root, "map-line")) == lines


def test_terrain_people_scientists_and_tracks_are_where_the_state_says() -> None:
    state = middle(replay("boulderville"))
    view = state.observation(0)
    root = parse(render_svg("boulderville", state))
    spaces = {e.get("data-space"): e for e in with_class(root, "space")}
    assert view["terrain"], "the seeded game has lava or rubble by its middle"
    for space, terrain in view["terrain"].items():
        assert with_class(spaces[space], terrain), space
    on_board = [p for p in view["townspeople"] if p["status"] in ("unconvinced", "believer", "mover")]
    drawn = {e.get("data-id"): e.get("class") for e in with_class(root, "townsperson")}
    assert drawn == {p["id"]: f"townsperson {p['status']}" for p in on_board}
    placed = [s for s in view["scientists"] if s["space"]]
    assert sorted(e.get("data-seat") for e in with_class(root, "scientist")) == sorted(
        str(s["seat"]) for s in placed
    )
    assert with_class(root, "eruption-track")[0].get("data-value") == str(view["eruption"])
    assert with_class(root, "rescue-track")[0].get("data-value") == str(view["rescue"])


def test_hands_are_listed_when_revealed_and_counted_when_not() -> None:
    state = middle(replay("boulderville"))
    view = state.observation(0)
    hands = [state.observation(seat)["hand"] for seat in range(4)]
    assert any(hands)
    lines = with_class(parse(render_svg("boulderville", state)), "hand-card")  # a long hand wraps
    shown = [
        " ".join((e.text or "").strip() for e in lines if e.get("data-seat") == str(seat))
        for seat in range(4)
    ]
    assert shown == [f"hand: {', '.join(c.replace('_', ' ') for c in hand) or 'no cards'}" for hand in hands]
    hidden_svg = render_svg("boulderville", state, reveal=False)
    hidden = parse(hidden_svg)
    assert not with_class(hidden, "hand-card")
    for hand in hands:
        for card in hand:
            assert card not in hidden_svg and card.replace("_", " ") not in hidden_svg
    assert [e.text for e in with_class(hidden, "hand-count")] == [
        f"{s['hand_size']} cards in hand" for s in view["scientists"]
    ]
    hidden_text = render_text("boulderville", state, reveal=False)
    for hand in hands:
        for card in hand:
            assert card not in hidden_text
    revealed_text = render_text("boulderville", state)
    for seat, hand in enumerate(hands):
        assert f"S{seat} " in revealed_text and ", ".join(hand) in revealed_text


def test_the_text_lists_who_stands_where() -> None:
    state = middle(replay("boulderville"))
    view = state.observation(0)
    text = render_text("boulderville", state)
    assert f"eruption counter {view['eruption']}, rescue track {view['rescue']}" in text
    for person in view["townspeople"]:
        if person["status"] in ("unconvinced", "believer", "mover"):
            space = EDITION.board.space(person["space"]).name
            line = next(line for line in text.splitlines() if line.startswith(space))
            assert f"({person['status']}, {person['value']})" in line
