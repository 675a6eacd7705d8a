"""spiralpi (Lee Bradley, for ``spirala.tc``): the points of a logarithmic spiral.  MC 1001 t, s1, s2,
result, a stores floor(s2 * e^(a/100 * t/s1) * cos(t/s1)) at ``result``; MC 1002 the same with sin."""

from __future__ import annotations

import math

from . import c_div, c_int


def _point(machine, args: list[int], trig) -> int:
    if len(args) < 5:
        machine.fail(24)
    t, scale1, scale2, result, a = args[:5]
    td = c_div(float(t), float(scale1))
    try:
        f = math.exp(a / 100.0 * td) * trig(td) * scale2
    except (OverflowError, ValueError):
        f = math.nan
    machine.write_int(result, c_int(math.floor(f)) if math.isfinite(f) else c_int(f))
    return 0


def spiral_x(machine, args: list[int]) -> int:
    """MC 1001: the x coordinate (cos)."""
    return _point(machine, args, math.cos)


def spiral_y(machine, args: list[int]) -> int:
    """MC 1002: the y coordinate (sin)."""
    return _point(machine, args, math.sin)


MACHINE_CALLS = {1001: spiral_x, 1002: spiral_y}
