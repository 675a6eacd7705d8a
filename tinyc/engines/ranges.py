"""Counted loops of the fast engine's code generator: a loop that steps an int local by one up to a fixed
end becomes a Python ``range``, versioned on the lengths of the arrays it indexes.

A counted loop is ``for(k=e;k<n;++k) BODY`` or ``while(k<n) [ ...; ++k ]`` (``<=`` with a constant end too)
where ``k`` is an int local that only the step changes, nothing in the loop can change a local through
memory, and ``n`` cannot change while the loop runs: a constant, a scalar local the loop does not assign,
or a global int scalar the loop cannot change (no call, no machine call, no store that may land anywhere:
``hoistable``).  Then ``n`` is read once, as ``range`` reads it, and ``k`` stays below it: ``++k`` never
wraps, and after the loop ``k`` is ``n`` unless a ``break`` left it earlier (the ``else`` of the ``for``).

When the body reads or writes ``a(k)`` for range-checked arrays and the end may lie beyond the shortest
of them (``L`` elements), the loop gets two versions: ``if n <= L`` one whose ``a(k)`` need no test,
else the loop with its tests (the error 6 it may meet comes at the same iteration and place).  Likewise
for divisors that keep their value through the loop (a global read once before it, a scalar local it
does not assign): ``if d > 0`` a version whose ``/`` and ``%`` by ``d`` need one sign test (Python's
floor division is C's truncation for a non-negative dividend), else the loop with the run-time helper
(error 30, C's rules for a negative divisor).  And for int arrays the loop adds or subtracts elements of
and cannot change (it calls nothing and stores only into other range-checked arrays): when the loop runs
at least as many times as they have elements (counting the passes of a nested loop whose header gives
its count), ``min`` and ``max`` show every element within a quarter of the int range, and the version
adds up to four of them without a wrap test.  A loop inside a version is not versioned again.
"""

from __future__ import annotations

from .. import ast
from .analysis import assigned_names, walk
from .bounds import join
from .loopplans import CountedLoop, counted_loop, shortest, steady_arrays
from .statements import StatementGen


