"""Recursion of a proven depth (``engines/recursion.py``): a function whose first statement is
``if(p<K) return ...`` and whose calls of itself pass ``p-c`` hands a call to a version with no depth
test when the frames it may reach stay below the limit.  The proof's rules, table-driven, then
differential cases run on both engines and compared byte for byte, error number and cursor included;
the comment of each names the rule or guard whose removal makes it fail."""

from __future__ import annotations

import pytest

from engine_harness import both, run_program
from tinyc.engines import analysis
from tinyc.engines.recursion import depth_guard
from tinyc.syntax.pipeline import parse_program

DOWN = "down int n [ if(n<1) return 0; return down(n-1)+1 ]\n"


def _guard(src: str, name: str = "f", bits: int = 32):
    fn = next(f for f in link_functions(src) if f.name == name)
    params = [(decl.type, d) for decl in fn.params for d in decl.names]
    return depth_guard(fn.name, params, fn.body.body, bits)


def link_functions(src: str):
    return [item for item in parse_program(src).items if hasattr(item, "body") and item.body is not None]


RULES = [
    ("f int n [ if(n<2) return n; return f(n-1)+f(n-2) ]", ("n", 2)),
    ("f int n [ if(n<=1) return n; return f(n-1) ]", ("n", 2)),
    ("f int n [ if(3>n) return 1; return f(n-3) ]", ("n", 3)),
    ("f int n [ if(0>=n) [ return ]; return f(n-1) ]", ("n", 1)),
    ("f int a, n [ int x; if(n<1) return a; x=a*2; return f(x, n-1) ]", ("n", 1)),
    # rejected: each rule of the proof
    ("f int n [ if(n<1) return 0; n=n+2; return f(n-1) ]", None),          # p assigned
    ("f int n [ if(n<1) return 0; ++n; return f(n-1) ]", None),            # p stepped
    ("f int n [ if(n<1) return 0; return f(n+1) ]", None),                 # a larger p
    ("f int n [ if(n<1) return 0; return f(n-0) ]", None),                 # the same p
    ("f int n, m [ if(n<1) return 0; return f(m-1, n) ]", None),           # another value
    ("f int n [ if(n<1) pn 0; return f(n-1) ]", None),                     # a guard that does not return
    ("f int n [ if(n<1) return 0 else return 1; return f(n-1) ]", None),   # an else
    ("f int n [ pn n; if(n<1) return 0; return f(n-1) ]", None),           # not the first statement
    ("f int n [ if(n<1) return f(n+5); return f(n-1) ]", None),            # the return calls f
    ("f char n [ if(n<-100) return 0; return f(n-1) ]", None),             # a char wraps at -128
    ("f int n [ if(n<-2147483647) return 0; return f(n-5) ]", None),       # K - c wraps
    ("f int n [ int a(3); if(n<1) return 0; return f(n-1) ]", None),       # an array local
    ("f int n [ if(n<1) return 0; return f ]", None),                      # f named without arguments
    ("f int n [ int f; if(n<1) return 0; return f(n-1) ]", None),          # a local named f
    ("f int n [ if(n>1) return 0; return f(n-1) ]", None),                 # the wrong direction
]


@pytest.mark.parametrize("src, expected", RULES, ids=[r[0] for r in RULES])
def test_the_proof_rules(src, expected):
    assert _guard(src) == expected


def test_a_16_bit_int_bounds_the_constants():
    assert _guard("f int n [ if(n<-32767) return 0; return f(n-1) ]", bits=16) == ("n", -32767)
    assert _guard("f int n [ if(n<-32767) return 0; return f(n-2) ]", bits=16) is None


def _wrapped(depth: int, call: str) -> str:
    """``main`` calls ``call`` from ``depth`` nested functions (so the recursion starts deeper)."""
    src = "".join(f"w{k} [ return w{k + 1} ]\n" for k in range(depth))
    return src + f"w{depth} [ return {call} ]\nmain [ pn w0 ]\n"


@pytest.mark.parametrize("start", [0, 7])
@pytest.mark.parametrize("v", [190, 191, 192, 193, 197, 198, 199, 200, 201, 202, 5000])
def test_recursion_near_the_depth_limit(start, v):
    # the dispatch test: with it off by two, or missing, the deepest calls escape error 17
    src = DOWN + _wrapped(start, f"down({v})")
    ref, fast = both(src)
    assert fast == ref


# (program, entry, options, why): each would differ from the reference if the named guard were removed
CASES = [
    ("f int n [ if(n<1) return 0; n=n+2; return f(n-1) ]\nmain [ pn f(3) ]", "p assigned"),
    ("f int n [ if(n<1) return 0; return f(n-0) ]\nmain [ pn f(3) ]", "p not smaller"),
    ("f int n [ if(n<1) pn 0; return f(n-1) ]\nmain [ pn f(3) ]", "a guard that does not return"),
    ("f int n [ if(n<1) return f(n+5); return f(n-1) ]\nmain [ pn f(3) ]", "the return calls f"),
    ("f char n [ if(n<-130) return 0; return f(n-1) ]\nmain [ pn f(3) ]", "a char parameter"),
    ("f int n [ if(n<-2147483647) return 0; return f(n-5) ]\nmain [ pn f(-2147483640) ]", "K - c wraps"),
    ("g [ pn 1 ]\nf int n [ if(n<1) return 0; g; return f(n-1) ]\nmain [ f(5) ]", "f calls another function"),
    ("f int n [ if(n<1) return 0; return f(n-1)+1 ]\nmain [ int k; k=190; while(k<=200) [ pn f(k); ++k ] ]",
     "a loop of calls across the limit"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[1] for c in CASES])
def test_recursion_cases(case):
    ref, fast = both(case[0])
    assert fast == ref


def test_without_room_frames_are_tested():
    # 50,000 frames of 4 bytes do not fit in 200,000 bytes: error 19 (without the room guard u_f takes them)
    src = DOWN + "main [ pn down(50000) ]\n"
    ref, fast = both(src, memory=200_000, max_depth=100_000)
    assert fast == ref
    assert ref[1] == 19


def test_exact_dead_frames_keep_the_checked_version(monkeypatch):
    # the fuzzer's mode writes every frame's cells (at _t), which u_down cannot: its text guard keeps the
    # checked version, and both engines leave the same bytes above the top of value space (read back
    # through an unchecked char t(0))
    src = DOWN + "main [ char t(0); int i; down(4); while(i<24) [ pn t(i); ++i ] ]\n"
    monkeypatch.setattr(analysis, "EXACT_DEAD_FRAMES", True)
    ref, fast = both(src)
    assert fast == ref
    assert ref[0].count(b" 0") < 24  # the frames left bytes there


def test_fib_hands_its_calls_to_the_unchecked_version(compiled):
    src = "fib int n [ if(n<2) return n; return fib(n-1)+fib(n-2) ]\nmain [ pn fib(20) ]\n"
    code = compiled(src)
    u = code[code.index("def u_fib(v_n):"):code.index("def f_fib")]
    assert "u_fib((v_n - 1))" in u and "_d" not in u and "_t" not in u
    assert "if v_n <= 1000 - _d: return u_fib(v_n)" in code
    assert run_program(src, "fast") == run_program(src, "reference")
