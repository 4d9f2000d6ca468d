"""The RNG's draws: :meth:`Rng.below`'s shortcut for the first draw must give the stream the
general rejection loop gives, the rare rejected draws and huge bounds included."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from referee.rng import _GOLDEN, _MASK, _SAFE, Rng


def _unshift(value: int, shift: int) -> int:
    """The inverse of ``value ^= value >> shift`` on 64 bits."""
    result = value
    for _ in range(64 // shift + 1):
        result = value ^ (result >> shift)
    return result & _MASK


def _state_drawing(z: int) -> int:
    """The RNG state whose next 64-bit draw is ``z`` (SplitMix64's output function inverted)."""
    z = _unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & _MASK
    z = _unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & _MASK
    z = _unshift(z, 30)
    return (z - _GOLDEN) & _MASK


def test_the_inverse_draws_what_it_should() -> None:
    for z in (0, 1, 12345, _SAFE - 1, _SAFE, _MASK):
        assert Rng(_state_drawing(z)).next_u64() == z


@pytest.mark.parametrize("bound", [1, 2, 3, 6, 7, 54, 1000, (1 << 32) - 1, 1 << 32, (1 << 32) + 1, 3 << 62])
@pytest.mark.parametrize("z", [0, 5, _SAFE - 1, _SAFE, _MASK - 2**31, _MASK - 2, _MASK - 1, _MASK])
def test_below_is_the_general_rejection_loop(bound: int, z: int) -> None:
    """Draws at and above the shortcut's threshold (where small bounds reject a few values) and
    bounds on either side of its limit give what the general loop gives, state included."""
    state = _state_drawing(z)
    quick, general = Rng(state), Rng(state)
    assert [quick.below(bound) for _ in range(3)] == [general._below(bound) for _ in range(3)]
    assert quick.state == general.state


def test_a_rejected_draw_is_drawn_again() -> None:
    """2**64 % 3 == 1: the top value is rejected for a bound of 3, so the state moves on twice."""
    state = _state_drawing(_MASK)
    rng = Rng(state)
    follower = Rng(state)
    follower.next_u64()
    assert rng.below(3) == follower.next_u64() % 3
    assert rng.state == follower.state


def test_a_bound_must_be_positive() -> None:
    for bound in (0, -3):
        with pytest.raises(ValueError):
            Rng(7).below(bound)


def _shuffled_by_below(rng: Rng, items: list[int]) -> None:
    """Fisher-Yates as :meth:`Rng.shuffle` is specified: ``j = below(i + 1)`` from the top."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("z", [0, 77, _SAFE - 1, _SAFE, _MASK - 4, _MASK])
@pytest.mark.parametrize("length", [0, 1, 2, 7, 19])
def test_shuffle_draws_what_below_draws(z: int, length: int) -> None:
    """``shuffle`` with its first draw below, at or above the shortcut's threshold (where a draw
    may be rejected and made again) orders the items as ``below`` would, state included."""
    quick, general = Rng(_state_drawing(z)), Rng(_state_drawing(z))
    mine, theirs = list(range(length)), list(range(length))
    quick.shuffle(mine)
    _shuffled_by_below(general, theirs)
    assert mine == theirs
    assert quick.state == general.state


def test_shuffle_follows_below_over_many_seeds() -> None:
    for seed in range(300):
        quick, general = Rng(seed), Rng(seed)
        mine, theirs = list(range(seed % 60)), list(range(seed % 60))
        quick.shuffle(mine)
        _shuffled_by_below(general, theirs)
        assert (mine, quick.state) == (theirs, general.state)


@pytest.mark.parametrize("z", [0, 77, _SAFE - 1, _SAFE, _MASK - 4, _MASK])
@pytest.mark.parametrize("length", [0, 1, 2, 7, 13, 20])
def test_one_draw_shuffle_reads_the_swaps_from_a_draw_below_n_factorial(z: int, length: int) -> None:
    """The swap at position ``i`` from the top is the digit of base ``i + 1`` of ``below(n!)``,
    and exactly one draw below ``n!`` is made (states compared)."""
    quick, general = Rng(_state_drawing(z)), Rng(_state_drawing(z))
    mine, theirs = list(range(length)), list(range(length))
    quick.shuffle_in_one_draw(mine)
    code = general.below(math.factorial(length)) if length > 1 else 0
    for i in range(length - 1, 0, -1):
        code, j = divmod(code, i + 1)
        theirs[i], theirs[j] = theirs[j], theirs[i]
    assert mine == theirs
    assert quick.state == general.state


def test_one_draw_shuffle_makes_every_order_alike() -> None:
    """Four items, 24,000 shuffles: each of the 24 orders within 10% of its 1,000 (seeds fixed)."""
    counts: Counter[tuple[int, ...]] = Counter()
    for seed in range(24_000):
        items = [0, 1, 2, 3]
        Rng(seed).shuffle_in_one_draw(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    assert all(900 <= count <= 1100 for count in counts.values())


def test_one_draw_shuffle_takes_at_most_twenty_items() -> None:
    with pytest.raises(ValueError, match="at most 20"):
        Rng(1).shuffle_in_one_draw(list(range(21)))
