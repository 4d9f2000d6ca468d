"""A small seeded random number generator whose whole state is one integer.

Engines keep their RNG inside their JSON-able state, so the generator must serialise to a plain
number and give the same stream on every Python version and platform. Python's ``random`` keeps a
625-word state and has changed how some of its helpers draw between versions; SplitMix64 (a public,
well-studied 64-bit mixer) is tiny, fast enough in pure Python and fully specified here.

>>> rng = Rng(7)
>>> [rng.below(6) + 1 for _ in range(5)]  # five d6 rolls, the same on every machine
[4, 1, 1, 4, 5]
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from referee.memo import Memo

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_SAFE_BOUND = 1 << 32
_SAFE = (1 << 64) - _SAFE_BOUND
"""A draw under this is kept for every bound ``n`` up to :data:`_SAFE_BOUND`: the draws
:meth:`Rng.below` rejects are the top ``2**64 % n`` (fewer than ``n``) values."""
_FACTORIALS: tuple[int, ...] = tuple(math.factorial(n) for n in range(21))
"""``_FACTORIALS[n]``: the number of orders of ``n`` items, up to 20 (``20!`` is under ``2**64``)."""
_LIMITS = Memo[int, int]("rng.limits", limit=4096)
"""Per bound ``n`` of :meth:`Rng.below`, the largest draw kept (the rest would bias ``% n``)."""


def derive_seed(seed: int, *labels: object) -> int:
    """A new 63-bit seed from ``seed`` and labels, for independent streams (per seat, per purpose).

    >>> derive_seed(7, "fallback") == derive_seed(7, "fallback") != derive_seed(7, "bot", 0)
    True
    """
    text = "\x1f".join([str(seed), *map(str, labels)]).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


class Rng:
    """SplitMix64. ``Rng(state).state`` round-trips, so ``to_json`` stores just ``rng.state``."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next_u64(self) -> int:
        """SplitMix64's step, the one place it is written: the state moves on by the golden gamma,
        and the output is the new state mixed (two xor-shift-multiplies and a last xor-shift)."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, unbiased (rejection sampling).

        The first draw is tried without the bound's limit: below :data:`_SAFE` a draw is kept
        whatever the bound (up to :data:`_SAFE_BOUND`), and nearly every draw is. Otherwise the
        state is put back and the draw made again the general way, so the stream is the same."""
        if 0 < n <= _SAFE_BOUND:
            state = self.state
            z = self.next_u64()
            if z < _SAFE:
                return z % n
            self.state = state
        return self._below(n)

    def _below(self, n: int) -> int:
        """:meth:`below` in general: the limit of ``n``, and draws until one is under it."""
        limit = _LIMITS.table.get(n)
        if limit is None:
            if n <= 0:
                raise ValueError("below() needs a positive bound")
            limit = _LIMITS.keep(n, _MASK - (_MASK + 1) % n)
        while True:
            z = self.next_u64()
            if z <= limit:
                return z % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, both ends included (a die: ``randint(1, 6)``)."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: ``j = below(i + 1)`` for each ``i`` from the top."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffle_in_one_draw(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place, all its swaps read from a single draw: at most 20 items.

        ``below(n!)`` is uniform over the ``n!`` orders, and read as a number whose digits have
        the bases ``n``, ``n - 1``, ..., 2 (from the lowest), each digit is uniform and
        independent of the others: the swap for position ``i`` from the top is the digit of base
        ``i + 1``, as :meth:`shuffle` draws it with ``below(i + 1)``. So every order stays equally
        likely, for one draw instead of ``n - 1`` (a draw is some twenty operations on 64-bit
        integers, which Python makes as objects). The stream differs from :meth:`shuffle`'s.

        >>> tiles = list("abcde")
        >>> Rng(7).shuffle_in_one_draw(tiles)
        >>> sorted(tiles) == list("abcde")
        True
        """
        n = len(items)
        if n > 20:
            raise ValueError(f"shuffle_in_one_draw() takes at most 20 items, not {n}")
        if n < 2:
            return
        code = self.below(_FACTORIALS[n])
        for i in range(n - 1, 0, -1):
            code, j = divmod(code, i + 1)
            items[i], items[j] = items[j], items[i]
