"""The import layering of the code: the contracts of pyproject.toml's ``[tool.importlinter]`` (floors that
import one way only, and a pure engine) hold, and no module of engine, games, leaderboards or
pyramid_site takes part in an import cycle, however long.

Both read the source statically (grimp, import-linter's graph library): imports inside functions count
too, so a cycle cannot hide in a lazy import."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "games", "leaderboards", "pyramid_site")


def lint_imports_command() -> str:
    beside_python = Path(sys.executable).with_name("lint-imports")
    found = str(beside_python) if beside_python.exists() else shutil.which("lint-imports")
    assert found, "lint-imports is missing: .venv/bin/pip install -e '.[test]' (it brings import-linter)"
    return found


def test_the_import_contracts_hold():
    checked = subprocess.run(
        [lint_imports_command(), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert checked.returncode == 0, checked.stdout[-5000:] + checked.stderr[-3000:]
    assert "0 broken" in checked.stdout


def import_cycles(modules: Iterable[str], imported_by: Callable[[str], Iterable[str]]) -> list[list[str]]:
    """The import cycles among ``modules``: every strongly connected component of more than one module,
    and every module that imports itself (Tarjan's algorithm, without recursion)."""
    modules = sorted(modules)
    known = set(modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    for root in modules:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(sorted(m for m in imported_by(root) if m in known)))]
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(m for m in imported_by(target) if m in known))))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1 or module in imported_by(module):
                    cycles.append(sorted(component))
    return sorted(cycles)


def test_the_cycle_finder_finds_cycles():
    """The check below passes on no cycle; here it is shown finding them, long and short."""
    edges = {
        "a": {"b"},
        "b": {"c"},
        "c": {"a", "d"},
        "d": set(),
        "e": {"e"},
        "f": {"d", "g"},
        "g": {"f"},
        "h": {"a", "outside"},
    }
    assert import_cycles(edges, lambda m: edges.get(m, set())) == [["a", "b", "c"], ["e"], ["f", "g"]]
    assert import_cycles({"x": {"y"}, "y": set()}, lambda m: {"x": {"y"}, "y": set()}[m]) == []


def test_no_module_is_in_an_import_cycle():
    # Nothing is left out, not even a package's __init__ importing its own submodules: grimp records
    # ``from . import name`` as an import of the submodule ``name``, so that pattern makes a cycle only
    # when a submodule imports a name from its own package's __init__, which is a real cycle.
    graph = grimp.build_graph(*PACKAGES, cache_dir=None)
    # the graph is the whole code, imports inside functions included (an app's ``ready`` hooks)
    assert len(graph.modules) > 100
    assert graph.direct_import_exists(importer="leaderboards.apps", imported="games.signals")
    cycles = import_cycles(graph.modules, graph.find_modules_directly_imported_by)
    described = []
    for cycle in cycles:
        links = [f"{a} -> {b}" for a in cycle for b in sorted(graph.find_modules_directly_imported_by(a)) if b in cycle]
        described.append("\n    ".join(links))
    assert cycles == [], "import cycles:\n  " + "\n  ".join(described)
