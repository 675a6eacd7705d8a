"""The analyses behind the fast engine's loop optimisations (engines/loopplans.py, engines/recursion.py), each
on its own: a loop's AST and what the generator knows of its names in, a plan record (or None) out.

The generator here is made for one function with no globals (every name a parameter or local), and its
scalars counted as allocated, as they are where the emitter asks for a plan."""

from __future__ import annotations

import pytest

from tinyc import ast
from tinyc.engines import loopplans
from tinyc.engines.analysis import walk
from tinyc.engines.codegen import Codegen
from tinyc.engines.recursion import DepthGuard, depth_guard
from tinyc.syntax.pipeline import parse_program


def function(src: str, name: str = "f"):
    return next(item for item in parse_program(src).items if getattr(item, "name", None) == name)


def scope(src: str, name: str = "f") -> tuple[ast.Function, Codegen]:
    """The function ``name`` of ``src`` and a generator for it whose scalars are all allocated."""
    fn = function(src, name)
    params = [(decl.type, d) for decl in fn.params for d in decl.names]
    gen = Codegen(fn.name, params, fn.body.body, lambda n: None, 32)
    gen.bound = [k for k, loc in gen.an.locals.items() if not loc.array]
    return fn, gen


def first(fn, kind):
    return next(n for n in walk(fn.body) if isinstance(n, kind))


def loop(src: str):
    fn, gen = scope(src)
    return first(fn, (ast.While, ast.For)), gen


# ---- counted loops

def test_a_for_up_to_a_local_is_counted():
    s, gen = loop("f int n [ int k,s; for(k=0;k<n;++k) s=s+k; return s ]")
    plan = loopplans.counted_loop(s, gen)
    assert plan is not None and plan.k == "k" and plan.cond is s.cond and plan.body is s.body
    assert isinstance(plan.init, ast.Assign) and plan.init.target.name == "k"


def test_a_while_loses_its_final_step():
    s, gen = loop("f [ int k,s; while(k<10) [ s=s+k; ++k ] ]")
    plan = loopplans.counted_loop(s, gen)
    assert plan.init is None and [type(x) for x in plan.body.body] == [ast.ExprStmt]


@pytest.mark.parametrize("src, why", [
    ("f int n [ int k; for(k=0;k<n;++k) k=k+1 ]", "the body assigns k"),
    ("f int n [ int k; for(k=0;k<n;++k) n=n-1 ]", "the body assigns the end"),
    ("f [ int k; for(k=0;k<=2147483647;++k) pn k ]", "k <= INT_MAX: ++k would wrap"),
    ("f int n [ int k; for(k=0;k<n;k=k+2) pn k ]", "a step other than ++k"),
    ("f int n [ char k; for(k=0;k<n;++k) pn k ]", "a char counter"),
    ("f int n [ char p(0); int k; for(k=0;k<n;++k) p(k)=0 ]", "an unchecked store may rewrite k's cell"),
])
def test_not_counted(src, why):
    s, gen = loop(src)
    assert loopplans.counted_loop(s, gen) is None, why


def test_what_a_counted_loops_version_tests():
    s, gen = loop("f int n [ int a(5),b(9),k,t; for(k=0;k<n;++k) [ t=t+a(k)-b(k) ] return t ]")
    assert loopplans.shortest("k", s.body, gen) == 6
    steady = loopplans.steady_arrays(s, gen)
    assert steady == [loopplans.SteadyArray("b", "e_b", 10), loopplans.SteadyArray("a", "e_a", 6)]  # walk order
    s, gen = loop("f int n [ int a(5),k,t; for(k=0;k<n;++k) [ t=t+a(k); a(0)=1 ] return t ]")
    assert loopplans.steady_arrays(s, gen) == []  # it stores into a
    s, gen = loop("g [ ]\nf int n [ int a(5),k,t; for(k=0;k<n;++k) [ t=t+a(k); g ] return t ]")
    assert loopplans.steady_arrays(s, gen) == []  # it calls a function


# ---- scans and walks

