"""Differential cases for the fast engine's counted loops (engines/ranges.py): ``for(k=e;k<n;++k)`` and
``while(k<n) [ ...; ++k ]`` as Python ranges, with a second version without index tests when the end
fits the arrays the body indexes by ``k``.  Each case runs on both engines and is compared byte for byte
(output, error number, error address); the comment of a group names the guard whose removal makes its
cases fail."""

from __future__ import annotations

import pytest

from engine_harness import both, run_program

CASES = [
    # the version test: the end at most the array's length (a(4) has 5 elements)
    ("int a(4)\nmain [ int i,n; n=10; while(i<n) [ pn i; a(i)=i; ++i ]; pn i ]", "6: an end past the array"),
    ("int a(4)\nmain [ int i,n,s; n=5; while(i<n) [ a(i)=i; s=s+a(i); ++i ]; pn s; n=6; i=0\n"
     "  while(i<n) [ s=s+a(i); ++i ] ]", "6: the end one past the array"),
    ("char t(3)\nint m\nmain [ int i; m=4; for(i=0;i<m;++i) t(i)=65+i; pn t(3); m=5; for(i=0;i<m;++i) pn t(i) ]",
     "6: a global end past a char array"),
    ("int a(4),b(2)\nmain [ int i,n; n=4; for(i=0;i<n;++i) [ a(i)=i; pn b(i) ] ]", "6: the shortest array"),
    # the end must not change: a global a call or the body changes, a local the body assigns
    ("int m\ndec [ m=m-1 ]\nmain [ int i; m=10; while(i<m) [ dec; ++i ]; pn i ]", "a global end a call changes"),
    ("int m\nmain [ int i; m=10; while(i<m) [ m=m-1; ++i ]; pn i ]", "a global end the body stores"),
    ("main [ int i,n; n=10; while(i<n) [ n=n-1; ++i ]; pn i ]", "a local end the body stores"),
    ("int m\nmain [ int i; m=10; for(i=m-8;i<m;++i) m=m-1; pn i; pn m ]", "a for whose body stores its end"),
    # k changes only by the final ++k, and only as an int
    ("main [ int i; while(i<10) [ if(i==3) i=7; pn i; ++i ]; pn i ]", "a body that assigns k"),
    ("main [ int i; while(i<10) [ if(i==3) ++i; pn i; ++i ] ]", "a body that steps k"),
    ("main [ char k; k=120; while(k<200) [ if(k<0) break; ++k ]; pn k ]", "a char counter wraps"),
    ("main [ int i; while(i<10) [ ++i; pn i ] ]", "++k not last"),
    ("f char p(0) [ p(4)=p(4)+1 ]\nmain [ char a(0); int i; while(i<10) [ f(a); pn i; ++i ]; pn i ]",
     "a counter a call changes through memory"),
    # leaving and not entering
    ("main [ int i; while(i<10) [ if(i==4) break; ++i ]; pn i ]", "a break leaves k"),
    ("int a(3)\nmain [ int i,n; n=3; while(i<n) [ if(a(i)) return; a(i+1)=1; ++i ]; pn i ]", "a return inside"),
    ("main [ int i,n; i=20; n=10; while(i<n) ++i; pn i; i=0-5; while(i<n) ++i; pn i ]", "a start past the end"),
    ("main [ int i,s; while(i<=3) [ s=s+i; ++i ]; pn i; pn s ]", "<= a constant"),
    ("main [ int i,s; i=2147483640; while(i<=2147483647) [ s=s+1; if(s>20) break; ++i ]; pn i ]",
     "<= the largest int never ends"),
    # divisors that keep their value: the version runs only when they are positive (error 10 and C's
    # truncation for a negative divisor in the other)
    ("int s\nf int v [ int i,t; s=v; for(i=0;i<5;++i) t=t+i/s; pn t ]\nmain [ f(0) ]", "a global divisor that is zero"),
    ("int s\nf int v [ int i,t; s=v; for(i=0;i<9;++i) t=t*3+(i-4)/s+(i-4)%s; pn t ]\nmain [ f(0-3) ]",
     "a negative global divisor"),
    ("f int d [ int i,t; for(i=0;i<9;++i) t=t*3+(i-4)/d+(i-4)%d; pn t ]\nmain [ f(0-3) ]", "a negative local divisor"),
    ("f int d [ int i,t; for(i=0;i<5;++i) t=t+i%d; pn t ]\nmain [ f(0) ]", "a local divisor that is zero"),
    ("f int d [ int i,t; for(i=0;i<6;++i) [ t=t+100/d; d=d-1 ]; pn t ]\nmain [ f(2) ]",
     "a local divisor the loop changes"),
    ("int s\nf [ s=s-1 ]\ng int v [ int i,t; s=v; for(i=0;i<6;++i) [ t=t+12/s; f ]; pn t ]\nmain [ g(3) ]",
     "a global divisor a call changes"),
    ("int s\nf int v [ int i,t; s=v; for(i=0;i<6;++i) [ t=t+(i-3)/s; if(i==2) s=0 ]; pn t ]\nmain [ f(3) ]",
     "a global divisor the loop stores"),
    ("int s\nf int v [ int i,t; s=v; for(i=0;i<9;++i) t=t*3+(i-4)/s+(i-4)%s; pn t ]\nmain [ f(7) ]",
     "a positive divisor"),
    # elements a loop adds and cannot change: a version when every element is within imax/4 (min, max)
    ("int h(1),l(1)\nmain [ int i,t; h(0)=536870912; l(0)=536870912; for(i=0;i<20;++i) "
     "if(h(i%2)+l(i%2)+h(i%2)+l(i%2)<0) ++t; pn t ]", "elements just past the bound"),
    ("int h(1),l(1)\nmain [ int i,t; h(0)=536870911; l(0)=0-536870911; for(i=0;i<20;++i) "
     "if(h(i%2)+h(i%2)+h(i%2)+h(i%2)-l(i%2)<0) ++t; pn t ]", "elements at the bound"),
    ("int h(1)\nmain [ int i,t; for(i=0;i<20;++i) [ if(h(0)+h(0)<0) ++t; h(0)=1073741824 ]; pn t ]",
     "a loop that stores into the array"),
    ("int h(1)\nf [ h(0)=1073741824 ]\nmain [ int i,t; for(i=0;i<20;++i) [ if(h(0)+h(0)<0) ++t; f ]; pn t ]",
     "a loop that calls a function that stores"),
    ("int h(1)\nf int p(0) [ int i,t; for(i=0;i<20;++i) [ if(h(0)+h(0)<0) ++t; p(0)=1073741824 ]; pn t ]\n"
     "main [ f(h) ]", "a loop that stores through a pointer"),  # (not even counted: it may rewrite locals)
    ("int h(9)\nmain [ int i,t; for(i=0;i<20;++i) [ if(h(i)+1<0) ++t ]; pn t ]", "6: steady elements past the end"),
    # a square is never negative; a product of two names may be
    ("main [ int x,y; x=0-7; y=1; pn x*x/2; x=0-13; pn x*y/2; x=50000; pn x*x/7; pn x*x%7 ]",
     "squares and products"),
    # nested: the inner loop of a versioned loop is a range, not versioned again
    ("int a(3),b(3)\nmain [ int i,j,n; n=5; for(i=0;i<n;++i) for(j=0;j<n;++j) [ pn i*10+j; a(i)=b(j) ] ]",
     "6: nested versions"),
]


