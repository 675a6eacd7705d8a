"""The fast engine in the Gibson dialect: compiled Python where the dialect's rules cannot show.

:class:`GibsonFastEngine` is the fast engine (:mod:`tinyc.engines.compiler`) with two changes:

* machine calls go to :mod:`tinyc.dialects.gibson.calls` (none is inlined), and relational operators are
  compiled as the sign of the wrapped difference (``a<b`` as ``(a-b)<0``), as that dialect computes them;
* a function is compiled only when late reads (gibson-dialect.md section 3.9) and the dialect's other
  run-time rules cannot change its results; every other function runs on the dialect's reference
  evaluator (:class:`~tinyc.dialects.gibson.evaluator.GibsonEvaluator`), exactly as with ``--engine reference``.

:func:`compilable` is that test.  A function stays on the reference evaluator when it

* did not parse, is variadic, or has an array parameter whose size is not a constant;
* has an operator or an argument list in which a variable, element or call is followed by an operand
  with a side effect (a call, a machine call, an assignment): the original reads the first only then;
* assigns a char variable or element (zero-extended into an int), a character constant, or the result
  of a function that may return a reference to a char (``return c``);
* passes a call that may return a reference (``return x``) as a second or later argument, or to a
  ``...`` function (the callee's first parameters take that storage before it is read);
* calls a function that may end with a ``break`` for the caller's loop (section 3.3), or has a while
  whose body is an unbracketed while, or an ``if c while ... else`` (both re-entered as section 3.3 says);
* calls a name that is not a function of the link, or with the wrong number of
  arguments, or uses a name no level declares (the reference reports those errors at the dialect's
  positions).
"""

from __future__ import annotations

import copy

from ... import ast

from ...engines.codegen import Codegen, walk
from ...engines.compiler import FastEngine
from ...engines.options import ALL, Optimisations
from .evaluator import GibsonEvaluator
from .syntax import VARIADIC, Broken, is_variadic

RELATIONAL = ("<", "<=", ">", ">=")
_EFFECT = (ast.Call, ast.MachineCall, ast.Assign)
_MAYREF = (ast.Var, ast.Index, ast.Call)


class GibsonCodegen(Codegen):
    DIRECT: dict = {}  # no machine call is inlined: they all go through the dialect's table
    lookup = staticmethod(lambda name: None)  # the link's symbols: a "..." function takes any count

    def array_param(self, d: ast.Declarator, n: int) -> None:
        """An array parameter takes value space of its declared size (unused, zero-filled) and keeps the
        pointer it was passed, 0 included (gibson-dialect.md 3.6, 3.9)."""
        if n:
            self.alloc_check(1, [(n, d.end)])
            self.emit(1, f"_D[_t:_t + {n}] = bytes({n}); _t += {n}")

    def call(self, name: str, nparams: int, args: list, n):
        sym = self.lookup(name)
        if sym is not None and sym.kind == "func" and _variadic(sym.function):
            nparams = len(args)
        return super().call(name, nparams, args, n)


def _has_effect(node) -> bool:
    return any(isinstance(n, _EFFECT) for n in walk(node))


def _late_read_shows(first, later, scalars: set[str], lookup, memo: dict) -> bool:
    """Whether reading ``first`` after evaluating the ``later`` operands can differ from reading it
    first (section 3.9).  A call that returns a value is a value; a scalar or an array name can change
    only by an assignment to its name (here or in a function called); an element, by any side effect."""
    if not isinstance(first, _MAYREF):
        return False
    if isinstance(first, ast.Call):
        sym = lookup(first.name) if first.name not in scalars else None
        if sym is not None and sym.kind == "func" and not returns_reference(sym.function):
            return False
        return any(_has_effect(b) for b in later)
    if isinstance(first, ast.Var):
        name = first.name
        for b in later:
            for n in walk(b):
                if isinstance(n, ast.Assign) and isinstance(n.target, ast.Var) and n.target.name == name:
                    return True
                if name not in scalars and isinstance(n, (ast.Call, ast.Var)):
                    sym = lookup(n.name)
                    if sym is not None and sym.kind == "func":
                        assigned = _assigns(sym.function, lookup, memo)
                        if name in assigned or EVERY in assigned:
                            return True
                    if sym is None and isinstance(n, ast.Call):
                        return True
        return False
    return any(_has_effect(b) for b in later)


