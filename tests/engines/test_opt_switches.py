"""The fast engine's optimisation switches (engines/options.py): each one is wired to what it names, and the
engines agree with any one of them off, and with all of them off (``-O0``).

The differential part runs the cases of the optimisation tests (test_opt_*.py) and of test_engines.py, the
examples, and a few random programs of test_differential.py, once per optimisation switched off: a
miscompile is then found by switching the optimisations off one at a time.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import test_differential
import test_engines
import test_opt_arith
import test_opt_loops
import test_opt_ranges
import test_opt_recursion
import test_opt_room
import test_opt_values
import test_opt_walks
from engine_harness import run_program
from tinyc.engines.options import ALL, NAMES, NONE, Optimisations, from_switches, only

# Every named optimisation switched off in turn, over the corpus: .ci/run runs it, the README's test command leaves it out.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True, scope="module")
def own_cache(tmp_path_factory):
    """The start-up cache of these runs in a folder of their own: the hundreds of programs and code sets
    they cache would push the user's entries out of theirs (it keeps the newest 200 parses)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


def _corpus() -> list[tuple[str, str, dict]]:
    """(source, entry, run options) of the differential cases the optimisation tests hold."""
    out: list[tuple[str, str, dict]] = []
    for src, _ in (test_opt_loops.INVARIANT + test_opt_walks.REPEATS + test_opt_ranges.CASES
                   + test_opt_arith.DIVISION + test_opt_arith.AND_OR + test_engines.PROGRAMS):
        out.append((src, "main", {}))
    for src, _, kw in test_opt_loops.SCANS + test_opt_walks.WALKS:
        out.append((src, "main", kw))
    for src, _, entry in test_opt_arith.GLOBALS:
        out.append((src, entry, {}))
    for case in test_opt_recursion.CASES:
        out.append((case[0], "main", {}))
    for case in test_opt_room.CASES:
        out.append((case[0], case[2] if len(case) > 2 else "main", test_opt_room.SMALL))
    for y, r, _ in test_opt_values.CASES[:4]:
        out.append((test_opt_values.SIFT % (y, r), "main", {}))
    for path in sorted((ROOT / "examples").glob("*.tc")):
        out.append((path.read_text("latin-1"), "main", {}))
    return out


CORPUS = _corpus()


@functools.lru_cache(maxsize=None)
def _reference(src: str, entry: str, kw: tuple) -> tuple:
    return run_program(src, "reference", entry=entry, stdin=b"", **dict(kw))


def _agree(src: str, entry: str, kw: dict, options: Optimisations) -> None:
    ref = _reference(src, entry, tuple(sorted(kw.items())))
    fast = run_program(src, "fast", entry=entry, stdin=b"", options=options, **kw)
    assert fast == ref, (options, src)


SETS = [ALL.without(name) for name in NAMES] + [NONE]


@pytest.mark.parametrize("options", SETS, ids=[f"no-{n}" for n in NAMES] + ["O0"])
def test_engines_agree_with_an_optimisation_off(options):
    for src, entry, kw in CORPUS:
        _agree(src, entry, kw, options)


@pytest.mark.parametrize("options", SETS, ids=[f"no-{n}" for n in NAMES] + ["O0"])
def test_random_programs_agree_with_an_optimisation_off(options):
    @settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(test_differential.program())
    def agree(src):
        _agree(src, "main", {}, options)
    agree()


# ---- each switch changes the code it names (a program where the optimisation applies)

PROGRAMS = {
    "bounds": "main [ int k; k=5; if(k<9) ++k; pn k ]",
    "const-globals": "int g\nf [ pn g+1 ]\nmain [ g=3; f ]",
    "room": "f int n [ int a(3); a(0)=n; pn a(0) ]\nmain [ f 2 ]",
    "dead-frames": "f int n [ int x; x=n*2; return x ]\nmain [ pn f(3) ]",
    "depth-guard": "f int n [ if(n<2) return n; return f(n-1)+f(n-2) ]\nmain [ pn f(10) ]",
    "counted-loops": "main [ int k,s; for(k=0;k<10;++k) s=s+k; pn s ]",
    "loop-versions": "main [ int a(9),k,n; n=5; for(k=0;k<n;++k) a(k)=k; pn a(3) ]",
    "value-versions": test_opt_values.SIFT % (345, "3"),
    "scans": "f char s(0) [ int k; while(s(k)) ++k; return k ]\nmain [ pn f(\"abc\") ]",
    "walks": "f char s(0) [ int k,n; while(s(k)) [ n=n+s(k); ++k ] return n ]\nmain [ pn f(\"abc\") ]",
    "hoist": "int g\nmain [ int k; g=4; while(k<9) [ pn g; k=k+g ] ]",
    "invariants": "main [ int k,x; x=3; while(k<9) [ pn x*x+1; k=k+1 ] ]",
    "reuse-reads": "main [ int a(3),k; k=1; pn a(k)*a(k)+a(k) ]",
    "divided-index": "main [ int a(9),y; y=45; pn a(y/10) ]",
}


