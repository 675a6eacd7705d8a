"""amortpi (Lee Bradley, for ``amort.tc``): MC 1001 amount, principal, interest, result: the number of
payments of a loan, in hundredths.  Each argument is the address of two ints, a fraction (numerator,
denominator); the result's two ints become floor(100 * n) and 100, with
n = log(a / (a - i * p)) / log(1 + i)."""

from __future__ import annotations

import math

from . import c_div, c_int, c_log


def amort(machine, args: list[int]) -> int:
    """MC 1001: see the module docstring; RANGERR for an address outside the memory."""
    if len(args) < 4:
        machine.fail(24)
    size = machine.int_size

    def fraction(addr: int) -> float:
        return c_div(float(machine.read_int(addr)), float(machine.read_int(addr + size)))

    a, p, i = fraction(args[0]), fraction(args[1]), fraction(args[2])
    n = c_div(c_log(c_div(a, a - i * p)), c_log(1 + i))
    machine.write_int(args[3], c_int(math.floor(n * 100)) if math.isfinite(n) else c_int(n))
    machine.write_int(args[3] + size, 100)
    return 0


MACHINE_CALLS = {1001: amort}
