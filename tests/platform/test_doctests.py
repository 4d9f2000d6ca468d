"""The examples in the platform's docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module", ["arena.elo", "arena.scoring", "arena.tournaments", "arena.errors", "arena.auth"]
)
def test_docstring_examples(module: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0 and failures == 0
