"""One bounded memo for the engines' process-wide caches.

The engines keep answers that depend on their key alone in memos shared by every game of the
process (a flight's JSON, a layout, a townsperson's view, the legal plays of a card...): few keys
occur in play, so nearly every look-up is a hit. A worker lives for days, though, and a key can
come from a bot (a setup, an observation to rebuild), so each memo has a bound, and past it starts
afresh. Starting afresh rather than evicting the least recently used entry is deliberate: an LRU
must record every hit (an entry moved, a list spliced), which the hot paths would pay on nearly every
move, while clearing costs once in a great while (a bound is far above what play reaches) and a
value is only ever worked out again, equal, never wrong: every value here depends on its key alone.

A hit reads the plain dict, :attr:`Memo.table`, with ``get`` (the interpreter's fastest path for a
dict, which a subclass of dict would leave); a miss stores through :meth:`Memo.keep`, which holds the
bound. :data:`MEMOS` lists every memo of the process, by name, for tests and benchmarks that start
from empty memos.

>>> squares = Memo[int, int]("example.squares", limit=2, process_wide=False)
>>> squares.table.get(3) is None
True
>>> squares.keep(3, 9), squares.keep(4, 16), squares.table.get(3)
(9, 16, 9)
>>> squares.keep(5, 25), len(squares.table)  # the bound reached: started afresh
(25, 1)
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    """A process-wide memo of at most ``limit`` entries (see the module's doc)."""

    __slots__ = ("name", "limit", "table")

    def __init__(self, name: str, limit: int, *, process_wide: bool = True) -> None:
        self.name = name
        self.limit = limit
        self.table: dict[K, V] = {}
        """The entries: read them with ``table.get``; store through :meth:`keep`."""
        if process_wide:  # (a memo made for one call, to work a value out afresh, is not listed)
            MEMOS[name] = self

    def keep(self, key: K, value: V) -> V:
        """Store ``value`` under ``key`` (first emptying the memo if it holds ``limit`` entries) and
        return it."""
        table = self.table
        if len(table) >= self.limit:
            table.clear()
        table[key] = value
        return value

    def clear(self) -> None:
        self.table.clear()


MEMOS: dict[str, Memo[Any, Any]] = {}
"""Every memo of the process by name (``module.what``), as made."""
