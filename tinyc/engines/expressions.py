"""Expressions for the fast engine's code generator (reference section 6).

:class:`ExpressionGen` turns a tiny-c expression into a Python expression (:class:`~.genbase.E`): names,
constants, calls and machine calls, assignments, ``++``/``--``, operators, and array elements (how an
element is reached, range checked and stored).
"""

from __future__ import annotations

from .. import ast
from .arith import divide
from .frames import FrameGen
from .genbase import E
from .shapes import Access, VarShape


class ExpressionGen(FrameGen):
    """Python expressions for tiny-c expressions, array elements included."""

    # ---- arrays: where an element lives

    def location(self, acc: Access, i: str) -> tuple[str, str, str, str | None]:
        """(location code for index name ``i``, read template, write template, fault test template)."""
        if acc.view is not None:  # a view of exactly the elements: the index is the place
            cell = f"{acc.view}[{{0}}]"
            return i, cell, cell, None
        if acc.type == "char":
            base = acc.start
            fault = None if acc.safe else f"0 <= {{0}} < {self.size}"
            return f"{i} + {base}", "_B[{0}]", "_B[{0}]", fault  # the index first: it may move the pointer
        if acc.ptr is not None:
            loc = f"{self.isz} * {i} + {acc.ptr}"
            cell = f"_IV[{{0}} & {self.amask}][{{0}} >> {self.shift}]"
            return loc, cell, cell, f"0 <= {{0}} <= {self.limit(self.isz)}"
        fault = None if acc.safe else f"0 <= {{0}} < {acc.count}"
        return f"{acc.base} + {i}", f"{acc.words}[{{0}}]", f"{acc.words}[{{0}}]", fault

    def element_read(self, node: ast.Index, acc: Access) -> E:
        at = node.end
        typ = acc.type
        lo, hi = self.steady.get(node.name, self.bounds(typ)) if acc.safe else self.bounds(typ)
        if acc.safe:
            fused = self.divided_index(node.index, acc, at)
            if fused is not None:
                loc, read, _, _ = self.location(acc, fused)
                return E(read.format(loc), "int", lo, hi)
        index = self.wrap(self.expr(node.index))
        if acc.safe and not self.needs_check(acc, index):
            loc, read, _, _ = self.location(acc, index.code)
            return E(read.format(loc), "int", lo, hi)
        if acc.safe:
            bind, i = self.named(index)
            chk = f"({i} if {self.in_range(acc, index, bind)} else _err(6, {at}))"
            loc, read, _, _ = self.location(acc, chk)
            self.checked(acc, node)
            return E(read.format(loc), "int", lo, hi)
        conds = []
        first = index.code  # no range test: the index is used once, where it is computed
        if self.needs_check(acc, index):
            bind, first = self.named(index)
            conds.append(self.in_range(acc, index, bind))
            self.checked(acc, node)
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
        assert fault is not None  # only a safe array's place cannot fault
        conds.append(fault.format(f"({a} := {loc})"))
        return E(f"({read.format(a)} if {' and '.join(conds)} else _err(6, {at}))", "int", lo, hi)

    def divided_index(self, x, acc: Access, at: int) -> str | None:
        """A subscript ``y/d`` or ``y%d`` (constant d > 0) with its range test folded into the C division:
        for y in 0..d*L-1 (``/``) or y >= 0 (``%``) Python's ``//``/``%`` agree with C and the result is in
        range; any other y takes the careful path (``_cdiv``/``_cmod`` then the range test)."""
        if not (self.opts.divided_index and isinstance(x, ast.BinOp) and x.op in ("/", "%")
                and isinstance(acc.length, int)):
            return None
        de = self.wrap(self.expr(x.right)) if isinstance(x.right, ast.Number) else None
        if de is None or de.lo != de.hi or de.lo <= 0:
            return None
        d, L = de.lo, acc.length
        if x.op == "%" and d > L:
            return None
        y = self.wrap(self.expr(x.left))
        if y.lo >= 0 and (x.op == "%" or y.hi < d * L):
            return f"{y.code} {'//' if x.op == '/' else '%'} {d}"
        bind, v = self.named(y)
        if x.op == "/":
            return f"({v} // {d} if 0 <= {bind} < {d * L} else _cdiv({v}, {d}, {L}, {at}))"
        return f"({v} % {d} if {bind} >= 0 else _cmod({v}, {d}, {L}, {at}))"

    def address(self, node: ast.Index, acc: Access) -> str:
        """Code for the byte address of an element (range checked at the Index end), for the helpers."""
        index = self.wrap(self.expr(node.index))
        bind, i = self.named(index)
        base = acc.start
        scale = "" if acc.type == "char" else f"{self.isz} * "
        if self.needs_check(acc, index):
            return f"({scale}{i} + {base} if {self.in_range(acc, index, bind)} else _err(6, {node.end}))"
        return f"{scale}{bind} + {base}"  # the index runs first (ga((ga=48)) subscripts the new pointer)

    # ---- expressions (section 6)

    def expr(self, n) -> E:
        return self._visit[n.__class__](self, n)

    def visit_Number(self, n) -> E:
        v = ((n.value - self.imin) & ((1 << self.bits) - 1)) + self.imin
        return E(str(v) if v >= 0 else f"({v})", "int", v, v, True, True)

    def visit_CharLit(self, n) -> E:
        return E(str(n.value) if n.value >= 0 else f"({n.value})", "int", n.value, n.value, True, True)

    def visit_String(self, n) -> E:
        return E(f"_S({n.pos + 1 + n.length}, {n.pos + 1})", "int", n.pos + 1, n.pos + 1)

    def visit_Var(self, n: ast.Var) -> E:
        loc = self.an.locals.get(n.name)
        if loc is not None:
            if loc.array:
                return E(self.pointer_int(f"p_{n.name}"), "int", self.imin, self.imax, True, True)
            return E(f"v_{n.name}", "int", *self.var_bounds(n.name), True, True)
        shape = self.resolve(n.name)
        if shape is None:
            return E(f"_err(26, {n.end})", "int", self.imin, self.imax)
        if shape.kind == "func":
            return self.call(n.name, shape.nparams, [], n)
        typ, fixed = shape.type, shape.place
        if shape.array:
            if fixed is not None:  # a frozen array
                a = ((fixed.address - self.imin) & ((1 << self.bits) - 1)) + self.imin  # its int (item 21)
                return E(str(a), "int", a, a, True, True)
            return E(self.pointer_int(f"gs_{n.name}.address"), "int", self.imin, self.imax, True)
        assert fixed is not None  # a scalar's place is constant
        lo, hi = fixed.bounds or self.bounds(typ)  # a global that only holds constants has bounds
        if n.name in self.hoisted:
            lo, hi = self.refined.get(n.name, (lo, hi))
            return E(self.hoisted[n.name], "int", lo, hi, True, True)
        return E(self.gcell(typ, fixed), "int", lo, hi, True)

    def pointer_int(self, code: str) -> str:
        """The int value of an array pointer (an address): with 16-bit ints the address is unsigned and
        its int the signed 16-bit number (section 14 item 21); with 32-bit ints the same number."""
        return f"((({code}) ^ 32768) - 32768)" if self.bits == 16 else code

    def pointer_store(self, code: str) -> str:
        """An int (wrapped) made an address, as a pointer holds it (section 14 item 21)."""
        return f"(({code}) & 65535)" if self.bits == 16 else code

    def visit_Index(self, n: ast.Index) -> E:
        acc = self.array(n)
        if acc is not None:
            return self.element_read(n, acc)
        err = self.index_error(n)
        return E(err, "int", self.imin, self.imax)

    def index_error(self, n: ast.Index) -> str:
        """The error of subscripting a name that is not an array (before the index is evaluated)."""
        loc = self.an.locals.get(n.name)
        if loc is not None:
            return f"_err(7, {n.paren})"
        shape = self.resolve(n.name)
        if shape is None:
            return f"_err(26, {n.name_end})"
        if shape.kind == "func":
            return f"_err(14, {n.end})"
        return f"_err(7, {n.paren})"

    def visit_Call(self, n: ast.Call) -> E:
        loc = self.an.locals.get(n.name)
        shape = None if loc is not None else self.resolve(n.name)
        if loc is None and shape is None:
            return E(f"_err(26, {n.name_end})", "int", self.imin, self.imax)
        if loc is not None or shape is None or shape.kind != "func":
            args = [self.wrap(self.expr(a)).code for a in n.args]
            return E(f"({', '.join(args + [f'_err(26, {n.name_end})'])})[-1]", "int", 0, 0)
        return self.call(n.name, shape.nparams, n.args, n)

    def call(self, name: str, nparams: int, args: list, n) -> E:
        codes = [self.wrap(self.expr(a)).code for a in args]
        if nparams is not None and len(args) != nparams:  # None: a function whose call is an error
            at = n.after if isinstance(n, ast.Call) else n.end
            return E(f"({', '.join(codes + [f'_err(21, {at})'])})[-1]", "int", 0, 0)
        if self.unchecked and name == self.fname:  # within a proven depth (recursion.py)
            return E(f"u_{name}({', '.join(codes)})", "int", self.imin, self.imax)
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

    def visit_MachineCall(self, n: ast.MachineCall) -> E:
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

    def visit_Assign(self, n: ast.Assign) -> E:
        t = n.target
        if isinstance(t, ast.Var):
            loc = self.an.locals.get(t.name)
            if loc is not None:
                return self.store_local(t.name, loc, self.expr(n.value))
            shape = self.global_lvalue(t)
            if isinstance(shape, E):
                return shape
            v = self.expr(n.value)
            if shape.array:
                store = f"_setp(gs_{t.name}, {self.pointer_store(self.wrap(v).code)})"
                return E(self.pointer_int(store), "int", self.imin, self.imax)
            fixed = shape.place
            assert fixed is not None  # a scalar's place is constant
            if shape.type == "int":
                return E(f"_sts(_IV{fixed.align}, {fixed.word}, {self.wrap(v).code})", "int", self.imin, self.imax)
            return E(f"_stb({fixed.address}, {self.wrapc(v).code}, {n.end})", "int", -128, 127)
        if isinstance(t, ast.Index):
            acc = self.array(t)
            if acc is None:
                return E(self.index_error(t), "int", 0, 0)
            addr = self.address(t, acc)
            v = self.expr(n.value)
            helper, v = ("_sti", self.wrap(v)) if acc.type == "int" else ("_stb", self.wrapc(v))
            e = E(f"{helper}({addr}, {v.code}, {n.end})", "int", *self.bounds(acc.type))
            return self.framed(acc, e, helper, addr, v.code, n.end)
        # not an lvalue: evaluate it, then error 14
        return E(f"({self.expr(t).code}, _err(14, {t.end}))[-1]", "int", 0, 0)

    def store_local(self, name: str, loc, v: E) -> E:
        """Assign ``v`` to a local: an array's pointer (wrapped) or a scalar (wrapped to its type, its
        bounds then known)."""
        if loc.array:
            store = f"(p_{name} := {self.pointer_store(self.wrap(v).code)})"
            return E(self.pointer_int(store), "int", self.imin, self.imax)
        v = self.wrap(v) if loc.type == "int" else self.wrapc(v)
        self.set_bounds(name, v.lo, v.hi)
        return E(f"(v_{name} := {v.code})", "int", v.lo, v.hi)

    def global_lvalue(self, t: ast.Var) -> VarShape | E:
        """The shape of the global an lvalue names, or the E that raises its error: 26 when no level
        has the name, 14 when it names a function."""
        shape = self.resolve(t.name)
        if shape is None:
            return E(f"_err(26, {t.end})", "int", 0, 0)
        if shape.kind == "func":
            return E(f"_err(14, {t.end})", "int", 0, 0)
        return shape

    def framed(self, acc: Access, e: E, helper: str, addr: str, value: str | None, at: int, delta: int = 0) -> E:
        """A store (``value``) or ++/-- (``delta``) through an unchecked place, as an expression: when its
        address may be in this frame the modified variables are flushed before it and every scalar is
        reloaded after it."""
        if acc.safe or not self.bound:
            return e
        a, r = self.tmp(), self.tmp()
        n = 1 if acc.type == "char" else self.isz
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

    def visit_Unary(self, n: ast.Unary) -> E:
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
                old = (E(self.pointer_int(f"p_{t.name}"), "int", self.imin, self.imax) if loc.array else
                       E(f"v_{t.name}", "int", *self.var_bounds(t.name), True, True))
                return self.store_local(t.name, loc, self.add(old, delta))
            shape = self.global_lvalue(t)
            if isinstance(shape, E):
                return shape
            if shape.array:
                return E(self.pointer_int(f"_incp(gs_{t.name}, {delta})"), "int", self.imin, self.imax)
            assert shape.place is not None  # a scalar's place is constant
            return E(f"_inc{shape.type[0]}({shape.place.address}, {delta}, {n.end})", "int", *self.bounds(shape.type))
        if isinstance(t, ast.Index):
            acc = self.array(t)
            if acc is None:
                return E(self.index_error(t), "int", 0, 0)
            addr, helper = self.address(t, acc), f"_inc{acc.type[0]}"
            return self.framed(acc, E(f"{helper}({addr}, {delta}, {n.end})", "int", *self.bounds(acc.type)),
                               helper, addr, None, n.end, delta)
        return E(f"({self.expr(t).code}, _err(14, {t.end}))[-1]", "int", 0, 0)

    def visit_BinOp(self, n: ast.BinOp) -> E:
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
                if a.name and a.code == b.code:  # a square: one name read twice, nothing between
                    lo = max(lo, 0)
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
            return divide(self, op, a, b, n.end)
        return E(f"({a.code} {op} {b.code})", "bool", 0, 1, pure)
