"""The Gibson dialect (issue 15): the conformance cases of ``tests/conformance/gibson/``, on both engines.

Each case is ``NAME.tc`` run as ``tinyc run --dialect gibson NAME.tc`` from the case directory, with
``NAME.out`` the exact stdout bytes (banner, program output, ``done`` or the error report: that dialect
writes everything to stdout), ``NAME.in`` optional stdin, ``NAME.args`` optional options (shell
quoting), ``NAME.status`` the exit status if not 0, ``NAME.err`` the exact stderr where it matters
(MC 0's dump).  The expected outputs come from the worked examples
of gibson-dialect.md section 8 (the original's own output) and from the rules of sections 2-6.
"""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import pytest

from tinyc import Session
from tinyc.cli import main as cli

HERE = Path(__file__).resolve().parents[1] / "conformance" / "gibson"
CASES = sorted(p.stem for p in HERE.glob("*.tc"))
ENGINES = ["reference", "fast"]


def run_case(name: str, engine: str, monkeypatch, cwd: Path) -> tuple[int, bytes, str]:
    base = HERE / name
    args = shlex.split(base.with_suffix(".args").read_text()) if base.with_suffix(".args").exists() else []
    stdin_bytes = base.with_suffix(".in").read_bytes() if base.with_suffix(".in").exists() else b""
    stdin = io.TextIOWrapper(io.BytesIO(stdin_bytes))
    out_bytes = io.BytesIO()
    stdout = io.TextIOWrapper(out_bytes, write_through=True)
    stderr = io.StringIO()
    monkeypatch.chdir(cwd)  # files the programs write go there; includes resolve from the program's directory
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    status = cli.main(["run", "--dialect", "gibson", "--engine", engine, *args, str(base.with_suffix(".tc"))])
    stdout.flush()
    return status, out_bytes.getvalue(), stderr.getvalue()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", CASES)
def test_case(name, engine, monkeypatch, tmp_path):
    base = HERE / name
    status, out, err = run_case(name, engine, monkeypatch, tmp_path)
    assert out.decode("latin-1") == base.with_suffix(".out").read_bytes().decode("latin-1")
    expected_status = int(base.with_suffix(".status").read_text()) if base.with_suffix(".status").exists() else 0
    assert status == expected_status, err
    if base.with_suffix(".err").exists():
        assert err == base.with_suffix(".err").read_bytes().decode("latin-1")


# ---- the examples, the automatic choice of the dialect, the library's layout

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "gibson"
EXAMPLE_INPUT = {"guess": b"50\n25\n37\n31\n28\n29\n30\n"}


def run_cli(argv: list[str], monkeypatch, cwd: Path, stdin: bytes = b"") -> tuple[int, bytes, str]:
    out_bytes = io.BytesIO()
    stdout = io.TextIOWrapper(out_bytes, write_through=True)
    stderr = io.StringIO()
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    status = cli.main(argv)
    stdout.flush()
    return status, out_bytes.getvalue(), stderr.getvalue()


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.tc")))
def test_examples_run_alike_on_both_engines(name, monkeypatch, tmp_path):
    path = str(EXAMPLES / f"{name}.tc")
    stdin = EXAMPLE_INPUT.get(name, b"")
    ref = run_cli(["run", "--engine", "reference", path], monkeypatch, tmp_path, stdin)
    fast = run_cli(["run", "--engine", "fast", path], monkeypatch, tmp_path, stdin)
    assert ref[0] == 0 and ref[1].endswith(b"\ndone\n"), ref
    assert ref[:2] == fast[:2]
    assert "Gibson dialect" in ref[2]  # chosen by the #include line, with a note on stderr


def test_fib_example_shows_late_reads(monkeypatch, tmp_path):
    _, out, _ = run_cli(["run", "-q", str(EXAMPLES / "fib.tc")], monkeypatch, tmp_path)
    assert b"return n:     0 1 0 1 1 2 3 5" in out
    assert b"return n+0:   0 1 1 2 3 5 8 13 21 34" in out


