"""``phase-fixed``: the Pen/Field/Pasture algorithm of seeds 000/001 with the fewest changes
that make it solve every hex code (issue 16). ``phase`` stays exactly as written.

The changes (each against the seed 001 text it departs from; docs/solver.md lists them with
the figures):

1. Phase 2, "Result: Bovines Decrease". The seed resets the "which unknown in Field" value to
   0 only when the Bovines increase. After a decrease the Pen digit that was compared becomes
   known (a Bovine), so the next swap takes a *different* Pen digit, which has not been
   compared with any Field digit yet; skipping Field digits for it is what runs the count past
   the last unknown Field digit. Change: reset it to 0 on a decrease too.
2. Phase 3, "Bulls decrease by 1". When the two misplaced digits stand opposite each other
   (positions m and m+2, the other two are Bulls), every swap of neighbours loses a Bull, and
   the seed's rules go round the four modes for ever. Change: after four decreases in a row
   (every neighbouring pair tried), swap the opposite pair (mode, mode+2) instead.

Everything else is ``phase`` (seed 001 as written, with its documented gap-fillers).
"""
from __future__ import annotations

from .phase import PHASE1_SETS, Phase

#: change 3: a fifth phase-1 set, the digits taken with stride 2
FIFTH_SET = "02468ACE13579BDF"

__all__ = ["PhaseFixed"]


class PhaseFixed(Phase):
    """``phase`` with the two repairs listed in the module docstring."""

    name = "phase-fixed"
    summary = "phase with two repairs (skip reset on a decrease; opposite swap) solving every code"
    reset_skip_on_decrease = True
    opposite_swap = True
    sets = PHASE1_SETS + (FIFTH_SET,)

    def reset(self):
        super().reset()
        self.decreases = 0

    def _result2(self, bulls, c):
        before = self.prev
        super()._result2(bulls, c)
        if self.reset_skip_on_decrease and c < before and self.phase == 2:
            self.skip = 0

    def _result3(self, bulls, bovines):
        if not self.opposite_swap or self.mode == -1:
            self.decreases = 0
            return super()._result3(bulls, bovines)
        d = bulls - self.last_bulls
        if d < 0:
            self.decreases += 1
        else:
            self.decreases = 0
        if d == -1 and self.decreases >= 4:
            # every neighbouring pair lost a Bull: swap back, then swap the opposite pair
            self._swap_pair(self.mode)
            m = self.mode
            g = self.guess3
            g[m], g[(m + 2) & 3] = g[(m + 2) & 3], g[m]
            self.decreases = 0
            self.mode = -1
            self.rotated = True       # the swapped guess is played as it is, then start afresh
            return
        return super()._result3(bulls, bovines)
