"""Crashes and disagreements of the engines found by the fuzz campaign of issue 24, each a differential
case: both engines give the same output bytes, error number and error address, and the right ones."""

from __future__ import annotations

import pytest

from engine_harness import both
from test_gibson_differential import run as run_gibson

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
    # section 14 item 21: with 16-bit ints an int used as an address is unsigned
    ("char pad(30000), s(4)\nf char t(0) [ pn t(0) ]\nmain [ s(0)=65; f(s) ]", {"int_bits": 16}, b" 65", 0,
     "an array above 32767 reached through a parameter"),
    ("char pad(30000), s(4)\nf char t(0) [ pn t(0); pn t<0 ]\nmain [ int p; s(0)=66; pn s<0; p=s; pn p==s; f(p) ]",
     {"int_bits": 16}, b" 1 1 66 1", 0, "its address carried by an int is negative"),
    ("char pad(30000), s(20)\nchar gp(0)\nmain [ char q(0); strcpy s,\"hello\"; q=s; ++q; ps q; gp=s; "
     "++gp; pn gp(0); pn gp==q; q=q+30000; q=q+35536; ps q; gp=-1; pn gp ]", {"int_bits": 16},
     b"ello 101 1ello -1", 0, "pointer stores, ++ and a pointer moved past 65535 (it wraps)"),
    ("char pad(30000), s(20)\nmain [ strcpy s,\"abcdef\"; movebl s,s+2,3; ps s; pn countch(s,s+6,'a') ]",
     {"int_bits": 16}, b"abcabc 2", 0, "machine calls read their address arguments unsigned"),
    ("main [ char p(0); p=-5; pn p(1) ]", {}, b"", 6, "with 32-bit ints a negative address stays outside"),
]


@pytest.mark.parametrize("src,kw,out,err,why", CASES, ids=[c[-1] for c in CASES])
def test_engines_agree_on_the_findings(src, kw, out, err, why):
    ref, fast = both(src, **kw)
    assert fast == ref
    assert ref[0].rstrip(b"\r\n") == out and ref[1] == err


GIBSON = [
    ("main [\n  pn(" + "(" * 200 + "1" + "+1)" * 200 + ")\n]\n", b" 201\n",
     "200 nested additions, beyond Python's compiler: the reference evaluator runs it"),
    ("main [\n  int x\n  x=" + "x=" * 2000 + "1\n  pn(x)\n]\n", b"PUSHERR",
     "a chain of 2000 assignments: expression-stack overflow (error 16), not a Lark error"),
]


@pytest.mark.parametrize("src,out,why", GIBSON, ids=[c[-1] for c in GIBSON])
def test_gibson_engines_agree_on_the_findings(tmp_path, src, out, why):
    ref = run_gibson(src, "reference", tmp_path)
    assert run_gibson(src, "fast", tmp_path) == ref
    assert out in ref


# Error 7 (a scalar subscripted): the original found it once its ( was read, so the cursor stands just after
# the ( (reference section 10.2: where the error was detected); ^ marks that ( in each case
CARET = [
    "k int e [ return e^(1) ]\nmain [ k 3 ]",
    "main [ int x; x^( 1)=2 ]",
    "main [ int x; pn x ^(2) ]",
    "int g\nmain [ pn g^(1) ]",
    "main [ int x; x^(1) 2 ]",
    "main [ int x; ++x^(0) ]",
]


@pytest.mark.parametrize("marked", CARET)
def test_error_7_cursor_is_just_after_the_parenthesis(marked):
    src = marked.replace("^", "")
    ref, fast = both(src)
    assert fast == ref
    # the harness's cursor counts from the program buffer, whose first byte is the newline before line 1
    assert ref[1] == 7 and ref[2] == marked.index("^") + 2


# Declarations in nested blocks (issue 24's performance cliff): a name a block declares once, used only after
# its declaration in that block, is a static local of the fast engine; every other shape still runs on the
# reference evaluator.  Each case must agree byte for byte, error and address included.
NESTED = [
    "int g\nmain [ int i, s; for(i=0;i<50;++i) s=s+i; if (s) [ int t, u(3); t=s; u(1)=t; pn t; pn u(1) ]; pn s ]",
    "main [ int a; a=1; if (a) [ int x; x=5; pn x ] else [ int y; y=7; pn y ]; if (a-1) [ int z; pn z ] "
    "else [ char w; w=300; pn w ] ]",
    "int t\nmain [ t=9; [ int t; t=3; pn t ]; pn 1 ]",
    "int t\nf [ pn t ]\nmain [ t=9; if (1) [ int t; t=3; f; pn t ] ]",
    "main [ if (1) [ int big(300000); pn 1 ]; pn 2 ]",
    "main [ int k; k=2; if (k) [ int a(1000); a(k)=4; if (k) [ char p(0); p=a; pn p(8) ] ] ]",
    "f char p(0) [ p(5)=77 ]\nmain [ if (1) [ char a(0); int x; x=1; f(a); pn x ]; pn 0 ]",
    "f char p(0) [ pn p(5) ]\nmain [ char a(0); if (1) [ int x; x=1234; f(a); x=5; f(a) ]; f(a) ]",
    "g int n [ if (n) [ int m; m=n-1; return g(m)+1 ]; return 0 ]\nmain [ pn g(30) ]",
    "g int n [ if (n) [ int m(3); m(0)=n-1; return g(m(0))+1 ]; return 0 ]\nmain [ pn g(100) ]",
    "main [ int y; y=5; if (y<10) [ int q; q=y*y; if (q>20) [ int r; r=q/y; pn r ] ]; pn y ]",
    "main [ int i; for(i=0;i<3;++i) [ int x; x=x+1; pn x ] ]",
    "main [ if (1) [ int x; x=4 ]; pn x ]",
    "int x\nmain [ x=8; if (0) [ int x; x=4 ]; pn x ]",
    "main [ int n; n=0; while(n<3) [ ++n; if (n==2) [ int z; z=n; pn z ] ] ]",
    "main [ [ int x; x=1 ]; [ int x; x=2; pn x ] ]",
    "main [ int y; y=5; if (y) [ int k; k=y; pn k; return ]; pn 9 ]",
    "main [ if (1) [ int z; pn z(1) ] ]",
]


@pytest.mark.parametrize("src", NESTED)
def test_nested_declarations_agree(src):
    ref, fast = both(src)
    assert fast == ref


def test_nested_declarations_are_compiled():
    """The shapes the fast engine now compiles (the reference evaluator ran them all before)."""
    from tinyc import ast
    from tinyc.engines.analysis import Analysis, Unsupported
    from tinyc.syntax.pipeline import parse_program

    def compiled(text: str) -> bool:
        fn = next(f for f in parse_program(text).items if isinstance(f, ast.Function) and f.name == "main")
        try:
            Analysis([], fn.body.body)
        except Unsupported:
            return False
        return True
    assert compiled(NESTED[0]) and compiled(NESTED[1]) and compiled(NESTED[5]) and compiled(NESTED[10])
    assert not compiled(NESTED[11])  # in a loop: each pass allocates again
    assert not compiled(NESTED[12])  # a use after the block
    assert not compiled(NESTED[15])  # declared twice
