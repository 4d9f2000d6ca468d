"""The examples in the engine's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import referee.boulderville

MODULES = sorted(info.name for info in pkgutil.iter_modules(referee.boulderville.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"referee.boulderville.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
