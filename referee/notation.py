"""Moves in words: what every game's notation shares, so that every game reads a move alike.

A game words its own moves in ``referee/<game>/notation.py`` (as chess has SAN), behind
:meth:`referee.game.Game.describe_move`: a table of :class:`Wording`, one per move ``type``, read by
:func:`describe`. The words are a function of the move JSON alone, so a replay's moves can be worded
without playing the replay again.

Whatever a game cannot word (a malformed move, another game's move, anything a bot may send) reads
as :func:`move_json`: its compact JSON, in printable ASCII, cut at :data:`MOVE_JSON_LIMIT`
characters. Words are only given to a move of a known type with exactly its fields, each of the
right kind, so that a move that reads as words is well formed: an extra key or a ``true`` where a
number is due shows as JSON, and the mistake shows with it.

>>> wordings = {"roll": Wording((), lambda move: "roll the dice")}
>>> describe({"type": "roll"}, wordings)
'roll the dice'
>>> describe({"type": "roll", "dice": 2}, wordings)
'{"type":"roll","dice":2}'
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeGuard

MOVE_JSON_LIMIT = 200
"""The most characters :func:`move_json` gives: a bot's move may be as long as its request allows,
and a move list or a fault hint needs a line, not a page."""

CUT_MARK = "..."
"""Ends a :func:`move_json` text that was cut at :data:`MOVE_JSON_LIMIT`."""


class _BoundedRepr(reprlib.Repr):
    """For what is not JSON at all (a set, a cycle, nesting deeper than ``json`` recurses, an
    integer too long for ``str``): a ``repr`` that never recurses deeply and never raises."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 4
        self.maxstring = self.maxother = 40

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 256:  # far below the digits str() refuses to write
            return "<huge int>"
        return super().repr_int(x, level)


_REPR = _BoundedRepr()


def move_json(move: object) -> str:
    """A move as compact JSON, the way a move no game can word reads.

    Keys keep the move's own order (the move as sent, not its canonical form). The text is
    printable ASCII (``json``'s escapes, so control characters and the like cannot reach a
    terminal or a page) and at most :data:`MOVE_JSON_LIMIT` characters, ending with
    :data:`CUT_MARK` when it was cut. Never raises: a value that is not JSON reads as a bounded
    ``repr``.

    >>> move_json({"type": "flight", "path": [[3, 0], [2, 1]], "colour": "green"})
    '{"type":"flight","path":[[3,0],[2,1]],"colour":"green"}'
    >>> move_json({"say": "caf\\u00e9\\n"})
    '{"say":"caf\\\\u00e9\\\\n"}'
    >>> text = move_json({"junk": list(range(500))})
    >>> len(text), text[-8:]
    (200, '4,65,...')
    >>> move_json({1, 2})
    '{1, 2}'
    >>> move_json({"n": 10**5000})
    "{'n': <huge int>}"
    """
    try:
        text = json.dumps(move, separators=(",", ":"), ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):  # not JSON: a set, a cycle, a huge int, deep nesting
        text = "".join(
            char if char.isprintable() else f"\\x{ord(char):02x}" for char in _ascii(_REPR.repr(move))
        )
    if len(text) > MOVE_JSON_LIMIT:
        return text[: MOVE_JSON_LIMIT - len(CUT_MARK)] + CUT_MARK
    return text


def _ascii(text: str) -> str:
    return text.encode("ascii", "backslashreplace").decode("ascii")


@dataclass(frozen=True)
class Wording:
    """How one type of move reads: its fields (besides ``type``) and the words for a move that has
    exactly those, and any of the ``optional`` ones. ``words`` returns None when a field's value
    is not one the game knows, and the move then reads as its JSON; it is only given a move with
    every one of ``fields`` and no other key but ``optional`` ones, so it may index ``fields``, but
    must check each value's kind before it uses it (a bot may send anything)."""

    fields: tuple[str, ...]
    words: Callable[[Mapping[str, Any]], str | None]
    optional: tuple[str, ...] = ()

    def fits(self, move: Mapping[Any, Any]) -> bool:
        """Whether ``move`` (whose ``type`` is this one's) has the keys this wording reads."""
        extra = sum(1 for name in self.optional if name in move)
        return len(move) == 1 + len(self.fields) + extra and all(name in move for name in self.fields)


def describe(move: object, wordings: Mapping[str, Wording]) -> str:
    """``move`` in words by its type's :class:`Wording`, else as :func:`move_json`. Never raises.

    >>> wordings = {"build": Wording(("node",), lambda move: f"build at {move['node']}")}
    >>> describe({"type": "build", "node": 19}, wordings)
    'build at 19'
    >>> describe(["build", 19], wordings)
    '["build",19]'
    """
    if isinstance(move, Mapping):
        kind = move.get("type")
        wording = wordings.get(kind) if isinstance(kind, str) else None
        if wording is not None and wording.fits(move):
            words = wording.words(move)
            if words is not None:
                return words
    return move_json(move)


def is_int(value: object, low: int, high: int) -> TypeGuard[int]:
    """Whether ``value`` is an integer from ``low`` to ``high``: ``True`` and ``1.0`` are not.

    >>> is_int(3, 0, 4), is_int(True, 0, 4), is_int(3.0, 0, 4), is_int(5, 0, 4)
    (True, False, False, False)
    """
    return type(value) is int and low <= value <= high


def cell_words(value: object, low: int, high: int) -> str | None:
    """A ``[a, b]`` cell or square as ``a,b`` when both are integers from ``low`` to ``high``.

    >>> cell_words([3, -1], -3, 3), cell_words([3, True], -3, 3), cell_words([1, 2, 3], -3, 3)
    ('3,-1', None, None)
    """
    if isinstance(value, list | tuple) and len(value) == 2 and all(is_int(part, low, high) for part in value):
        return f"{value[0]},{value[1]}"
    return None
