"""Read-only JSON: the dicts and lists the engine hands out and shares between positions.

A move list or an observation is most of the engine's work per move if it is built afresh every time.
Built from shared pieces instead (one object per move, per piece, per unchanged square), it costs a
few list operations; but then a caller that edited a view would edit every later view sharing that
piece. These subclasses refuse every change, so sharing is safe. For everything else they are the
plain ``dict`` and ``list`` they subclass: ``json.dumps`` writes them as JSON, they compare equal to
plain JSON, and copying one (``copy``, ``deepcopy``, ``pickle``) gives back plain, editable JSON.

>>> move = FrozenDict(type="step", dir="N")
>>> move == {"type": "step", "dir": "N"}, json.dumps(FrozenList([1, 2]))
(True, '[1, 2]')
>>> move["dir"] = "S"
Traceback (most recent call last):
...
TypeError: engine views are read-only; copy one (dict(view), copy.deepcopy(view)) to change it
"""

from __future__ import annotations

import copy
import json  # noqa: F401 - used by the doctest
from typing import Any, NoReturn

READ_ONLY = "engine views are read-only; copy one (dict(view), copy.deepcopy(view)) to change it"


def _refuse(*_: Any, **__: Any) -> NoReturn:
    raise TypeError(READ_ONLY)


class FrozenDict(dict[str, Any]):
    """A dict that refuses changes after it is built."""

    __slots__ = ()
    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return {key: copy.deepcopy(value, memo) for key, value in self.items()}

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


class FrozenList(list[Any]):
    """A list that refuses changes after it is built."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        return [copy.deepcopy(item, memo) for item in self]

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


def freeze(value: Any) -> Any:
    """Plain JSON to its read-only twin, all the way down (already frozen parts are kept as they are)."""
    if type(value) is dict:
        return FrozenDict({key: freeze(item) for key, item in value.items()})
    if type(value) is list:
        return FrozenList([freeze(item) for item in value])
    return value
