"""Statements for the fast engine's code generator (reference section 5).

:class:`StatementGen` writes the Python lines of a tiny-c statement: ``if``, ``while``, ``for`` (counted
loops as Python ranges: :mod:`.ranges`), ``break``, ``return``, and expression statements whose stores and increments
are written inline; loop heads get their bounds from :mod:`.bounds`.
"""

from __future__ import annotations

from .. import ast
from .analysis import Unsupported, walk
from .bounds import join
from . import loopplans
from .genbase import E
from .loopplans import ValueVersion
from .shapes import Access
from .loopopt import LoopOptGen


class StatementGen(LoopOptGen):
    """Python lines for tiny-c statements."""

    # ---- statements (section 5)

    def end_scope(self, names: list[str], ind: int) -> None:
        """The end of a block that declared ``names``: no code names them after it (analysis._scoped), but
        their cells stay in the frame, so they are written once more and leave the flushed set; the next
        generation of the block (a value version of an ``if``) binds them again."""
        for k in self.flush_set():
            if k in names:
                self.emit(ind, f"{self.cell(k)} = v_{k}")
        self.bound[:] = [k for k in self.bound if k not in names]
        for k in names:
            self.an.locals[k].bound = False

    def stmt(self, s, ind: int) -> None:
        """The lines of statement ``s`` at indentation ``ind``: its ``visit_<Node>`` method writes them."""
        if not isinstance(s, (ast.Block, ast.Null)):
            self.comment(ind, s)
        self._visit[s.__class__](self, s, ind)

    def visit_Block(self, s: ast.Block, ind: int) -> None:
        for x in s.body:
            self.stmt(x, ind)
        scoped = self.an.scoped.get(id(s.body))
        if scoped:
            self.end_scope(scoped, ind)

    def visit_Decl(self, s: ast.Decl, ind: int) -> None:
        self.decl(s, ind)

    def visit_If(self, s: ast.If, ind: int) -> None:
        version = self.value_version(s)
        if version is None:
            self.if_stmt(s, ind)
            return
        y, lo, hi, test = version
        entry = self.known
        ylo, yhi = self.var_bounds(y)
        self.emit(ind, f"if {test}:  # {y} within {lo}..{hi}: a version with fewer tests")
        self.valued += 1
        try:
            self.set_bounds(y, max(lo, ylo), min(hi, yhi))
            self.if_stmt(s, ind + 1)
        finally:
            self.valued -= 1
        fast, self.known = self.known, entry
        self.emit(ind, "else:")
        self.if_stmt(s, ind + 1)
        self.known = join(fast, self.known)

    def visit_While(self, s: ast.While, ind: int) -> None:
        self.loop_stmt(s, s.cond, s.body, None, ind)

    def visit_For(self, s: ast.For, ind: int) -> None:
        if s.init is not None:
            self.exprstmt(s.init, ind)
        self.loop_stmt(s, s.cond, s.body, s.step, ind)

    def visit_Break(self, s: ast.Break, ind: int) -> None:
        if not self.breaks:
            self.flush_stmts(ind)
        self.emit(ind, "break" if self.breaks else "return 0", s.pos)
        if self.breaks and self.known is not None:
            self.breaks[-1].append(self.known)
        self.known = None

    def visit_Return(self, s: ast.Return, ind: int) -> None:
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

    def visit_ExprStmt(self, s: ast.ExprStmt, ind: int) -> None:
        self.exprstmt(s.expr, ind)

    def visit_Null(self, s: ast.Null, ind: int) -> None:
        pass

    def visit_ErrorStmt(self, s: ast.ErrorStmt, ind: int) -> None:
        """A statement that did not parse: its error when it runs."""
        if s.prefix:
            raise Unsupported("a statement that did not parse evaluates what it had parsed")
        self.emit(ind, f"_err({s.code}, {s.address})", s.pos)
        self.known = None

    def if_stmt(self, s: ast.If, ind: int) -> None:
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

    valued = 0  # value versions being generated (one inside another is not made)

    def value_version(self, s: ast.If) -> ValueVersion | None:
        """The value version of ``s`` (:func:`.loopplans.value_version`), where one may be made: not
        inside another, not while bounds are worked out, not for a statement too large to write twice."""
        if (not self.opts.value_versions or self.dry_depth or self.valued or self.known is None
                or sum(1 for _ in walk(s)) > self.VERSION_NODES):
            return None
        return loopplans.value_version(s, self, self.var_bounds)

    def loop_stmt(self, s, cond, body, step, ind: int) -> None:
        """``while`` (and ``for`` without a counted range), as written (walks.py adds scans and walks)."""
        self.loop_code(s, cond, body, step, ind)

    def loop_code(self, s, cond, body, step, ind: int) -> None:
        """The ``while`` of a loop (and what is evaluated once before it), its body and step."""
        entry = self.known

        def one_pass():
            c = None if cond is None else self.expr(cond)
            self.known = self.refine(self.known, cond, True)
            self.breaks.append([])
            self.suite(body, ind + 1)
            if step is not None:
                self.exprstmt(step, ind + 1)
            self.breaks.pop()
            return c
        outer = self.enter_loop(s, [cond, body, step], ind)
        head = self.walk_bounds(self.loop_head(s, entry, one_pass))
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
        self.hoisted, self.invariant = outer

    def enter_loop(self, s, parts: list, ind: int) -> tuple[dict, dict]:
        """Before a loop: read the global scalars it cannot change once, and evaluate its invariant
        expressions once (``parts``: the code run on every iteration); returns what to restore after it."""
        outer = self.hoisted, self.invariant
        self.hoisted = dict(self.hoisted)
        for name, cell in (self.hoistable(s) if self.opts.hoist else {}).items():
            t = self.tmp()
            self.emit(ind, f"{t} = {cell}  # not changed by the loop", s.pos)
            self.hoisted[name] = t
        self.hoist_invariants(s, parts, ind)
        return outer

    def suite(self, s, ind: int) -> None:
        n = len(self.lines)
        self.stmt(s, ind)
        if all(ln.lstrip().startswith("#") for ln in self.lines[n:]):
            self.emit(ind, "pass")

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
        """A store (``value``) or increment (``delta``) as statements; False if it needs the expression form."""
        if isinstance(target, ast.Var):
            loc = self.an.locals.get(target.name)
            if loc is not None and not loc.array:
                if value is None and loc.type == "int":
                    self.step_local(loc.name, node, ind, delta)
                else:
                    self.store_scalar(loc.name, loc.type, node, ind, value, delta)
                return True
            shape = self.resolve(target.name) if loc is None else None
            if shape is None or shape.kind != "var" or shape.array:
                return False
            cell = self.gcell(shape.type, shape.place)
            self.emit(ind, f"{cell} = {self.stored(shape.type, cell, value, delta).code}", node.pos)
            return True
        if not isinstance(target, ast.Index):
            return False
        acc = self.array(target)
        if acc is None:
            return False
        self.store_element(target, acc, node, ind, value, delta)
        return True

    def stored(self, typ: str, cell: str, value, delta: int, bounds: tuple[int, int] | None = None) -> E:
        """The value a store writes, wrapped to ``typ``: ``value``'s, or the ``cell`` read plus ``delta``."""
        v = self.expr(value) if value is not None else self.add(E(cell, "int", *(bounds or self.bounds(typ))), delta)
        return self.wrap(v) if typ == "int" else self.wrapc(v)

    def step_local(self, name: str, node, ind: int, delta: int) -> None:
        """``++x``/``--x`` of an int local: a wrap test only where its bounds reach the end of the range."""
        lo, hi = self.var_bounds(name)
        edge = self.imax if delta > 0 else self.imin
        self.emit(ind, f"v_{name} {'+' if delta > 0 else '-'}= 1", node.pos)
        w = self.walking
        if w is not None and id(node) == w.inc:  # a walk's ++k: k stays below its stop
            self.set_bounds(name, min(lo + 1, w.kmax), min(hi + 1, w.kmax))
        elif (hi if delta > 0 else lo) == edge:
            self.emit(ind, f"if v_{name} == {edge + delta}: v_{name} = {edge - delta * ((1 << self.bits) - 1)}")
            self.set_bounds(name, *self.bounds("int"))
        else:
            self.set_bounds(name, lo + delta, hi + delta)

    def store_scalar(self, name: str, typ: str, node, ind: int, value, delta: int) -> None:
        """A store into a scalar local (or ``++``/``--`` of a char local); its bounds are then known."""
        v = self.stored(typ, f"v_{name}", value, delta, self.var_bounds(name))
        self.emit(ind, f"v_{name} = {v.code}", node.pos)
        self.set_bounds(name, v.lo, v.hi)

    def store_element(self, target: ast.Index, acc: Access, node, ind: int, value, delta: int) -> None:
        """A store into (or ``++``/``--`` of) an element, as statements: the index first, its range test,
        the value, the fault test of an unchecked place, then the store (the reference's order)."""
        index = self.wrap(self.expr(target.index))
        check = self.needs_check(acc, index)
        if value is not None and index.pure and acc.safe and not check and self.pure_store(acc, index, node, ind, value):
            return
        # the index is taken before the value runs: a value that may change it (gb(v)=(v=3), a call that
        # changes v through memory) must not move the store
        fixed = index.name and (value is None or not self.changes_locals(value))
        i = index.code if fixed else self.tmp()
        if not fixed:
            self.emit(ind, f"{i} = {index.code}", node.pos)
        if check:
            self.emit(ind, f"if not {self.in_range(acc, index, i)}: _err(6, {target.end})", node.pos)
            self.checked(acc, target)
        where, read, write, fault = self.location(acc, i)
        if acc.safe:  # a constant base: the element's place needs no temporary
            place = where
        else:
            place = self.tmp()
            self.emit(ind, f"{place} = {where}")
        v = self.element_value(acc, value, fault, node, ind)
        framed = fault and self.bound and not acc.safe
        if framed:  # the place may be in this frame: flush before, reload after (see ``framed``)
            n = 1 if acc.type == "char" else self.isz
            test = f"0 <= {place} {'< _f0' if n == 1 else f'<= _f0 - {n}'}"
            self.emit(ind, f"if not {test}: _wsl({place}, {n}, {node.end}, {self.flush_args()})")
        elif fault:
            self.emit(ind, f"if not {fault.format(place)}: _err(6, {node.end})")
        if v is None:
            v = self.stored(acc.type, read.format(place), None, delta)
        self.emit(ind, f"{write.format(place)} = {v.code}", node.pos)
        if framed:
            self.emit(ind, f"if {place} >= {'_f0' if acc.type == 'char' else f'_f0 - {self.isz - 1}'}:")
            for k in self.bound:
                self.emit(ind + 1, f"v_{k} = {self.cell(k)}")
            self.reset_bounds()

    def pure_store(self, acc: Access, index: E, node, ind: int, value) -> bool:
        """A store of a pure value at a pure, in-range index of a safe array: one Python store (True);
        False, with nothing written and the generator's state as it was, when the value is not pure."""
        known, ntemp = self.known, self.ntemp
        v = self.expr(value)
        if not v.pure:
            self.known, self.ntemp = known, ntemp  # the value is generated again, in its place
            return False
        v = self.wrap(v) if acc.type == "int" else self.wrapc(v)
        where, _, write, _ = self.location(acc, index.code)
        self.emit(ind, f"{write.format(where)} = {v.code}", node.pos)
        return True

    def element_value(self, acc: Access, value, fault: str | None, node, ind: int) -> E | None:
        """The value stored into an element (None for ``++``/``--``), in a temporary when the place may
        fault and the value has an effect: it runs before the store can fail, as in the reference."""
        if value is None:
            return None
        v = self.expr(value)
        v = self.wrap(v) if acc.type == "int" else self.wrapc(v)
        if fault and not v.pure:
            vt = self.tmp()
            self.emit(ind, f"{vt} = {v.code}", node.pos)
            v = E(vt, "int", v.lo, v.hi, True, True)
        return v
