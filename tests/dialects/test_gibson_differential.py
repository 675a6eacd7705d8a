"""Differential test of the Gibson dialect: random programs give the same bytes on both engines.

The programs are built to exercise what makes the fast engine fall back to the reference evaluator
(tinyc/dialects/gibson/compiler.py): functions that return a bare local or parameter (late reads, section 3.9 of
gibson-dialect.md), a function that changes a global the caller reads in the same expression, char and
int assignments in both directions, two calls in one expression, printf of calls, array parameters,
division by zero and subscripts out of range (their reports).  Each program runs in-process on the
reference and on the fast engine; stdout (output, ``done`` or the error report) must be identical.

As the PC dialect's fuzzing does (tests/fuzz), it also runs a generated corpus: programs of
``fuzz.gen_gibson`` (file calls, machine calls, library routines, nested loops), valid and mutated, each
engine in a fresh temporary directory (``fuzz.runner.gibson_differential``).
"""

from __future__ import annotations

import io
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz import gen_gibson
from fuzz.runner import gibson_differential
from tinyc import Session
from tinyc.machine.console import Console

GLOBALS = ["g", "h"]
LOCALS = ["x", "y"]
CHARS = ["c"]
NUMBERS = st.one_of(st.integers(-9, 9), st.sampled_from([127, 128, 200, 255, 256, 2147483647, -2147483647]))
CALLS = ["lret(~)", "gset(~)", "vret(~)", "cret(~)", "sum2(~, ~)", "asum(ga, 3)"]


@st.composite
def expr(draw, depth=0):
    kinds = ["num", "var", "char"] + (["bin", "bin", "call", "elem", "assign", "paren"] if depth < 3 else [])
    kind = draw(st.sampled_from(kinds))
    sub = lambda: draw(expr(depth + 1))  # noqa: E731
    if kind == "num":
        n = draw(NUMBERS)
        return str(n) if n >= 0 else f"(0{n})"
    if kind == "char":
        return "'" + draw(st.sampled_from("a0Z ~")) + "'"
    if kind == "var":
        return draw(st.sampled_from(GLOBALS + LOCALS + CHARS))
    if kind == "bin":
        op = draw(st.sampled_from(["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!="]))
        return f"({sub()} {op} {sub()})"
    if kind == "call":
        call = draw(st.sampled_from(CALLS))
        while "~" in call:
            call = call.replace("~", sub(), 1)
        return call
    if kind == "elem":
        return f"ga({draw(st.sampled_from(['0', '1', '2', '3', '4']))})"
    if kind == "assign":
        return f"({draw(st.sampled_from(GLOBALS + LOCALS + CHARS))} = {sub()})"
    return f"({sub()})"


@st.composite
def statement(draw, depth=0):
    kind = draw(st.sampled_from(["pn", "pn", "assign", "printf", "if", "while"] if depth < 2 else ["pn", "assign"]))
    e = lambda: draw(expr())  # noqa: E731
    if kind == "pn":
        return f"pn {e()}"
    if kind == "assign":
        target = draw(st.sampled_from(GLOBALS + LOCALS + CHARS + ["ga(1)"]))
        return f"{target} = {e()}"
    if kind == "printf":
        return f'printf "[%d %d]", {e()}, {e()}'
    if kind == "if":
        return f"if {e()} [ {draw(statement(depth + 1))} ] else [ {draw(statement(depth + 1))} ]"
    body = draw(statement(depth + 1))
    return f"k = 0; while k < 3 [ {body}; k = k + 1 ]"


@st.composite
def program(draw):
    stmts = draw(st.lists(statement(), min_size=1, max_size=8))
    return "\n".join([
        "int g, h, ga(4)",
        "lret int n [ int t; t = n * 2; return t ]",          # a reference to freed storage
        "gset int n [ g = n; return n + 1 ]",                  # changes a global
        "vret int n [ return n + 0 ]",                          # a value
        "cret int n [ char q; q = n; return q ]",              # a char reference
        "sum2 int a, b [ return a + b ]",
        "asum int p(3); int n [ int i, s; while i < n [ s = s + p(i); i = i + 1 ]; return s + 0 ]",
        "main [",
        "  int x, y, k",
        "  char c",
        *("  " + s for s in stmts),
        "]",
    ]) + "\n"


def run(src: str, engine: str, tmp) -> bytes:
    path = tmp / "p.tc"
    path.write_text(src)
    out = io.BytesIO()
    console = Console(inp=io.BytesIO(b""), out=out)
    saved = sys.stderr
    sys.stderr = io.StringIO()
    try:
        Session("gibson", engine, quiet=True, console=console).run_files([str(path)])
    finally:
        sys.stderr = saved
    return out.getvalue()


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                                      HealthCheck.function_scoped_fixture])
@pytest.mark.slow  # every Gibson program on both engines: run by .ci/run
@given(program())
def test_engines_agree(tmp_path, src):
    assert run(src, "reference", tmp_path) == run(src, "fast", tmp_path), src


def test_late_read_programs_differ_from_eager_reading(tmp_path):
    # the generator's functions do show late reads: lret's reference is overwritten by the next call
    src = "lret int n [ int t; t = n * 2; return t ]\nmain [ pn lret(1) + lret(5) ]\n"
    assert run(src, "reference", tmp_path) == run(src, "fast", tmp_path) == b" 20\n"


@pytest.mark.parametrize("chunk", range(4))
def test_generated_corpus_agrees(chunk):
    fails = []
    for seed in range(chunk * 15, chunk * 15 + 15):
        r = random.Random(f"gibson-corpus-{seed}")
        src = gen_gibson.program(r)
        data = gen_gibson.mutate(r, src) if seed % 3 == 2 else src.encode("latin-1")
        outcome = gibson_differential(data, b"5\n7\nabc\n", seconds=3.0)
        if outcome.failed:
            fails.append((seed, outcome.kind, outcome.detail, outcome.ref, outcome.fast))
    assert fails == []