def test_a_scan_with_its_counters():
    s, gen = loop("f char s(0) [ int k,n,m; while(s(k)) [ ++n; if(s(k)=='a') ++m; ++k ] ]")
    plan = loopplans.scan_plan(s.cond, s.body, None, gen)
    assert plan.k == "k" and plan.stop is None and plan.acc.type == "char" and plan.acc.start == "p_s"
    assert [name for name, _ in plan.counted] == ["n", "m"]
    assert plan.counted[0][1] is None and isinstance(plan.counted[1][1], ast.CharLit)


@pytest.mark.parametrize("body", ["[ ++k; ++k ]", "[ pn k; ++k ]", "[ ++n ]", "[ if(s(k)==9) ++k ]"])
def test_not_a_scan(body):
    s, gen = loop(f"f char s(0) [ int k,n; while(s(k)) {body} ]")
    assert loopplans.scan_plan(s.cond, s.body, None, gen) is None


def test_a_walk_and_whether_it_may_leave_early():
    s, gen = loop("f char s(0) [ int k,n; while(s(k)!=';') [ n=n+s(k); ++k ] return n ]")
    plan = loopplans.walk_plan(s.cond, s.body, None, gen)
    assert (plan.name, plan.k, plan.early) == ("s", "k", False) and isinstance(plan.stop, ast.CharLit)
    assert plan.inc == id(s.body.body[-1].expr)
    s, gen = loop("f char s(0) [ int k; while(s(k)) [ if(s(k)==9) break; ++k ] ]")
    assert loopplans.walk_plan(s.cond, s.body, None, gen).early


@pytest.mark.parametrize("body, why", [
    ("[ s(0)=1; ++k ]", "a store into memory"),
    ("[ g(); ++k ]", "a call"),
    ("[ ++k; pn k ]", "++k not last"),
    ("[ j=0; while(s(j)) [ pn j; ++j ] ++k ]", "a walk inside"),
])
def test_not_a_walk(body, why):
    s, gen = loop(f"g [ ]\nf char s(0) [ int k,j; while(s(k)) {body} ]")
    assert loopplans.walk_plan(s.cond, s.body, None, gen) is None, why


# ---- value versions

def test_a_value_version_of_an_if():
    fn, gen = scope("f int y,r [ int hi(99),lo(99); if(hi(y/100)+lo(y%100)==r) return 1 ]")
    s = first(fn, ast.If)
    full = (gen.imin, gen.imax)
    assert loopplans.value_version(s, gen, lambda y: full) == loopplans.ValueVersion("y", 0, 9999, "0 <= v_y < 10000")
    assert loopplans.value_version(s, gen, lambda y: (0, 50)) is None  # the bounds settle both subscripts
    fn, gen = scope("f int y [ int hi(99); if(hi(y/100)) return 1 ]")
    assert loopplans.value_version(first(fn, ast.If), gen, lambda y: full) is None  # one subscript only


# ---- recursion

def test_a_depth_guard_is_a_named_plan():
    fn = function("f int n [ if(n<2) return n; return f(n-1)+f(n-2) ]")
    params = [(decl.type, d) for decl in fn.params for d in decl.names]
    guard = depth_guard("f", params, fn.body.body)
    assert guard == DepthGuard("n", 2) and (guard.param, guard.limit) == ("n", 2)


def test_an_analysis_needs_only_its_scope():
    """The analyses read the generator through a small Scope protocol: a stand-in with the locals, the int
    range and two answers is enough for a counted loop."""
    from tinyc.engines.analysis import Analysis
    fn = function("f [ int k,s; for(k=0;k<10;++k) s=s+k ]")

    class Scope:
        an = Analysis([], fn.body.body, 32)
        bits, imin, imax = 32, -(1 << 31), (1 << 31) - 1

        def may_reload(self, node):
            return False

        def hoistable(self, s):
            return {}
    s = first(fn, ast.For)
    assert loopplans.counted_loop(s, Scope()) == loopplans.CountedLoop("k", s.init, s.cond, s.body)
