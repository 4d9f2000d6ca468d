"""The examples in the engine's docstrings are part of its tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["edition", "hexes", "rules", "render", "state", "game"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"referee.vulkan.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0
    assert result.attempted > 0
