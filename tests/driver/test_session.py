"""The one way in (issue 25 items 1 and 2): tinyc.Session builds every machine, machines are built with their
engine and machine calls (nothing set afterwards), the import graph has no circle even counting the imports
made for type checking, and a dialect is a package the core finds by its name."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest

import tinyc
from tinyc.driver.dialect import UnknownDialect, find
from tinyc.machine.console import Console

SRC = Path(tinyc.__file__).resolve().parent  # the installed package (a wheel's copy, or tinyc)
ROOT = Path(__file__).resolve().parents[2]  # the checkout: its tests, benchmarks and examples
HELLO_GIBSON = ROOT / "examples" / "gibson" / "hello.tc"


def _sources(*roots: Path):
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            yield path, ast.parse(path.read_text(), str(path))


def _where(path: Path) -> str:
    """``path`` named from the package (``tinyc/driver/session.py``) or the checkout (``tests/x.py``)."""
    return str(Path("tinyc") / path.relative_to(SRC)) if path.is_relative_to(SRC) else str(path.relative_to(ROOT))


def test_only_the_session_builds_a_machine():
    """Every ``Machine(...)`` call in the package, the tests and the benchmarks is in Session.machine."""
    builders = []
    for path, tree in _sources(SRC, ROOT / "tests", ROOT / "benchmarks"):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                if name == "Machine":
                    builders.append(f"{_where(path)}:{node.lineno}")
    assert len(builders) == 1 and builders[0].startswith("tinyc/driver/session.py:"), builders


def test_nothing_is_set_on_a_machine_after_it_is_built():
    """No ``x.engine =``, ``x.machine_call =``, ``x.routines =``, ``x.gibson =`` outside the Machine's own module."""
    patched = []
    for path, tree in _sources(SRC):
        if path.name == "interpreter.py" and path.parent.name == "driver":
            continue  # the Machine itself (and Machine.using, the debugger's scoped engine)
        for node in ast.walk(tree):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, (ast.AnnAssign, ast.AugAssign)) else []
            for t in targets:
                if (isinstance(t, ast.Attribute) and t.attr in ("engine", "machine_call", "routines", "gibson")
                        and not (isinstance(t.value, ast.Name) and t.value.id == "self")):
                    patched.append(f"{_where(path)}:{node.lineno}")
    assert patched == []


def test_the_import_graph_has_no_circle_counting_type_checking_imports():
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("tinyc", exclude_type_checking_imports=False)
    modules = sorted(graph.modules)
    state: dict[str, int] = {}  # 1: on the path, 2: done
    circles = []

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if state.get(imported) == 1:
                circles.append(path[path.index(imported):] + [module, imported] if imported in path
                               else [module, imported])
            elif imported not in state:
                visit(imported, path + [module])
        state[module] = 2
    for module in modules:
        if module not in state:
            visit(module, [])
    assert circles == []


def test_the_core_never_imports_a_dialect():
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("tinyc", exclude_type_checking_imports=False)
    core = ("syntax", "link", "machine", "engines", "driver", "views", "shell", "cli")
    for package in core:
        for dialect in ("tinyc.dialects.pc", "tinyc.dialects.gibson"):
            chain = graph.find_shortest_chain(importer=f"tinyc.{package}", imported=dialect, as_packages=True)
            assert chain is None, chain


def test_a_session_runs_a_program_of_text():
    out = io.BytesIO()
    session = tinyc.Session(engine="fast", console=Console(io.BytesIO(), out))
    session.load_text(b'main [ pl "hello"; pn 6*7 ]\n')
    assert session.run("main") == (0, 0)
    session.current.console.flush()
    assert out.getvalue() == b"\r\nhello 42"
    assert session.current.engine.name == "fast" and session.dialect.name == "pc"


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_a_session_runs_a_gibson_file_with_its_hooks(engine):
    out = io.BytesIO()
    session = tinyc.Session("gibson", engine, quiet=True, console=Console(io.BytesIO(), out))
    assert session.run_files([str(HELLO_GIBSON)]) == 0
    assert b"Hello from the Gibson dialect" in out.getvalue()
    m = __import__("tinyc.dialects.gibson.machine", fromlist=["make_machine"]).make_machine(session)
    assert m.machine_call is find("gibson").machine_calls().call
    assert type(m.engine).__name__ == ("GibsonEvaluator" if engine == "reference" else "GibsonFastEngine")


