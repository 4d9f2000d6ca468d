"""Finding reference bots by game and name."""

from __future__ import annotations

import pytest

from bots.registry import UnknownBot, bots_for, make_bot


def test_an_unknown_bot_is_refused_naming_the_ones_that_exist() -> None:
    with pytest.raises(UnknownBot) as refused:
        make_bot("volcano", "nobody", 1)
    assert "nobody" in str(refused.value)
    assert all(name in str(refused.value) for name in bots_for("volcano"))


def test_a_game_without_reference_bots_has_none_to_make() -> None:
    assert bots_for("no-such-game") == {}
    with pytest.raises(UnknownBot) as refused:
        make_bot("no-such-game", "random", 1)
    assert "none" in str(refused.value)


def test_the_same_seed_makes_a_bot_that_plays_the_same() -> None:
    from referee.registry import get_game

    state = get_game("volcano").start("fiesta-caldera", seats=2, seed=5)
    request = {"seat": 0, "observation": state.observation(0), "legal_moves": state.legal_moves()}
    answers = {str(make_bot("volcano", "random", 9).choose(dict(request))) for _ in range(3)}
    assert len(answers) == 1
