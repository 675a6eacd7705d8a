"""Differential cases for the fast engine's loop optimisations (issue 12): loop-invariant expressions
evaluated once before their loop, and scans run by a bytes search.  Each case is run on both engines and
compared byte for byte (output, error number, error address); the comment of a group names the guard
whose removal makes its cases fail."""

from __future__ import annotations

import pytest

from engine_harness import both

# loop-invariant code motion (engines/loopopt.py)
INVARIANT = [
    # the guard "only pure expressions": a division that may fail is not evaluated before a loop that
    # never reaches it (error 30 only where the reference raises it)
    ("main [ int z,k; while(k<3) [ if(k>5) pn 7/z; ++k ]; pn k ]", "a failing division in a branch never taken"),
    ("main [ int z,k; while(k) pn 7/z; pn 1 ]", "a failing division in a loop run zero times"),
    ("main [ int z,k; for(k=0;k<3;++k) pn 7/(z-k+1) ]", "30: a division that fails in the second pass"),
    # the guard "not assigned in the loop" (condition, body, step, counted for's variable)
    ("main [ int x,k; x=1; while(k<3) [ pn x*2; x=x+1; ++k ] ]", "a variable assigned after its use"),
    ("main [ int x,k; x=1; while((x*2<9)*(k<20)) [ ++x; ++k ]; pn k ]", "a variable the condition depends on"),
    ("main [ int x,k; x=1; for(k=0;k<4;x=x*3) [ pn x+1; ++k ] ]", "a variable the step assigns"),
    ("main [ int k; for(k=0;k<3;++k) pn k*2 ]", "a counted for's variable"),
    ("main [ int k,x; x=4; for(k=0;k<3;++k) pn (x=x+k)*2+x ]", "an assignment inside the expression"),
    ("main [ int i,j; while(i<3) [ j=0; while(j<2) [ pn i*10+j; ++j ]; ++i ] ]",
     "invariant in the inner loop only"),
    ("main [ int i,j,x; while(i<2) [ x=i*5; j=0; while(j<2) [ pn x+1; ++j ]; ++i ]; x=9; j=0; "
     "while(j<2) [ pn x*2; ++j ] ]", "each loop's temporaries are evaluated at its entry"),
    # the guard "no store, call or MC may rewrite a local's cell" (locals reached through memory)
    ("main [ char a(0); int x,k; x=5; while(k<3) [ pn x*2; a(1)=a(1)+1; ++k ] ]",
     "a local rewritten through an unchecked store"),
    ("f char p(0) [ p(1)=p(1)+1 ]\nmain [ char a(0); int x,k; x=5; while(k<3) [ pn x*2; f(a); ++k ] ]",
     "a local rewritten by a call"),
    ("main [ char a(0); int x,k; x=5; for(k=0;k<3;++k) [ pn x-1; MC a+1,1,k+7,16 ] ]",
     "a local rewritten by a machine call"),
    # the guard "a global only when the loop reads it once" (no call, MC or unchecked store)
    ("int g\nf [ g=g+1 ]\nmain [ int k; g=5; while(k<3) [ pn g*2; f; ++k ] ]", "a global a call changes"),
    ("char b(0)\nint g\nmain [ int k; g=5; while(k<3) [ pn g*2; b(1)=b(1)+1; ++k ] ]",
     "a global rewritten through an unchecked store"),
    ("int g\nmain [ int k; g=5; for(k=0;k<3;++k) [ pn -g; g=g+k ] ]", "a global assigned in a counted for"),
    ("int g\nmain [ int k,s; g=7; for(k=0;k<3;++k) s=s+g*3; pn s; g=1; while(k<6) [ s=s+4*g; ++k ]; pn s ]",
     "globals read once before each loop"),
    # values and bounds
    ("main [ int x,k; x=2147483647; while(k<2) [ pn x*2+k; pn (x+1)/2; ++k ] ]", "a hoisted value wraps"),
    ("main [ int x,k,s; x=3; while(k<4) [ s=s+(x<k)*10+!x; ++k ]; pn s ]", "hoisted relations"),
    ("main [ int a(20),x,k; x=-3; while(k<2) [ if(x<10) pn a(x*2); ++k ] ]", "6: bounds narrowed in the loop"),
    ("main [ int a(20),x,k; x=4; while(k<2) [ if(x>=0) if(x<10) pn a(x*2)+k; ++k ] ]",
     "bounds narrowed in the loop, in range"),
    ("main [ int x,k; x=7; while(k<3) [ pn x*(2-2)+k; ++k ] ]", "a constant invariant"),
    ("main [ int x,k; x=3; while(k<3) [ if(x*2-6) pn 1/0; ++k ]; pn k ]", "a constant condition"),
]


@pytest.mark.parametrize("src,why", INVARIANT, ids=[p[1] for p in INVARIANT])
def test_loop_invariants(src, why):
    ref, fast = both(src, stdin=b"")
    assert fast == ref
    assert ref[1] == 0 or why[:2] in ("30", "6:")


