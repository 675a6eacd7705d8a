"""The tiny-c system library's ``random low,high`` (reference section 7, decision 14.3).

::

    if(!last) last = seed = 99;
    range = high - low + 1;
    last = last * seed;            /* wraps as a C int: 32-bit (default) or 16-bit */
    if(last < 0) last = -last;     /* -INT_MIN stays INT_MIN */
    return low + (last / 8) % range;   /* C truncating / and %; divisor 8 (2015), 7 (2017) */

Programs seed it with ``seed = last = N``. One generator carries its state across every call
(bca.tc plays all its games with one generator).
"""
from __future__ import annotations

__all__ = ["TinyRandom", "c_div", "c_mod", "wrap"]


def wrap(x: int, bits: int) -> int:
    """x wrapped to a signed two's-complement int of ``bits`` bits."""
    m = 1 << bits
    x &= m - 1
    return x - m if x >= m >> 1 else x


def c_div(a: int, b: int) -> int:
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def c_mod(a: int, b: int) -> int:
    """C remainder (sign of the dividend): a == c_div(a, b) * b + c_mod(a, b)."""
    return a - c_div(a, b) * b


class TinyRandom:
    """tiny-c's ``random`` with its two globals ``last`` and ``seed``.

    ``TinyRandom(n)`` is ``seed=last=n``; ``TinyRandom()`` (or n=0) is the unseeded library,
    whose first call sets both to 99. ``divisor`` 8 is the project default (2015 library,
    reproduces seed 004), 7 the 2017 Linux library; ``bits`` 32 (Linux) or 16 (DOS).
    """

    def __init__(self, seed: int = 0, divisor: int = 8, bits: int = 32):
        if divisor not in (7, 8):
            raise ValueError("divisor must be 7 or 8")
        if bits not in (16, 32):
            raise ValueError("bits must be 16 or 32")
        self.divisor = divisor
        self.bits = bits
        self.seed = self.last = wrap(int(seed), bits)

    def random(self, low: int, high: int) -> int:
        """Next number, normally in low..high inclusive (as the tiny-c function)."""
        bits = self.bits
        if not self.last:
            self.last = self.seed = 99
        rng = wrap(high - low + 1, bits)
        last = wrap(self.last * self.seed, bits)
        if last < 0:
            last = wrap(-last, bits)
        self.last = last
        return wrap(low + c_mod(c_div(last, self.divisor), rng), bits)

    def __call__(self, low: int, high: int) -> int:
        return self.random(low, high)
