"""Differential cases for the link's room proof (``Linkage.room``): when the entry's declarations and, at
the depth limit plus one, frames of the largest function the entry may reach fit in memory, generated
functions take their frames without a test.  Each case runs out of value space (error 19) on the
reference evaluator, on both engines, compared byte for byte; the comment names the part of the proof
whose removal makes it fail."""

from __future__ import annotations

import pytest

from engine_harness import both

SMALL = {"memory": 1 << 17, "max_depth": 100}  # 128 KB: 90 frames of 2 KB do not fit

CASES = [
    # the frames of the functions the entry reaches, not only its own
    ("g int n [ int a(511); a(0)=n; if(n) g(n-1) ]\nmain [ g(90); pl \"done\" ]", "a callee's frame"),
    ("g int n [ int a(900); if(n) h(n-1) ]\nh int n [ g(n) ]\nmain [ h(45) ]", "a frame two calls away"),
    # an array parameter passed 0 takes its declared length
    ("g int a(511); int n [ a(0)=n; if(n) g(0,n-1) ]\nmain [ g(0,90) ]", "an array parameter passed 0"),
    # the entry's own declarations
    ("main [ int k; pn k ]", "the entry's declarations", "int a(40000); main"),
    # a function with dynamic locals: its frame is not known
    ("g int n [ if(n) [ int a(511); g(n-1) ] ]\nmain [ g(90) ]", "a callee with dynamic locals"),
    ("k int n [ int b(2000); b(0)=n ]\ng int n [ if(n) [ int a(400); k(n); g(n-1) ] ]\nmain [ g(90) ]",
     "a static callee of a callee with dynamic locals"),
    ("k [ int b(3); b(0)=1 ]\ng int n [ char a(n); k ]\nmain [ char t(0); int r; r=t; g(131072-r-20) ]",
     "a small static callee where a dynamic frame filled memory"),
    # recursion deeper than fits, with small frames (the depth limit is what bounds the frames)
    ("g int n [ int a(400); if(n) g(n-1) ]\nmain [ g(95) ]", "small frames, deep enough"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[1] for c in CASES])
def test_running_out_of_value_space(case):
    src, why = case[0], case[1]
    entry = case[2] if len(case) > 2 else "main"
    ref, fast = both(src, entry=entry, **SMALL)
    assert fast == ref
    assert ref[1] == 19


def test_a_program_that_fits_takes_frames_without_a_test(compiled):
    src = "fib int n [ int a(3); if(n<2) return n; return fib(n-1)+fib(n-2) ]\nmain [ pn fib(15) ]\n"
    code = compiled(src)
    fib = code[code.index("def f_fib"):]
    assert "if _d >= 1000: return r_fib" in fib and "_t >" not in fib and "_oom" not in fib
    assert "_t > " in compiled(src, "--max-depth", "100000")  # 100000 frames of 20 bytes: 2 MB