def test_file_starting_with_include_runs_as_tc_file(monkeypatch, tmp_path):
    # tinyc FILE (no command) runs a Gibson-dialect file as that interpreter's "tc FILE" does
    prog = tmp_path / "p.tc"
    prog.write_bytes(b"#include pps/library.tc\nmain [ printf \"%d\", 6 * 7 ]\n")
    status, out, err = run_cli([str(prog), "-q"], monkeypatch, tmp_path)
    assert (status, out) == (0, b"42\n")
    assert "running it in the Gibson dialect" in err


def test_dialect_pc_overrides_the_include_line(monkeypatch, tmp_path):
    prog = tmp_path / "p.tc"
    prog.write_bytes(b"#include pps/library.tc\nmain [ pn 1 ]\n")
    status, out, err = run_cli(["run", "--dialect", "pc", str(prog)], monkeypatch, tmp_path)
    assert "Gibson" not in err and status != 0 or b"done" not in out


def test_library_keeps_the_original_layout():
    # section 6.2: reports inside the library and offsets in the application match the original's
    # only with its layout: 5480 bytes, exit's line (285) at byte 5178
    from tinyc.dialects.gibson.machine import library_dir
    data = (library_dir() / "library.tc").read_bytes()
    assert len(data) == 5480
    assert data.index(b"exit [ MC 108 ]") == 5178
    assert data[:5178].count(b"\n") == 284
    for name in ("library.tc", "lrblib.tc", "mathLib.tc"):
        text = (library_dir() / name).read_bytes()
        assert text.count(b"[") == text.count(b"]"), name  # every bracket counts in that linker


def test_printf_directives():
    from tinyc.dialects.gibson.calls import format_printf

    class M:  # format_printf reads %s strings through m.memory
        class memory:
            @staticmethod
            def cstring(addr):
                return {1: b"hi"}[addr]
    assert format_printf(M, b"[%d][%4d][%04d][%x][%c][%s]", [-5, 42, 42, 255, 66, 1]) == b"[-5][  42][0042][ff][B][hi]"
    assert format_printf(M, b"[%-3d][%5s]", [7, 1]) == b"[-3d][   hi]"
    assert format_printf(M, b"100%% sure", []) == b"100 sure"
    assert format_printf(M, b"[%123d]", [9]) == b"[\nBAD FMT, max 3 digits, then one of dscx\n]"
    assert format_printf(M, b"%05d|%s", [-42, 0]) == b"-0042|(null)"


def test_cdate_and_sleep(monkeypatch, tmp_path):
    import re
    prog = tmp_path / "d.tc"
    prog.write_bytes(b'main [ char b(30); int p; p = cdate(b); ps b; pn p == b; sleep 0; pn strlen(b) ]\n')
    status, out, _ = run_cli(["run", "--dialect", "gibson", "-q", str(prog)], monkeypatch, tmp_path)
    assert status == 0
    assert re.fullmatch(rb"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d 1 19\n", out), out


def test_dialect_option_before_a_file_without_command(monkeypatch, tmp_path):
    prog = tmp_path / "plain.tc"
    prog.write_bytes(b"main [ pn 7 ]\n")
    status, out, err = run_cli(["--dialect", "gibson", "-q", str(prog)], monkeypatch, tmp_path)
    assert (status, out, err) == (0, b" 7\n", "")
    status, out, _ = run_cli(["-r", "pn 3", "--dialect=gibson", "-q", str(prog)], monkeypatch, tmp_path)
    assert (status, out) == (0, b" 3\n")


def test_dialects_are_found_by_name_and_announce_themselves():
    from tinyc.driver.dialect import UnknownDialect, detect, find, names
    PC, GIBSON = find("pc"), find("gibson")
    assert GIBSON.canonical("abcdefghijklmnXpq") == GIBSON.canonical("abcdefghijklmnYpq") == "abcdefghijklmnq"
    assert GIBSON.canonical("abcdefghiX1") != GIBSON.canonical("abcdefghiY1")
    assert PC.canonical("abcdefgXz") == PC.canonical("abcdefgYz") == "abcdefgz"
    assert detect(b"#include pps/library.tc\n") is GIBSON and detect(b"#loadMC x\n") is GIBSON
    assert detect(b"// #include later\n") is None and detect(b"main [ ]") is None
    assert names() == ["pc", "gibson"]
    with pytest.raises(UnknownDialect):
        find("cobol")
    for d in (PC, GIBSON):  # every hook gives something real
        assert d.machine_calls().routines and d.lexis().hiding
        assert all(callable(d.engine(name)) for name in d.engines)
        assert all(callable(d.tool(name).command) for name in d.tools)
        assert Path(d.package_path(d.library)).is_file()


