"""tests/ipl/linux_shell.ipl: a system file laid out like the Linux ``tinycx.ipl`` (reference 9.2, 9.3, 10.2),
run as ``tinyc linux_shell.ipl`` through a pipe, session for session against our Python ``tc>`` shell.

The IPL is a line editor written in tiny-c: globals ``int er(0),cu,...`` (MC 11 writes the error and the
cursor into er(0) and the next word), ``char ln(133),pr(90000)`` with ``ln`` directly before ``pr`` and a
statement padded into pr(0)'s newline, line arithmetic with MC 7/8/9/13/16 and ``int n(0)`` counters, and the
``.c`` loop ``while((ln(++p)!=d)[``.  Where both shells follow the reference, their output after the banner
must be byte for byte the same; the few places where they may not are named in each test.
"""

from __future__ import annotations

import importlib.resources
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


from test_programs import bca_expected, code_of, solver_guesses

ROOT = Path(__file__).resolve().parents[2]
IPL = ROOT / "tests" / "ipl" / "linux_shell.ipl"
CRLF = b"\r\n"

PROG = b"""/* prog.tc - test program
int a(3),n
main [
  int k
  k=0
  while(k<4) [
    a(k)=k*k
    ++k
  ]
  ps "sum"
  pn a(1)+a(2)+a(3)
  pl ""
]
bad [
  a(9)=1
]
div int x [
  return 10/x
]
ask [
  n=gn()
  pn n*2
]
"""


def tinyc(args: list[str], commands: list[bytes], cwd: Path) -> bytes:
    """``python -m tinyc ARGS`` with ``commands`` piped in (one per line); its whole output."""
    env = dict(os.environ)
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], input=b"\n".join(commands) + b"\n",
                          capture_output=True, cwd=cwd, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    return done.stdout


def after_banner(out: bytes) -> bytes:
    return out[out.index(b"tc>"):]


def both(commands: list[bytes], cwd: Path, options: tuple[str, ...] = ()) -> tuple[bytes, bytes]:
    """The session under the IPL and under the Python shell: (ipl, python) output from the first prompt on."""
    ipl = tinyc([str(IPL), *options], commands, cwd)
    py = tinyc([*options], commands, cwd)
    return after_banner(ipl), after_banner(py)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    (tmp_path / "prog.tc").write_bytes(PROG)
    return tmp_path


def test_layout_follows_the_linux_system_file():
    text = IPL.read_bytes()
    lines = text.split(b"\n")
    assert lines[0].startswith(b"/*") and lines[1] == b"[main();]"
    # the library part is our system.ipl's, word for word (random included)
    ours = importlib.resources.files("tinyc").joinpath("lib/system.ipl").read_bytes()  # the installed one
    library = ours[ours.index(b"\n[main();]\n") + 11:ours.index(b"\nendlibrary\n")]
    assert text[text.index(b"\n[main();]\n") + 11:text.index(b"\nendlibrary\n")] == library
    shell = text[text.index(b"\nendlibrary\n"):]
    assert re.search(rb"\nint er\(0\),cu,lo,pe,lp,ll,la,", shell)
    assert b"\nchar ln(133),pr(90000)\n" in shell
    assert b"while((ln(++p)!=d)[" in shell


def test_banner_prompt_and_exit():
    out = tinyc([str(IPL)], [b".x"], ROOT)
    assert out == CRLF + b"tiny-c shell - tests/ipl/linux_shell.ipl" + CRLF + CRLF + b"tc>" + CRLF


def test_editing_session_equals_the_python_shell(work):
    (work / "crlf.tc").write_bytes(b"first line\r\nsecond line\r\n")
    session = [b".r prog.tc", b".l k=0", b".c/k=0/k=1/", b".c", b".l sum", b".c|u|uu|", b".c", b".c|zz|yy|",
               b".l ^while", b".l ^]", b".l a(3)^", b".l nothing", b".l int", b".p 3", b"-2", b"+", b"+3", b"",
               b".1", b".p 40", b".l zzz", b".3", b".d 2", b".p 3", b".0", b".d", b".c/a/b/", b".2",
               b'  ps "inserted"', b".p 4", b".q", b"./", b".w out.tc", b".r out.tc", b"./", b".r missing.tc",
               b".r crlf.tc", b".25", b".99", b"-99", b".", b".x"]
    ipl, py = both(session, work)
    assert ipl == py
    text = ipl.replace(CRLF, b"\n")
    # .r, .l, .c, a bare .c that finds nothing, a bare .c that repeats the change (section 9.3)
    assert text.startswith(b'tc> 210\n 0 23 210 89790\ntc>  k=0\ntc>  k=1\ntc>?\ntc>  ps "sum"\n'
                           b'tc>  ps "suum"\ntc>  ps "suuum"\ntc>?\n')
    assert b"tc>?\ntc>]\ntc>?\ntc>?\ntc>div int x [\n" in text  # ^ stands for a newline
    assert b"tc>at bottom\n" in text and b"tc>cannot delete line 0\n" in text and b"tc>???\n" in text
    assert b"tc> 6 22 213 89787\n 213\ntc> 213\n 6 44 426 89574\n" in text  # .w, then .r appends
    assert b"tc>\nFile not found -1\ntc> 25\n 6 46 449 89551\n" in text  # CRs stripped: 23 bytes added
    assert text.endswith(b"tc>second line\ntc>\ntc>tc>\n")  # .99 and -99 stop at the ends; a lone . is quiet
    written = (work / "out.tc").read_bytes()
    assert len(written) == 213 and b'  ps "inserted"\n  k=1\n' in written and b"main [" not in written