EVERY = "*"  # a call that cannot be followed: it may assign any name


def _assigns(fn: ast.Function, lookup, memo: dict) -> set[str]:
    """The names ``fn`` or the functions it calls assign as a whole (``x = ...``), with EVERY when a
    call cannot be followed; kept in ``memo`` (one :func:`compilable` test's: the answer depends on the
    link ``lookup`` reads)."""
    hit = memo.get(id(fn))
    if hit is None or hit[0] is not fn:
        out: set[str] = set()
        todo, seen = [fn], set()
        while todo:
            f = todo.pop()
            if id(f) in seen:
                continue
            seen.add(id(f))
            for n in walk(f.body):
                if isinstance(n, ast.Assign) and isinstance(n.target, ast.Var):
                    out.add(n.target.name)
                elif isinstance(n, (ast.Call, ast.Var)):
                    sym = lookup(n.name)
                    if sym is not None and sym.kind == "func":
                        todo.append(sym.function)
                    elif sym is None and isinstance(n, ast.Call):
                        out.add(EVERY)
        hit = memo[id(fn)] = (fn, out)
    return hit[1]


_variadic = is_variadic


def _broken(fn: ast.Function) -> bool:
    return fn.error is not None or any(isinstance(n, Broken) for n in walk(fn.body))


def returns_reference(fn: ast.Function) -> bool:
    """The function may hand back a reference (or cannot be analysed)."""
    if _variadic(fn) or _broken(fn):
        return True
    return any(isinstance(n, ast.Return) and isinstance(n.value, _MAYREF) for n in walk(fn.body))


def breaks_out(fn: ast.Function, lookup, seen: dict | None = None) -> bool:
    """Whether a call of ``fn`` may end with a ``break`` that goes on to the caller: a break outside
    any while of ``fn``, or such a call outside any while."""
    seen = {} if seen is None else seen
    if id(fn) in seen:
        return seen[id(fn)]
    seen[id(fn)] = False
    out = False
    for n in walk(fn.body, prune=ast.While):  # the nodes no while encloses
        if isinstance(n, ast.Break):
            out = True
        elif isinstance(n, (ast.Call, ast.Var)):
            sym = lookup(n.name)
            if sym is not None and sym.kind == "func" and breaks_out(sym.function, lookup, seen):
                out = True
        if out:
            break
    seen[id(fn)] = out
    return out


def returns_char_reference(fn: ast.Function, lookup, seen: set | None = None) -> bool:
    """The function may hand back a reference to a char (zero-extended by ``int = f()``), or cannot be
    analysed."""
    if _variadic(fn) or _broken(fn):
        return True
    seen = set() if seen is None else seen
    if id(fn) in seen:
        return False
    seen.add(id(fn))
    chars = {d.name for decl in fn.params if decl.type == "char" for d in decl.names}
    ints = {d.name for decl in fn.params if decl.type != "char" for d in decl.names}
    for n in walk(fn.body):
        if isinstance(n, ast.Decl):
            for d in n.names:
                if d.name not in ints:
                    (chars if n.type == "char" else ints).add(d.name)
    for n in walk(fn.body):
        if not isinstance(n, ast.Return):
            continue
        v = n.value
        if isinstance(v, (ast.Var, ast.Index)):
            if v.name in chars:
                return True
            if v.name not in ints:
                sym = lookup(v.name)
                if sym is None or sym.kind != "var" or sym.type == "char":
                    return True
        elif isinstance(v, ast.Call):
            sym = lookup(v.name)
            if sym is None or sym.kind != "func" or returns_char_reference(sym.function, lookup, seen):
                return True
    return False


def compilable(fn_params: list[ast.Decl], body, lookup, top: bool = False) -> bool:
    """True when the statements ``body`` (a function's, with ``fn_params``) give the same results
    compiled as on the dialect's reference evaluator.  ``lookup(name)`` is the link's symbol."""
    if any(d.type == VARIADIC for d in fn_params):
        return False
    found = _local_names(fn_params, body)
    if found is None:
        return False
    local_types, scalars = found
    if top and local_types:
        return False  # the seed's declarations are application globals: the reference runs it
    memo: dict = {}  # id(fn) -> (fn, the names it assigns): _assigns's, for this test
    return not any(_keeps_on_reference(n, local_types, scalars, lookup, memo) for n in walk(body))


