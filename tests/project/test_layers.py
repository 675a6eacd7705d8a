"""The package's architecture (docs/architecture.md): one subpackage per stage, imports only downward.

The layer contract itself is in pyproject.toml ([tool.importlinter]) and is checked here with
import-linter, so that an import against the layers fails the tests, not only the CI step; the cycle
test builds the same import graph with grimp and fails if any circle of modules comes back.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
STAGES = ["tinyc.kernel", "tinyc.cli", "tinyc.shell", "tinyc.views", "tinyc.machine", "tinyc.engines", "tinyc.link", "tinyc.syntax"]


def _graph():
    return grimp.build_graph("tinyc", exclude_type_checking_imports=True, cache_dir=None)


def _cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), the package root left out: its only
    import is the IPython hook ``load_ipython_extension``, which loads the magics when IPython calls it."""
    modules = sorted(m for m in graph.modules if m != "tinyc")
    edges = {m: sorted(n for n in graph.find_modules_directly_imported_by(m) if n != "tinyc") for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for m in modules:
        if m not in index:
            visit(m)
    return found


def test_no_import_cycles():
    assert _cycles(_graph()) == []


def test_cycle_detector_finds_a_circle():
    class Graph:  # two modules importing each other, as engines and machine once did
        modules = {"tinyc", "tinyc.a", "tinyc.b", "tinyc.c"}

        def find_modules_directly_imported_by(self, m):
            return {"tinyc.a": {"tinyc.b"}, "tinyc.b": {"tinyc.a"}, "tinyc.c": {"tinyc.a"}}.get(m, set())
    assert _cycles(Graph()) == [["tinyc.a", "tinyc.b"]]


def test_every_stage_has_a_package_saying_what_it_may_import():
    import importlib
    for name in STAGES:
        doc = importlib.import_module(name).__doc__ or ""
        assert "import" in doc, name


def test_layer_contract_holds():
    lint = Path(sys.executable).with_name("lint-imports")
    r = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 broken" in r.stdout


def test_no_module_is_over_500_lines():
    """The house rule (issue 25): a module a reader can hold at once.  Counted on the installed package."""
    import tinyc
    package = Path(tinyc.__file__).parent
    long = {str(p.relative_to(package)): n for p in package.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > 500}
    assert long == {}
