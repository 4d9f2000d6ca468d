"""Size bounds the project keeps: a product module does one job (at most 500 lines), and the
benchmarks page holds current figures only (at most 200 lines; how a figure got there is in the git
log)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT_FOLDERS = (ROOT / "referee", ROOT / "bots", ROOT / "platform" / "arena")
MODULE_LINES = 500
BENCHMARKS_PAGE_LINES = 200


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines())


def test_no_product_module_exceeds_500_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for folder in PRODUCT_FOLDERS
        for path in folder.rglob("*.py")
        if (lines := _lines(path)) > MODULE_LINES
    }
    assert long == {}


def test_the_benchmarks_page_keeps_to_200_lines() -> None:
    assert _lines(ROOT / "docs" / "benchmarks.md") <= BENCHMARKS_PAGE_LINES
