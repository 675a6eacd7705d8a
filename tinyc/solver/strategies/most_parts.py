"""Kooi's most-parts strategy (B. Kooi, "Yet another Mastermind strategy", ICGA Journal 28,
2005): maximise the number of non-empty parts (possible answers), over all codes; ties to a
consistent code, then the least code."""
from __future__ import annotations

from .partition import PartitionStrategy

__all__ = ["MostParts"]


class MostParts(PartitionStrategy):
    """Maximise the number of distinct scores (Kooi 2005)."""

    name = "most-parts"
    summary = "Kooi 2005: most distinct possible answers"

    def rate(self, counts, n_candidates):
        return -(counts > 0).sum(axis=1)