def test_dialects_doc_names_existing_cases():
    import re
    doc = (Path(__file__).resolve().parents[2] / "docs" / "dialects.md").read_text()
    named = {n.strip() for m in re.finditer(r"\[([a-z0-9_, ]+)\]", doc) for n in m.group(1).split(",")}
    named = {n for n in named if re.fullmatch(r"[a-z0-9]+(_[a-z0-9]+)+", n)}
    assert named and named <= set(CASES), sorted(named - set(CASES))


def _gibson_run(path: Path, memory: int, capsys) -> tuple[int, bytes, str]:
    from tinyc.machine.console import Console
    out = io.BytesIO()
    status = Session("gibson", memory=memory, quiet=True, console=Console(io.BytesIO(), out)).run_files([str(path)])
    return status, out.getvalue(), capsys.readouterr().err


def test_a_program_larger_than_the_program_memory_is_refused_unread(tmp_path, capsys):
    # issue 24: the program memory (--memory, the original's PRLEN) bounds what is read; a 50 MB file is
    # refused at once, not read, sized and lexed whole
    big = tmp_path / "big.tc"
    with open(big, "wb") as f:
        f.write(b'main [ pl "hi" ]\n')
        f.truncate(50_000_000)  # sparse: the test writes almost nothing to disk
    status, out, err = _gibson_run(big, 1 << 20, capsys)
    assert (status, out) == (2, b"")
    assert "too big" in err and "1048576 bytes of program memory" in err


def test_the_program_memory_holds_the_library_the_application_and_the_slack(tmp_path, capsys):
    from tinyc.dialects.gibson.machine import MARKER, SLACK, library_dir
    room = 200_000 - len(b"[main();]") - (library_dir() / "library.tc").stat().st_size - len(MARKER) - SLACK
    program = b'main [ pl "hi" ]\n'
    fits = tmp_path / "fits.tc"
    fits.write_bytes(program + b"/" * (room - len(program) - 2000) + b"\n")  # 2000 bytes for the variables
    assert _gibson_run(fits, 200_000, capsys)[:2] == (0, b"\nhi\n")
    fits.write_bytes(program + b"/" * (room - len(program) - 1) + b"\n")  # fits, but leaves no room for them
    assert b"TMVLERR" in _gibson_run(fits, 200_000, capsys)[1]
    fits.write_bytes(program + b"/" * (room - len(program)) + b"\n")  # one byte more
    status, out, err = _gibson_run(fits, 200_000, capsys)
    assert (status, out) == (2, b"") and "too big" in err


def test_an_include_name_the_system_refuses_is_no_such_file(tmp_path, capsys):
    # issue 24 (found by the generated corpus): a name longer than the system's limit raised OSError
    name = "x" * 5000 + ".tc"
    (tmp_path / "p.tc").write_text(f"#include {name}\nmain [ pl \"hi\" ]\n")
    status, out, err = _gibson_run(tmp_path / "p.tc", 1 << 20, capsys)
    assert (status, out) == (1, b"") and err == f"No such file: {name}\n"


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_a_chain_of_2000_assignments_is_a_stack_overflow_not_a_traceback(tmp_path, capsys, engine):
    # issue 24 (also found by the campaign): Lark's VisitError around a RecursionError left the front end
    from tinyc.machine.console import Console
    (tmp_path / "p.tc").write_text("main [\n  int x\n  " + "x=" * 2000 + "1\n  pn x\n]\n")
    out = io.BytesIO()
    session = Session("gibson", engine, quiet=True, console=Console(io.BytesIO(), out))
    assert session.run_files([str(tmp_path / "p.tc")]) == 0
    assert b"PUSHERR" in out.getvalue()