def test_every_optimisation_has_a_program():
    assert set(PROGRAMS) == set(NAMES)


@pytest.mark.parametrize("name", list(NAMES))
def test_each_switch_changes_the_code(name, compiled):
    src = PROGRAMS[name]
    assert compiled(src) != compiled(src, f"--no-{name}")
    assert compiled(src, "-O0") != compiled(src, f"--only-{name}")
    ref = run_program(src, "reference")
    assert ref[1] == 0
    assert run_program(src, "fast", options=ALL.without(name)) == ref


def test_o0_is_the_plain_translation(compiled):
    plain = compiled(PROGRAMS["counted-loops"], "-O0")
    assert "optimisations: none" in plain
    assert "range(" not in plain and "while" in plain
    assert "range(" in compiled(PROGRAMS["counted-loops"])


def test_run_takes_the_switches(tmp_path, capsys):
    from tinyc.cli import main as cli
    program = tmp_path / "p.tc"
    program.write_text(PROGRAMS["scans"])
    for switches in ([], ["-O0"], ["--no-scans"], ["--only-walks", "--only-bounds"]):
        assert cli.main(["run", *switches, str(program)]) == 0
        assert capsys.readouterr().out.strip() == "3"


def test_an_unknown_name_is_a_usage_error(tmp_path, capsys):
    from tinyc.cli import main as cli
    program = tmp_path / "p.tc"
    program.write_text(PROGRAMS["scans"])
    assert cli.main(["run", "--no-scanz", str(program)]) == 2
    assert "--no-scans" in capsys.readouterr().err


# ---- the set itself

def test_the_set_of_switches():
    assert ALL.enabled() == tuple(NAMES) and NONE.enabled() == ()
    assert str(ALL) == "all" and str(NONE) == "none" and ALL.key() == "all"
    off = ALL.without("scans", "walks")
    assert not off.scans and not off.walks and off.bounds
    assert off.key() == "no-scans,walks" and off == Optimisations(("walks", "scans")) and off != ALL
    assert hash(off) == hash(ALL.without("walks").without("scans"))
    assert only("hoist").enabled() == ("hoist",)
    assert from_switches(0) == NONE and from_switches() == ALL
    assert from_switches(0, only_names=["scans"]) == only("scans")
    assert from_switches(no=["bounds"]) == ALL.without("bounds")
    with pytest.raises(ValueError, match="no optimisation 'scanz'"):
        ALL.without("scanz")
    with pytest.raises(AttributeError):
        ALL.scans = False  # type: ignore[misc]


def test_the_switches_are_part_of_the_code_cache_key(tmp_path, monkeypatch):
    """The disk cache (a fresh one here) keeps one entry per set: -O0 after a normal run generates anew."""
    import io
    from tinyc.engines import compiler
    from tinyc import Session
    from tinyc.machine.console import Console
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    keys = []
    real = compiler.FastEngine._from_disk

    def spy(self, tree, shapes, link, generate=None):
        keys.append(shapes)
        return real(self, tree, shapes, link, generate)
    monkeypatch.setattr(compiler.FastEngine, "_from_disk", spy)
    for options in (ALL, NONE):
        session = Session(engine="fast", console=Console(io.BytesIO(), io.BytesIO()), optimisations=options)
        session.load_text(PROGRAMS["counted-loops"].encode())
        session.run("main")
    assert any("all" in k for k in keys) and any("no-" + ",".join(NAMES) in k for k in keys)


def test_the_class_declares_every_switch():
    from tinyc.engines.options import _field
    assert set(Optimisations.__annotations__) - {"_key"} == {_field(n) for n in NAMES}


def test_the_session_gives_the_fast_engine_its_switches():
    """``tinyc run`` builds its machine through cli.options.session_of: the switches reach the engine it builds."""
    import io
    from types import SimpleNamespace
    from tinyc.cli.options import session_of
    from tinyc.machine.console import Console
    for switches, expected in (({"opt_level": 0}, NONE), ({"opt_off": ["scans"]}, ALL.without("scans")),
                               ({"opt_only": ["walks"]}, only("walks")), ({}, ALL)):
        args = SimpleNamespace(engine="fast", files=[], **switches)
        session = session_of(args, Console(io.BytesIO(), io.BytesIO()))
        machine, _ = session.boot()
        assert machine.engine.options == expected
    reference = session_of(SimpleNamespace(engine="reference", files=[], opt_level=0))
    assert not hasattr(reference.boot()[0].engine, "options")


@pytest.mark.parametrize("command", ["run", "compile"])
def test_the_help_lists_each_switch(command, capsys):
    from tinyc.cli import main as cli
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    assert "-O LEVEL" in out and all(f"--no-{name}" in out for name in NAMES)
    assert "y%d" in out  # argparse's % formatting escaped