INVARIANT_16 = [
    "main [ int x,k; x=20000; while(k<2) [ pn x*2+k; pn x+x/2; ++k ] ]",
    "int g\nmain [ int k; g=30000; for(k=0;k<2;++k) pn g+g+k ]",
]


@pytest.mark.parametrize("src", INVARIANT_16)
def test_loop_invariants_16_bits(src):
    ref, fast = both(src, stdin=b"", int_bits=16)
    assert fast == ref


# scans run by a bytes search (engines/loopopt.py scan_fast): (program, why, keyword arguments)
LEN = "f char s(0) [ int k; while(s(k)) ++k; return k ]\n"
SCANS = [
    (LEN + "main [ char b(20); strcpy b,\"hello\"; pn f(b); pn f(b+5); pn strlen(b+1) ]", "lengths", {}),
    (LEN + "main [ char b(0); int x; x=300; b(0)=7; pn f(b); x=0; pn f(b) ]",
     "a scan into the caller's locals (their cells, flushed before the call)", {}),
    ("main [ char a(0); int k; a(0)=1; while(a(k)) ++k; pn k ]",
     "a scan into its own frame (the counter's cell)", {}),
    ("f char s(0) [ int k,n; n=2147483640; while(s(k)) [ ++k; ++n ]; pn k; pn n ]\n"
     "main [ f \"abcdefghijklmnop\" ]", "a counter that wraps", {}),
    ("f char s(0) [ int k,n; n=2147483640; while(s(k)) [ if(s(k)=='a') ++n; ++k ]; pn k; pn n ]\n"
     "main [ f \"abacadaeafagahaiajak\"; f \"\" ]", "a byte count that wraps", {}),
    ("f char s(0) [ int k,n,m; while(s(k)!=' ') [ if('a'==s(k)) ++n; ++m; ++k ]; pn k; pn n; pn m ]\n"
     "main [ f \"banana split\"; f \"aa a\" ]", "counting with !=", {}),
    ("f char s(0); int c [ int k; while(s(k)!=c) ++k; return k ]\n"
     "main [ char b(9); strcpy b,\"ab,c\"; b(6)=255; pn f(b,'c'); pn f(b,0); pn f(b,-1); pn f(b,300) ]",
     "6: a stop value no byte equals (300), and -1 for the byte 255", {"memory": 1 << 17}),
    ("f char s(0); char c [ int k; for(k=0;s(k)!=c;++k) ; return k ]\nmain [ pn f(\"xyz.\", '.') ]",
     "a for scan with a char stop", {}),
    ("char t(5)\nmain [ int k; t(0)=1; t(1)=1; t(2)=1; t(3)=1; t(4)=1; t(5)=1; while(t(k)) ++k; pn k ]",
     "6: a checked array without its stop byte", {}),
    ("char t(5)\nmain [ int k; k=0-2; t(0)=1; while(t(k)) ++k; pn k ]", "6: a checked scan from below", {}),
    ("char t(9)\nmain [ int k,n; strcpy t,\"a b a\"; while(t(k)) [ if(t(k)==' ') ++n; ++k ]; pn k; pn n; "
     "k=2; while(t(k)!='a') ++k; pn k ]", "checked scans", {}),
    ("main [ char t(9); int k; strcpy t,\"abcd\"; k=1; while(t(k)) ++k; pn k; t(k+2)=5 ]",
     "a local checked array", {}),
    ("f char s(0) [ int k; k=0-3; while(s(k)!='q') ++k; return k ]\nmain [ char b(5); strcpy b,\"hi q\"; pn f(b) ]",
     "a scan from a negative index", {}),
    ("f char s(0) [ int k; while(s(k)!='#') ++k; return k ]\nmain [ char b(0); pn f(b) ]",
     "6: a scan that never finds its stop", {"memory": 1 << 17}),
]
SCANS.append(("char g(30000)\nf char s(0) [ int k; k=5-131072; while(s(k)) ++k; return k ]\nmain [ pn f(g) ]",
              "6: a scan from a negative address", {"memory": 1 << 17}))
SCANS_16 = [
    ("char t(24000),u(24000)\nf char s(0) [ int k; while(s(k)) ++k; return k ]\n"
     "main [ memset t,24001,1; memset u,2000,1; pn f(t); memset u,24000,1; pn f(t) ]",
     "6: a scan past 32767 wraps k", {}),
    ("f char s(0) [ int k,n; n=32760; while(s(k)) [ ++k; ++n ]; pn k; pn n ]\n"
     "main [ f \"abcdefghijklmnop\" ]", "a counter that wraps (16 bits)", {}),
]
SCANS += [(s, w, {**kw, "int_bits": 16}) for s, w, kw in SCANS_16]


@pytest.mark.parametrize("src,why,kw", SCANS, ids=[p[1] for p in SCANS])
def test_scans(src, why, kw):
    ref, fast = both(src, stdin=b"", **kw)
    assert fast == ref
    assert ref[1] == 0 or why.startswith("6")
