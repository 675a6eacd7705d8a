"""Scans and walks, for the fast engine's code generator: loops over a char array to a stop byte.

A scan (``while(s(k)) ++k``) becomes one bytes search (``scan_fast``); a walk (``while(s(k)) BODY``, BODY
unable to change memory) gets a second version with unchecked reads of ``s(k)``, run when one bytes
search shows the reads in range (``walk_loop``).  Both fall back to the loop as written.  The shapes of
such loops are found by :mod:`.loopplans`.
"""

from __future__ import annotations

from .. import ast
from .analysis import assigned_names, walk
from .bounds import join
from .ranges import RangeGen
from .shapes import Access


class WalkGen(RangeGen):
    """Scans run as a bytes search, walks versioned on one (see the module docstring)."""

    def loop_stmt(self, s, cond, body, step, ind: int) -> None:
        """A ``while`` (or ``for`` without a counted range): a scan first tries a bytes search (``scan_fast``);
        a walk has a fast version (``walk_loop``); then the loop as written."""
        plan = self.scan_plan(cond, body, step) if self.opts.scans else None
        if plan is not None:
            ind = self.scan_fast(plan, ind, s.pos) or ind
        else:
            walk = self.walk_plan(cond, body, step) if self.opts.walks else None
            if walk is not None and self.walk_loop(walk, s, cond, body, step, ind):
                return
        super().loop_stmt(s, cond, body, step, ind)

    def scan_plan(self, cond, body, step) -> dict | None:
        """The parts of a scan loop, or None.  A scan is ``while(s(k)) ++k`` or ``while(s(k)!=c) ++k``
        (``s`` a char array: range checked with a view of its own, or unchecked; ``k`` an int local; ``c``
        a constant or a scalar local the loop leaves alone) whose body and step do nothing but ``++k``
        once, ``++n`` (an int local counting the steps) and ``if(s(k)==d) ++m`` (counting a byte value)."""
        if self.dry_depth or self.known is None or cond is None:
            return None
        found = self.char_read(cond)
        if found is None:
            return None
        read, stop, k, acc = found
        work: list[tuple] = [] if step is None else [(None, step)]  # (test, increment)
        stack = [body]
        while stack:
            x = stack.pop()
            if isinstance(x, ast.Block):
                stack.extend(reversed(x.body))
            elif isinstance(x, ast.If) and x.orelse is None and isinstance(x.then, ast.ExprStmt):
                work.append((x.cond, x.then.expr))
            elif isinstance(x, ast.ExprStmt):
                work.append((None, x.expr))
            elif not isinstance(x, ast.Null):
                return None
        counted: list[tuple[str, ast.Expr | None]] = []  # (counter, the byte it counts, or None: every step)
        seen: set[str] = set()
        for test, inc in work:
            if not (isinstance(inc, ast.Unary) and inc.op == "++" and isinstance(inc.operand, ast.Var)):
                return None
            name = inc.operand.name
            if name in seen or not self.int_local(name):
                return None
            seen.add(name)
            if test is None:
                if name != k:
                    counted.append((name, None))
                continue
            if name == k or not (isinstance(test, ast.BinOp) and test.op == "=="):
                return None
            same, value = (test.left, test.right) if isinstance(test.left, ast.Index) else (test.right, test.left)
            if not (isinstance(same, ast.Index) and same.name == read.name and isinstance(same.index, ast.Var)
                    and same.index.name == k):
                return None
            counted.append((name, value))
        if k not in seen:
            return None
        if not all(self.byte_value(v, seen) for v in [stop] + [v for _, v in counted]):
            return None
        return {"k": k, "acc": acc, "stop": stop, "counted": counted}

    def byte_code(self, v, tests: list[str]) -> str | None:
        """Code for the byte (0..255) whose signed char value is ``v`` (None, the stop of ``while(s(k))``:
        0); a test that the value is a signed char joins ``tests``.  None: a constant no byte equals."""
        if v is None:
            return "0"
        e = self.wrap(super().expr(v))
        if e.lo == e.hi:
            return str(e.lo & 255) if -128 <= e.lo <= 127 else None
        if not (-128 <= e.lo and e.hi <= 127):
            tests.append(f"-128 <= {e.code} <= 127")
        return f"{e.code} & 255"

    def scan_fast(self, plan: dict, ind: int, at: int) -> int | None:
        """Emit ``if <the scan ends before its limit and no counter wraps>: <its result> else:`` and return
        the indentation of the original loop, which the ``else`` runs (None: nothing emitted).

        The original reads ``s(k)``, ``s(k+1)``, ... and stops at the first stop byte.  When that byte lies
        between the first address and the limit (the array's end for a checked array; for an unchecked
        one the frame's first byte: below it no read needs a flush, and nothing in the loop stores), and
        no counter passes the int range, every read of the original succeeds and the counters end where
        a bytes search puts them.  Anything else (a start outside, no stop byte before the limit, a counter
        that would wrap) runs the loop itself: the same error at the same cursor, the same values left."""
        k, acc = plan["k"], plan["acc"]
        tests: list[str] = []
        stop = self.byte_code(plan["stop"], tests)
        counts = [(n, None if v is None else self.byte_code(v, tests)) for n, v in plan["counted"]]
        if stop is None or any(v is not None and b is None for (_, v), (_, b) in zip(plan["counted"], counts)):
            return None
        base, a, j = self.search(k, acc, stop, tests)
        adds = []
        for n, b in counts:
            if b is None:
                adds.append(f"v_{n} += {j} - {a}")
                tests.append(f"v_{n} + {j} - {a} <= {self.imax}")
            else:
                m = self.tmp()
                adds.append(f"v_{n} += {m}")
                tests.append(f"v_{n} + ({m} := _D.count({b}, {a}, {j})) <= {self.imax}")
        self.emit(ind, "# a scan: one bytes search when it ends before its limit and no counter wraps")
        self.emit(ind, f"if {' and '.join(tests)}:", at)
        for line in adds + [f"v_{k} = {j} - {base}"]:
            self.emit(ind + 1, line, at)
        self.emit(ind, "else:")
        return ind + 1

    def search(self, k: str, acc: Access, stop: str, tests: list[str], cap: int = 0) -> tuple[str, str, str]:
        """Append to ``tests`` the bytes search of a scan or walk over ``acc`` from index ``k``: the start
        is inside, the byte ``stop`` lies before the limit (see ``scan_fast``; with ``cap``, also within
        ``cap`` bytes of the start) and the index that reaches it fits the int range.  Returns (the
        array's base address, the name of the start address, the name of the stop byte's address)."""
        a, j = self.tmp(), self.tmp()
        base = acc.start
        if acc.checked:  # a view of exactly the elements: search up to their end
            end = f"{base} + {acc.length}"
            tests += [] if self.var_bounds(k)[0] >= 0 else [f"0 <= v_{k}"]
            first = f"({a} := v_{k} + {base})"
        else:
            end = "_f0" if self.frame and self.flush_set() else self.size
            tests.append(f"0 <= ({a} := v_{k} + {base})")
            first = a
        if cap:  # a loop that may leave early: a long search could cost more than the loop
            e = self.tmp()
            end = f"({e} if ({e} := {a} + {cap}) < {end} else {end})"
        tests.append(f"({j} := _D.find({stop}, {first}, {end})) >= 0")
        if not (acc.checked and acc.size is not None and acc.size - 1 <= self.imax):
            tests.append(f"{j} - {base} <= {self.imax}")  # k ends at j - base
        return base, a, j

    def walk_plan(self, cond, body, step) -> dict | None:
        """The parts of a walk loop, or None.  A walk is ``while(s(k)) BODY``, ``while(s(k)!=c) BODY`` or
        ``for(..;s(k);++k) BODY`` (``s`` a char array: range checked with a view of its own, or unchecked
        through a constant or local pointer the loop leaves alone; ``k`` an int local; ``c`` a constant or
        a local the loop leaves alone) where BODY assigns ``k`` only by one ``++k``, its last top-level
        statement (or the for's step), and cannot change memory: no element store or ++/--, no global
        store, no call, no machine call but the pure ones, no string.  A loop with a walk nested in its
        body is not one (the inner one is versioned instead)."""
        if self.dry_depth or self.known is None or cond is None or self.walking is not None:
            return None
        plan = self.walk_shape(cond, body, step)
        if plan is None:
            return None
        for n in walk(body):
            if isinstance(n, (ast.While, ast.For)):
                nstep = n.step if isinstance(n, ast.For) else None
                if self.walk_shape(n.cond, n.body, nstep) and not self.scan_plan(n.cond, n.body, nstep):
                    return None
        return plan

    def char_read(self, cond):
        """``(read, stop, k, access)`` when ``cond`` is ``s(k)`` or ``s(k)!=c`` (either side) for a char
        array ``s`` (range checked with a view of its own, or unchecked) and an int local ``k``; else None."""
        read, stop = cond, None
        if isinstance(cond, ast.BinOp) and cond.op == "!=":
            read, stop = (cond.left, cond.right) if isinstance(cond.left, ast.Index) else (cond.right, cond.left)
        if not (isinstance(read, ast.Index) and isinstance(read.index, ast.Var)):
            return None
        k = read.index.name
        acc = self.array(read, plain=True)
        if not self.int_local(k) or acc is None or acc.type != "char" or (acc.checked and acc.view is None):
            return None
        return read, stop, k, acc

    def walk_shape(self, cond, body, step) -> dict | None:
        """``walk_plan`` for one loop, its nested loops left aside."""
        found = self.char_read(cond)
        if found is None:
            return None
        read, stop, k, acc = found
        base = acc.start
        if not (acc.checked or base.isdigit() or base == f"p_{read.name}"):
            return None  # a global pointer that may move: its address is read at every access
        if step is None:
            rest = list(body.body) if isinstance(body, ast.Block) else [body]
            while rest and isinstance(rest[-1], ast.Null):
                rest.pop()
            last = rest.pop() if rest else None
            inc = last.expr if isinstance(last, ast.ExprStmt) else None
        else:
            inc, rest = step, [body]
        if not (isinstance(inc, ast.Unary) and inc.op == "++" and isinstance(inc.operand, ast.Var)
                and inc.operand.name == k):
            return None
        changed = assigned_names([cond, rest])
        if changed & {k, read.name} or not self.byte_value(stop, changed | {k}):
            return None
        for n in walk([cond, rest]):
            if isinstance(n, (ast.Call, ast.String)) or isinstance(n, ast.MachineCall) and not self.direct(n):
                return None
            target = n.target if isinstance(n, ast.Assign) else (
                n.operand if isinstance(n, ast.Unary) and n.op in ("++", "--") else None)
            if target is not None and not (isinstance(target, ast.Var) and target.name in self.an.locals):
                return None
            if isinstance(n, ast.Var) and n.name not in self.an.locals and self.has_effect(n):
                return None
        early = any(isinstance(n, (ast.Break, ast.Return, ast.ErrorStmt)) for n in walk(rest))
        return {"name": read.name, "k": k, "acc": acc, "stop": stop, "inc": id(inc), "early": early}

    WALK_CAP = 1024  # bytes searched at most for a walk that may leave early (break, return)

    def walk_loop(self, plan: dict, s, cond, body, step, ind: int) -> bool:
        """Emit ``if <the walk reaches its stop byte before its limit>: <the loop, its reads of s(k) unchecked
        and ++k without a wrap test> else: <the loop as it is>``; False when nothing was emitted.

        The loop test reads ``s(k)`` first, and ``k`` changes only by the last ``++k``, which runs only
        after a test that did not meet the stop byte; nothing in the loop can change memory.  So when the
        search finds the stop byte at ``j`` (before the limit: see ``scan_fast``), ``k`` stays between its
        start and ``j - base``, which fits the int range, every read of ``s(k)`` reads a byte below the
        limit, as the checked read would, and ``++k`` cannot wrap.  Anything else runs the loop itself."""
        k, acc = plan["k"], plan["acc"]
        tests: list[str] = []
        stop = self.byte_code(plan["stop"], tests)
        lo, hi = self.var_bounds(k)
        kmax = min(acc.length - 1, self.imax) if acc.checked else self.imax
        klo = max(lo, 0) if acc.checked else lo
        if stop is None or klo > min(hi, kmax):
            return False
        short = acc.checked and acc.length <= self.WALK_CAP  # its end is near: no cap needed
        base, _, _ = self.search(k, acc, stop, tests, self.WALK_CAP if plan["early"] and not short else 0)
        read = f"{acc.view}[v_{k}]" if acc.checked else f"_B[v_{k} + {base}]"
        self.emit(ind, "# a walk: its reads of the array unchecked when its stop byte lies before its limit")
        self.emit(ind, f"if {' and '.join(tests)}:", s.pos)
        entry = self.known
        self.set_bounds(k, klo, min(hi, kmax))
        self.walking = dict(plan, read=read, klo=klo, kmax=kmax)
        try:
            self.loop_code(s, cond, body, step, ind + 1)
        finally:
            self.walking = None
        fast, self.known = self.known, entry
        self.emit(ind, "else:")
        self.loop_code(s, cond, body, step, ind + 1)
        self.known = join(fast, self.known)
        return True
