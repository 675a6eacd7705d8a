"""Differential cases for the fast engine's walks and repeated reads (engines/loopopt.py): loops that step
an index over a char array to a stop byte with a body that cannot change memory, run with unchecked reads
when one bytes search finds the stop byte before the limit (``walk_loop``), and element reads that reuse
an identical earlier read of the same expression (``element``).  Each case runs on both engines and is
compared byte for byte (output, error number, error address); the comment of a group names the guard
whose removal makes its cases fail."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine_harness import both, run_program

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
BIG = {"memory": 1 << 17}

WALKS = [
    # the limit: the frame's first byte for an unchecked array (reads at or above it flush the locals
    # first: the counter's cell holds k when the original reads it, 0 before)
    ("f char s(0) [ int k,n; while(s(k)) [ if(s(k)==1) n=n+1; ++k ]; pn k; pn n ]\n"
     "main [ char b(3); b(0)=1; b(1)=1; b(2)=1; b(3)=1; f(b) ]", "a stop byte missing before the frame", {}),
    ("f char s(0) [ int k,n; while(s(k)) [ n=n+s(k); ++k ]; pn k; pn n ]\nmain [ char b(0); b(0)=5; f(b) ]",
     "a walk into the frame of its caller", {}),
    ("f char s(0) [ int k; while(s(k)!='#') [ k=k; ++k ]; return k ]\nmain [ char b(0); pn f(b) ]",
     "6: a walk that never meets its stop", BIG),
    # the start: inside memory (a negative start would search from the end of memory)
    ("f char s(0) [ int k,n; k=0-5; while(s(k)) [ n=n*3+s(k); ++k ]; pn k; pn n ]\nmain [ f(2) ]",
     "6: a pointer that starts below memory", {}),
    ("f char s(0) [ int k,n; k=5-131072; while(s(k)) [ n=n+1; ++k ]; pn n ]\nmain [ f(2) ]",
     "6: a pointer that starts a memory size below memory", BIG),
    ("f char s(0) [ int k,n; k=10; while(s(k)) [ n=n+s(k); ++k ]; pn n ]\nmain [ f(131070) ]",
     "6: a pointer beyond memory", BIG),
    ("f char s(0) [ int k,n; k=0-3; while(s(k)!='q') [ n=n+1; ++k ]; pn k; pn n ]\n"
     "main [ char b(5); strcpy b,\"hi q\"; f(b) ]", "a walk from a negative index", {}),
    # a body that may change memory is not versioned: a store, a call, a machine call that writes, a
    # global store, a string (its closing quote becomes a NUL); each removes the stop byte
    ("char t(2)\nmain [ int k; t(0)=1; while(t(k)) [ if(k<2) t(k+1)=1; ++k ]; pn k ]",
     "6: a body that stores", {}),
    ("char t(2)\nw int i [ t(i+1)=1 ]\nmain [ int k; t(0)=1; while(t(k)) [ if(k<2) w(k); ++k ]; pn k ]",
     "6: a body calling a function that writes a checked array", {}),
    ("w char p(0); int i [ p(i+1)=1 ]\nmain [ char t(2); int k; t(0)=1; while(t(k)) [ if(k<2) w(t,k); ++k ]; "
     "pn k ]", "6: a body calling a function that writes through a pointer", {}),
    ("char t(2)\nmain [ int k; t(0)=1; while(t(k)) [ if(k<2) MC t+k+1,1,1,16; ++k ]; pn k ]",
     "6: a body with a machine call that writes", {}),
    ("char t(3)\nint g\nf char s(0) [ int k; while(s(k)) [ if(k==2) g=16843009; ++k ]; return k ]\n"
     "main [ t(0)=1; t(1)=1; t(2)=1; t(3)=1; pn f(t) ]", "a body that stores a global", {}),
    ("char t(2)\nf [ char s(0); int k,x,r; s=t; t(0)=97; t(1)=34; while(r<2) [ k=0; "
     "while(s(k)!=34) [ x=\"q\"; ++k ]; s=x; s(1)=34; t(1)=1; ++r ]; return k ]\nmain [ pn f ]",
     "6: a body with a string that ends the stop byte", BIG),
    # k changes only by the last ++k; the pointer not at all
    ("char t(2)\nmain [ int k; t(0)='a'; t(1)='x'; while(t(k)) [ if(t(k)=='x') ++k; ++k ]; pn k ]",
     "6: a body that steps k past the stop byte", {}),
    ("char t(2)\nmain [ int k; t(0)='a'; t(1)='x'; while(t(k)) [ if(t(k)=='x') k=k+1; ++k ]; pn k ]",
     "6: a body that assigns k", {}),
    ("f char s(0) [ int k,n; char z(0); n=5; while(s(k)) [ if(k==0) s=z-5; ++k ]; pn k ]\n"
     "main [ f(\"ab\") ]", "a body that moves the pointer", {}),
    # leaving early
    ("f char s(0); char c [ int k; while(s(k)) [ if(s(k)==c) return k; ++k ]; return 0-1 ]\n"
     "main [ pn f(\"hello\",'l'); pn f(\"hello\",'z'); pn f(\"\",'z') ]", "return inside", {}),
    ("f char s(0) [ int k,n; while(s(k)) [ if(s(k)==' ') break; n=n+s(k); ++k ]; pn k; pn n ]\n"
     "main [ f(\"ab cd\"); f(\"abcd\") ]", "break inside", {}),
    ("f char s(0) [ int k,n; while(s(k)) [ if(s(k)==9) break; n=n+1; ++k ]; pn k; pn n ]\n"
     "main [ char b(3); b(0)=1; b(1)=1; b(2)=1; b(3)=1; f(b) ]", "break inside, no stop byte before the frame",
     {}),
    ("char t(9)\nmain [ int k; strcpy t,\"abc\"; while(t(k)) [ if(t(k)=='b') break; ++k ]; pn k; k=0; "
     "while(t(k)!='c') [ if(t(k)=='z') return; ++k ]; pn k ]", "leaving a checked walk early", {}),
    ("char t(3000)\nf char s(0) [ int k; while(s(k)) [ if(s(k)==2) break; ++k ]; return k ]\n"
     "main [ memset t,2999,1; t(2500)=2; pn f(t); t(2500)=1; pn f(t); t(2999)=0; pn f(t) ]",
     "break after more than the search cap", {}),
    # the stop byte: a signed char, compared as the reference compares it
    ("f char s(0); int c [ int k,n; while(s(k)!=c) [ n=n+1; ++k ]; pn k; pn n ]\n"
     "main [ char b(9); strcpy b,\"ab,c\"; b(6)=255; f(b,'c'); f(b,0); f(b,0-1) ]", "a negative stop", BIG),
    ("f char s(0); int c [ int k,n; while(s(k)!=c) [ n=n+1; ++k ]; pn k; pn n ]\n"
     "main [ char b(9); strcpy b,\"ab\"; b(4)=200; f(b,200) ]", "6: a stop above 127 no byte equals", BIG),
    ("f char s(0) [ int k,n; while(s(k)!=300) [ n=n+1; ++k ]; pn n ]\nmain [ f(\"ab\") ]",
     "6: a constant stop no byte equals", BIG),
    ("f char s(0); char c [ int k,n; while(c!=s(k)) [ n=n+s(k); ++k ]; pn k; pn n ]\nmain [ f(\"xy.z\",'.') ]",
     "a stop on the left", {}),
    # checked arrays (their own view): the end of the array is the limit, the start is tested
    ("char t(5)\nmain [ int k,n; t(0)=1; t(1)=1; t(2)=1; t(3)=1; t(4)=1; t(5)=1; while(t(k)) [ n=n+t(k); ++k ]; "
     "pn n ]", "6: a checked array without its stop byte", {}),
    ("char t(5)\nf int k [ int n; t(0)=1; while(t(k)) [ n=n+1; ++k ]; pn n ]\nmain [ f(0-2) ]",
     "6: a checked walk from below", {}),
    ("char t(9)\nmain [ int k,n,m; strcpy t,\"a b a\"; while(t(k)) [ if(t(k)==' ') ++n; m=m*2+t(k); ++k ]; "
     "pn k; pn n; pn m; k=2; for(;t(k)!='a';++k) n=n+t(k); pn k; pn n ]", "checked walks", {}),
    ("main [ char t(9); int k,n; strcpy t,\"abcd\"; k=1; while(t(k)) [ n=n+t(k)*k; ++k ]; pn k; pn n; t(k+6)=5 ]",
     "6: a local checked array", {}),
    ("char t(4)\nmain [ int k,n; t(0)=1; t(1)=1; t(2)=1; t(3)=1; while(t(k)) [ n=n+t(k+2); ++k ]; pn n ]",
     "6: a read past the stop in a checked walk", {}),
    # nested: the inner walk is versioned, the outer one is not
    ("f char s(0),p(0) [ int k,j,n; while(s(k)) [ j=0; while(p(j)) [ n=n+(s(k)==p(j)); ++j ]; ++k ]; return n ]\n"
     "main [ pn f(\"abcabc\",\"ca\") ]", "nested walks", {}),
]
WALKS_16 = [
    ("char t(24000),u(24000)\nf char s(0) [ int k,n; while(s(k)) [ n=n+1; ++k ]; pn k; pn n ]\n"
     "main [ memset t,24001,1; memset u,2000,1; f(t); memset u,24000,1; f(t) ]", "6: a walk past 32767 wraps k", {}),
    ("f char s(0) [ int k,n; n=32760; while(s(k)) [ ++n; if(s(k)=='c') n=n+1; ++k ]; pn k; pn n ]\n"
     "main [ f(\"abcdefghijklmnop\") ]", "a counter that wraps", {}),
]
WALKS += [(s, w, {**kw, "int_bits": 16}) for s, w, kw in WALKS_16]


@pytest.mark.parametrize("src,why,kw", WALKS, ids=[p[1] for p in WALKS])
def test_walks(src, why, kw):
    ref, fast = both(src, stdin=b"", **kw)
    assert fast == ref
    assert ref[1] == 0 or why.startswith("6")


def _string_case() -> str:
    """A program that reads the closing quote of a string before and after the string runs: t points at
    the string, found from the address of an earlier one and their distance in the text."""
    for d in range(10, 100):
        src = f'main [ char t(0); int a; a="y"; t=a+{d}; pn t(1)+"x"*0+t(1) ]'
        if src.index('"x"') - src.index('"y"') == d:
            return src
    raise AssertionError("no distance fits")


STRING = _string_case()

# repeated reads in one expression: anything that may change a local or memory between them ends the
# reuse (the guard ``has_effect``); only the same array and index reuse (``read_key``)
REPEATS = [
    ("char a(3)\nmain [ int i; a(1)=1; i=1; pn a(i)*(a(i)=2)*a(i) ]", "a store between"),
    ("char a(3)\nmain [ int i; a(1)=1; i=1; pn a(i)+(++a(i))+a(i) ]", "++ of the element between"),
    ("char a(3)\nmain [ int i; a(1)=1; a(2)=7; i=1; pn a(i)+(++i)*0+a(i) ]", "++ of the index between"),
    ("char a(3)\nmain [ int i; a(1)=1; a(2)=7; i=1; pn a(i)+(i=2)*0+a(i) ]", "an assignment of the index between"),
    ("char a(3)\ng [ a(0)=9 ]\nmain [ a(0)=1; pn a(0)+g()+a(0) ]", "a call that writes between"),
    ("char a(3)\nmain [ a(1)=1; pn a(1)+MC(a+1,1,5,16)+a(1) ]", "a machine call that writes between"),
    ("main [ char t(0); int a,r; while(r<2) [ pn t(1)+(a=\"x\")*0+t(1); t=a; t(1)=34; ++r ] ]",
     "a string assigned between"),
    (STRING, "a string between (its quote becomes a NUL)"),
    ("f char p(0) [ p(4)=3 ]\nmain [ char a(0); int i; i=0; pn a(i+4)*10+f(a)+a(i+4) ]",
     "6: a call that rewrites the index through memory"),
    ("char a(3)\nmain [ int i; a(1)=1; a(2)=7; i=1; pn a(i)*10+a(i+1); pn a(i+1)*(a(i)==a(i+1))+a(i+1) ]",
     "different places"),
    ("f char s(0),p(0) [ int k,j; k=1; pn p(j)*(s(k+j)==p(j)); pn s(k-j)*100+s(k-j)*s(0-j+k) ]\n"
     "main [ f(\"abc\",\"bx\") ]", "the same place twice"),
    ("char a(3)\nmain [ int i; i=5; pn a(i)*(a(i)==1) ]", "6: the first read fails"),
    ("f char s(0) [ int k; k=0-1; pn s(k)+s(k) ]\nmain [ f(0) ]", "6: the first read fails, unchecked"),
]


@pytest.mark.parametrize("src,why", REPEATS, ids=[p[1] for p in REPEATS])
def test_repeated_reads(src, why):
    ref, fast = both(src, stdin=b"")
    assert fast == ref
    assert ref[1] == 0 or why.startswith("6")


WRAPS = [  # a wrap tests one side when the bounds settle the other (bounds.wrap)
    ("main [ int x,y; x=2147483647; y=1; if(x>0) if(y>0) pn x+y ]", {}),
    ("main [ int x,y; x=0-2147483647; y=0-2; if(x<0) if(y<0) pn x+y ]", {}),
    ("main [ int x,y; x=32767; y=3; if(x>0) if(y>0) pn x+y; x=0-x; if(x<0) pn x-y ]", {"int_bits": 16}),
]


@pytest.mark.parametrize("src,kw", WRAPS)
def test_one_sided_wraps(src, kw):
    ref, fast = both(src, stdin=b"", **kw)
    assert fast == ref


def test_scan_program_against_reference():
    """scan.tc itself, on a shorter text and fewer rounds (the reference is slow)."""
    src = (BENCH / "programs/scan.tc").read_text()
    src = src.replace("while(i<30000)", "while(i<900)").replace("r<16", "r<2")
    ref, fast = both(src, stdin=b"")
    assert fast == ref and ref[1] == 0


def test_scan_program_against_twin():
    """scan.tc in full on the fast engine against its plain-Python twin (benchmarks/twins.py)."""
    sys.path.insert(0, str(BENCH))
    try:
        import twins
    finally:
        sys.path.remove(str(BENCH))
    out, err, _ = run_program((BENCH / "programs/scan.tc").read_bytes(), "fast")
    assert err == 0
    assert out.endswith(twins.scan_main())
