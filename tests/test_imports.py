"""The import graph has no cycle, between files or between packages, ``referee`` stands alone, and
the platform's pure domain modules (:data:`PURE_MODULES`) reach no storage, web, queue or network
library.

Every import counts, at module level, inside a function (a lazy import hides a cycle, it does not
remove it) or under ``if TYPE_CHECKING:`` (a type-only import still makes a module need another to
be read: an engine's rules naming the state class that imports them is a circle with no bottom to
read from). At each level of the tree, the children of a package (its modules and subpackages) are
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
    """The project modules ``name`` imports, type-only imports included (``from a import b`` counts
    ``a.b`` when it is a module)."""
    found = {_project_module(target, known) for target in _targets(name, path, type_only_too=True)}
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


def test_a_type_only_import_is_an_edge(tmp_path: Path) -> None:
    rules = tmp_path / "rules.py"
    rules.write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from game.state import State\n"
    )
    assert _imports("game.rules", rules, {"game.rules", "game.state"}) == {"game.state"}


def test_the_checker_sees_a_cycle_when_there_is_one() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


PURE_MODULES = (
    "arena.ladders.elo",
    "arena.ladders.skill",
    "arena.ladders.scoring",
    "arena.ladders.rows",
    "arena.ladders.counting",
    "arena.ladders.refit",
    "arena.ladders.pairing",
    "arena.tournaments.formats",
    "arena.tournaments.tally",
    "arena.tournaments.knockout",
    "arena.tournaments.swiss",
    "arena.tournaments.round_robin",
    "arena.tournaments.gauntlet",
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


def _io_imports_reached(
    start: str, targets: dict[str, set[str]], banned_names: tuple[str, ...] = IO_IMPORTS
) -> list[str]:
    """Each ``module imports name`` with a name of ``banned_names`` (:data:`IO_IMPORTS` unless
    told), over ``start`` and every project module it imports, transitively (``targets``: each
    module's imported names, type-only ones too)."""
    found: list[str] = []
    seen: set[str] = set()
    todo = [start]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        for target in sorted(targets[module]):
            if any(target == banned or target.startswith(f"{banned}.") for banned in banned_names):
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


NETWORK_IMPORTS = ("socket", "ssl", "select", "selectors", "http.client", "urllib.request", "requests")
"""What only the referee's network side (``referee.transport``) may import: sockets, TLS, waiting on
sockets, HTTP clients."""


def _is_transport(module: str) -> bool:
    return module == "referee.transport" or module.startswith("referee.transport.")


def test_network_code_lives_in_the_transport_package() -> None:
    direct = {
        f"{module} imports {target}"
        for module, path in _modules().items()
        if module.startswith("referee") and not _is_transport(module)
        for target in _targets(module, path, type_only_too=True)
        if any(target == banned or target.startswith(f"{banned}.") for banned in NETWORK_IMPORTS)
    }
    assert direct == set()


def test_no_engine_reaches_network_code() -> None:
    """Every module of every game package, and the referee's modules the engines stand on, reach no
    network library through any module they import: the runner, which drives the agents, and the
    transport package itself are the only referee modules above the network code."""
    modules = _modules()
    targets = {name: _targets(name, path, type_only_too=True) for name, path in modules.items()}
    engines = [
        name
        for name in modules
        if name.startswith("referee") and not _is_transport(name) and name != "referee.runner"
    ]
    games = [name for name in engines if name.count(".") == 1 and modules[name].name == "__init__.py"]
    assert len(games) >= 4, "the game packages were not found"
    reached = [found for name in engines for found in _io_imports_reached(name, targets, NETWORK_IMPORTS)]
    assert reached == []
