"""What every board picture promises: standalone, scalable SVG with a legend, and plain text."""

from __future__ import annotations

import pytest

from arena.boards import render_svg, render_text, seat_colours
from referee.registry import game_ids, get_game
from referee.vulkan.drawing import LOAD_COLOURS
from tests.platform.boards.replays import SVG, middle, parse, replay, texts, with_class


def test_every_registered_game_is_drawn() -> None:
    assert [game_id for game_id in game_ids() if get_game(game_id).drawing is None] == []


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("reveal", [True, False])
def test_the_svg_stands_alone_and_scales(game_id: str, reveal: bool) -> None:
    svg = render_svg(game_id, middle(replay(game_id)), reveal=reveal)
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    assert len(root.get("viewBox", "").split()) == 4
    assert root.get("width") == "100%" and root.get("height") is None, "scales to its box, no pixel size"
    for forbidden in ("<script", "<image", "href", "url(", "@import", "@font-face"):
        assert forbidden not in svg
    assert with_class(root, "seat-swatch"), "a legend telling the seats apart"
    assert any(text == "Key" for text in texts(root))


@pytest.mark.parametrize("game_id", game_ids())
def test_the_text_is_plain_lines(game_id: str) -> None:
    text = render_text(game_id, middle(replay(game_id)))
    assert text.endswith("\n") and "<" not in text
    assert len(text.splitlines()) > 5


def test_an_unknown_game_is_a_lookup_error() -> None:
    state = middle(replay("vulkan"))
    with pytest.raises(LookupError, match="no board drawing for game 'chess'"):
        render_svg("chess", state)
    with pytest.raises(LookupError):
        render_text("chess", state)


def _seat_counts(game_id: str) -> list[tuple[str, int]]:
    game = get_game(game_id)
    return [(variant, seats) for variant in game.variants for seats in game.variant(variant).seats]


@pytest.mark.parametrize(
    ("game_id", "variant", "seats"),
    [(game_id, *counts) for game_id in game_ids() for counts in _seat_counts(game_id)],
)
def test_seat_colours_are_the_colours_of_the_legends_swatches(game_id: str, variant: str, seats: int) -> None:
    """The match page marks each seat in the colour the board gives it: the legend's swatch."""
    state = get_game(game_id).start(variant, seats, seed=3)
    swatches = with_class(parse(render_svg(game_id, state)), "seat-swatch")
    assert [swatch.get("fill") for swatch in swatches] == seat_colours(game_id, seats)


def test_seats_that_look_alike_on_the_page_look_alike_on_the_board() -> None:
    """Pieces with colours of their own: Catan's white seat and Vulkan!'s seats by load colour."""
    assert seat_colours("catan-volcano", 4) == ["#d62728", "#1f77b4", "#f5f5f5", "#ff7f0e"]
    assert seat_colours("vulkan", 2) == [LOAD_COLOURS["red"], LOAD_COLOURS["green"]]
    assert seat_colours("vulkan", 4) == [LOAD_COLOURS[name] for name in ("red", "yellow", "green", "blue")]
    with pytest.raises(LookupError):
        seat_colours("chess", 2)
