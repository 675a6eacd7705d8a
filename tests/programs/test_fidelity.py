"""Issue 10: tiny-c decides what a name and a statement are when the statement runs (reference 14.16).

The property test builds programs whose statements print their own number, with broken statements
(undeclared names, text that does not parse, library-name collisions) placed in branches that do or
do not run.  Both engines must print every statement before the first reached broken one and then
report the expected error number on the expected line; unreached broken code must change nothing.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tinyc.cli import main as cli
from tinyc.machine.console import Console
from tinyc import Session
from tinyc.driver.workspace import Workspace

# broken statement text -> the error it raises when it runs
BROKEN = {
    'nosuch "x",1': 26,
    "nosuch(1,2)": 26,
    "pn 2+*3": 9,
    "x=(seven)": 5,
    "@ 2": 9,
}
GLOBALS = ["", "char move(4)\n", "int num\n", "int add, dot, report, run\n", "f int n [ return n ]\n"]


def run(source: bytes, engine: str) -> tuple[bytes, int, bytes]:
    """(output, error number, the reported line) of ``main`` in ``source``."""
    out = io.BytesIO()
    m, ws = Session(engine=engine, console=Console(io.BytesIO(), out, strip_cr=True)).boot()
    ws.append(source)
    err, cu = ws.run(b"main")
    m.console.flush()
    report = ws.report(err, cu).split("\n")[1].encode("latin-1") if err else b""
    return out.getvalue(), err, report


@st.composite
def programs(draw):
    """A program, the output expected, and (error, line text) of the first broken statement reached."""
    lines, expected, error = [], [], None
    for k in range(draw(st.integers(1, 6))):
        broken = draw(st.sampled_from([None, *BROKEN]))
        taken = draw(st.booleans())
        if broken is None:
            line = f"  pn {k}"
        else:
            line = f"  if {int(taken)} {broken}"
        lines.append(line)
        if error is None:
            if broken is None:
                expected.append(f" {k}")
            elif taken:
                error = (BROKEN[broken], line.encode())
    text = draw(st.sampled_from(GLOBALS)) + "seven [ return 7 ]\nmain [\n  int x\n" + "\n".join(lines) + "\n]\n"
    return text.encode(), "".join(expected).encode(), error


@pytest.mark.parametrize("engine", ["reference", "fast"])
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(case=programs())
def test_output_before_the_failing_statement_then_its_error(engine, case):
    source, expected, error = case
    out, err, line = run(source, engine)
    assert out == expected
    if error is None:
        assert err == 0
    else:
        assert (err, line) == error


def test_a_program_function_named_like_a_library_local_keeps_the_library():
    """Only the names a library function looks up at the global levels matter (not its locals)."""
    m, ws = Session().boot()
    ws.append(b"f int n [ return n ]\ns [ return 1 ]\nmain [ pn f(s) ]\n")
    assert ws.run(b"main") == (0, 0)
    lex = type(m.library_lex)({"f": True, "s": True, "main": True})
    assert m._library_view(lex) is m.library_text.tables[0]


def test_a_multi_file_run_names_the_file_and_its_line(tmp_path, capsys):
    (tmp_path / "a.tc").write_text("main [ pn 1\n  two\n]\n")
    (tmp_path / "b.tc").write_text("/* b\ntwo [\n  pn 3/0 ]\n")
    assert cli.main(["run", str(tmp_path / "a.tc"), str(tmp_path / "b.tc"), "--engine", "reference"]) == 1
    assert capsys.readouterr().err == f" 3 --- err  30\nin {tmp_path / 'b.tc'}:\n  pn 3/0 ]\n        <\n"


def test_an_entry_statement_error_shows_the_statement(tmp_path, capsys):
    (tmp_path / "a.tc").write_text("main [ ]\n")
    assert cli.main(["run", str(tmp_path / "a.tc"), "--entry", "pn 1; pn nosuch(3)"]) == 1
    assert capsys.readouterr().err == " 0 --- err  26\npn 1; pn nosuch(3)\n               <\n"


def test_check_lists_every_problem(tmp_path, capsys):
    (tmp_path / "e.tc").write_text('main [ pl "ok"; if 0 nosuch 1\n  x = (3+\n]\ng int a [ return a+zz ]\n')
    assert cli.main(["check", "--format", "report", str(tmp_path / "e.tc")]) == 1
    out, err = capsys.readouterr()
    assert out.count("--- err  26") == 3 and out.count("--- err  9") == 1 and err.endswith("e.tc: 4 problems\n")
    assert " 4 --- err  26\ng int a [ return a+zz ]\n                     <\n" in out


def test_check_is_quiet_about_a_good_program(capsys):
    assert cli.main(["check", "programs/bc.tc"]) == 0
    assert capsys.readouterr().err == "programs/bc.tc: no problems\n"