def _local_names(fn_params: list[ast.Decl], body) -> tuple[dict[str, str], set[str]] | None:
    """(name -> type of every parameter and local, the scalar ones); None when an array parameter's size
    is not a constant."""
    local_types: dict[str, str] = {}
    scalars: set[str] = set()
    for decl in fn_params:
        for d in decl.names:
            if d.size is not None and not isinstance(d.size, (ast.Number, ast.CharLit)):
                return None
            local_types[d.name] = decl.type
            if d.size is None:
                scalars.add(d.name)
    for n in walk(body):
        if isinstance(n, ast.Decl):
            for d in n.names:
                if d.name not in local_types and d.size is None:
                    scalars.add(d.name)
                local_types.setdefault(d.name, n.type)
    return local_types, scalars


def _keeps_on_reference(n, local_types: dict[str, str], scalars: set[str], lookup, memo: dict) -> bool:
    """Whether node ``n`` needs the dialect's reference evaluator (the rules of the module docstring)."""
    if isinstance(n, Broken):
        return True
    if isinstance(n, ast.While) and isinstance(n.body, ast.While):
        return True  # nested unbracketed whiles re-test the outer condition (section 3.3)
    if isinstance(n, ast.If) and isinstance(n.then, ast.While) and n.orelse is not None:
        return True  # the else after "if c while ..." is reached as a statement
    if isinstance(n, (ast.Var, ast.Index)) and n.name not in local_types:
        sym = lookup(n.name)
        if sym is None or (isinstance(n, ast.Index) and sym.kind == "func"):
            return True
    if isinstance(n, ast.Call) and _call_keeps(n, local_types, lookup):
        return True
    if isinstance(n, ast.BinOp) and _late_read_shows(n.left, [n.right], scalars, lookup, memo):
        return True
    if isinstance(n, (ast.Call, ast.MachineCall)):
        if any(_late_read_shows(a, n.args[k + 1:], scalars, lookup, memo) for k, a in enumerate(n.args[:-1])):
            return True
    return isinstance(n, ast.Assign) and (_no_place(n.target, local_types, lookup)
                                          or _char_store(n, local_types, lookup))


def _no_place(place, local_types: dict[str, str], lookup) -> bool:
    """Whether an assignment's target is no variable: error 14 comes after the value is evaluated (the
    reference evaluator's ``visit_Assign``, G 6.2)."""
    if not isinstance(place, (ast.Var, ast.Index)):
        return True
    if place.name in local_types:
        return False
    sym = lookup(place.name)
    return sym is None or sym.kind == "func"


def _call_keeps(n: ast.Call, local_types: dict[str, str], lookup) -> bool:
    """Whether a call needs the reference: not a function of the link, one that did not parse or may
    break out of the caller's loop, the wrong argument count, or a call that may return a reference
    passed where the callee's first parameters take its storage."""
    sym = lookup(n.name) if n.name not in local_types else None
    if sym is None or sym.kind != "func" or _broken(sym.function) or breaks_out(sym.function, lookup):
        return True
    variadic = _variadic(sym.function)
    if not variadic and len(n.args) != len(sym.function.param_names):
        return True
    for k, a in enumerate(n.args):
        # a reference into freed storage, read after the callee took its first parameters
        if isinstance(a, ast.Call) and (k >= 1 or variadic):
            asym = lookup(a.name)
            if asym is None or asym.kind != "func" or returns_reference(asym.function):
                return True
    return False


def _char_store(n: ast.Assign, local_types: dict[str, str], lookup) -> bool:
    """Whether an assignment stores a char variable or element, a character constant, or the result of a
    function that may return a reference to a char (zero-extended into an int by the dialect)."""
    v = n.value
    if isinstance(v, ast.CharLit):
        return True
    if isinstance(v, (ast.Var, ast.Index)):
        t = local_types.get(v.name)
        if t is None:
            sym = lookup(v.name)
            t = sym.type if sym is not None and sym.kind == "var" else "int"
        return t == "char"
    if isinstance(v, ast.Call):
        sym = lookup(v.name)
        return sym is None or sym.kind != "func" or returns_char_reference(sym.function, lookup)
    return False


