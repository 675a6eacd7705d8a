"""Differential cases for the arithmetic part of the fast engine's code generator (issue 12).

Inline ``/`` and ``%`` (operand order, zero divisor, negative operands, INT_MIN / -1, the bounds of the
result), bounds of globals the program only assigns constants, and bounds from conditions joined with
``*`` (and) and ``+`` (or).  Each case runs on both engines: output bytes, error number and cursor agree.
"""

from __future__ import annotations

import random

import pytest

from engine_harness import both

DIVISION = [
    # every sign combination, through variables whose values the generator cannot know
    ("int v(7)\nmain [ int i,j\n v(0)=7; v(1)=-7; v(2)=3; v(3)=-3; v(4)=1; v(5)=-1; v(6)=0\n"
     " for(i=0;i<7;++i) for(j=0;j<6;++j) [ pn v(i)/v(j); pn v(i)%v(j) ]\n ]", "signs"),
    # operands run left to right, each once, before the zero test
    ("main [ int x\n x=6; pn x/(x=3); x=6; pn (x=3)/x; x=-6; pn x/(x=4); x=-6; pn x%(x=4)\n ]", "order, local"),
    ("int g\nf [ g=2; return 12 ]\nmain [ g=3; pn f()/g; g=24; pn g/f(); g=-25; pn g%f(); pn f()%g ]", "order, global"),
    ("main [ int x,y\n x=-7; pn x/(y=2); pn x%(y=2); pn y; x=7; pn x/++y; pn y ]", "impure positive divisor"),
    ("main [ int x\n x=5; pn x/(x=0) ]", "zero divisor after the divisor's assignment"),
    ("main [ int x\n x=0; pn (x=5)/x ]", "zero divisor read after the dividend ran"),
    ("int a(3)\nmain [ pn a(9)/0 ]", "error 6 in the dividend before the zero test"),
    ("int a(3)\nmain [ int x\n pn x/a(9) ]", "error 6 in the divisor before the zero test"),
    ("int g\nf [ g=g+1; return g ]\nmain [ int x\n x=-9; pn x/(f()-1); pn g ]", "divisor call, error 30 after it ran"),
    # INT_MIN / -1 wraps; INT_MIN % -1 is 0
    ("main [ int x,y\n x=-2147483647-1; y=-1; pn x/y; pn x%y; pn x/y-1; pn -(x/y); pn x/y/y ]", "INT_MIN / -1"),
    # positive divisors from bounds: C truncation inline, and the result's tight bounds
    ("main [ int x,k\n x=-2147483647-1\n for(k=1;k<5;++k) [ pn x/k; pn x%k; pn x/k+x/k; pn x%k*1000000000 ]\n"
     " x=2147483647\n for(k=1;k<5;++k) [ pn x/k; pn x%k; pn x/k+x/k; pn x/k-x%k ] ]", "loop divisors"),
    ("main [ int x,y\n x=-10; y=-1; pn x/y+2147483640; x=10; pn x%y; y=-7; x=-2147483647; pn x%y+1; x=-7; y=-4; pn x%y-2147483646 ]",
     "bounds with a negative divisor"),
    ("main [ int x,k\n x=7; for(k=1;k<5;++k) pn x%k+2147483645 ]", "remainder bounds: k-1 can be reached"),
    # divisors of both signs: the bounds of a positive divisor do not hold
    ("int v(1)\nmain [ int x,k\n x=10; v(0)=-1; pn x/v(0)-2147483640\n"
     " x=100; for(k=-50;k<4;++k) if(k) pn x%k+2147483640 ]", "divisors of both signs"),
    ("main [ int x,k,q\n x=-100\n for(k=1;k<7;++k) [ q=x/(k+1); pn q; q=x%(k+1); pn q*q ] ]", "divisor k+1"),
    ("char c\nmain [ int x,k\n x=-300; for(k=1;k<4;++k) [ c=x/k; pn c; c=x%(k*100); pn c ] ]", "char stores of quotients"),
]

DIVISION_16 = [
    ("main [ int x,y\n x=-32767-1; y=-1; pn x/y; pn x%y; pn x/y-1; pn -(x/y) ]", "INT_MIN / -1, 16 bits"),
    ("main [ int x,k\n x=-32767-1\n for(k=1;k<4;++k) [ pn x/k; pn x%k; pn x/k+x/k ] ]", "loop divisors, 16 bits"),
    ("int v(5)\nmain [ int i,j\n v(0)=32767; v(1)=-32768; v(2)=-1; v(3)=7; v(4)=0\n"
     " for(i=0;i<5;++i) for(j=0;j<4;++j) [ pn v(i)/v(j); pn v(i)%v(j); pn v(i)/v(j)*2 ]\n ]", "signs, 16 bits"),
]


