"""The consistent-only entropy form of Lee Bradley's entropy.c (seed 004 points to it): the
guess is the candidate minimising sum(n_i ln n_i) over the parts it makes of the candidates
(Neuwirth 1982's information measure restricted to consistent guesses); ties to the least code."""
from __future__ import annotations

from .entropy import n_ln_n
from .partition import PartitionStrategy

__all__ = ["EntropyConsistent"]


class EntropyConsistent(PartitionStrategy):
    """Maximum information among the consistent codes only (entropy.c form)."""

    name = "entropy-consistent"
    summary = "entropy.c form: least sum n ln n among consistent codes"
    pool = "consistent"
    float_rating = True

    def rate(self, counts, n_candidates):
        return n_ln_n(counts)
