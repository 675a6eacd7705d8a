"""A variant of ``phase`` (seeds 000/001) for comparison, not in the seeds: when phase 2's
"which unknown in Field" count runs past the unknown Field digits it wraps round to the
first one instead of getting stuck. Everything else is ``phase`` exactly."""
from __future__ import annotations

from .phase import Phase

__all__ = ["PhaseWrap"]


class PhaseWrap(Phase):
    """``phase`` with the phase-2 skip count taken modulo the unknown Field digits."""

    name = "phase-wrap"
    summary = "phase with the phase-2 skip wrapping round (a repair, not in the seeds)"
    wrap_skip = True
