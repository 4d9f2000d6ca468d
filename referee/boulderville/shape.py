"""JSON documents rebuilt as the table's dataclasses, checked against the fields' type hints.

The table's dataclasses already say what every field holds (``int``, ``str | None``,
``list[Person]``...), so one walk over those hints both rebuilds a state from its ``to_json`` and
refuses a malformed setup, naming the first field that does not fit; no field is listed again here.
Numbers are exact: ``true`` is not an int and ``1.0`` is not an int, as JSON would have it.

>>> from dataclasses import dataclass
>>> @dataclass
... class Spot:
...     name: str
...     depth: int | None = None
>>> build(Spot, {"name": "ford", "depth": 2}, "spot")
Spot(name='ford', depth=2)
>>> build(list[Spot], [{"name": "ford", "depth": True}], "spots")
Traceback (most recent call last):
...
referee.boulderville.shape.ShapeError: spots[0].depth must be int or None
"""

from __future__ import annotations

import copy
import types
import typing
from collections.abc import Mapping
from dataclasses import MISSING, fields, is_dataclass
from functools import cache
from typing import Any, get_args, get_origin, get_type_hints


class ShapeError(ValueError):
    """A document that does not fit the type hints; ``where`` is the path of the first misfit."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where} {message}")
        self.where = where


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def _spell(hint: Any) -> str:
    """A hint as an error message says it: ``int or None``, ``list``, ``Person``."""
    if get_origin(hint) in (types.UnionType, typing.Union):
        return " or ".join(_spell(option) for option in get_args(hint))
    if hint is type(None):
        return "None"
    return getattr(get_origin(hint) or hint, "__name__", str(hint))


def _record(cls: type, value: Any, where: str) -> Any:
    if not isinstance(value, Mapping):
        raise ShapeError(where, "must be an object")
    hints = _hints(cls)
    unknown = [key for key in value if key not in hints]
    if unknown:
        raise ShapeError(f"{where}.{unknown[0]}", "is not a field")
    for spec in fields(cls):
        if spec.name not in value and spec.default is MISSING and spec.default_factory is MISSING:
            raise ShapeError(f"{where}.{spec.name}", "is missing")
    return cls(**{name: build(hints[name], item, f"{where}.{name}") for name, item in value.items()})


def build(hint: Any, value: Any, where: str) -> Any:
    """``value`` rebuilt as ``hint`` from fresh containers, or :class:`ShapeError` naming ``where``.

    ``Any`` (a JSON value the engine only stores, such as an event's facts) is deep-copied as is.
    """
    if hint is Any:
        return copy.deepcopy(value)
    if is_dataclass(hint):
        return _record(typing.cast(type, hint), value, where)
    origin = get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        for option in get_args(hint):
            try:
                return build(option, value, where)
            except ShapeError:
                continue
    elif origin is list and isinstance(value, list):
        (item,) = get_args(hint)
        return [build(item, entry, f"{where}[{index}]") for index, entry in enumerate(value)]
    elif origin is dict and isinstance(value, Mapping):
        _, item = get_args(hint)
        if all(isinstance(key, str) for key in value):
            return {key: build(item, entry, f"{where}.{key}") for key, entry in value.items()}
    elif hint is type(None) and value is None:
        return None
    elif hint in (int, str, bool) and type(value) is hint:
        return value
    raise ShapeError(where, f"must be {_spell(hint)}")
