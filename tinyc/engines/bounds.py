"""Value bounds in the fast engine's code generator: where a wrap or a range test can be left out.

Each generated expression carries the bounds of its value (:class:`~.genbase.E`); the bounds of scalar
locals are followed along the code (``self.known``), refined by conditions, joined where paths meet and
taken to a fixed point at loop heads.  :class:`BoundsGen` makes the wrap decisions (``wrap``, ``truth``)
and the range reasoning of subscripts (``needs_check``, ``in_range``) from them.
"""

from __future__ import annotations

from .. import ast
from .shapes import Access
from .analysis import assigned_names, walk
from .genbase import E
from .scope import ScopeGen


def join(a: dict | None, b: dict | None) -> dict | None:
    """Bounds that hold after either of two paths (None: a path that cannot get here)."""
    if a is None or b is None:
        return b if a is None else a
    return {k: (min(v[0], b[k][0]), max(v[1], b[k][1])) for k, v in a.items() if k in b}


class BoundsGen(ScopeGen):
    """Wrap decisions and the bounds of values and scalar locals along the code."""

    # ---- value conversions: wrap only where the bounds do not settle it

    def wrap(self, e: E) -> E:
        """``e`` as a wrapped int (not a bool)."""
        if e.kind == "bool":
            return E(f"(+{e.code})" if not e.code.startswith("(") else f"(+{e.code})", "int", 0, 1, e.pure)
        if self.imin <= e.lo and e.hi <= self.imax:
            return e
        # a range test is cheaper than wrapping arithmetic, and almost always true; only the side the
        # bounds do not settle
        bind, x = self.named(e)
        test = (f"{bind} <= {self.imax}" if e.lo >= self.imin else f"{bind} >= {self.imin}" if e.hi <= self.imax
                else f"{self.imin} <= {bind} <= {self.imax}")
        return E(f"({x} if {test} else _w({x}))", "int", self.imin, self.imax, e.pure)

    def wrapc(self, e: E) -> E:
        """``e`` truncated to a signed char (a char store)."""
        if e.kind == "int" and -128 <= e.lo and e.hi <= 127:
            return e
        if e.kind == "bool":
            return E(f"(+{e.code})", "int", 0, 1, e.pure)
        return E(f"(((({e.code}) + 128) & 255) - 128)", "int", -128, 127, e.pure)

    def truth(self, e: E) -> str:
        if e.kind == "bool" or (self.imin <= e.lo and e.hi <= self.imax):
            return e.code
        return f"(({e.code}) & {(1 << self.bits) - 1:#x})"

    def small(self, e: E) -> E:
        """Keep intermediate ints small: wrap when the bounds pass 2**62."""
        if e.lo < -(1 << 62) or e.hi > (1 << 62):
            return self.wrap(e)
        return e

    def named(self, e: E) -> tuple[str, str]:
        """(code that binds e to a reusable name, that name): no temporary for a plain name."""
        if e.name:
            return e.code, e.code
        t = self.tmp()
        return f"({t} := {e.code})", t

    def reset_bounds(self) -> None:
        for k in self.bound:
            self.set_bounds(k, *self.bounds(self.an.locals[k].type))

    # ---- bounds of scalar locals along the code (``self.known``: name -> (lo, hi); None: unreachable)

    def var_bounds(self, name: str) -> tuple[int, int]:
        k = self.known
        if k is not None and name in k and self.opts.bounds:
            return k[name]
        return self.bounds(self.an.locals[name].type)

    def set_bounds(self, name: str, lo: int, hi: int) -> None:
        if self.known is not None:
            self.known = dict(self.known)
            self.known[name] = (lo, hi)

    FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
    NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}

    def refine(self, state, cond, truth: bool):
        """``state`` knowing that ``cond`` (already evaluated) was ``truth``; None when that cannot be."""
        if state is None or cond is None or not self.opts.bounds:
            return state
        if isinstance(cond, ast.Unary) and cond.op == "!":
            return self.refine(state, cond.operand, not truth)
        if any(isinstance(n, ast.Assign) or (isinstance(n, ast.Unary) and n.op in ("++", "--"))
               for n in walk(cond)) or self.may_reload(cond):
            return state  # the operands may have changed while the condition ran
        if isinstance(cond, ast.BinOp) and cond.op in ("*", "+") and 0 < self.flag_max(cond) <= self.imax:
            # and/or of 0/1 conditions (both sides always run): a product of such values is nonzero iff
            # both are, a sum iff either is (their values are small and never negative, so never wrap)
            a, b = cond.left, cond.right
            if (cond.op == "*") == truth:  # both sides hold (and: true; or: false)
                return self.refine(self.refine(state, a, truth), b, truth)
            return join(self.refine(state, a, truth), self.refine(state, b, truth))
        if isinstance(cond, ast.Var):
            cond = ast.BinOp(cond.pos, cond.end, "!=", cond, ast.Number(cond.pos, cond.end, 0))
        if not (isinstance(cond, ast.BinOp) and cond.op in self.FLIP):
            return state
        op = cond.op if truth else self.NEGATE[cond.op]
        out = dict(state)
        for x, other, o in ((cond.left, cond.right, op), (cond.right, cond.left, self.FLIP[op])):
            if not isinstance(x, ast.Var) or self.static_bounds(state, x) is None:
                continue
            ob = self.static_bounds(state, other)
            if ob is None:
                continue
            lo, hi = out.get(x.name, self.bounds(self.an.locals[x.name].type))
            if o == "<":
                hi = min(hi, ob[1] - 1)
            elif o == "<=":
                hi = min(hi, ob[1])
            elif o == ">":
                lo = max(lo, ob[0] + 1)
            elif o == ">=":
                lo = max(lo, ob[0])
            elif o == "==":
                lo, hi = max(lo, ob[0]), min(hi, ob[1])
            elif ob[0] == ob[1]:  # != a constant: trims an end
                lo, hi = lo + (lo == ob[0]), hi - (hi == ob[0])
            if lo > hi:
                return None
            out[x.name] = (lo, hi)
        return out

    def flag_max(self, e) -> int:
        """The largest value of a condition built of relations and ``!`` with ``*`` and ``+`` (each part
        0 or 1, the whole never negative); 0 when ``e`` is not such a condition."""
        if isinstance(e, ast.BinOp) and e.op in self.FLIP or isinstance(e, ast.Unary) and e.op == "!":
            return 1
        if isinstance(e, ast.BinOp) and e.op in ("*", "+"):
            a, b = self.flag_max(e.left), self.flag_max(e.right)
            if a and b:
                return a * b if e.op == "*" else a + b
        return 0

    def dry(self, fn):
        """Run ``fn`` (code generation) for its effect on the bounds only; its output is dropped."""
        saved = len(self.lines), dict(self.linemap), len(self.nodes), self.ntemp, self.hoisted
        self.dry_depth += 1
        try:
            fn()
            return self.known
        finally:
            self.dry_depth -= 1
            n, self.linemap, k, self.ntemp, self.hoisted = saved
            del self.lines[n:]
            del self.nodes[k:]

    def loop_head(self, node, entry, one_pass):
        """The bounds at a loop's head: a fixed point of ``one_pass`` (head -> state at the back edge),
        widened to the type's range where a bound keeps moving."""
        if entry is None or not self.opts.bounds:
            return entry
        changed = assigned_names(node)
        if self.may_reload(node):
            changed = set(self.an.locals)
        fallback = {k: v for k, v in entry.items() if k not in changed}
        if self.dry_depth > 2:
            return fallback
        head = entry
        for step in range(8):
            self.known = head
            back = self.dry(one_pass)
            new = join(head, back)
            assert new is not None  # head is not None, so neither is the join
            if new == head:
                return head
            if step >= 1:
                for k, (lo, hi) in new.items():
                    tlo, thi = self.bounds(self.an.locals[k].type)
                    olo, ohi = head.get(k, (tlo, thi))
                    new[k] = (tlo if lo < olo else lo, thi if hi > ohi else hi)
            head = new
        return fallback

    # ---- the range of a type, and of a subscript

    def in_range(self, acc: Access, index: E, bind: str) -> str:
        """The range test of a subscript (only the side its bounds do not settle)."""
        L = acc.length
        if isinstance(L, int) and index.lo >= 0:
            return f"{bind} < {L}"
        if isinstance(L, int) and index.hi < L:
            return f"{bind} >= 0"
        return f"0 <= {bind} < {L}"

    def checked(self, acc: Access, node: ast.Index) -> None:
        """After a subscript's range test passed: a plain local index now lies within the array."""
        x = node.index
        if isinstance(x, ast.Var) and isinstance(acc.length, int):
            loc = self.an.locals.get(x.name)
            if loc is not None and not loc.array:
                lo, hi = self.var_bounds(x.name)
                self.set_bounds(x.name, max(lo, 0), min(hi, acc.length - 1))

    def needs_check(self, acc: Access, index: E) -> bool:
        """Whether a subscript needs its range check: not when its bounds lie inside a known length."""
        if not acc.checked:
            return False
        return not (isinstance(acc.length, int) and 0 <= index.lo and index.hi < acc.length)

    def walk_bounds(self, state: dict | None) -> dict | None:
        """``state`` (a loop head) knowing that the index of the walk being generated lies between its
        start and its stop (``walk_loop``): the head's widening loses that."""
        w = self.walking
        if w is None or state is None:
            return state
        lo, hi = state.get(w.k, self.bounds("int"))
        return {**state, w.k: (max(lo, w.klo), min(hi, w.kmax))}
