"""The import graph has no cycle, between files or between packages, ``referee`` stands alone, and
the platform's pure domain modules (:data:`PURE_MODULES`) reach no storage, web, queue or network
library.

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


def _targets(name: str, path: Path, *, type_only_too: bool = False) -> set[str]:
    """Every dotted name an import of ``name`` names (``from a import b``: ``a`` and ``a.b``), relative
    ones made absolute; those under ``if TYPE_CHECKING:`` only with ``type_only_too``."""
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
        if id(node) in type_only and not type_only_too:
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
    return targets


def _project_module(target: str, known: set[str] | dict[str, object]) -> str | None:
    """The project module a dotted import name lies in, or None for a name from outside the project."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports (``from a import b`` counts ``a.b`` when it is a module)."""
    found = {_project_module(target, known) for target in _targets(name, path)}
    return {module for module in found if module and module != name}


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


PURE_MODULES = (
    "arena.ladders.elo",
    "arena.ladders.skill",
    "arena.ladders.scoring",
    "arena.ladders.rows",
    "arena.ladders.refit",
    "arena.ladders.pairing",
    "arena.tournaments.formats",
    "arena.tournaments.tally",
    "arena.tournaments.knockout",
    "arena.tournaments.swiss",
    "arena.tournaments.round_robin",
    "arena.tournaments.results",
    "arena.tournaments.rounds",
    "arena.tournaments.fields",
    "arena.standings_csv",
    "arena.records",
    "arena.cli.tally",
)
"""The platform's domain modules that compute: ratings, scoring, ranking, pairing, schedules,
standings, rounds, and the record types. They take what they need as arguments and return what they
decide, so they are tested without Redis, a web app or a worker, and the store and the worker build
on them, never the other way round. Their I/O-doing neighbours (``ladders.ladder``,
``ladders.matchmaking``, ``tournaments.progress``, the ``*_requests`` modules) read and write the
store around them."""

IO_IMPORTS = (
    "arena.storage",
    "redis",
    "fakeredis",
    "flask",
    "flask_smorest",
    "flask_limiter",
    "celery",
    "kombu",
    "requests",
    "gevent",
    "boto3",
)
"""What a pure module may not import, directly or through any module it imports: the store, Redis,
the web framework, the queue, HTTP, the event loop, object storage."""


def _io_imports_reached(start: str, targets: dict[str, set[str]]) -> list[str]:
    """Each ``module imports name`` with a name of :data:`IO_IMPORTS`, over ``start`` and every project
    module it imports, transitively (``targets``: each module's imported names, type-only ones too)."""
    found: list[str] = []
    seen: set[str] = set()
    todo = [start]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        for target in sorted(targets[module]):
            if any(target == banned or target.startswith(f"{banned}.") for banned in IO_IMPORTS):
                found.append(f"{module} imports {target}")
            inner = _project_module(target, targets)
            if inner and inner != module:
                todo.append(inner)
    return sorted(set(found))


def test_pure_modules_import_no_storage_web_queue_or_network() -> None:
    modules = _modules()
    assert set(PURE_MODULES) <= set(modules), "a pure module was renamed: update PURE_MODULES"
    targets = {name: _targets(name, path, type_only_too=True) for name, path in modules.items()}
    assert [found for module in PURE_MODULES for found in _io_imports_reached(module, targets)] == []


def test_the_purity_check_sees_an_io_import_behind_another_module() -> None:
    targets = {
        "arena.pure": {"arena.helper", "referee.game"},
        "arena.helper": {"arena.storage.Store", "math"},
        "arena.storage": {"redis"},
        "referee.game": set(),
    }
    assert _io_imports_reached("arena.pure", targets) == [
        "arena.helper imports arena.storage.Store",
        "arena.storage imports redis",
    ]
    assert _io_imports_reached("referee.game", targets) == []
