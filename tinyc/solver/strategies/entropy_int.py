"""Lee Bradley's entropy.c ("entropy.c - tct - 5/28/16", named by seed 004) in integers: the
twin of programs/bce.tc.

entropy.c keeps the codes still possible, in ascending order, and for each of them as the
guess sums n*ln(n) over the parts (by score) it makes of those codes; the guess is drawn at
random from the codes with the least sum. Its first guess is a random code. This strategy does
the same with the integer table ``T(n) = round(n * log2(n) * 2**scale)`` (``nlogn_table``;
scale 10 by default) in place of floating point, so equal sums are exactly equal, and it draws
with tiny-c's ``random`` (``TinyRandom``, ``seed=last=N`` once for all games, as bca.tc):

* the e codes with the least sum, in ascending order; the guess is element
  ``random(0, e-1)`` of them (one draw per guess, also when e is 1);
* while every code is still possible (the first guess) all codes tie, since renaming symbols
  and places turns any code into any other; the guess is then element ``random(0, m-1)``
  of the m codes, which is bc.tc's first guess for the same seed (no sums are computed).

``scale=None`` rates with floating-point sums of n*ln(n) instead (entropy.c's measure; the
parts' terms are added in ascending order, so equal multisets give equal sums, and ties are
exact equality of those sums), for comparing the two. Errors: ``RangeError`` (as the random
strategy) if the generator gives a negative index, where tiny-c would stop with RANGERR 6.
"""
from __future__ import annotations

from decimal import Decimal, localcontext
from functools import lru_cache

import numpy as np

from ..rng import TinyRandom
from .base import Strategy
from .entropy import n_ln_n
from .partition import partition_counts
from .random_consistent import DEFAULT_SEED, RangeError

__all__ = ["EntropyInt", "nlogn_table"]


@lru_cache(maxsize=8)
def nlogn_table(nmax: int, scale: int = 10) -> np.ndarray:
    """int64 array of shape (nmax + 1,): ``[n] = round(n * log2(n) * 2**scale)``, 0 for n 0 and 1.

    Computed with 50-digit decimal logarithms, so every entry is the exactly rounded value (no
    n*log2(n)*2**scale for n >= 2 lies within 1e-30 of a half-integer for the sizes used here).
    Raises ValueError for a negative ``nmax`` or ``scale``."""
    if nmax < 0 or scale < 0:
        raise ValueError("nlogn_table: nmax and scale must be >= 0")
    out = np.zeros(nmax + 1, dtype=np.int64)
    with localcontext() as ctx:
        ctx.prec = 50
        ln2 = Decimal(2).ln()
        for n in range(2, nmax + 1):
            v = Decimal(n) * Decimal(n).ln() / ln2 * (1 << scale)
            out[n] = int(v.to_integral_value())  # round half even; never exactly half here
    return out


class EntropyInt(Strategy):
    """entropy.c with integer n log n and tiny-c's generator; options ``seed`` (default 99),
    ``scale`` (10; None: floating-point n ln n), ``divisor`` (8) and ``bits`` (32) as the
    random strategy."""

    name = "entropy-int"
    summary = "bce.tc / entropy.c: least sum of round(n log2 n 2^10) among the candidates, random ties"
    deterministic = False
    splittable = False

    def __init__(self, game, table, seed: int | None = None, scale: int | None = 10,
                 divisor: int = 8, bits: int = 32):
        super().__init__(game, table)
        self.rng = TinyRandom(DEFAULT_SEED if seed is None else seed, divisor=divisor, bits=bits)
        self.scale = scale
        self.nlogn = None if scale is None else nlogn_table(game.size, scale)

    def rate(self, counts: np.ndarray) -> np.ndarray:
        """Sum over parts of T(n) (int64), or of n ln n (float64) with ``scale=None``;
        ``counts`` has shape (n_guesses, n_scores)."""
        if self.nlogn is None:
            return n_ln_n(counts)
        return self.nlogn[counts].sum(axis=1)

    def _draw(self, m: int) -> int:
        k = self.rng.random(0, m - 1)
        if not 0 <= k < m:
            raise RangeError(f"tiny-c stops with RANGERR 6, subscript out of range "
                             f"(random(0,{m - 1}) gave {k})")
        return k

    def next_guess(self, candidates, history):
        cand = np.asarray(candidates)
        if len(cand) == self.game.size:
            return int(cand[self._draw(len(cand))])
        r = self.rate(partition_counts(self.table, cand, cand))
        ties = cand[r == r.min()]
        return int(ties[self._draw(len(ties))])
