"""Code generator of the fast engine: one tiny-c function (or top-level statement list) to Python source.

The generated source is a factory ``def _make(_N): def f_NAME(params..., _t, _d): ...; return f_NAME``
executed with a per-link globals dict (see :mod:`tinyc.fastrt`).  Conventions in the generated code:

* a scalar local or parameter ``x`` is the Python local ``v_x``; a local array ``a`` is its pointer
  ``p_a`` (plus ``e_a``, a view of exactly its elements when it is range checked and never reassigned,
  or ``w_a``/``b_a``/``n_a``: the aligned int view, base index and view length);
* ``_t`` is the value-space top (bytes) and ``_d`` the number of active tiny-c calls: both are passed
  down the calls, so returning needs no bookkeeping (reference section 3, "Memory layout"; 14 item 11);
  one test on entry covers the depth limit and the first allocations: when it fails, ``r_NAME`` (the
  reference evaluator) runs the call and reports the error;
* globals come from the link's table: int scalars and arrays that no code of the link reassigns are
  baked in as constant places (``_IV0[8858]``, ``e_x`` views made by the factory), ``f_x`` is a
  function, ``gs_x`` a symbol whose array pointer may change;
* values are Python ints wrapped to ``int_bits`` only where it changes a result (stores, comparisons,
  ``/``, ``%``, conditions, subscripts, arguments, returns) and the bounds known for the value there do
  not settle it: bounds of scalar locals are followed along the code (``self.known``);
* every check that can fail carries the tiny-c error cursor (an absolute byte address) as a constant.

Anything this generator does not handle statically (a declaration inside a nested block, a name used
before its declaration, an array bound that is not a constant) raises :class:`Unsupported`; the engine
then runs that function with the reference evaluator.

The generator is built in layers, each a class over the one before: :mod:`.genbase` (state and output),
:mod:`.bounds` (value bounds, wrap decisions), :mod:`.cells` (scalar locals' memory cells),
:mod:`.expressions`; :class:`Codegen` adds the prologue, the allocations and :meth:`Codegen.generate`.
:mod:`.analysis` has the AST walks and the static locals of a function.
"""

from __future__ import annotations

from .. import ast
from .analysis import (
    MAX_LOCALS, MAX_LOOPS, MAX_NESTING, Analysis, Local, Unsupported, assigned_names,
    constant, names_used, nesting, walk,
)
from .genbase import E
from .bounds import join
from .expressions import ExpressionGen

__all__ = [
    "Analysis", "Codegen", "E", "EXACT_DEAD_FRAMES", "Local", "MAX_LOCALS", "MAX_LOOPS", "MAX_NESTING",
    "Unsupported", "assigned_names", "constant", "join", "names_used", "nesting", "walk",
]


# True: every function keeps its scalars' cells (the bytes a returned call leaves above the top of the value
# space are the reference's even for pure functions).  False (the default): a function that cannot read or
# write memory outside its checked arrays, nor call one that can, never writes its cells: nothing can see
# them while it runs, and writing them would cost a third of a small call (docs/fast-engine.md).
EXACT_DEAD_FRAMES = False