@pytest.mark.parametrize("src,why", CASES, ids=[c[1] for c in CASES])
def test_counted_loops(src, why):
    ref, fast = both(src)
    assert fast == ref
    assert (ref[1] == 6) == why.startswith("6")


def test_a_counted_while_is_a_range_with_a_version_without_tests(tmp_path, capsys, monkeypatch):
    from tinyc.cli import main as cli
    src = "int c(9),m\nsift int r [ int i,k; while(i<m) [ if(c(i)==r) ++k; ++i ]; return k ]\n"
    program = tmp_path / "sift.tc"
    program.write_text(src + "main [ int j; while(j<10) [ c(j)=j%3; ++j; m=j ]; pn sift(1) ]\n")
    monkeypatch.setenv("TINYC_NO_CACHE", "1")
    assert cli.main(["run", str(program)]) == 0
    assert capsys.readouterr().out.split() == ["3"]
    assert cli.main(["compile", str(program)]) == 0
    code = capsys.readouterr().out
    code = code[code.index("def f_sift"):]
    assert "for v_i in range(v_i, _1):" in code and "if _1 <= 10:" in code
    fast = code[code.index("if _1 <= 10:"):code.index("else:")]
    assert "_err(6" not in fast and "e_c[v_i]" in fast  # the fast version reads c(i) unchecked


def test_a_nested_loop_counts_toward_the_scan_of_steady_elements(compiled):
    # 9 passes of a 9-pass loop read u 81 times: scanning its 40 elements once pays (bca's setup)
    code = compiled("int u(39),h(99)\nmain [ int a,b; for(a=1;a<10;++a) for(b=1;b<10;++b) "
                    "h(10*a+b)=u(a)+u(10+b) ]\n")
    assert "if 10 - v_a >= 5 and -536870911 <= min(e_u)" in code
