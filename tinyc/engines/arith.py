"""Division and remainder for the fast engine's code generator (reference section 6, section 14 items 1-2).

tiny-c's ``/`` and ``%`` truncate toward zero like C, and a zero divisor is error 30 (DIVERR) after both
operands ran (:mod:`tinyc.engines.cdiv` defines them once, for both engines).  :func:`divide` writes them
inline: Python's ``//``/``%`` where the signs allow it, C truncation for a negative dividend over a
positive divisor, and the run-time helper (``_div``/``_mod``: the zero test, C
semantics of negative divisors, the wrap of INT_MIN / -1) only for the cases left.  :func:`div_bounds`
gives the result's bounds, so that no wrap follows where the result cannot overflow.
"""

from __future__ import annotations

from .cdiv import c_div
from .genbase import E


def div_bounds(op: str, a: E, b: E, imin: int, imax: int) -> tuple[int, int]:
    """Bounds of ``a / b`` or ``a % b`` (a, b wrapped ints), including what the helper returns."""
    if b.lo >= 0 and b.hi >= 1:  # a positive divisor (0 is error 30): |a / b| <= |a|, |a % b| < b
        blo = max(b.lo, 1)
        if op == "/":
            lo = c_div(a.lo, blo if a.lo < 0 else b.hi, 0)  # the divisors are >= 1: no error 30
            hi = c_div(a.hi, blo if a.hi >= 0 else b.hi, 0)
            return lo, hi
        lo = 0 if a.lo >= 0 else max(a.lo, -(b.hi - 1))
        hi = 0 if a.hi <= 0 else min(a.hi, b.hi - 1)
        return lo, hi
    m = max(abs(a.lo), abs(a.hi))
    if op == "/":  # |a / b| <= |a|; INT_MIN / -1 wraps to INT_MIN, which is -m
        lo, hi = max(-m, imin), min(m, imax)
        if a.lo >= 0 and b.lo >= 0:
            lo = 0
        return lo, hi
    r = max(min(m, max(abs(b.lo), abs(b.hi)) - 1), 0)  # the remainder has the dividend's sign, |r| < |b|
    return (0 if a.lo >= 0 else -r), (0 if a.hi <= 0 else r)


def divide(gen, op: str, a: E, b: E, at: int) -> E:
    """``a / b`` or ``a % b`` (wrapped operands, a then b, each evaluated once; error 30 at ``at``)."""
    lo, hi = div_bounds(op, a, b, gen.imin, gen.imax)
    py, helper = ("//", "_div") if op == "/" else ("%", "_mod")
    if b.lo >= 1 and a.lo >= 0:  # Python's floor division is C's truncation here
        return E(f"({a.code} {py} {b.code})", "int", lo, hi, a.pure and b.pure)
    # the dividend is bound first, then the divisor: a divisor with a side effect (x/(x=3)) runs after
    # the dividend was read, and a divisor that is a plain name is read after the dividend ran
    if a.name and b.pure:
        x = xb = a.code
    else:
        x = gen.tmp()
        xb = f"({x} := {a.code})"
    if b.name:
        y = yb = b.code
    else:
        y = gen.tmp()
        yb = f"({y} := {b.code})"
    neg = f"-(-{x} {py} {y})"  # C truncation of a negative dividend over a positive divisor
    if b.lo >= 1:
        if yb == y:
            code = f"({x} {py} {y} if {xb} >= 0 else {neg})"
        else:
            code = f"({x} {py} {y} if ({xb}, {yb})[0] >= 0 else {neg})"
        return E(code, "int", lo, hi, a.pure and b.pure)
    if a.lo >= 0 or yb == y:  # chained: the dividend, then (when it is >= 0) the divisor
        cond = f"{xb} >= 0 < {yb}"
    else:
        cond = f"({xb} >= 0) & ({yb} > 0)"  # both run, in order
    tail = f"{helper}({x}, {y}, {at})"
    if a.lo < 0:
        tail = f"{neg} if {x} < 0 < {y} else {tail}"
    return E(f"({x} {py} {y} if {cond} else {tail})", "int", lo, hi)
