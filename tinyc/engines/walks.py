"""Scans and walks, for the fast engine's code generator: loops over a char array to a stop byte.

A scan (``while(s(k)) ++k``) becomes one bytes search (``scan_fast``); a walk (``while(s(k)) BODY``, BODY
unable to change memory) gets a second version with unchecked reads of ``s(k)``, run when one bytes
search shows the reads in range (``walk_loop``).  Both fall back to the loop as written.  The shapes of
such loops are found by :mod:`.loopplans`.
"""

from __future__ import annotations

from .bounds import join
from .loopplans import ScanPlan, WalkPlan, scan_plan, walk_plan
from .ranges import RangeGen
from .shapes import Access, Walking


class WalkGen(RangeGen):
    """Scans run as a bytes search, walks versioned on one (see the module docstring)."""

    WALK_CAP = 1024  # bytes searched at most for a walk that may leave early (break, return)

    def loop_stmt(self, s, cond, body, step, ind: int) -> None:
        """A ``while`` (or ``for`` without a counted range): a scan first tries a bytes search (``scan_fast``);
        a walk has a fast version (``walk_loop``); then the loop as written."""
        plannable = not self.dry_depth and self.known is not None  # (not while bounds are worked out)
        plan = scan_plan(cond, body, step, self) if self.opts.scans and plannable else None
        if plan is not None:
            ind = self.scan_fast(plan, ind, s.pos) or ind
        else:
            walk = (walk_plan(cond, body, step, self) if self.opts.walks and plannable and self.walking is None
                    else None)
            if walk is not None and self.walk_loop(walk, s, cond, body, step, ind):
                return
        super().loop_stmt(s, cond, body, step, ind)

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

    def scan_fast(self, plan: ScanPlan, ind: int, at: int) -> int | None:
        """Emit ``if <the scan ends before its limit and no counter wraps>: <its result> else:`` and return
        the indentation of the original loop, which the ``else`` runs (None: nothing emitted).

        The original reads ``s(k)``, ``s(k+1)``, ... and stops at the first stop byte.  When that byte lies
        between the first address and the limit (the array's end for a checked array; for an unchecked
        one the frame's first byte: below it no read needs a flush, and nothing in the loop stores), and
        no counter passes the int range, every read of the original succeeds and the counters end where
        a bytes search puts them.  Anything else (a start outside, no stop byte before the limit, a counter
        that would wrap) runs the loop itself: the same error at the same cursor, the same values left."""
        k, acc = plan.k, plan.acc
        tests: list[str] = []
        stop = self.byte_code(plan.stop, tests)
        counts = [(n, None if v is None else self.byte_code(v, tests)) for n, v in plan.counted]
        if stop is None or any(v is not None and b is None for (_, v), (_, b) in zip(plan.counted, counts)):
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

    WALK_CAP = 1024  # bytes searched at most for a walk that may leave early (break, return)

    def walk_loop(self, plan: WalkPlan, s, cond, body, step, ind: int) -> bool:
        """Emit ``if <the walk reaches its stop byte before its limit>: <the loop, its reads of s(k) unchecked
        and ++k without a wrap test> else: <the loop as it is>``; False when nothing was emitted.

        The loop test reads ``s(k)`` first, and ``k`` changes only by the last ``++k``, which runs only
        after a test that did not meet the stop byte; nothing in the loop can change memory.  So when the
        search finds the stop byte at ``j`` (before the limit: see ``scan_fast``), ``k`` stays between its
        start and ``j - base``, which fits the int range, every read of ``s(k)`` reads a byte below the
        limit, as the checked read would, and ``++k`` cannot wrap.  Anything else runs the loop itself."""
        k, acc = plan.k, plan.acc
        tests: list[str] = []
        stop = self.byte_code(plan.stop, tests)
        lo, hi = self.var_bounds(k)
        size = acc.size if acc.checked else None  # (a checked walk's array has a view: a constant length)
        kmax = min(size - 1, self.imax) if size is not None else self.imax
        klo = max(lo, 0) if acc.checked else lo
        if stop is None or klo > min(hi, kmax):
            return False
        short = size is not None and size <= self.WALK_CAP  # its end is near: no cap needed
        base, _, _ = self.search(k, acc, stop, tests, self.WALK_CAP if plan.early and not short else 0)
        read = f"{acc.view}[v_{k}]" if acc.checked else f"_B[v_{k} + {base}]"
        self.emit(ind, "# a walk: its reads of the array unchecked when its stop byte lies before its limit")
        self.emit(ind, f"if {' and '.join(tests)}:", s.pos)
        entry = self.known
        self.set_bounds(k, klo, min(hi, kmax))
        self.walking = Walking(plan.name, k, plan.inc, read, klo, kmax)
        try:
            self.loop_code(s, cond, body, step, ind + 1)
        finally:
            self.walking = None
        fast, self.known = self.known, entry
        self.emit(ind, "else:")
        self.loop_code(s, cond, body, step, ind + 1)
        self.known = join(fast, self.known)
        return True
