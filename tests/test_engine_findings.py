"""Crashes and disagreements of the engines found by the fuzz campaign of issue 24, each a differential
case: both engines give the same output bytes, error number and error address, and the right ones."""

from __future__ import annotations

import pytest

from engine_harness import both

SUM_300 = "main [ pn " + "+".join(["1"] * 300) + " ]"
SUM_1500 = "main [ int x; x=1; pn " + "+".join(["x"] * 1500) + "; pn " + "(" * 150 + "1" + ")" * 150 + " ]"

# (source, run options, expected output, expected error number, why)
CASES = [
    ("main [\n  int x\n  int x(300000)\n  pn 5\n]", {}, b"", 19,
     "a local declared again as a larger array: the frame counts both (error 19, not a grown memory)"),
    ("main [\n  int x\n  x=4\n  int x(2147483647)\n  pn x\n]", {}, b"", 19,
     "a declared-again array of 8 GB"),
    ("f [ int a(2); int a(300000); pn 1 ]\nmain [ f ]", {}, b"", 19, "an array declared again in a callee"),
    ("main [ int x; x=7; int x(10); pn x; int x; pn x ]", {}, b" 7 7", 0,
     "a name declared again keeps its first place and value"),
    ("f int n [ int n(100); pn n ]\nmain [ f 3; f 4 ]", {}, b" 3 4", 0, "a parameter declared again"),
    (SUM_300, {"max_depth": 2}, b" 300", 0, "a 300-term sum under --max-depth 2"),
    (SUM_1500, {"max_depth": 2}, b" 1500 1", 0, "a 1500-term sum and 150 parentheses under --max-depth 2"),
    (SUM_1500, {"max_depth": 1000}, b" 1500 1", 0, "the same under the default depth"),
]


@pytest.mark.parametrize("src,kw,out,err,why", CASES, ids=[c[-1] for c in CASES])
def test_engines_agree_on_the_findings(src, kw, out, err, why):
    ref, fast = both(src, **kw)
    assert fast == ref
    assert ref[0].rstrip(b"\r\n") == out and ref[1] == err