class Codegen(ExpressionGen):
    """Generates the factory source for one function.

    ``resolve(name)`` gives the link-time shape of a global name: None (undefined), ``("func", nparams)``
    or ``("var", type, array, frozen, checked)``; ``source(node)`` the tiny-c text of a node (comments).
    """

    def generate(self) -> tuple[str, dict[int, int]]:
        """The factory source and the line map (generated line -> tiny-c address)."""
        fn = "f_" + self.fname
        args = []
        for type_, d in self.params:
            loc = self.an.locals[d.name]
            args.append(("p_" if loc.array else "v_") + d.name)
        header = f"def {fn}({', '.join(args + ['_t', '_d'])}):"
        loops, depth = nesting(self.body)
        if loops > MAX_LOOPS or depth > MAX_NESTING:
            raise Unsupported("statements nested too deeply for CPython")
        scalars = [k for k, v in self.an.locals.items() if not v.array]
        nonsafe = self.has_nonsafe(self.body)
        self.frame = bool(scalars) and nonsafe
        self.cells = bool(scalars) and (EXACT_DEAD_FRAMES or nonsafe or self.may_sync(self.body))
        self.addrs = self.cells
        if self.an.modified and self.cells:
            self.emit(1, "try:")
            self.base = 1
        self.prologue()
        for s in self.body:
            if self.deferred and self.uses_frame(s):
                self.settle()
            self.stmt(s, 1)
        self.flush_stmts(1)
        self.emit(1, "return 0")
        if self.an.modified and self.cells:
            self.base = 0
            names = tuple((f"v_{k}", f"a_{k}", self.an.locals[k].type == "int") for k in sorted(self.an.modified))
            self.emit(1, "except BaseException:")
            self.emit(2, f"_xf(locals(), {names!r}); raise")
        views = ["    " + ln for ln in self.views.values()]
        src = ["def _make(_N):", *views, "    " + header] + ["    " + ln for ln in self.lines] + [f"    return {fn}"]
        linemap = {k + 1 + len(views): v for k, v in self.linemap.items()}
        return "\n".join(src) + "\n", linemap

    # ---- statements (section 5)

    def stmt(self, s, ind: int) -> None:
        if isinstance(s, ast.Block):
            for x in s.body:
                self.stmt(x, ind)
            return
        if not isinstance(s, ast.Null):
            self.comment(ind, s)
        if isinstance(s, ast.Decl):
            self.decl(s, ind)
        elif isinstance(s, ast.If):
            self.emit(ind, f"if {self.truth(self.expr(s.cond))}:", s.pos)
            before = self.known
            self.known = self.refine(before, s.cond, True)
            self.suite(s.then, ind + 1)
            after = self.known
            self.known = self.refine(before, s.cond, False)
            if s.orelse is not None:
                self.emit(ind, "else:")
                self.suite(s.orelse, ind + 1)
            self.known = join(after, self.known)
        elif isinstance(s, ast.While):
            self.loop_stmt(s, s.cond, s.body, None, ind)
        elif isinstance(s, ast.For) and self.counted(s):
            self.range_for(s, ind)
        elif isinstance(s, ast.For):
            if s.init is not None:
                self.exprstmt(s.init, ind)
            self.loop_stmt(s, s.cond, s.body, s.step, ind)
        elif isinstance(s, ast.Break):
            if not self.breaks:
                self.flush_stmts(ind)
            self.emit(ind, "break" if self.breaks else "return 0", s.pos)
            if self.breaks and self.known is not None:
                self.breaks[-1].append(self.known)
            self.known = None
        elif isinstance(s, ast.Return):
            if s.value is None:
                self.flush_stmts(ind)
                self.emit(ind, "return 0", s.pos)
            else:
                code = self.wrap(self.expr(s.value)).code
                if self.flush_set():
                    self.emit(ind, f"_rv = {code}", s.pos)
                    self.flush_stmts(ind)
                    self.emit(ind, "return _rv", s.pos)
                else:
                    self.emit(ind, f"return {code}", s.pos)
            self.known = None
        elif isinstance(s, ast.ExprStmt):
            self.exprstmt(s.expr, ind)
        elif isinstance(s, ast.Null):
            pass
        elif isinstance(s, ast.ErrorStmt):  # a statement that did not parse: its error when it runs
            if s.prefix:
                raise Unsupported("a statement that did not parse evaluates what it had parsed")
            self.emit(ind, f"_err({s.code}, {s.address})", s.pos)
            self.known = None

    def loop_stmt(self, s, cond, body, step, ind: int) -> None:
        """``while`` (and ``for`` without a counted range): head bounds, then the code."""
        entry = self.known
        hoist = self.hoistable(s)

        def one_pass():
            c = None if cond is None else self.expr(cond)
            self.known = self.refine(self.known, cond, True)
            self.breaks.append([])
            self.suite(body, ind + 1)
            if step is not None:
                self.exprstmt(step, ind + 1)
            self.breaks.pop()
            return c
        outer_hoisted = self.hoisted
        self.hoisted = dict(self.hoisted)
        for name, cell in hoist.items():
            t = self.tmp()
            self.emit(ind, f"{t} = {cell}  # not changed by the loop")
            self.hoisted[name] = t
        head = self.loop_head(s, entry, one_pass)
        self.known = head
        cond_code = "True" if cond is None else self.truth(self.expr(cond))
        after_cond = self.known
        self.emit(ind, f"while {cond_code}:", s.pos)
        self.known = self.refine(after_cond, cond, True)
        self.breaks.append([])
        self.suite(body, ind + 1)
        if step is not None:
            self.exprstmt(step, ind + 1)
        exits = self.breaks.pop()
        self.known = self.refine(after_cond, cond, False) if cond is not None else None
        for b in exits:
            self.known = join(self.known, b)
        self.hoisted = outer_hoisted

    def hoistable(self, s) -> dict[str, str]:
        """Global scalars read by a loop that nothing in it can change: read once before it."""
        if self.dry_depth:
            return {}
        reads, assigned = {}, set()
        for n in walk(s):
            if isinstance(n, ast.MachineCall):
                return {}
            if isinstance(n, (ast.Var, ast.Call, ast.Index)) and n.name not in self.an.locals:
                shape = self.resolve(n.name)
                if shape is None or shape[0] == "func":
                    return {}
                if isinstance(n, ast.Var) and not shape[2]:
                    reads[n.name] = shape
            target = n.target if isinstance(n, ast.Assign) else (
                n.operand if isinstance(n, ast.Unary) and n.op in ("++", "--") else None)
            if isinstance(target, ast.Var) and target.name not in self.an.locals:
                assigned.add(target.name)
            elif isinstance(target, ast.Index):
                acc = self.array(target)
                if acc is None or not acc.get("safe"):
                    return {}  # a store that may land anywhere
            elif target is not None and not isinstance(target, ast.Var):
                return {}
        return {k: self.gcell(v[1], v[5]) for k, v in reads.items()
                if k not in assigned and k not in self.hoisted and v[1] == "int"}

    def counted(self, s: ast.For) -> bool:
        """``for(k=e;k<n;++k)`` with an int local k the body leaves alone and an invariant n: a Python range."""
        init, cond, step = s.init, s.cond, s.step
        if not (isinstance(init, ast.Assign) and isinstance(init.target, ast.Var)):
            return False
        k = init.target.name
        loc = self.an.locals.get(k)
        if loc is None or loc.array or loc.type != "int":
            return False
        if not (isinstance(step, ast.Unary) and step.op == "++" and isinstance(step.operand, ast.Var)
                and step.operand.name == k):
            return False
        if not (isinstance(cond, ast.BinOp) and cond.op in ("<", "<=") and isinstance(cond.left, ast.Var)
                and cond.left.name == k):
            return False
        body_assigns = assigned_names(s.body) | assigned_names(init.value)
        if k in body_assigns or self.may_reload(s):
            return False
        end = cond.right
        if isinstance(end, ast.Number):
            return cond.op == "<" or self.wrap(self.x_Number(end)).lo < self.imax
        if cond.op != "<" or not isinstance(end, ast.Var) or end.name == k:
            return False
        e = self.an.locals.get(end.name)
        return e is not None and not e.array and end.name not in assigned_names(s.body)

    def range_for(self, s: ast.For, ind: int) -> None:
        k = s.init.target.name
        start = self.wrap(self.expr(s.init.value))
        end = self.expr(s.cond.right)
        stop = str(end.lo + 1) if s.cond.op == "<=" else end.code
        stop_hi = end.lo + 1 if s.cond.op == "<=" else end.hi
        self.emit(ind, f"v_{k} = {start.code}", s.pos)
        self.emit(ind, f"for v_{k} in range(v_{k}, {stop}):", s.pos)
        inside = (start.lo, max(start.lo, stop_hi - 1))
        self.set_bounds(k, start.lo, start.hi)
        entry = self.known

        def one_pass():
            self.set_bounds(k, *inside)
            self.breaks.append([])
            self.suite(s.body, ind + 1)
            self.breaks.pop()
        head = self.loop_head(s.body, entry, one_pass)
        self.known = head
        self.set_bounds(k, *inside)
        self.breaks.append([])
        self.suite(s.body, ind + 1)
        exits = self.breaks.pop()
        self.known = head
        for b in exits:
            self.known = join(self.known, b)
        self.set_bounds(k, start.lo, max(start.hi, stop_hi, inside[1]))
        self.emit(ind, "else:")
        self.emit(ind + 1, f"if v_{k} < {stop}: v_{k} = {stop}")

    def suite(self, s, ind: int) -> None:
        n = len(self.lines)
        self.stmt(s, ind)
        if all(ln.lstrip().startswith("#") for ln in self.lines[n:]):
            self.emit(ind, "pass")

    # ---- allocation in value space (frames grow from _t)

    def limit(self, n: int) -> str:
        """The highest ``_t`` that leaves room for ``n`` bytes."""
        return f"_SIZE - {n}" if self.size == "_SIZE" else str(int(self.size) - n)

    def alloc_check(self, ind: int, items: list[tuple[int, int]]) -> None:
        """Check that ``items`` (bytes, error cursor) fit above ``_t``; error 19 at the first that does not."""
        total = sum(n for n, _ in items)
        if not items:
            return
        self.emit(ind, f"if _t > {self.limit(total)}: _oom(_t, {tuple(items)!r})")

    def bind_array(self, ind: int, loc: Local) -> None:
        """Derived names of a frozen array: a view of exactly its elements when they are range checked,
        else (int arrays) the aligned view, base index and view length."""
        if loc.frozen and loc.allocated and loc.length > 1:
            p, n = f"p_{loc.name}", loc.length
            whole = (f"_IV[{p} & {self.amask}][{p} >> {self.shift}:({p} >> {self.shift}) + {n}]"
                     if loc.type == "int" else f"_B[{p}:{p} + {n}]")
            self.emit(ind, f"e_{loc.name} = {whole}")
        elif loc.frozen and loc.type == "int":
            self.emit(ind, f"w_{loc.name} = _IV[p_{loc.name} & {self.amask}]; "
                           f"b_{loc.name} = p_{loc.name} >> {self.shift}; n_{loc.name} = len(w_{loc.name})")

    def calls(self) -> bool:
        """Whether the body calls a tiny-c function (then the depth limit matters)."""
        for n in walk(self.body):
            if isinstance(n, (ast.Var, ast.Call)) and n.name not in self.an.locals:
                shape = self.resolve(n.name)
                if shape is not None and shape[0] == "func":
                    return True
        return False

    def lead_size(self) -> int:
        """Bytes allocated unconditionally on entry: the scalar parameters and, when every parameter is a
        scalar, the declarations at the start of the body (these then need no test of their own)."""
        total = 0
        for type_, d in self.params:
            if self.an.locals[d.name].array:
                return total
            total += self.isz if type_ == "int" else 1
        for s in self.body:
            if not isinstance(s, ast.Decl):
                break
            size = self.isz if s.type == "int" else 1
            total += sum(size * (1 if d.size is None else max(constant(d.size, self.bits) + 1, 0)) for d in s.names)
            self.prechecked.add(id(s))
        return total

    def prologue(self) -> None:
        """Bind the parameters as the reference binds them: each gets value space in order.

        A call at the depth limit (its own calls would be error 17), or one whose first allocations do
        not fit (error 19), runs on the reference evaluator (``r_NAME``), which reports the same error
        at the same place."""
        lead = 0
        if not self.toplevel:
            deep = self.calls()
            lead = self.lead_size()
            tests = ([f"_d >= {self.maxd}"] if deep else []) + ([f"_t > {self.limit(lead)}"] if lead else [])
            if tests:
                args = ", ".join(("p_" if self.an.locals[d.name].array else "v_") + d.name
                                 for _, d in self.params)
                why = " or ".join((["at the depth limit"] if deep else []) + ([f"no room for {lead} bytes"]
                                                                             if lead else []))
                self.emit(1, f"# {why}: the reference evaluator runs this call (and reports the error)")
                self.emit(1, f"if {' or '.join(tests)}: return r_{self.fname}({args + ', ' if args else ''}_t, _d)")
            if deep:
                self.deferred.append("_d += 1  # the depth of the calls made from here")
                self.stepped = True
        if self.frame:
            self.emit(1, "_f0 = _t  # the frame's first byte")
        pending: list[tuple[int, int]] = []
        writes: list[str] = []
        for type_, d in self.params:
            loc = self.an.locals[d.name]
            size = self.isz if type_ == "int" else 1
            if not loc.array:
                off = sum(n for n, _ in pending)
                pending.append((size, d.end))
                if type_ == "char":
                    self.emit(1, f"v_{d.name} = ((v_{d.name} + 128) & 255) - 128")
                writes += self.place(d.name, off, f"v_{d.name}")
                continue
            self.settle()
            self.flush_alloc(1, pending, lead, writes)
            lead = 0
            self.array_param(d, max(loc.length, 0) * size)
            self.bind_array(1, loc)
        if lead and pending:  # tested on entry: the frame's space is taken where it is first needed
            for w in self.fill(writes):
                self.emit(1, w)
            self.deferred.append(f"_t += {sum(n for n, _ in pending)}")
        else:
            self.flush_alloc(1, pending, lead, writes)

    def array_param(self, d: ast.Declarator, n: int) -> None:
        """An array parameter passed 0 gets ``n`` fresh zeroed bytes, as a local (section 4, the 8080)."""
        self.emit(1, f"if p_{d.name} == 0:")
        self.alloc_check(2, [(n, d.end)])
        self.emit(2, f"p_{d.name} = _t; _D[_t:_t + {n}] = bytes({n}); _t += {n}")

    def settle(self) -> None:
        """Emit the entry steps of ``_t``/``_d`` held back until code uses them (an early return skips them)."""
        for line in self.deferred:
            self.emit(1, line)
        self.deferred.clear()

    def uses_frame(self, s) -> bool:
        """Whether a statement reads ``_t`` or ``_d``: declarations, calls and machine calls."""
        for n in walk(s):
            if isinstance(n, (ast.Decl, ast.MachineCall)):
                return True
            if isinstance(n, (ast.Var, ast.Call)) and n.name not in self.an.locals:
                shape = self.resolve(n.name)
                if shape is not None and shape[0] == "func":
                    return True
        return False

    def place(self, name: str, off: int, value: str) -> list:
        """The scalar ``name`` gets its cell at ``_t + off``, holding ``value``: its address line, and the
        cell for :meth:`fill`."""
        self.bound.append(name)
        if not self.cells:
            return []
        cell = [(off, self.an.locals[name].type, value)]
        return ([f"a_{name} = _t + {off}" if off else f"a_{name} = _t"] if self.addrs else []) + cell

    def fill(self, writes: list) -> list[str]:
        """The lines of ``writes``: address lines, then one store of all the cells (consecutive bytes)."""
        lines = [w for w in writes if isinstance(w, str)]
        cells = sorted(w for w in writes if not isinstance(w, str))
        if not cells:
            return lines
        lo = cells[0][0]
        at = f"_t + {lo}" if lo else "_t"
        if all(v == "0" for _, _, v in cells):
            n = cells[-1][0] + (1 if cells[-1][1] == "char" else self.isz) - lo
            return lines + [f"_D[{at}:_t + {lo + n}] = {bytes(n)!r}"]
        fmt = "<" + "".join(("i" if self.isz == 4 else "h") if t == "int" else "b" for _, t, _ in cells)
        name = "_Pk" + fmt[1:]
        self.views[name] = f"{name} = _struct({fmt!r}).pack_into"
        return lines + [f"{name}(_D, {at}, {', '.join(v for _, _, v in cells)})"]

    def flush_alloc(self, ind: int, pending: list, checked: int = 0, writes=None) -> None:
        """Advance ``_t`` past ``pending`` allocations (tested unless ``checked`` bytes were tested on entry);
        ``writes`` fill their cells once the space is known to fit."""
        if pending:
            if not checked:
                self.alloc_check(ind, pending)
            for w in self.fill(writes or []):
                self.emit(ind, w)
            self.emit(ind, f"_t += {sum(n for n, _ in pending)}")
            pending.clear()
        if writes:
            writes.clear()

    def decl(self, s: ast.Decl, ind: int) -> None:
        pre = id(s) in self.prechecked  # its space was tested on entry
        pending: list[tuple[int, int]] = []
        writes: list[str] = []
        size = self.isz if s.type == "int" else 1
        for d in s.names:
            loc = self.an.locals[d.name]
            first = not getattr(loc, "_bound", False)
            loc._bound = True
            if d.size is None:
                off = sum(n for n, _ in pending)
                pending.append((size, d.end))
                if first and not any(p[1].name == d.name for p in self.params):
                    self.emit(ind, f"v_{d.name} = 0")
                    self.set_bounds(d.name, 0, 0)
                    cell = self.place(d.name, off, "0")
                    if d.name in self.an.modified:  # its variable (0) is flushed before anything can read it
                        cell = [c for c in cell if isinstance(c, str)]
                    writes += cell
                else:  # a second declaration: fresh zeroed space, the name keeps its first place
                    writes.append((off, s.type, "0"))
                continue
            self.flush_alloc(ind, pending, pre, writes)
            n = max(constant(d.size, self.bits) + 1, 0) * size
            if not pre:
                self.alloc_check(ind, [(n, d.end)])
            if first and not any(p[1].name == d.name for p in self.params):
                self.emit(ind, f"p_{d.name} = _t; _D[_t:_t + {n}] = bytes({n}); _t += {n}", s.pos)
                self.bind_array(ind, loc)
            else:
                self.emit(ind, f"_D[_t:_t + {n}] = bytes({n}); _t += {n}", s.pos)
        self.flush_alloc(ind, pending, pre, writes)

    # ---- expression statements: stores and increments inline

    def exprstmt(self, e, ind: int) -> None:
        if isinstance(e, ast.Assign):
            if self.store_stmt(e.target, e, ind, value=e.value):
                return
        elif isinstance(e, ast.Unary) and e.op in ("++", "--"):
            if self.store_stmt(e.operand, e, ind, delta=1 if e.op == "++" else -1):
                return
        self.emit(ind, self.expr(e).code, e.pos)

    def store_stmt(self, target, node, ind: int, value=None, delta: int = 0) -> bool:
        """A store or increment as statements; False if it needs the expression form."""
        if isinstance(target, ast.Var):
            loc = self.an.locals.get(target.name)
            if loc is not None and not loc.array:
                lo, hi = self.var_bounds(loc.name)
                src = E(f"v_{loc.name}", "int", lo, hi, True, True)
                if value is None and loc.type == "int":
                    edge = self.imax if delta > 0 else self.imin
                    self.emit(ind, f"v_{loc.name} {'+' if delta > 0 else '-'}= 1", node.pos)
                    if (hi if delta > 0 else lo) == edge:
                        self.emit(ind, f"if v_{loc.name} == {edge + delta}: v_{loc.name} = {edge - delta * ((1 << self.bits) - 1)}")
                        self.set_bounds(loc.name, *self.bounds("int"))
                    else:
                        self.set_bounds(loc.name, lo + delta, hi + delta)
                    return True
                v = self.expr(value) if value is not None else self.add(src, delta)
                v = self.wrap(v) if loc.type == "int" else self.wrapc(v)
                self.emit(ind, f"v_{loc.name} = {v.code}", node.pos)
                self.set_bounds(loc.name, v.lo, v.hi)
                return True
            shape = self.resolve(target.name) if loc is None else None
            if shape is None or shape[0] != "var" or shape[2]:
                return False
            typ = shape[1]
            cell = self.gcell(typ, shape[5])
            v = self.expr(value) if value is not None else self.add(E(cell, "int", *self.bounds(typ)), delta)
            v = self.wrap(v) if typ == "int" else self.wrapc(v)
            self.emit(ind, f"{cell} = {v.code}", node.pos)
            return True
        if not isinstance(target, ast.Index):
            return False
        acc = self.array(target)
        if acc is None:
            return False
        typ = acc["type"]
        index = self.wrap(self.expr(target.index))
        check = self.needs_check(acc, index)
        if value is not None and index.pure and acc.get("safe") and not check:
            known, ntemp = self.known, self.ntemp
            v = self.expr(value)
            if v.pure:  # nothing to order: one Python store
                v = self.wrap(v) if typ == "int" else self.wrapc(v)
                loc, _, write, _ = self.location(acc, index.code)
                self.emit(ind, f"{write.format(loc)} = {v.code}", node.pos)
                return True
            self.known, self.ntemp = known, ntemp  # the value is generated again below, in its place
        # the index is taken before the value runs: a value that may change it (gb(v)=(v=3), a call that
        # changes v through memory) must not move the store
        fixed = index.name and (value is None or not self.changes_locals(value))
        i = index.code if fixed else self.tmp()
        if not fixed:
            self.emit(ind, f"{i} = {index.code}", node.pos)
        if check:
            self.emit(ind, f"if not {self.in_range(acc, index, i)}: _err(6, {target.end})", node.pos)
            self.checked(acc, target)
        loc, read, write, fault = self.location(acc, i)
        if acc.get("safe"):  # a constant base: the element's place needs no temporary
            lname = place = loc
        else:
            lname = place = self.tmp()
            self.emit(ind, f"{lname} = {loc}")
        v = None
        if value is not None:
            v = self.expr(value)
            v = self.wrap(v) if typ == "int" else self.wrapc(v)
            if fault and not v.pure:  # the value runs before the store can fail (as the reference)
                vt = self.tmp()
                self.emit(ind, f"{vt} = {v.code}", node.pos)
                v = E(vt, "int", v.lo, v.hi, True, True)
        framed = fault and self.bound and not acc.get("safe")
        if framed:  # the place may be in this frame: flush before, reload after (see ``framed``)
            n = 1 if typ == "char" else self.isz
            thr = "_f0" if n == 1 else f"_f0 - {n - 1}"
            test = f"0 <= {lname} {'< _f0' if n == 1 else f'<= _f0 - {n}'}"
            self.emit(ind, f"if not {test}: _wsl({lname}, {n}, {node.end}, {self.flush_args()})")
        elif fault:
            self.emit(ind, f"if not {fault.format(lname)}: _err(6, {node.end})")
        if v is None:
            v = self.add(E(read.format(place), "int", *self.bounds(typ)), delta)
            v = self.wrap(v) if typ == "int" else self.wrapc(v)
        self.emit(ind, f"{write.format(place)} = {v.code}", node.pos)
        if framed:
            self.emit(ind, f"if {lname} >= {thr}:")
            for k in self.bound:
                self.emit(ind + 1, f"v_{k} = {self.cell(k)}")
            self.reset_bounds()
        return True
