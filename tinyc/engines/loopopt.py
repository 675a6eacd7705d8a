"""Expression-level loop optimisations of the fast engine's code generator: loop-invariant expressions
and element reads an expression repeats.

:class:`LoopOptGen` sits between the expressions and the statements.  On entry to a ``while`` or ``for``
loop it finds the largest subexpressions whose value cannot change while the loop runs and evaluates each
once, into a temporary, where the loop is entered; :meth:`expr` then gives that temporary wherever the
expression appears in the loop.  Only expressions the generator knows to be pure (no side effect, cannot
fail) are hoisted, so evaluating one where the loop runs zero times changes nothing.

Within one expression, a second read of the same element reuses the first one's value (``element``);
in a walk's fast version (:mod:`.walks`) the walk's reads are unchecked.
"""

from __future__ import annotations

from .. import ast
from .analysis import assigned_names
from .expressions import ExpressionGen
from .genbase import E


class LoopOptGen(ExpressionGen):
    """Loop-invariant code motion and repeated reads (see the module docstring)."""

    avail: dict | None = None    # in an operator expression: read key -> its value's name (None: not yet)

    def expr(self, n) -> E:
        inv = self.invariant.get(id(n))
        if inv is not None:
            return self.use_invariant(n, inv)
        if isinstance(n, ast.Index):
            return self.element(n)
        if isinstance(n, ast.BinOp) and self.avail is None and self.opts.reuse_reads:  # the outermost operator: a scope of reuse
            self.avail = dict.fromkeys(self.repeated_reads(n))
            try:
                return super().expr(n)
            finally:
                self.avail = None
        e = super().expr(n)
        if self.avail and self.has_effect(n):  # what was read before may differ after it
            self.avail = dict.fromkeys(self.avail)
        return e

    # ---- an element read the same expression made before: its value again

    def element(self, n: ast.Index) -> E:
        """An element read: unchecked in a walk's fast version (``s(k)``), the value of an identical
        read earlier in the same expression when nothing ran between them that could change a local or
        memory (the earlier read succeeded, or this one would not run: tiny-c evaluates every operand,
        left to right, and the generated code keeps that order), else the plain read."""
        w = self.walking
        if w is not None and n.name == w.name and isinstance(n.index, ast.Var) and n.index.name == w.k:
            return E(w.read, "int", -128, 127, True)
        key = self.read_key(n) if self.avail else None
        if key is None or self.avail is None or key not in self.avail:
            return super().expr(n)
        hit = self.avail[key]
        if hit is not None:
            return hit
        e = super().expr(n)
        t = self.tmp()
        self.avail[key] = E(t, e.kind, e.lo, e.hi, True, True)
        return E(f"({t} := {e.code})", e.kind, e.lo, e.hi)  # impure: code that drops pure parts keeps it

    def use_invariant(self, n, inv: E) -> E:
        """The hoisted value of ``n``, with the tighter of its bounds at entry and here (the conditions
        inside the loop may narrow its operands; the code generated here is dropped)."""
        here = super().expr(n)
        lo, hi = inv.lo, inv.hi
        if here.kind == "bool" or (self.imin <= here.lo and here.hi <= self.imax):
            lo, hi = max(lo, here.lo), min(hi, here.hi)
        if lo > hi:  # code that cannot run (contradictory bounds): keep the entry's
            lo, hi = inv.lo, inv.hi
        if lo == hi and inv.kind == "int":
            return E(str(lo) if lo >= 0 else f"({lo})", "int", lo, lo, True, True)
        return E(inv.code, inv.kind, lo, hi, True, True)

    # ---- which expressions a loop leaves alone

    def invariant_in(self, n, changed: set[str], stable: bool) -> bool:
        """Whether the value of expression ``n`` is the same all through a loop: it is built of constants,
        scalar locals the loop never assigns (and that nothing in it can rewrite through memory:
        ``stable``), global scalars read once before the loop (``self.hoisted``), and operators."""
        if isinstance(n, (ast.Number, ast.CharLit)):
            return True
        if isinstance(n, ast.Var):
            loc = self.an.locals.get(n.name)
            if loc is not None:
                return stable and not loc.array and n.name not in changed and n.name in self.bound
            return n.name in self.hoisted
        if isinstance(n, ast.Unary):
            return n.op in ("-", "+", "!") and self.invariant_in(n.operand, changed, stable)
        if isinstance(n, ast.BinOp):
            return self.invariant_in(n.left, changed, stable) and self.invariant_in(n.right, changed, stable)
        return False

    def hoist_invariants(self, loop, parts: list, ind: int) -> None:
        """Emit, at the loop's entry, a temporary for each largest pure invariant subexpression of
        ``parts`` (the code run on every iteration) and map the expression to it."""
        if self.dry_depth or self.known is None or not self.opts.invariants:
            return
        changed = assigned_names(loop)  # a counted for's variable too (its init and step assign it)
        stable = not self.may_reload(loop)  # no store, call or MC that may rewrite a local's cell
        self.invariant = dict(self.invariant)
        stack = [p for p in reversed(parts) if p is not None]
        while stack:
            n = stack.pop()
            if isinstance(n, list):
                stack.extend(reversed(n))
                continue
            if id(n) in self.invariant:
                continue
            if isinstance(n, (ast.BinOp, ast.Unary)) and self.invariant_in(n, changed, stable) \
                    and self.hoist_one(n, ind, loop.pos):
                continue
            for f in n.__slots__:
                v = getattr(n, f, None)
                if isinstance(v, (ast.Node, list)):
                    stack.append(v)

    def hoist_one(self, n, ind: int, at: int) -> bool:
        """Evaluate the invariant ``n`` into a temporary here, if the generator knows it is pure (True);
        a constant value needs no temporary.  ``at``: the loop's address (a Ctrl-C here is the loop's)."""
        e = super().expr(n)
        if not e.pure or e.name:
            return False
        if e.kind == "int":
            e = self.wrap(e)
        if e.lo == e.hi and e.kind == "int":
            self.invariant[id(n)] = E(str(e.lo) if e.lo >= 0 else f"({e.lo})", "int", e.lo, e.lo, True, True)
            return True
        t = self.tmp()
        text = self.source(n)
        self.emit(ind, f"{t} = {e.code}" + (f"  # {text}: the same in every iteration" if text else ""), at)
        self.invariant[id(n)] = E(t, e.kind, e.lo, e.hi, True, True)
        return True

    # ---- scans: a loop that only steps an index over bytes until it meets one, run as a bytes search

    # ---- walks: a loop that steps an index over a char array to a stop byte, with a body that cannot
    # change memory, versioned on one bytes search
