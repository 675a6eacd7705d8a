"""Irving's expected-size strategy (R. W. Irving, "Towards an optimum Mastermind strategy",
J. Recreational Mathematics 11, 1978-79): minimise the expected number of remaining
candidates, sum(n_i^2)/|S|, over all codes; ties to a consistent code, then the least code."""
from __future__ import annotations

from .partition import PartitionStrategy

__all__ = ["ExpectedSize"]


class ExpectedSize(PartitionStrategy):
    """Minimise sum of squared part sizes (Irving 1978)."""

    name = "expected-size"
    summary = "Irving 1978: smallest expected number of remaining candidates"

    def rate(self, counts, n_candidates):
        return (counts * counts).sum(axis=1)