def test_an_unknown_dialect_is_refused_by_name():
    with pytest.raises(UnknownDialect, match="the dialects: pc, gibson"):
        tinyc.Session("cobol")
    with pytest.raises(UnknownDialect):
        find("../pc")


def test_the_machine_a_session_builds_has_its_options():
    session = tinyc.Session(engine="reference", int_bits=16, max_depth=77, console=Console(io.BytesIO(), io.BytesIO()))
    m = session.machine()
    assert (m.memory.size, m.memory.int_bits, m.max_depth) == (65536, 16, 77)
    assert m.files is session.files and m.state is None
    made = []
    m2 = session.machine(engine=lambda machine: made.append(machine) or "an engine")
    assert made == [m2] and m2.engine == "an engine"


@pytest.mark.parametrize("view", ["tokens", "parse", "ast", "link", "check", "compile", "trace"])
def test_every_stage_view_takes_a_gibson_program_in_process(view, capsys, monkeypatch):
    from tinyc.cli import main as cli
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert cli.main([view, "--dialect", "gibson", str(HELLO_GIBSON)]) == 0
    out, err = capsys.readouterr()
    assert "error 9" not in err and "error 20" not in err
    assert out.strip() or view == "check"


def test_run_reads_the_program_file_once(tmp_path, monkeypatch, capsys):
    """``tinyc run FILE`` tells the dialect from the text it runs: the file is opened once."""
    import builtins
    from tinyc.cli import main as cli
    program = tmp_path / "p.tc"
    program.write_bytes(b'main [ pl "once" ]\n')
    opened = []
    real_open = builtins.open

    def counting_open(file, *a, **kw):
        if str(file) == str(program):
            opened.append(file)
        return real_open(file, *a, **kw)
    monkeypatch.setattr(builtins, "open", counting_open)
    assert cli.main(["run", str(program)]) == 0
    assert "once" in capsys.readouterr().out
    assert len(opened) == 1


def test_the_shell_takes_the_gibson_dialect(tmp_path, monkeypatch):
    """``tinyc --dialect gibson``: lines go to a buffer, ``.STATEMENT`` runs against it as ``tc -r`` does."""
    import subprocess
    import sys
    typed = b'main [ pn 6*7 ]\n.main()\n.pn 1+2\n.x\n'
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc", "--dialect", "gibson"], input=typed, cwd=tmp_path,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"***  TINY-C VERSION 1.0") and b" 42\n" in done.stdout and b" 3\n" in done.stdout


@pytest.mark.parametrize("dialect, path", [("pc", ROOT / "examples" / "hello.tc"), ("gibson", HELLO_GIBSON)])
def test_a_session_hands_out_the_stage_views_and_the_trace(dialect, path):
    session = tinyc.Session(dialect, console=Console(io.BytesIO(), io.BytesIO()))
    tokens = session.view("tokens", str(path))
    assert "FNAME" in tokens and "main" in tokens
    assert "Function main" in session.view("ast", str(path))
    assert "main" in session.view("link", str(path))
    transcript = session.trace(str(path))
    assert "call main()" in transcript and "|" in transcript


def test_the_session_default_engine_is_the_one_default():
    """A Session made by hand runs on the engine every door defaults to (tinyc.driver.options, issue 36)."""
    from tinyc.driver.options import DEFAULT_ENGINE, DEFAULTS
    session = tinyc.Session(console=Console(io.BytesIO(), io.BytesIO()))
    assert session.engine == DEFAULT_ENGINE == DEFAULTS.engine == "fast"
    machine, _ = session.boot()
    assert machine.engine.name == "fast"
    assert tinyc.Session.from_options(DEFAULTS).engine == DEFAULT_ENGINE
