"""pifib (Lee Bradley, for ``fibpi.tc``): MC 1001 n is the n-th Fibonacci number by Binet's formula in
doubles, truncated to an int."""

from __future__ import annotations

import math

from . import c_div, c_int


def fib(machine, args: list[int]) -> int:
    """MC 1001 n: (phi^n - psi^n) / sqrt(5) in doubles, truncated; MCERR with no argument."""
    if not args:
        machine.fail(24)
    n = args[0]
    root5 = math.sqrt(5)  # pow(5, .5), correctly rounded like sqrt
    return c_int(c_div(_pow((1 + root5) / 2, n) - _pow((1 - root5) / 2, n), root5))


def _pow(x: float, n: int) -> float:
    """C's pow for an int exponent: an infinity (signed as the result would be) where it overflows."""
    try:
        return math.pow(x, n)
    except OverflowError:
        return -math.inf if x < 0 and n % 2 else math.inf


MACHINE_CALLS = {1001: fib}
