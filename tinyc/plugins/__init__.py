"""The plug-ins shipped with tinyc: ports, written for tinyc from what their C does, of the ``#loadMC``
plug-ins of Tom Gibson's and Lee Bradley's programs (tinyc.dialects.gibson.plugins describes the interface).

Each module has a ``MACHINE_CALLS`` table from MC numbers (1001 up) to functions ``(machine, args) -> int``.
Where the C works in ``double`` or ``float``, so do the ports (float via :func:`f32`), so that the numbers
the programs print are the C's.
"""

from __future__ import annotations

import math
import struct

INT_MIN = -(1 << 31)


def f32(x: float) -> float:
    """``x`` rounded to a C float (IEEE single precision), as a Python float."""
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def c_int(x: float) -> int:
    """A C double converted to a 32-bit int on x86: truncated toward zero; NaN or out of range gives
    INT_MIN (the processor's "integer indefinite")."""
    if math.isnan(x) or not (-2147483649.0 < x < 2147483648.0):
        return INT_MIN
    return int(x)


def c_div(x: float, y: float) -> float:
    """IEEE division, as C divides doubles: by zero gives an infinity or NaN instead of an exception."""
    if y == 0:
        return math.nan if x == 0 or math.isnan(x) else math.copysign(math.inf, x) * math.copysign(1, y)
    return x / y


def c_log(x: float) -> float:
    """C's log: -inf at 0, NaN below."""
    if math.isnan(x) or x < 0:
        return math.nan
    return -math.inf if x == 0 else math.log(x)