def _difference(node):
    """A copy of ``node`` with each relational ``a<b`` made ``(a-b)<0`` (the dialect's comparison)."""
    node = copy.deepcopy(node)
    for n in walk(node):
        if isinstance(n, ast.BinOp) and n.op in RELATIONAL:
            n.left = ast.BinOp(n.left.pos, n.right.end, op="-", left=n.left, right=n.right)
            n.right = ast.Number(n.right.end, n.right.end, value=0)
    return node


def _debugs(stmts, m) -> bool:
    """Whether ``stmts`` or a function of the link may make MC 0, the debug call: it numbers the entries
    of every running call (:meth:`GibsonEvaluator.symbol_entry`), so the whole run stays on the reference
    evaluator, whose frames it reads."""
    def debug(node) -> bool:
        return any(isinstance(n, ast.MachineCall) and not (n.args and isinstance(n.args[-1], ast.Number)
                                                           and n.args[-1].value != 0) for n in walk(node))
    tables = [t for t in (m.program, m.library) if t is not None]
    return any(debug(s) for s in stmts) or any(
        sym.function is not None and debug(sym.function.body) for t in tables for sym in t if sym.kind == "func")


class GibsonFastEngine(FastEngine):
    """The fast engine with the Gibson dialect's machine calls, comparisons and fall-backs."""

    name = "fast"
    constant_globals = False  # Gibson's references can store into globals without naming them
    frames_known = False      # (its frames are not proven to fit: every call tests its room)

    ref: GibsonEvaluator  # the reference evaluator of this dialect (skip, rd)

    def __init__(self, machine, options: Optimisations = ALL):
        super().__init__(machine, options=options)
        self.ref = GibsonEvaluator(machine)
        self._copies: dict = {}

    @property
    def runtime(self) -> dict:
        fresh = self._runtime is None
        rt = super().runtime
        if fresh:  # this dialect's machine-call wrapper, put in once
            m, ref, eng = self.m, self.ref, self

            def _mc(values, node, t, d):
                m.top = t
                eng.depth = d
                return ref.machine_call(values, node)
            rt["_mc"] = _mc
        return rt

    label = "tinyc gibson"

    def codegen(self, name, params, body, link, toplevel, source):
        gen = GibsonCodegen(name, params, body, link.resolve, self.m.memory.int_bits,
                            self._source if source else None, toplevel, self.m.memory.size, self.m.max_depth,
                            self.options, self.caches.scans)
        gen.lookup = link.lookup
        return gen

    def run(self, stmts):
        m = self.m
        from ...engines.fastrt import Linkage
        link = Linkage(self, m.program, m.library)
        if not compilable([], stmts, link.lookup, top=True) or _debugs(stmts, m):
            saved = self.depth
            self.ref.depth = self.depth
            try:
                self.ref.run(stmts)
            finally:
                self.depth = saved
            return
        super().run([_difference(s) for s in stmts])

    def function(self, sym, link):
        fn = sym.function
        hit = self._copies.get(id(fn))
        if hit is None or hit[0] is not fn:
            # gs stays on the reference evaluator, whose lookups see its end of input (calls.in_gs)
            ok = compilable(fn.params, fn.body, link.lookup) and fn.name != "gs"
            twin = None
            if ok:
                twin = copy.copy(sym)
                twin.function = ast.Function(fn.pos, fn.end, name=fn.name, params=fn.params,
                                             body=_difference(fn.body))
            hit = self._copies[id(fn)] = (fn, twin)
        if hit[1] is None:
            return self._fallback(sym)
        return super().function(hit[1], link)

    def _fallback(self, sym):
        ref, m = self.ref, self.m

        def call(*a):
            m.top = a[-2]
            ref.depth = a[-1] - 1
            v = ref.call(sym, list(a[:-2]), sym.function)
            return v if type(v) is int else ref.rd(v, sym.function)
        return call

