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
:mod:`.bounds` (value bounds, wrap decisions), :mod:`.cells` (scalar locals' memory cells); :class:`Codegen`
adds the prologue, the allocations and :meth:`Codegen.generate`.  :mod:`.analysis` has the AST walks and the
static locals of a function.
"""

from __future__ import annotations

from .. import ast
from .analysis import (
    MAX_LOCALS, MAX_LOOPS, MAX_NESTING, Analysis, Local, Unsupported, assigned_names,
    constant, names_used, nesting, walk,
)
from .genbase import E
from .bounds import join
from .cells import CellsGen

__all__ = [
    "Analysis", "Codegen", "E", "EXACT_DEAD_FRAMES", "Local", "MAX_LOCALS", "MAX_LOOPS", "MAX_NESTING",
    "Unsupported", "assigned_names", "constant", "join", "names_used", "nesting", "walk",
]


# True: every function keeps its scalars' cells (the bytes a returned call leaves above the top of the value
# space are the reference's even for pure functions).  False (the default): a function that cannot read or
# write memory outside its checked arrays, nor call one that can, never writes its cells: nothing can see
# them while it runs, and writing them would cost a third of a small call (docs/fast-engine.md).
EXACT_DEAD_FRAMES = False


class Codegen(CellsGen):
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

    # ---- arrays: where an element lives

    def array(self, node: ast.Index, plain: bool = False) -> dict | None:
        """How to reach the elements of ``node.name``, or None when the name is not an array.  In a function
        whose frame is tested (``self.frame``), an unchecked int array is reached by byte address."""
        acc = self._array(node)
        if acc is not None and not plain and self.frame and not acc.get("safe") and "ptr" not in acc \
                and acc["type"] == "int":
            acc["ptr"] = acc["a"]
            for k in ("w", "b", "n"):
                acc.pop(k, None)
        return acc

    def _array(self, node: ast.Index) -> dict | None:
        name = node.name
        loc = self.an.locals.get(name)
        if loc is not None:
            if not loc.array:
                return None
            checked = loc.length > 1
            acc = {"type": loc.type, "checked": checked, "L": loc.length}
            if loc.frozen:
                acc["safe"] = loc.allocated and checked
                acc.update(w=f"w_{name}", b=f"b_{name}", n=f"n_{name}", a=f"p_{name}")
                if acc["safe"]:
                    acc["view"] = f"e_{name}"
            else:
                acc["ptr"] = f"p_{name}"
            return acc
        shape = self.resolve(name)
        if shape is None or shape[0] != "var" or not shape[2]:
            return None
        _, typ, _, frozen, checked, fixed = shape
        acc = {"type": typ, "checked": checked, "L": f"gl_{name}"}
        if frozen:
            acc.update(safe=checked, w=f"_IV{fixed[0]}", b=str(fixed[1]), n=f"gn_{name}", a=str(fixed[3]),
                       L=fixed[2])
            if checked:  # its elements as a view of their own, made once by the factory
                acc["view"] = f"e_{name}"
                whole, start = (f"_IV{fixed[0]}", fixed[1]) if typ == "int" else ("_B", fixed[3])
                self.views[name] = f"e_{name} = {whole}[{start}:{start + fixed[2]}]  # the elements of {name}"
        else:
            acc["ptr"] = f"gs_{name}.address"
        return acc

    def location(self, acc: dict, i: str) -> tuple[str, str, str, str | None]:
        """(location code for index name ``i``, read template, write template, fault test template)."""
        if "view" in acc:  # a view of exactly the elements: the index is the place
            cell = f"{acc['view']}[{{0}}]"
            return i, cell, cell, None
        if acc["type"] == "char":
            base = acc.get("a") or acc["ptr"]
            fault = None if acc.get("safe") else f"0 <= {{0}} < {self.size}"
            return f"{i} + {base}", "_B[{0}]", "_B[{0}]", fault  # the index first: it may move the pointer
        if "ptr" in acc:
            loc = f"{self.isz} * {i} + {acc['ptr']}"
            cell = f"_IV[{{0}} & {self.amask}][{{0}} >> {self.shift}]"
            return loc, cell, cell, f"0 <= {{0}} <= {self.limit(self.isz)}"
        fault = None if acc.get("safe") else f"0 <= {{0}} < {acc['n']}"
        return f"{acc['b']} + {i}", f"{acc['w']}[{{0}}]", f"{acc['w']}[{{0}}]", fault

    def element_read(self, node: ast.Index, acc: dict) -> E:
        at = node.end
        typ = acc["type"]
        lo, hi = self.bounds(typ)
        if acc.get("safe"):
            fused = self.divided_index(node.index, acc, at)
            if fused is not None:
                loc, read, _, _ = self.location(acc, fused)
                return E(read.format(loc), "int", lo, hi)
        index = self.wrap(self.expr(node.index))
        if acc.get("safe") and not self.needs_check(acc, index):
            loc, read, _, _ = self.location(acc, index.code)
            return E(read.format(loc), "int", lo, hi)
        if acc.get("safe"):
            bind, i = self.named(index)
            chk = f"({i} if {self.in_range(acc, index, bind)} else _err(6, {at}))"
            loc, read, _, _ = self.location(acc, chk)
            self.checked(acc, node)
            return E(read.format(loc), "int", lo, hi)
        bind, i = self.named(index)
        conds = []
        if self.needs_check(acc, index):
            conds.append(self.in_range(acc, index, bind))
            self.checked(acc, node)
            first = i
        else:
            first = bind
        loc, read, _, fault = self.location(acc, first)
        a = self.tmp()
        if self.frame and self.flush_set():
            # below the frame the cells are current; at or above it the modified variables are flushed first
            n = 1 if typ == "char" else self.isz
            test = f"0 <= ({a} := {loc}) {'< _f0' if n == 1 else f'<= _f0 - {n}'}"
            code = f"({read.format(a)} if {test} else _rdx({a}, {n}, {at}, {self.flush_args()}))"
            if conds:
                code = f"({code} if {conds[0]} else _err(6, {at}))"
            return E(code, "int", lo, hi)
        conds.append(fault.format(f"({a} := {loc})"))
        return E(f"({read.format(a)} if {' and '.join(conds)} else _err(6, {at}))", "int", lo, hi)

    def divided_index(self, x, acc: dict, at: int) -> str | None:
        """A subscript ``y/d`` or ``y%d`` (constant d > 0) with its range test folded into the C division:
        for y in 0..d*L-1 (``/``) or y >= 0 (``%``) Python's ``//``/``%`` agree with C and the result is in
        range; any other y takes the careful path (``_cdiv``/``_cmod`` then the range test)."""
        if not (isinstance(x, ast.BinOp) and x.op in ("/", "%") and isinstance(acc["L"], int)):
            return None
        d = self.wrap(self.expr(x.right)) if isinstance(x.right, ast.Number) else None
        if d is None or d.lo != d.hi or d.lo <= 0:
            return None
        d, L = d.lo, acc["L"]
        if x.op == "%" and d > L:
            return None
        y = self.wrap(self.expr(x.left))
        if y.lo >= 0 and (x.op == "%" or y.hi < d * L):
            return f"{y.code} {'//' if x.op == '/' else '%'} {d}"
        bind, v = self.named(y)
        if x.op == "/":
            return f"({v} // {d} if 0 <= {bind} < {d * L} else _cdiv({v}, {d}, {L}, {at}))"
        return f"({v} % {d} if {bind} >= 0 else _cmod({v}, {d}, {L}, {at}))"

    def address(self, node: ast.Index, acc: dict) -> str:
        """Code for the byte address of an element (range checked at the Index end), for the helpers."""
        index = self.wrap(self.expr(node.index))
        bind, i = self.named(index)
        base = acc.get("a") or acc["ptr"]
        scale = "" if acc["type"] == "char" else f"{self.isz} * "
        if self.needs_check(acc, index):
            return f"({scale}{i} + {base} if {self.in_range(acc, index, bind)} else _err(6, {node.end}))"
        return f"{scale}{bind} + {base}"  # the index runs first (ga((ga=48)) subscripts the new pointer)

    # ---- expressions (section 6)

    def expr(self, n) -> E:
        return getattr(self, "x_" + type(n).__name__)(n)

    def x_Number(self, n) -> E:
        v = ((n.value - self.imin) & ((1 << self.bits) - 1)) + self.imin
        return E(str(v) if v >= 0 else f"({v})", "int", v, v, True, True)

    def x_CharLit(self, n) -> E:
        return E(str(n.value) if n.value >= 0 else f"({n.value})", "int", n.value, n.value, True, True)

    def x_String(self, n) -> E:
        return E(f"_S({n.pos + 1 + n.length}, {n.pos + 1})", "int", n.pos + 1, n.pos + 1)

    def x_Var(self, n: ast.Var) -> E:
        loc = self.an.locals.get(n.name)
        if loc is not None:
            if loc.array:
                return E(f"p_{n.name}", "int", self.imin, self.imax, True, True)
            return E(f"v_{n.name}", "int", *self.var_bounds(n.name), True, True)
        shape = self.resolve(n.name)
        if shape is None:
            return E(f"_err(26, {n.end})", "int", self.imin, self.imax)
        if shape[0] == "func":
            return self.call(n.name, shape[1], [], n)
        _, typ, array, frozen, _, fixed = shape
        if array:
            if frozen:
                return E(str(fixed[3]), "int", fixed[3], fixed[3], True, True)
            return E(f"gs_{n.name}.address", "int", self.imin, self.imax, True)
        if n.name in self.hoisted:
            return E(self.hoisted[n.name], "int", *self.bounds(typ), True, True)
        return E(self.gcell(typ, fixed), "int", *self.bounds(typ), True)

    def gcell(self, typ: str, fixed) -> str:
        """The memory cell of a global scalar at a constant address."""
        if typ == "int":
            return f"_IV{fixed[0]}[{fixed[1]}]"
        return f"_B[{fixed[3]}]"

    def x_Index(self, n: ast.Index) -> E:
        acc = self.array(n)
        if acc is not None:
            return self.element_read(n, acc)
        err = self.index_error(n)
        return E(err, "int", self.imin, self.imax)

    def index_error(self, n: ast.Index) -> str:
        """The error of subscripting a name that is not an array (before the index is evaluated)."""
        loc = self.an.locals.get(n.name)
        if loc is not None:
            return f"_err(7, {n.index.pos - 1})"
        shape = self.resolve(n.name)
        if shape is None:
            return f"_err(26, {n.name_end})"
        if shape[0] == "func":
            return f"_err(14, {n.end})"
        return f"_err(7, {n.index.pos - 1})"

    def x_Call(self, n: ast.Call) -> E:
        loc = self.an.locals.get(n.name)
        shape = None if loc is not None else self.resolve(n.name)
        if loc is None and shape is None:
            return E(f"_err(26, {n.name_end})", "int", self.imin, self.imax)
        if loc is not None or shape[0] != "func":
            args = [self.wrap(self.expr(a)).code for a in n.args]
            return E(f"({', '.join(args + [f'_err(26, {n.name_end})'])})[-1]", "int", 0, 0)
        return self.call(n.name, shape[1], n.args, n)

    def call(self, name: str, nparams: int, args: list, n) -> E:
        codes = [self.wrap(self.expr(a)).code for a in args]
        if nparams is not None and len(args) != nparams:  # None: a function whose call is an error
            at = n.after if isinstance(n, ast.Call) else n.end
            return E(f"({', '.join(codes + [f'_err(21, {at})'])})[-1]", "int", 0, 0)
        # the callee tests the depth (a function at the limit runs on the reference evaluator)
        depth = "_d" if self.stepped else "_d + 1"
        reads, writes = self.effects_of(name)
        top = self.flush_expr("_t") if reads else "_t"
        code = f"f_{name}({', '.join(codes + [top, depth])})"
        reload = self.reload_expr() if writes else None
        if reload:
            r = self.tmp()
            code = f"(({r} := {code}), {reload}, {r})[-1]"
        return E(code, "int", self.imin, self.imax)

    def x_MachineCall(self, n: ast.MachineCall) -> E:
        codes = [self.wrap(self.expr(a)).code for a in n.args]
        self.nodes.append(n)
        k = len(self.nodes) - 1
        last = n.args[-1] if n.args else None
        if isinstance(last, ast.Number) and last.value in self.DIRECT and len(n.args) - 1 == self.DIRECT[last.value]:
            return E(f"_R{last.value}(_M, _N[{k}]{''.join(', ' + c for c in codes[:-1])})",
                     "int", self.imin, self.imax)
        depth = "_d - 1" if self.stepped else "_d"
        code = f"_mc([{', '.join(codes)}], _N[{k}], {self.flush_expr('_t')}, {depth})"
        reload = self.reload_expr()
        if reload:
            r = self.tmp()
            code = f"(({r} := {code}), {reload}, {r})[-1]"
        return E(code, "int", self.imin, self.imax)

    def x_Assign(self, n: ast.Assign) -> E:
        t = n.target
        if isinstance(t, ast.Var):
            loc = self.an.locals.get(t.name)
            if loc is not None:
                return self.store_local(t.name, loc, self.expr(n.value))
            shape = self.global_lvalue(t)
            if isinstance(shape, E):
                return shape
            _, typ, array, frozen, _, fixed = shape
            v = self.expr(n.value)
            if array:
                return E(f"_setp(gs_{t.name}, {self.wrap(v).code})", "int", self.imin, self.imax)
            if typ == "int":
                return E(f"_sts(_IV{fixed[0]}, {fixed[1]}, {self.wrap(v).code})", "int", self.imin, self.imax)
            return E(f"_stb({fixed[3]}, {self.wrapc(v).code}, {n.end})", "int", -128, 127)
        if isinstance(t, ast.Index):
            acc = self.array(t)
            if acc is None:
                return E(self.index_error(t), "int", 0, 0)
            addr = self.address(t, acc)
            v = self.expr(n.value)
            helper, v = ("_sti", self.wrap(v)) if acc["type"] == "int" else ("_stb", self.wrapc(v))
            e = E(f"{helper}({addr}, {v.code}, {n.end})", "int", *self.bounds(acc["type"]))
            return self.framed(acc, e, helper, addr, v.code, n.end)
        # not an lvalue: evaluate it, then error 14
        return E(f"({self.expr(t).code}, _err(14, {t.end}))[-1]", "int", 0, 0)

    def store_local(self, name: str, loc, v: E) -> E:
        """Assign ``v`` to a local: an array's pointer (wrapped) or a scalar (wrapped to its type, its
        bounds then known)."""
        if loc.array:
            return E(f"(p_{name} := {self.wrap(v).code})", "int", self.imin, self.imax)
        v = self.wrap(v) if loc.type == "int" else self.wrapc(v)
        self.set_bounds(name, v.lo, v.hi)
        return E(f"(v_{name} := {v.code})", "int", v.lo, v.hi)

    def global_lvalue(self, t: ast.Var):
        """The shape of the global an lvalue names, or the E that raises its error: 26 when no level
        has the name, 14 when it names a function."""
        shape = self.resolve(t.name)
        if shape is None:
            return E(f"_err(26, {t.end})", "int", 0, 0)
        if shape[0] == "func":
            return E(f"_err(14, {t.end})", "int", 0, 0)
        return shape

    def framed(self, acc: dict, e: E, helper: str, addr: str, value: str | None, at: int, delta: int = 0) -> E:
        """A store (``value``) or ++/-- (``delta``) through an unchecked place, as an expression: when its
        address may be in this frame the modified variables are flushed before it and every scalar is
        reloaded after it."""
        if acc.get("safe") or not self.bound:
            return e
        a, r = self.tmp(), self.tmp()
        n = 1 if acc["type"] == "char" else self.isz
        thr = "_f0" if n == 1 else f"_f0 - {n - 1}"
        parts = [f"({a} := {addr})"]
        if value is not None:
            vt = self.tmp()
            parts.append(f"({vt} := {value})")
            args = [a, vt, str(at)]
        else:
            args = [a, str(delta), str(at)]
        if self.flush_set():
            parts.append(f"({self.flush_expr('0')} if {a} >= {thr} else 0)")
        parts.append(f"({r} := {helper}({', '.join(args)}))")
        parts.append(f"({self.reload_expr()} if {a} >= {thr} else 0)")
        return E(f"({', '.join(parts)}, {r})[-1]", "int", e.lo, e.hi)

    def add(self, e: E, delta: int) -> E:
        return E(f"{e.code} {'+' if delta > 0 else '-'} 1", "int", e.lo + delta, e.hi + delta)

    def x_Unary(self, n: ast.Unary) -> E:
        op = n.op
        if op in ("++", "--"):
            return self.incdec(n, 1 if op == "++" else -1)
        v = self.expr(n.operand)
        if op == "-":
            v = self.small(v)
            return E(f"(-{v.code})", "int", -v.hi, -v.lo, v.pure)
        if op == "!":
            return E(f"(not {self.truth(v)})", "bool", 0, 1, v.pure)
        return v

    def incdec(self, n: ast.Unary, delta: int) -> E:
        t = n.operand
        if isinstance(t, ast.Var):
            loc = self.an.locals.get(t.name)
            if loc is not None:
                old = (E(f"p_{t.name}", "int", self.imin, self.imax) if loc.array else
                       E(f"v_{t.name}", "int", *self.var_bounds(t.name), True, True))
                return self.store_local(t.name, loc, self.add(old, delta))
            shape = self.global_lvalue(t)
            if isinstance(shape, E):
                return shape
            _, typ, array, frozen, _, fixed = shape
            if array:
                return E(f"_incp(gs_{t.name}, {delta})", "int", self.imin, self.imax)
            return E(f"_inc{typ[0]}({fixed[3]}, {delta}, {n.end})", "int", *self.bounds(typ))
        if isinstance(t, ast.Index):
            acc = self.array(t)
            if acc is None:
                return E(self.index_error(t), "int", 0, 0)
            addr, helper = self.address(t, acc), f"_inc{acc['type'][0]}"
            return self.framed(acc, E(f"{helper}({addr}, {delta}, {n.end})", "int", *self.bounds(acc["type"])),
                               helper, addr, None, n.end, delta)
        return E(f"({self.expr(t).code}, _err(14, {t.end}))[-1]", "int", 0, 0)

    def x_BinOp(self, n: ast.BinOp) -> E:
        op = n.op
        a, b = self.expr(n.left), self.expr(n.right)
        pure = a.pure and b.pure
        if op in ("+", "-", "*"):
            a, b = self.small(a), self.small(b)
            if op == "+":
                lo, hi = a.lo + b.lo, a.hi + b.hi
            elif op == "-":
                lo, hi = a.lo - b.hi, a.hi - b.lo
            else:
                ps = (a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi)
                lo, hi = min(ps), max(ps)
            return E(f"({a.code} {op} {b.code})", "int", lo, hi, pure)
        a, b = self.wrap(a), self.wrap(b)
        if op in ("/", "%"):
            if b.lo == b.hi and b.lo > 0 and b.pure:  # a known divisor; an impure one (++x) must still run
                d = b.lo
                if op == "/":
                    lo, hi = -(-a.lo // d) if a.lo < 0 else a.lo // d, a.hi // d if a.hi >= 0 else -(-a.hi // d)
                else:
                    lo, hi = max(-(d - 1), min(a.lo, 0)), min(d - 1, max(a.hi, 0))
                if a.lo >= 0:  # Python's floor division is C's truncation here
                    code = f"({a.code} {'//' if op == '/' else '%'} {d})"
                else:
                    bind, x = self.named(a)
                    code = (f"({x} // {d} if {bind} >= 0 else -(-{x} // {d}))" if op == "/" else
                            f"({x} % {d} if {bind} >= 0 else -(-{x} % {d}))")
                return E(code, "int", min(lo, hi), max(lo, hi), a.pure)
            helper = "_div" if op == "/" else "_mod"
            return E(f"{helper}({a.code}, {b.code}, {n.end})", "int", self.imin, self.imax)
        return E(f"({a.code} {op} {b.code})", "bool", 0, 1, pure)
