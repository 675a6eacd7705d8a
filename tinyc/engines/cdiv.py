"""C's integer division and remainder, the one definition both engines use (reference section 6,
section 14 items 1-2).

tiny-c's ``/`` truncates toward zero, as C does (Python's ``//`` floors), and ``%`` takes the dividend's
sign, so that ``a == (a / b) * b + a % b``.  A zero divisor is error 30 (DIVERR), raised once both
operands have run.  The results are exact on unbounded ints: the caller wraps them to the machine's
width (``INT_MIN / -1`` is the one quotient that needs it).  The reference evaluator
(:func:`tinyc.engines.evaluator.binary`), the fast engine's run-time helpers (:mod:`tinyc.engines.fastrt`)
and its code generator's bounds (:mod:`tinyc.engines.arith`) call these.
"""

from __future__ import annotations

from ..errors import ErrorCode, TinyCError


def c_div(a: int, b: int, at: int) -> int:
    """C's ``a / b``: the quotient truncated toward zero (``-7 / 2`` is -3), not wrapped.

    Raises :class:`~tinyc.errors.TinyCError` 30 (DIVERR) at the address ``at`` when ``b`` is 0."""
    if b == 0:
        raise TinyCError(ErrorCode.DIVERR, at)
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def c_mod(a: int, b: int, at: int) -> int:
    """C's ``a % b``: the remainder of :func:`c_div`, with the dividend's sign (``-7 % 2`` is -1).

    Raises :class:`~tinyc.errors.TinyCError` 30 (DIVERR) at the address ``at`` when ``b`` is 0."""
    return a - c_div(a, b, at) * b
