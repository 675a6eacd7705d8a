"""Shared machinery of the one-step look-ahead strategies (Knuth, Irving, entropy, Kooi).

For a pool of possible guesses G and the candidate set S, every guess splits S into parts by
score. ``partition_counts`` gives the part sizes; a subclass turns them into a rating (lower
is better) and ``PartitionStrategy`` picks the best guess: among equal ratings a consistent
code (member of S) if ``prefer_consistent``, then the least numeric value (least code id).
"""
from __future__ import annotations

from typing import ClassVar

import numpy as np

from .base import Strategy

__all__ = ["PartitionStrategy", "partition_counts"]

_BLOCK = 1 << 22  # scores per chunk (4 Mi entries, ~16 MB of int32 temporaries)


def partition_counts(table, guesses: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """Part sizes: int64 array (len(guesses), n_scores); [i, k] = #candidates scoring k vs guess i."""
    k = table.game.n_scores
    ns = len(candidates)
    out = np.empty((len(guesses), k), dtype=np.int64)
    step = max(1, _BLOCK // max(1, ns))
    for lo in range(0, len(guesses), step):
        g = guesses[lo:lo + step]
        b = table.block(g, candidates).astype(np.int32)
        b += (np.arange(len(g), dtype=np.int32) * k)[:, None]
        out[lo:lo + step] = np.bincount(b.ravel(), minlength=len(g) * k).reshape(len(g), k)
    return out


class PartitionStrategy(Strategy):
    """Pick the guess whose partition of the candidates rates lowest.

    ``pool``: "all" (every code of the game, Knuth 1977) or "consistent" (candidates only).
    """

    pool: ClassVar[str] = "all"
    #: a fixed first guess (code id) set by ``make_strategy(..., opening=CODE)``, or None
    opening: int | None = None
    #: guesses equivalent under the symbol and position permutations that fix the history are
    #: rated once (the least code of each class) while at most this many guesses were played.
    #: Equivalent guesses rate the same and are all consistent or all not, so the choice
    #: (best rating, consistent, least code) is the same as over the whole pool.
    symmetry_depth: ClassVar[int] = 2

    def _symmetry(self):
        sym = getattr(self, "_sym", None)
        if sym is None:
            from ..symmetry import Symmetry
            sym = self._sym = Symmetry(self.game)
        return sym
    prefer_consistent: bool = True  # per class; Knuth sets it per instance from its form
    float_rating: ClassVar[bool] = False

    def rate(self, counts: np.ndarray, n_candidates: int) -> np.ndarray:
        """Rating per guess (lower is better) from part sizes of shape (n_guesses, n_scores)."""
        raise NotImplementedError

    def first_guess(self) -> int | None:
        """A fixed opening (code id), or None to compute it like any other move."""
        return self.opening

    def next_guess(self, candidates, history):
        if not history:
            fixed = self.first_guess()
            if fixed is not None:
                return fixed
        if len(candidates) == 1 or (len(candidates) == 2 and self.prefer_consistent):
            return int(candidates[0])  # any rule here ends in the same choice
        pool = np.arange(self.game.size) if self.pool == "all" else np.asarray(candidates)
        if len(history) <= self.symmetry_depth:
            pool = pool[self._symmetry().representatives(tuple(g for g, _ in history))[pool]]
        r = self.rate(partition_counts(self.table, pool, candidates), len(candidates))
        best = r.min()
        if self.float_rating:
            tie = r <= best + 1e-9 * max(1.0, abs(float(best)))
        else:
            tie = r == best
        ties = pool[tie]
        if self.prefer_consistent and self.pool == "all":
            cons = ties[np.isin(ties, candidates, assume_unique=True)]
            if len(cons):
                return int(cons[0])
        return int(ties[0])
