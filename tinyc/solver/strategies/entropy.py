"""Maximum-information (entropy) strategy (E. Neuwirth, "Some strategies for Mastermind",
Zeitschrift fuer Operations Research 26, 1982): maximise the entropy of the partition,
log|S| - sum(n_i ln n_i)/|S|, i.e. minimise sum(n_i ln n_i), over all codes; ties (within
1e-9) to a consistent code, then the least code."""
from __future__ import annotations

import numpy as np

from .partition import PartitionStrategy

__all__ = ["Entropy", "n_ln_n"]


def n_ln_n(counts: np.ndarray) -> np.ndarray:
    """sum over parts of n*ln(n) (0 for empty parts); shape (n_guesses,), float64."""
    c = counts.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(c > 0, c * np.log(np.where(c > 0, c, 1.0)), 0.0)
    return np.sort(t, axis=1).sum(axis=1)  # sorted: equal multisets give equal sums


class Entropy(PartitionStrategy):
    """Maximum information over all codes (Neuwirth 1982)."""

    name = "entropy"
    summary = "Neuwirth 1982: maximum information, guesses from all codes"
    float_rating = True

    def rate(self, counts, n_candidates):
        return n_ln_n(counts)
