"""``tinyc debug`` / ``tinyc run -d`` (issue 27): transcript tests of whole sessions in both dialects.

Each case runs the debugger on a program of tests/debugger with a command file on stdin (the program's
input lines among the commands, as with Gibson's ``tc -d``) and compares stdout with ``NAME.out``.
``mirror`` follows Gibson's documented session (Documents/debugExample.txt of his repository) on a
program of our own; ``modern`` uses every command of a modern debugger; ``extras`` the long names and the rest; ``bad`` the bad input;
``memory`` ``b FILE:LINE`` and ``x ADDR [N]``, the memory dump.
Regenerate an ``.out`` after a deliberate change with ``TINYC_REGEN=1 pytest tests/debug/test_debugger.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1] / "debugger"

CASES = {
    # name: (command line after `tinyc`, command file)
    "mirror_pc": (["debug", "double.tc"], "mirror.in"),
    "mirror_gibson": (["debug", "double_gibson.tc"], "mirror.in"),
    "mirror_run_d": (["run", "-d", "--dialect", "gibson", "-q", "double.tc"], "mirror.in"),
    "modern_pc": (["debug", "fact.tc"], "modern.in"),
    "modern_gibson": (["debug", "-q", "fact_gibson.tc"], "modern_gibson.in"),
    "extras_pc": (["debug", "double.tc"], "extras.in"),
    "extras_gibson": (["debug", "--dialect", "gibson", "-q", "double_gibson.tc"], "extras_gibson.in"),
    "bad_pc": (["run", "-d", "bad.tc"], "bad.in"),
    "bad_gibson": (["debug", "--dialect", "gibson", "-q", "bad.tc"], "bad.in"),
    "memory_pc": (["debug", "fact.tc", "double.tc"], "memory.in"),
    "memory_gibson": (["debug", "-q", "fact_gibson.tc"], "memory_gibson.in"),
}


def session(args: list[str], commands: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], input=commands, capture_output=True,
                          cwd=HERE, timeout=120)


@pytest.mark.parametrize("name", sorted(CASES))
def test_transcript(name: str) -> None:
    args, commands = CASES[name]
    done = session(args, (HERE / commands).read_bytes())
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    expected = HERE / f"{name}.out"
    if os.environ.get("TINYC_REGEN"):
        expected.write_bytes(done.stdout)
    assert done.stdout.decode("latin-1") == expected.read_text(encoding="latin-1")


def _make_debugger():
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_debugger", HERE.parent.parent / "docs" / "make_debugger.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_walk_through_in_docs_is_current() -> None:
    """docs/debugger.md's sessions are what the commands print (python docs/make_debugger.py renews them)."""
    doc = _make_debugger()
    text = doc.DOC.read_text()
    assert len(doc.BLOCK.findall(text)) >= 3
    assert doc.render(text) == text, "docs/debugger.md is stale: run python docs/make_debugger.py"


def test_gibson_forms_of_the_documented_session() -> None:
    """The lines Gibson's notes show, in his forms: the break, the step, the print, the usage."""
    out = (HERE / "mirror_gibson.out").read_text(encoding="latin-1")
    assert "\nbreak at line 17 cursor pr[5816]: double\n double line,1\n" in out
    assert "(tc-db) line 4 cursor(pr[5619])->[\n int i,k\n" in out
    assert "(tc-db) k:  11\n" in out and "(tc-db) phrase:  hello world\n" in out
    assert "\tr,c           start or continue run to next breakpoint\n" in out
    assert "app line 10 (cursor pr[5739])SYMERR, decl needed\n append(phrase,\" \")\n" in out


def test_end_of_input_quits_cleanly_while_the_program_waits_for_a_line() -> None:
    done = session(["debug", "double.tc"], b"b double\nr\n")
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    assert done.stdout.endswith(b"stopped\n(tc-db) \n")


def test_a_program_that_cannot_start() -> None:
    done = session(["debug", "--dialect", "gibson", "missing.tc"], b"q\n")
    assert done.returncode != 0 or b"APPERR" in done.stdout
    assert b"Traceback" not in done.stderr


def test_a_breakpoint_on_a_library_function_stops_at_its_call() -> None:
    done = session(["debug", "double.tc"], b"b strlen\nr\nhello\nbt\nn\nq\n")
    out = done.stdout.decode("latin-1")
    assert "\nbreak at line 5 cursor pr[147]: strlen\n k=strlen(phrase)\n" in out
    assert "*#0  strlen(s=hello) in the library\n #1  double(phrase=hello, verbose=1) at line 5\n" in out
    assert "(tc-db) line 6 cursor(pr[157])->while(i=in\n" in out
