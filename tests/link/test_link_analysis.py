"""The fast engine's link analyses (``analysis.Scan``/``Analysis``/``facts``, ``FastEngine.assigned``,
``constglobals.function_assignments``/``constant_globals``, ``fastrt.own_effects``, ``Linkage.assigned``)
against the straightforward definitions they replaced, kept here as the reference: the old quadratic
``Analysis``, ``own_effects`` asking a whole ``Codegen``, and separate walks for each question.

Every function of every shipped program (and of the library as each program sees it), the statement
that runs it, and Hypothesis-generated programs (valid, mutated, and ones that reach their frames
through memory) are checked, at 32 and 16 bits.  ``own_effects`` must also resolve the same global
names in the same order (the link's ``shapes`` order is what ``tinyc compile --library`` follows).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from fuzz.strategies import frames, mutated, programs
from tinyc import ast
from tinyc.engines import analysis, constglobals, fastrt
from tinyc.engines.analysis import MAX_LOCALS, Analysis, Unsupported, constant, facts
from tinyc.engines.codegen import Codegen
from tinyc.engines.compiler import FastEngine
from tinyc.engines.fastrt import Linkage, own_effects
from tinyc.errors import ExitProgram, TinyCError
from tinyc.machine.console import Console
from tinyc import Session
from tinyc.driver.workspace import Workspace

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*ROOT.glob("programs/*.tc"), *ROOT.glob("benchmarks/programs/*.tc"), *ROOT.glob("examples/*.tc")])
CONFORMANCE = sorted(ROOT.glob("tests/conformance/*.tc"))  # some stop at a link error: nothing to check


# ---- the reference definitions (as before the one-walk analysis)

def ref_walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        if isinstance(n, list):
            stack.extend(reversed(n))
            continue
        yield n
        for f in n.__slots__:
            v = getattr(n, f, None)
            if isinstance(v, (ast.Node, list)):
                stack.append(v)


def ref_names_used(node) -> set[str]:
    return {n.name for n in ref_walk(node) if isinstance(n, (ast.Var, ast.Index, ast.Call))}


def ref_assigned_names(node) -> set[str]:
    out = set()
    for n in ref_walk(node):
        if isinstance(n, ast.Assign) and isinstance(n.target, ast.Var):
            out.add(n.target.name)
        elif isinstance(n, ast.Unary) and n.op in ("++", "--") and isinstance(n.operand, ast.Var):
            out.add(n.operand.name)
    return out


class RefAnalysis:
    """The old Analysis: every declaration rescans the statements before it."""

    def __init__(self, params, body, bits=32):
        self.locals: dict = {}
        self.reassigned = reassigned = ref_assigned_names(body)
        for type_, d in params:
            if d.name in self.locals:
                raise Unsupported("duplicate parameter")
            self.locals[d.name] = Analysis._local(type_, d, reassigned, False, bits)
        count = 0
        self.scoped: dict = {}
        nested = False
        for i, s in enumerate(body):
            if isinstance(s, ast.Decl):
                for d in s.names:
                    count += 1
                    if d.name not in self.locals:
                        if any(d.name in ref_names_used(t) for t in body[:i]):
                            raise Unsupported("name used before its declaration")
                        self.locals[d.name] = Analysis._local(s.type, d, reassigned, True, bits)
                    elif d.size is not None and constant(d.size, bits) is None:
                        raise Unsupported("array bound not constant")
            elif any(isinstance(n, ast.Decl) for n in ref_walk(s)):
                nested = True
        if nested:  # declarations in nested blocks (issue 24): the engine's own rule, not rescanned here
            count += Analysis._scoped(self, body, bits)  # type: ignore[arg-type]
        if count > MAX_LOCALS:
            raise Unsupported("too many declarations")
        self.free = set()
        for s in body:
            self.free |= ref_names_used(s)
        for type_, d in params:
            if d.size is not None:
                self.free |= ref_names_used(d.size)
        self.free -= set(self.locals)
        self.modified = {k for k in reassigned if k in self.locals and not self.locals[k].array}


def params_of(fn):
    return [(decl.type, d) for decl in fn.params for d in decl.names]


def analysed(make):
    """What an analysis found, comparable: the reason it gave up, or its locals, free and modified names."""
    try:
        an = make()
    except Unsupported as e:
        return ("unsupported", str(e))
    locs = {k: (v.name, v.type, v.array, v.length, v.frozen, v.allocated, v.bound) for k, v in an.locals.items()}
    return (list(locs.items()), sorted(an.free), sorted(an.modified))


def ref_engine_assigned(fn) -> set[str]:
    names = ref_assigned_names(fn.body)
    try:
        names -= set(RefAnalysis(params_of(fn), fn.body.body, 32).locals)
    except Unsupported:
        pass
    return names


def ref_free(fn):
    try:
        return sorted(RefAnalysis(params_of(fn), fn.body.body, 32).free)
    except Unsupported:
        return None


def ref_assignments(body, local_names, bits):
    out: dict = {}
    for n in ref_walk(body):
        if isinstance(n, ast.Assign) and isinstance(n.target, ast.Var):
            name, v = n.target.name, constant(n.value, bits)
        elif isinstance(n, ast.Unary) and n.op in ("++", "--") and isinstance(n.operand, ast.Var):
            name, v = n.operand.name, None
        else:
            continue
        if name in local_names:
            continue
        seen = out.setdefault(name, set())
        if v is None:
            out[name] = None
        elif seen is not None:
            seen.add(v)
    return out


def ref_function_assignments(fn, bits):
    try:
        local_names = set(RefAnalysis(params_of(fn), fn.body.body, bits).locals)
    except Unsupported:
        local_names = set()
    found = ref_assignments(fn.body, local_names, bits)
    constglobals.merge(found, ref_assignments(fn.params, set(), bits))
    return found


def ref_own_effects(fn, link):
    """The old own_effects: a whole Codegen answers which subscripts are unsafe."""
    params = params_of(fn)
    callees = sorted({n.name for n in ref_walk(fn.body) if isinstance(n, (ast.Var, ast.Call))
                      if (s := link.lookup(n.name)) is not None and s.kind == "func"})
    try:
        gen = Codegen(fn.name, params, fn.body.body, link.resolve_var, link.engine.m.memory.int_bits)
    except Unsupported:
        return True, True, callees
    callees = [c for c in callees if c not in gen.an.locals]
    tg = gen.targets(fn.body)
    reads = writes = False
    for n in ref_walk(fn.body):
        if isinstance(n, ast.MachineCall) and not gen.direct(n):
            return True, True, callees
        if isinstance(n, ast.Index) and gen.unsafe(n):
            reads = True
            writes = writes or id(n) in tg
    return reads, writes, callees


class RefLinkage(Linkage):
    """A link whose assigned names and effects come from the reference definitions."""

    @property
    def assigned(self):
        if self._assigned is None:
            names = set(self._extra)
            for table in (self.program, self.library):
                if table is not None:
                    for sym in table:
                        if sym.kind == "func" and sym.function is not None:
                            names |= ref_engine_assigned(sym.function)
            self._assigned = names
        return self._assigned


def ref_constant_globals(link):
    engine, stmts = link.engine, link.entry
    if stmts is None or link.program is None or not getattr(engine, "constant_globals", False):
        return {}
    bits = engine.m.memory.int_bits
    entry = ast.Function(0, 0, "_run", [], ast.Block(0, 0, list(stmts)))
    _, writes, callees = ref_own_effects(entry, link)
    if writes or any(ref_effects(link, c)[1] for c in callees):
        return {}
    values: dict = {}
    parts = [ref_assignments(list(stmts), set(), bits)]
    for table in (link.program, link.library):
        if table is not None:
            parts += [ref_function_assignments(s.function, bits) for s in table if s.kind == "func"]
    for part in parts:
        constglobals.merge(values, part)
    out = {}
    for sym in link.program:
        if sym.kind == "func" or sym.array or link.lookup(sym.name) is not sym:
            continue
        vals = values.get(sym.name, set())
        if vals is None:
            continue
        if sym.type == "char":
            vals = {((v + 128) & 255) - 128 for v in vals}
        vals = vals | {0}
        out[sym.name] = (min(vals), max(vals))
    return out


def ref_effects(link, name):
    """Linkage.effects with the reference own_effects (a fixed point over the call graph)."""
    graph, todo, eff = {}, [name], {}
    while todo:
        n = todo.pop()
        if n in graph or n in eff:
            continue
        sym = link.lookup(n)
        if sym is None or sym.kind != "func":
            eff[n] = (False, False)
            continue
        graph[n] = ref_own_effects(sym.function, link)
        todo += graph[n][2]
    cur = {n: (g[0], g[1]) for n, g in graph.items()}
    changed = True
    while changed:
        changed = False
        for n, (r, w, callees) in graph.items():
            nr, nw = cur[n]
            for c in callees:
                cr, cw = cur[c] if c in cur else eff[c]
                nr, nw = nr or cr, nw or cw
            if (nr, nw) != cur[n]:
                cur[n] = (nr, nw)
                changed = True
    eff.update(cur)
    return eff[name]


# ---- the comparison, made where the engine would run a statement

def check_link(engine, stmts) -> int:
    """Compare every analysis on every function the link sees, and on the entry ``stmts``; the number of
    functions checked."""
    m = engine.m
    bits = m.memory.int_bits
    extra = ref_assigned_names(stmts)
    new = Linkage(engine, m.program, m.library, analysis.assigned_names(stmts), stmts)
    ref = RefLinkage(engine, m.program, m.library, extra, stmts)
    assert new._extra == extra
    fns = [s.function for t in (m.program, m.library) if t is not None for s in t
           if s.kind == "func" and s.function is not None]
    for fn in fns:
        body, params = fn.body.body, params_of(fn)
        for b in {32, 16, bits}:
            new_an = analysed(lambda: Analysis(params, body, b))
            assert new_an == analysed(lambda: RefAnalysis(params, body, b)), fn.name
            assert constglobals.function_assignments(fn, b) == ref_function_assignments(fn, b), fn.name
        f = facts(fn)
        assert f.assigned == ref_engine_assigned(fn) == engine.assigned(fn), fn.name
        assert f.free == ref_free(fn), fn.name
        sc = analysis.scan(body)
        assert sc.assigned == ref_assigned_names(fn.body)
        assert set(sc.first_use) == ref_names_used(body)
    assert new.assigned == ref.assigned
    for fn in fns:  # in the same links, in the same order: the same names resolved in the same order
        assert own_effects(fn, new)[:3] == ref_own_effects(fn, ref), fn.name  # (the frame: test_opt_room)
        assert list(new.shapes) == list(ref.shapes), fn.name
        assert new.shapes == ref.shapes
    entry = ast.Function(0, 0, "_run", [], ast.Block(0, 0, list(stmts)))
    assert own_effects(entry, new, False)[:3] == ref_own_effects(entry, ref)
    assert list(new.shapes) == list(ref.shapes)
    for fn in fns:
        assert new.effects(fn.name) == ref_effects(ref, fn.name), fn.name
    assert constglobals.assignments(list(stmts), set(), bits) == ref_assignments(list(stmts), set(), bits)
    fresh_new = Linkage(engine, m.program, m.library, analysis.assigned_names(stmts), stmts)
    fresh_ref = RefLinkage(engine, m.program, m.library, extra, stmts)
    assert constglobals.constant_globals(fresh_new, own_effects) == ref_constant_globals(fresh_ref)
    return len(fns)


def check_program(source: bytes, entry: bytes = b"main", int_bits: int = 32) -> int:
    """Link ``source`` as ``tinyc run`` would and check the analyses where the fast engine would run
    ``entry``; 0 when it did not get that far (a link error)."""
    checked = []

    def run(self, stmts):
        checked.append(check_link(self, stmts))
    m, ws = Session(engine="fast", int_bits=int_bits, memory=1 << 20, max_depth=200,
                    console=Console(io.BytesIO(b""), io.BytesIO())).boot()
    assert ws.append(source.replace(b"\r", b""))
    mp = pytest.MonkeyPatch()
    mp.setattr(FastEngine, "run", run)
    try:
        ws.run(entry)
    except (ExitProgram, TinyCError):
        pass
    finally:
        mp.undo()
    return sum(checked)


def check_gibson(path: Path) -> int:
    """The same checks on a program of the Gibson dialect (its engine links through the same Linkage)."""
    checked = []

    def run(self, stmts):
        checked.append(check_link(self, stmts))
    mp = pytest.MonkeyPatch()
    mp.setattr(FastEngine, "run", run)
    try:
        Session("gibson", "fast", quiet=True, console=Console(io.BytesIO(b""), io.BytesIO())).run_files([str(path)])
    finally:
        mp.undo()
    return sum(checked)


def entry_of(path: Path) -> bytes:
    text = path.read_bytes()
    return b"bca" if path.name == "bca.tc" else b"main" if b"\nmain" in b"\n" + text else b"pl \"\""


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_programs(path):
    assert check_program(path.read_bytes(), entry_of(path)) > 0


def test_gibson_programs():
    assert sum(check_gibson(p) for p in sorted(ROOT.glob("examples/gibson/*.tc"))) > 0


def test_conformance_programs():
    linked = [check_program(p.read_bytes(), entry_of(p)) for p in CONFORMANCE]
    assert sum(1 for n in linked if n) > len(CONFORMANCE) // 2


@pytest.mark.parametrize("name", ["programs/bca.tc", "programs/bc.tc", "examples/strings.tc"])
def test_shipped_programs_16_bits(name):
    path = ROOT / name
    assert check_program(path.read_bytes(), entry_of(path), int_bits=16) > 0


# functions the generator gives up on, and the corners of the locals' analysis
CORNERS = b"""int g, ga(4)
char gs(10)
nested [ if(g) [ int x ] ]
nestfirst [ if(g) [ int x ]; g=y; int y ]
nesttwice [ if(g) [ int x ]; g=y; int y; while(g) [ int z ] ]
before [ g=x; int x ]
beforesize [ int a(x); int x ]
dup int p, p [ return p ]
bound int n [ int a(n) ]
rebound [ int a(3); int a(g) ]
again [ int x; x=1; int x; return x ]
wide [ int a(65536); a(5)=1; char c(-1) ]
moved [ int a(3); a=ga; a(1)=2 ]
param char s(0) [ s(1)=0; return s(0) ]
fixed int q(3) [ q(1)=1 ]
mcs [ MC 1,2; MC 2; MC 'x',1; MC 5,6,7; MC ]
calls [ nested; pn(bound(2)); gs(3)=g; ++ga(2); --g; g=-3; g=++ga(1) ]
main [ calls; mcs; ga=gs; gs(1)=ga(2) ]
"""


def test_corners():
    assert check_program(CORNERS) > 0
    assert check_program(CORNERS, int_bits=16) > 0


def test_too_many_declarations():
    names = b", ".join(b"v%d" % k for k in range(MAX_LOCALS + 1))
    assert check_program(b"big [ int " + names + b" ]\nmain [ big ]\n") > 0


def test_the_scan_is_kept_for_function_bodies_only():
    from tinyc.engines.caches import LRU
    body: list = [ast.ExprStmt(0, 0, ast.Var(0, 0, "x"))]
    scans: LRU = LRU(4)  # a Session's cache of scans (issue 36: owned by the Session, bounded)
    assert analysis.scan(body, cache=scans) is not analysis.scan(body, cache=scans)
    assert analysis.scan(body, keep=True, cache=scans) is analysis.scan(body, cache=scans)
    assert analysis.scan(body, keep=True) is not analysis.scan(body, keep=True)  # no cache: nothing kept


@pytest.mark.slow  # generated programs (a fuzz run); the corpora above stay in the quick run
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_generated_programs(source):
    check_program(source)


@pytest.mark.slow  # generated programs (a fuzz run); the corpora above stay in the quick run
@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated)
def test_mutated_programs(source):
    check_program(source)


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(frames)
def test_frame_programs(source):
    check_program(source)
    check_program(source, int_bits=16)