def test_statements_and_error_reports(work):
    session = [b".r prog.tc", b".main", b".pn div(5)", b".pn 3*4", b".pn div(0)", b".bad", b"./", b".pn 2*(1+2",
               b".foo", b".5", b"  k=0)", b".main", b"./", b".d", b".ask", b"21", b".ask"]
    ipl, py = both(session, work)
    # errors in the typed statement: the IPL shell clamps the cursor to 0 and shows an empty line
    # (section 10.2); the Python shell keeps the numbers and shows the statement (issue 10, point 7)
    for typed, column in ((b"pn 2*(1+2", 9), (b"foo", 3)):
        shown = typed + CRLF + b" " * column + b"<" + CRLF
        assert shown in py
        py = py.replace(shown, CRLF + b"<" + CRLF)
    # at the end of input both end the prompt's line: the Python shell (docs/shell.md), and tinyc boot after
    # the IPL's gs stops (issue 26: it left a bare tc> without a newline)
    assert ipl == py
    text = ipl.replace(CRLF, b"\n")
    assert b"tc>sum 14\n\ntc> 2\ntc> 12\n" in text
    # section 10.2: the newline after the run, " L --- err  E", the line, blanks and < under the cursor
    assert b"tc>\n 18 --- err  30\n  return 10/x\n             <\n" in text
    assert b"tc>\n 15 --- err  6\n  a(9)=1\n      <\n" in text
    assert b"tc> 15 23 210 89790\n" in text  # the error line became the current line
    assert b"tc>\n 0 --- err  5\n\n<\n" in text  # errors in the typed statement: cursor clamped to 0
    assert b"tc>\n 0 --- err  26\n\n<\n" in text
    # found when main runs into it: k=0 has run, then ) starts a statement that is not an operand
    assert b"tc>\n 6 --- err  9\n  k=0)\n     <\ntc> 6 24 217 89783\n" in text
    assert text.endswith(b"tc>tc> 42\ntc>\nstopped\ntc>\n")  # .d of the bad line; gn at the end of input: 99


def test_wont_fit_and_too_big(work):
    line = b"/*" + b"x" * 97 + b"\n"
    (work / "big.tc").write_bytes(line * 899 + b"/* 80 bytes".ljust(89, b".") + b"\n")
    session = [b".r big.tc", b".r prog.tc", b".900", b"0123456789", b".1", b".c/x/yyyyyyyyyyyy/", b".c/xx/y/",
               b"12345678", b"./", b".x"]
    ipl, py = both(session, work)
    assert ipl == py
    text = ipl.replace(CRLF, b"\n")
    assert text.startswith(b"tc> 89990\n 0 900 89990 10\ntc>\nToo big -2\n")
    assert text.count(b"won't fit\n") == 2
    assert text.endswith(b"tc> 2 901 89998 2\ntc>\n")


def test_bullcow_under_the_ipl(work):
    games = [(3141, "5831"), (42, "9876")]
    (work / "bc.tc").write_bytes((ROOT / "programs" / "bc.tc").read_bytes())  # in the file sandbox (cwd)
    session = [b".r bc.tc"]
    expected = []
    for seed, secret in games:
        guesses = solver_guesses(seed, [secret])[0]
        expected.append(guesses)
        session += [b".bullcow", b"%d" % seed] + [code_of(g.encode(), secret) for g in guesses]
    session.append(b".x")
    ipl, py = both(session, work)
    assert ipl == py
    seen = re.findall(rb"Guess (\d+): (\d{4})", ipl)
    assert [g.decode() for _, g in seen] == [g for game in expected for g in game]
    assert b"I got it in %d tries!\r\n\r\ntc>" % len(expected[0]) in ipl


def test_bca_under_the_ipl(work):
    (work / "bca.tc").write_bytes((ROOT / "programs" / "bca.tc").read_bytes())  # in the file sandbox (cwd)
    session = [b".r bca.tc", b".bca", b"3141", b"20", b".x"]
    ipl, py = both(session, work)
    assert ipl == py
    assert b"How many games (1-3024)? \r\n" + bca_expected(3141, 20) + b"\r\ntc>" in ipl


def test_reference_engine_runs_the_ipl_alike(work):
    session = [b".r prog.tc", b".main", b".l k=0", b".c/k=0/k=2/", b".5", b"  pn k", b".main", b".bad", b".x"]
    fast = tinyc([str(IPL), "--engine", "fast"], session, work)
    assert tinyc([str(IPL), "--engine", "reference"], session, work) == fast
    assert b"tc> 2sum 13" in fast.replace(CRLF, b"")