def agree(src: str, **kw) -> None:
    ref, fast = both(src, **kw)
    assert fast == ref, src


@pytest.mark.parametrize("src,why", DIVISION, ids=[w for _, w in DIVISION])
def test_division(src, why):
    agree(src)


@pytest.mark.parametrize("src,why", DIVISION_16, ids=[w for _, w in DIVISION_16])
def test_division_16_bits(src, why):
    agree(src, int_bits=16)


# ---- a small seeded generator of programs full of / and % (operands with side effects, extremes)

VALS = ["0", "1", "-1", "7", "-7", "3", "-3", "2147483647", "(-2147483647-1)", "32767", "(-32767-1)", "100", "46341"]


def _expr(rnd: random.Random, d: int = 0) -> str:
    k = rnd.randrange(9 if d < 3 else 3)
    sub = lambda: _expr(rnd, d + 1)  # noqa: E731
    if k == 0:
        return rnd.choice(VALS)
    if k in (1, 2):
        return rnd.choice("xyzgh")
    if k in (3, 4):
        return f"({sub()}{rnd.choice('/%/%+-*')}{sub()})"
    if k == 5:
        return f"({rnd.choice('xyzgh')}={sub()})"
    if k == 6:
        return f"{rnd.choice(['++', '--'])}{rnd.choice('xyzgh')}"
    if k == 7:
        return f"f({sub()})"
    return f"a({sub()}%4)"


def division_program(seed: int) -> str:
    rnd = random.Random(seed)
    e = lambda: _expr(rnd)  # noqa: E731
    body = "\n".join(f"  pn {e()}" if rnd.random() < 0.7 else f"  if({e()}>{e()}) pn {e()} else pn {e()}"
                     for _ in range(4))
    loop = f"  for(k=1;k<{rnd.choice([3, 5, 9])};++k) [ pn {e()}/k; pn {e()}%k; pn x/k*2+y%k*3; pn (x/k)-(y%k) ]"
    inits = "; ".join(f"{v}={rnd.choice(VALS)}" for v in "xyzg")
    return (f"int g,h,a(3)\nf int v [ g=g+v; return v-1 ]\nmain [\n  int x,y,z,k\n  {inits}\n{body}\n{loop}\n]\n")


@pytest.mark.parametrize("seed", range(40))
def test_generated_divisions(seed):
    agree(division_program(seed))
    agree(division_program(seed), int_bits=16)


# ---- bounds from conditions joined with * (and) and + (or) of relations

AND_OR = [
    ("char s(20)\nint t(10)\nmain [ int k,n\n n=5; s(0)='a'; s(1)='b'; s(2)=0\n"
     " while((k<n)*(s(k)!=0)) [ t(k)=s(k); ++k ]\n pn k; pn t(0); pn t(1) ]", "and in a while"),
    ("int t(10),v(3)\nmain [ int a,i\n v(0)=-4; v(1)=9; v(2)=12\n"
     " for(i=0;i<3;++i) [ a=v(i); if((a<0)+(a>9)) pn -1 else pn t(a); if(!((a>=0)*(a<=9))) pn -2 else pn t(a) ] ]",
     "or: the else branch"),
    # + with an operand that is not 0/1: x=-1 makes (k>2)+(k<0)+x zero with k out of range
    ("int a(3),v(1)\nmain [ int k,x\n v(0)=5; k=v(0); x=-1\n if((k>2)+(k<0)+x) pn 9 else pn a(k) ]",
     "+ of a non-relation is no or"),
    ("int a(3),v(1)\nmain [ int k,x\n v(0)=1; k=v(0); x=2\n if((k<3)*x) pn a(k) else pn 7; x=0\n"
     " if((k<3)*x) pn 8 else pn a(k) ]", "* of a non-relation"),
]

# 2**16 wraps to 0 in 16 bits: a product of sixteen 2s is false although every factor is true
DEEP = "*".join(["((k<3)+(k<3))"] * 16)
AND_OR_16 = [
    (f"int a(3),v(1)\nmain [ int k\n v(0)=1; k=v(0)\n if({DEEP}) pn 1 else pn a(k-3) ]", "a product that wraps"),
]