class RangeGen(StatementGen):
    """Counted ``for`` and ``while`` loops as Python ranges (see the module docstring)."""

    def visit_While(self, s: ast.While, ind: int) -> None:
        plan = counted_loop(s, self) if self.opts.counted_loops else None
        if plan is None:
            super().visit_While(s, ind)
        else:
            self.range_loop(s, plan, ind)

    def visit_For(self, s: ast.For, ind: int) -> None:
        plan = counted_loop(s, self) if self.opts.counted_loops else None
        if plan is None:
            super().visit_For(s, ind)
        else:
            self.range_loop(s, plan, ind)

    ranging = 0          # versioned counted loops being generated (nested ones are not versioned again)
    tested: frozenset[str] = frozenset()  # divisors an enclosing loop's versions tested

    def divisors(self, k: str, body) -> list[tuple[str, str, tuple[int, int]]]:
        """(name, code, bounds) of each name ``body`` divides by (``/``, ``%``) that keeps its value while
        the loop runs and may not be positive: a global scalar read once before the loop, or a scalar
        local the loop does not assign (``counted`` made sure nothing rewrites locals through memory).
        A name an enclosing loop's version tested already is left out."""
        changed = assigned_names(body) | {k}
        out: dict[str, tuple[str, tuple[int, int]]] = {}
        for n in walk(body):
            if not (isinstance(n, ast.BinOp) and n.op in ("/", "%") and isinstance(n.right, ast.Var)):
                continue
            name = n.right.name
            if name in out or name in self.tested:
                continue
            loc = self.an.locals.get(name)
            if loc is not None:
                if loc.array or name in changed or name not in self.bound:
                    continue
                code, bounds = f"v_{name}", self.var_bounds(name)
            elif name in self.hoisted:
                e = self.expr(n.right)
                code, bounds = e.code, (e.lo, e.hi)
            else:
                continue
            if bounds[0] < 1 <= bounds[1]:
                out[name] = (code, bounds)
        return [(name, code, b) for name, (code, b) in out.items()]

    def range_loop(self, s, plan: CountedLoop, ind: int) -> None:
        """Emit the counted loop ``plan`` of ``s``: ``k``'s start, the end read once, then the range loop,
        in two versions when its end may pass the shortest array it indexes (see the module docstring)."""
        k, init, cond, body = plan
        if init is not None:
            start = self.wrap(self.expr(init.value))
            self.emit(ind, f"v_{k} = {start.code}", s.pos)
            self.set_bounds(k, start.lo, start.hi)
        lo, hi = self.var_bounds(k)
        entry = self.known
        outer = self.enter_loop(s, [body], ind)  # a global end is read there, with what the loop leaves alone
        end = self.expr(cond.right)
        if cond.op == "<=":
            stop, stop_hi = str(end.lo + 1), end.lo + 1
        else:
            stop, stop_hi = end.code, end.hi
            if not (stop.isidentifier() or stop.lstrip("-").isdigit()):
                stop = self.tmp()
                self.emit(ind, f"{stop} = {end.code}  # the end, read once", s.pos)
        tests, why, fast_entry, refined, fast_hi = [], [], entry, dict(self.refined), stop_hi
        versions = self.opts.loop_versions
        short = shortest(k, body, self) if versions else None
        if short is not None and stop_hi > short and not stop.lstrip("-").isdigit():
            tests.append(f"{stop} <= {short}")
            why.append(f"{k} below {short}")
            fast_hi = short
        divisors = self.divisors(k, body) if entry is not None and versions else []
        for name, code, (dlo, dhi) in divisors:
            tests.append(f"{code} > 0")
            if name in self.an.locals and fast_entry is not None:
                fast_entry = {**fast_entry, name: (max(dlo, 1), dhi)}
            else:
                refined[name] = (max(dlo, 1), dhi)
        if divisors:
            why.append(f"{', '.join(d[0] for d in divisors)} positive")
        steady = steady_arrays(s, self) if versions and not self.dry_depth and not self.ranging else []
        if steady:
            b = self.imax >> 2  # four such elements add up without a wrap
            need = -(-sum(n for _, _, n in steady) // inner_trips(body))  # a scan costs less than the loop
            tests.append(f"{stop} - v_{k} >= {need}")
            tests += [f"-{b} <= min({view}) and max({view}) <= {b}" for _, view, _ in steady]
            why.append(f"elements of {', '.join(a for a, _, _ in steady)} within +-{b}")
        if (tests and not self.ranging and not self.dry_depth
                and sum(1 for _ in walk(body)) <= self.VERSION_NODES):
            self.emit(ind, f"if {' and '.join(tests)}:  # {'; '.join(why)}: a version with fewer tests")
            outer_refined, outer_tested, outer_steady = self.refined, self.tested, self.steady
            self.ranging += 1
            self.refined, self.tested = refined, self.tested | {d[0] for d in divisors}
            self.steady = {**self.steady, **{a: (-b, b) for a, _, _ in steady}}
            try:
                self.range_code(s, k, body, stop, (lo, hi), fast_hi, fast_entry, ind + 1)
            finally:
                self.ranging -= 1
                self.refined, self.steady = outer_refined, outer_steady
            fast, self.known = self.known, entry
            self.emit(ind, "else:")
            try:
                self.range_code(s, k, body, stop, (lo, hi), stop_hi, entry, ind + 1)
            finally:
                self.tested = outer_tested
            self.known = join(fast, self.known)
        else:
            self.range_code(s, k, body, stop, (lo, hi), stop_hi, entry, ind)
        self.hoisted, self.invariant = outer

    def range_code(self, s, k: str, body, stop: str, start: tuple[int, int], stop_hi: int, entry,
                   ind: int) -> None:
        """The ``for ... in range`` of a counted loop whose end is at most ``stop_hi``, and its ``else``."""
        self.known = entry
        inside = (start[0], max(start[0], stop_hi - 1))

        def one_pass():
            self.set_bounds(k, *inside)
            self.breaks.append([])
            self.suite(body, ind + 1)
            self.breaks.pop()
        head = self.loop_head(body, entry, one_pass)
        self.known = head
        self.set_bounds(k, *inside)
        self.emit(ind, f"for v_{k} in range(v_{k}, {stop}):", s.pos)
        self.breaks.append([])
        self.suite(body, ind + 1)
        exits = self.breaks.pop()
        self.known = head
        for b in exits:
            self.known = join(self.known, b)
        self.set_bounds(k, start[0], max(start[1], stop_hi, inside[1]))
        self.emit(ind, "else:")
        self.emit(ind + 1, f"if v_{k} < {stop}: v_{k} = {stop}")


def inner_trips(body) -> int:
    """The most times a loop nested in ``body`` runs its body on each pass, when its header says so with
    constants (``for(b=1;b<10;++b)``: 9); else 1.  Only a cost estimate: whether scanning arrays once
    pays for a version (:meth:`RangeGen.range_loop`)."""
    best = 1
    for n in walk(body):
        if not (isinstance(n, ast.For) and isinstance(n.init, ast.Assign) and isinstance(n.init.value, ast.Number)
                and isinstance(n.cond, ast.BinOp) and n.cond.op in ("<", "<=")
                and isinstance(n.cond.right, ast.Number)):
            continue
        best = max(best, n.cond.right.value - n.init.value.value + (n.cond.op == "<="))
    return best
