"""What every board picture promises: standalone, scalable SVG with a legend, and plain text."""

from __future__ import annotations

import pytest

from arena.boards import BOARD_MODULES, render_svg, render_text
from referee.registry import GAME_MODULES
from tests.platform.boards.replays import SVG, middle, parse, replay, texts, with_class


def test_every_registered_game_has_a_board_module() -> None:
    assert set(BOARD_MODULES) == set(GAME_MODULES)


@pytest.mark.parametrize("game_id", sorted(BOARD_MODULES))
@pytest.mark.parametrize("reveal", [True, False])
def test_the_svg_stands_alone_and_scales(game_id: str, reveal: bool) -> None:
    svg = render_svg(game_id, middle(replay(game_id)), reveal=reveal)
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    assert len(root.get("viewBox", "").split()) == 4
    for forbidden in ("<script", "<image", "href", "url(", "@import", "@font-face"):
        assert forbidden not in svg
    assert with_class(root, "seat-swatch"), "a legend telling the seats apart"
    assert any(text == "Key" for text in texts(root))


@pytest.mark.parametrize("game_id", sorted(BOARD_MODULES))
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
