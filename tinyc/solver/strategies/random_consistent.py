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

__all__ = ["RandomConsistent"]

#: ``seed=last=99`` is what the unseeded library does on its first call.
DEFAULT_SEED = 99


class RandomConsistent(Strategy):
    """Random consistent guess; options ``seed`` (default 99), ``divisor`` (8; 7 = 2017
    library), ``bits`` (32; 16 = DOS ints)."""

    name = "random"
    summary = "bc.tc: random consistent code, tiny-c RNG, one state for all games"
    deterministic = False

    def __init__(self, game, table, seed: int | None = None, divisor: int = 8, bits: int = 32):
        super().__init__(game, table)
        self.rng = TinyRandom(DEFAULT_SEED if seed is None else seed, divisor=divisor, bits=bits)

    def next_guess(self, candidates, history):
        m = len(candidates)
        return int(candidates[self.rng.random(0, m - 1)])
