"""bc.tc's random consistent guess (seed 004) with the tiny-c library generator.

The candidates are the codes still consistent with every score, in ascending order (the
player filters the list stably, as bc.tc reloads its array); the guess is element
``random(0, m-1)`` of the m candidates. The generator (``TinyRandom``, seeded once with
``seed=last=N``) is NOT reset between games: like bca.tc, one state runs through the whole
evaluation, so game k depends on every game before it.
"""
from __future__ import annotations

from ..rng import TinyRandom
from .base import Strategy

__all__ = ["RandomConsistent", "RangeError"]


class RangeError(RuntimeError):
    """bc.tc's ``c(random(0,m-1))`` with a negative index: tiny-c stops with RANGERR 6."""

#: ``seed=last=99`` is what the unseeded library does on its first call.
DEFAULT_SEED = 99


class RandomConsistent(Strategy):
    """Random consistent guess; options ``seed`` (default 99), ``divisor`` (8; 7 = 2017
    library), ``bits`` (32; 16 = DOS ints)."""

    name = "random"
    summary = "bc.tc: random consistent code, tiny-c RNG, one state for all games"
    deterministic = False
    splittable = False

    def __init__(self, game, table, seed: int | None = None, divisor: int = 8, bits: int = 32):
        super().__init__(game, table)
        self.rng = TinyRandom(DEFAULT_SEED if seed is None else seed, divisor=divisor, bits=bits)

    def next_guess(self, candidates, history):
        """Element ``random(0, m-1)`` of the m candidates. The generator can return a negative
        number: when ``last`` becomes INT_MIN (-INT_MIN stays INT_MIN, reference section 7;
        with 32-bit ints on the 30th call after ``seed=last=N`` for every N = 2 mod 4),
        ``low + (last/8) % range`` is below ``low``. bc.tc's ``c(k)`` on its array
        ``int c(3023)`` then stops with RANGERR 6 (subscript out of range; reference section
        3, "Indexing"), so this raises ``RangeError`` and the evaluation reports the game as
        not solved, never taking an element from the end of the list. The generator state
        goes on to the next game."""
        m = len(candidates)
        k = self.rng.random(0, m - 1)
        if not 0 <= k < m:
            raise RangeError(f"bc.tc stops with RANGERR 6, subscript out of range "
                             f"(random(0,{m - 1}) gave {k})")
        return int(candidates[k])
