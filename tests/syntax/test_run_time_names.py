"""A name that a declaration in a nested block may make a local is looked up when its statement runs,
as the original did (reference section 3, "Globals vs locals"; section 14 item 8): a branch not taken
declares nothing, a loop's second pass sees what its first declared.  Each case gives the output and
error the original's rule gives, on both engines (the fast engine hands such functions to the
reference evaluator)."""

from __future__ import annotations

import pytest

from engine_harness import both
from tinyc.syntax.lexer import Level, classify, run_time_names, tokenize

CASES = [
    # a branch not taken declares nothing: g is the function
    ("g int a [ return a*2 ]\nmain [ int x; if (x) [ int g; g = 5 ]; pn g(21) ]", " 42", 0),
    # a branch taken: g is a scalar local, and g(21) subscripts it (error 7)
    ("g int a [ return a*2 ]\nmain [ int x; x=1; if (x) [ int g; g = 5 ]; pn g(21) ]", "", 7),
    # the local lives until the function returns, after its block
    ("g int a [ return a*2 ]\nmain [ int x; x=1; if (x) [ int g; g = 5 ]; pn g ]", " 5", 0),
    # a loop: the use comes first in the text; the second pass sees the local
    ("g int a [ return a+100 ]\nmain [ int i; while (i<3) [ pn g(i); if (i==1) [ int g ]; ++i ] ]",
     " 100 101", 7),
    # statement boundaries move: with pn a local, "pn 5" is two statements and prints nothing
    ("main [ int x; if (x) [ int pn ]; pn 5; ps \"|\" ]", " 5|", 0),
    ("main [ int x; x=1; if (x) [ int pn ]; pn 5; ps \"|\" ]", "|", 0),
    # the other way: taken for a local by the text, a function when it runs (two arguments)
    ("h int a, b [ return a+b ]\nmain [ int x; if (x) [ int h ]; pn h 1,2 ]", " 3", 0),
    # a loop whose second pass parses again a tail holding a string that has run (its quote is a NUL)
    ("g [ return 100 ]\nmain [ int i; while (i<2) [ pn g; ps \"a\"; if (i==0) [ int g ]; ++i ] ]",
     " 100a 0a", 0),
    # a while's condition runs again after its body: a name the body declared is a local there
    ("g int a [ return 5-a ]\nmain [ int i; while (g(i)) [ pn i; ++i; if (i==2) [ int g ] ]; pl \"end\" ]",
     " 0 1", 7),
    # ... and the loop goes on as parsed again: with g a local (0) "while(g)" ends it
    ("g [ return 1 ]\nmain [ int i; while (g) [ pn i; ++i; if (i==3) [ int g ] ]; pn 9 ]", " 0 1 2 9", 0),
    # each call has its own locals: the first call sees the function, the second its own local
    ("g int a [ return a+1 ]\nf int n [ if (n) [ int g; g = n ]; pn g(n); if (n<2) f(n+1) ]\nmain [ f(0) ]",
     " 1", 7),
    # a statement after the one parsed again that does not parse: still its error when it runs
    ("main [ int x; if (x) [ int pn ]; pn 3; x = = 2 ]", " 3", 9),
    # two names: g a local once its block ran, h a function until the loop's second pass declares it
    ("g int a [ return a+1 ]\nh int a,b [ return a*b ]\n"
     "main [ int x, i; x = 1; if (x) [ int g ]; pn g; while (i<2) [ pn h 2,3; if (i) [ int h ]; ++i ] ]",
     " 0 6 6", 0),
    # the wrong number of arguments is found when the call runs, where the original found it
    ("h int a, b [ return a+b ]\nmain [ int x; if (x) [ int h ]; pn h 1 ]", "", 21),
]


@pytest.mark.parametrize("src, out, err", CASES, ids=[c[0].split("main")[1][:40] for c in CASES])
def test_names_are_looked_up_when_their_statement_runs(src, out, err):
    ref, fast = both(src)
    assert fast == ref
    assert ref[0] == out.encode()
    assert ref[1] == err


def test_typed_statements_too():
    ref, fast = both("int q\n", entry="if (q) [ int pn ]; pn 7")
    assert fast == ref and ref[0] == b" 7" and ref[1] == 0


def test_only_uses_a_nested_declaration_may_change_are_marked():
    outer = [Level({"g": True, "pn": True})]
    text = "f int a [ int k; pn k; if (a) [ int g; g = 1 ]; pn g; while (a) [ pn g; int pn; pn ] ]"
    tokens = classify(tokenize(text), outer)
    dynamic, marks = run_time_names(tokens, outer, 1)
    assert dynamic == {"g", "pn"}
    # (name, taken for a local by the text) of each marked use, in order: "g = 1" and the last "pn"
    # follow their declarations in their own blocks and are locals for sure; the rest may be either
    assert [marks[k] for k in sorted(marks)] == [("pn", False), ("pn", False), ("g", True), ("pn", False),
                                                 ("g", True)]
    assert run_time_names(classify(tokenize("f [ int g; pn g ]"), outer), outer, 1) == (frozenset(), {})
