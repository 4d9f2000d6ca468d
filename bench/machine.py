"""What a benchmark prints about where it ran: the interpreter and the machine's load.

The engines' figures move with both. On one machine (2026-11-27), Debian's CPython 3.11.2 ran
Vulkan!'s referee path at 1,118 games/s and the machine's ``python3`` (pyenv's 3.11.7, the
interpreter in a shared library) at 984; Catanatron gained more still, so Catan's ratio to it fell
from about 4.1 to 3.5 to 3.7. A figure is only comparable with one from the same interpreter, so
each engine bench names it. Imported by name, as :mod:`playout` is (``python bench/<script>.py``
puts ``bench/`` on the path).
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path


def interpreter() -> str:
    """Which Python runs the benchmark, and from where (a venv resolves to its base executable)."""
    version = " ".join(sys.version.split())
    return f"{platform.python_implementation()} {version} at {Path(sys.executable).resolve()}"


def load() -> str:
    """The 1, 5 and 15 minute load averages: other work on the machine slows every contestant."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def describe() -> str:
    """The interpreter and load lines an engine bench prints before its figures."""
    return f"interpreter: {interpreter()}\nload average at the start: {load()}"
