"""The import graph has no cycle, between files or between packages, and ``referee`` stands alone.

Every import counts, at module level or inside a function (a lazy import hides a cycle, it does not
remove it), except those under ``if TYPE_CHECKING:``, which only the type checker follows. At each
level of the tree, the children of a package (its modules and subpackages) are
nodes, with an edge a -> b when anything inside a imports anything inside b; every level must be
acyclic, so both file cycles (the innermost level) and package cycles (higher levels) are caught.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"referee": ROOT / "referee", "bots": ROOT / "bots", "arena": ROOT / "platform" / "arena"}


def _modules() -> dict[str, Path]:
    found = {}
    for top, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = [top, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports (``from a import b`` counts ``a.b`` when it is a module)."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    targets: set[str] = set()
    tree = ast.parse(path.read_text(), str(path))
    type_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets.add(base)
            targets.update(f"{base}.{alias.name}" for alias in node.names)
    found = set()
    for target in targets:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def _child(parent: str, module: str) -> str | None:
    """The child of ``parent`` that ``module`` lies in ('' is the root, above the three packages)."""
    prefix = f"{parent}." if parent else ""
    if not module.startswith(prefix) or module == parent:
        return None
    return prefix + module[len(prefix) :].split(".")[0]


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_import_cycle_at_any_level() -> None:
    graph = _graph()
    packages = {""} | {name for name, path in _modules().items() if path.name == "__init__.py"}
    cycles = []
    for parent in sorted(packages):
        level: dict[str, set[str]] = defaultdict(set)
        for module, targets in graph.items():
            source = _child(parent, module)
            for target in targets:
                sink = _child(parent, target)
                if source and sink and source != sink:
                    level[source].add(sink)
        if cycle := _cycle(level):
            cycles.append(f"{parent or '(top)'}: {' -> '.join(cycle)}")
    assert cycles == []


def test_referee_imports_nothing_else_of_the_project() -> None:
    outside = {
        (module, target)
        for module, targets in _graph().items()
        if module.startswith("referee")
        for target in targets
        if not target.startswith("referee")
    }
    assert outside == set()


def test_the_worker_side_imports_no_api_module() -> None:
    graph = _graph()
    seen: set[str] = set()
    todo = ["arena.worker.celery_app", "arena.worker.execution"]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    assert not {m for m in seen if m.startswith("arena.api") or m == "arena.matches.match_requests"}


def test_the_checker_sees_a_cycle_when_there_is_one() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