@pytest.mark.parametrize("src,why", AND_OR, ids=[w for _, w in AND_OR])
def test_and_or(src, why):
    agree(src)


@pytest.mark.parametrize("src,why", AND_OR_16, ids=[w for _, w in AND_OR_16])
def test_and_or_16_bits(src, why):
    agree(src, int_bits=16)


# ---- bounds of globals that the program only ever assigns constants (t has 2 elements: flag 0..1 is in range)

GLOBALS = [
    ("int flag,t(1)\nmain [ flag=1; t(1)=5; pn t(flag); flag=0; pn t(flag) ]", "constants only", "main"),
    ("int flag,t(1)\nmain [ flag=1; ++flag; pn t(flag) ]", "++ on it", "main"),
    ("int flag,t(1)\nset int v [ flag=v ]\nmain [ flag=1; set(5); pn t(flag) ]", "a computed value", "main"),
    ("int flag,t(1)\nf int flag [ flag=flag*7; return flag ]\nmain [ flag=1; pn f(3); pn t(flag) ]",
     "a parameter of the same name", "main"),
    ("int flag,t(1)\nmain [ pn t(flag) ]", "the entry statement", "flag=3*1; main"),
    ("int flag,t(1)\nmain [ pn t(flag) ]", "a constant in the entry statement", "flag=3; main"),
    ("int flag,t(1)\nmain [ pn t(flag-1); flag=1 ]", "0 before the first assignment", "main"),
    # the library's random assigns seed and last: here they are the program's
    ("int seed,last,t(1)\nmain [ seed=1; pn random(1,6); pn t(seed) ]", "a library function assigns it", "main"),
    # stores through unchecked pointers reach the cell of flag (just after s): the guard
    ("char s(1)\nint flag,t(1)\nmain [ flag=1; move \"abcdefg\",s; pn flag; pn t(flag) ]", "library move", "main"),
    ("char s(1)\nint flag,t(1)\nwr char p(0); int k [ p(k)=9 ]\nmain [ flag=0; wr(s, 2); pn flag; pn t(flag) ]",
     "an unchecked parameter", "main"),
    ("char s(1)\nint flag,t(1)\nwr char p(0); int k [ p(k)=9 ]\ng [ wr(s, 2) ]\nh [ g() ]\n"
     "main [ flag=0; h(); pn t(flag) ]", "a store two calls down", "main"),
    ("char s(1)\nint flag,t(1)\nmain [ flag=1; MC \"xyzw\",s,4,7; pn flag; pn t(flag) ]", "MC 7 movebl", "main"),
    ("char s(1)\nint flag,t(1)\nmain [ char p(0)\n p=s; p(3)=1; pn t(flag) ]", "a local pointer", "main"),
    ("char s(1)\nint flag,t(1)\nmain [ flag=1; s(3)=1; pn t(flag) ]", "a checked store out of range", "main"),
    # char globals hold the truncated constant: 300 is 44
    ("char c\nint t(50)\nmain [ c=300; t(44)=7; pn t(c); c=-1; pn c; c=200; pn t(c) ]", "a char global", "main"),
    ("char c\nint t(50)\nmain [ c=200; pn t(c) ]", "a char constant that truncates below 0", "main"),
    # a divisor 0..4096: the zero test stays, the result's bounds are those of a positive divisor
    ("int scale\nf int x [ return x%scale*524287 + x/scale ]\ng int x [ return x/scale+1073741824 ]\n"
     "main [ int k\n scale=1; pn g(2147483647); scale=4096\n"
     " for(k=-3;k<3;++k) pn f(k*4095+2147483647*(k<0)); scale=0; pn f(5) ]", "a divisor 0..4096", "main"),
    # bounds that drop a wrap: 0..1000 * 0..1000 fits; and a sign test of /
    ("int k,m\nmain [ int x\n k=1000; m=7; x=-2147483647; pn x/m; pn x%m; pn k*k*k; pn x/k ]", "wraps and /", "main"),
    ("int k\nf [ return k*2147483 ]\nmain [ k=1000; pn f(); putchar 'a'; pl \"b\"; k=999; pn f() ]", "output only", "main"),
]


@pytest.mark.parametrize("src,why,entry", GLOBALS, ids=[w for _, w, _ in GLOBALS])
def test_constant_globals(src, why, entry):
    agree(src, entry=entry)
    agree(src, entry=entry, int_bits=16)
