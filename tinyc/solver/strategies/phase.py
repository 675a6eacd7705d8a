"""The Pen/Field/Pasture algorithm of seeds 000 and 001 for ``hex`` (4 distinct digits 0-F).

Played as seed 001 writes it (seed 000 is its earlier draft; its goat removal rule is the
same). Only the last guess and its score are looked at, so guesses may repeat.

Phase 1 (hard-coded sets). Set r's 16 digits, known goats removed, cut into guesses of 4
(a left-over of fewer than 4 digits is dropped; seed 000's "(F: it's a Goat)")::

    0: 0123 4567 89AB CDEF     1: 49E3 8D27 C16B 05AF
    2: 81A3 C5E7 092B 4D6F     3: C963 0DA7 41EB 852F

A guess with b = bulls+cows bovines: b = 0 marks its digits goats; otherwise the first guess
with b >= 2 becomes the Pen, else the first with b >= 1 the Field, else the first with b = 1
the Pasture; others are ignored. When a Pen exists and Pen+Field+Pasture hold 4 bovines go to
phase 2. At the end of a set Pen/Field/Pasture are cleared and the next set starts; after set
3 it cycles back to set 0 ("will probably cycle back to top", seed 000).

Phase 2 (swap Field digits into the Pen). Status of every digit 0 (unknown), 1 (bovine), -1
(goat), all 0 at entry. Swap the first unknown Pen digit with the (skip+1)-th unknown Field
digit and guess the Pen. More bovines: the digit moved in is a bovine, the one moved out a
goat; one Field bovine fewer (none left: the Pasture becomes the Field); skip = 0. Fewer:
the opposite, and swap back. Same: skip += 1, no swap back. A Pen of 4 bovines goes to phase 3.

Phase 3 (arrange). Mode m swaps positions (m, m+1 mod 4). Start: m = 0, remember the bulls,
swap. Bulls +2 / +1: remember them, m += 2 / 1, swap. Bulls -1 / -2: swap back, m += 1 / 2,
swap. Same: rotate the guess by two (ABCD -> CDAB), guess it, and start again.

Decisions where the seeds are silent (documented, not hidden):
* a phase-1 guess with 4 bovines becomes a Pen of 4 and goes straight to phase 3;
* if phase 2 runs out of unknown Field digits to skip to, the strategy raises
  ``PhaseStuck`` and the evaluation reports that secret as failed.
"""
from __future__ import annotations

from ..games import GameError
from .base import Strategy

__all__ = ["Phase", "PhaseStuck", "PHASE1_SETS"]

PHASE1_SETS = ("0123456789ABCDEF", "49E38D27C16B05AF", "81A3C5E7092B4D6F", "C9630DA741EB852F")
GOAT = -1
BIG = 0x08000000


class PhaseStuck(RuntimeError):
    """The written algorithm has no next guess for this position."""


class Phase(Strategy):
    """Pen/Field/Pasture phases of seeds 000/001 (hex only)."""

    name = "phase"
    summary = "seeds 000/001: hard-coded sets, Pen/Field/Pasture swaps, pair swaps"
    deterministic = False
    uses_candidates = False
    wrap_skip = False
    sets: tuple[str, ...] = PHASE1_SETS

    def __init__(self, game, table):
        super().__init__(game, table)
        if game.alphabet != "0123456789ABCDEF" or game.length != 4 or game.repeats:
            raise GameError("the phase strategy plays only the hex game")
        self.reset()

    # ---- state ---------------------------------------------------------------------------
    def reset(self):
        self.phase = 1
        self.number = [0] * 16          # phase-1 number array: -1 goat, else bovine count
        self.set_index = -1
        self.chunks: list[list[int]] = []
        self.pos = 0
        # (digits, bovines) of the phase-1 guesses kept as the Pen, the Field and the Pasture
        self.pen: tuple[list[int], int] | None = None
        self.field: tuple[list[int], int] | None = None
        self.pasture: tuple[list[int], int] | None = None
        self.trace: list[str] = []      # phase of every guess, for tests and reports

    def _code(self, digits):
        return self.game.index["".join(self.game.alphabet[d] for d in digits)]

    def _split(self, sid):
        bulls, cows = self.game.split_score(sid)
        return bulls, bulls + cows

    # ---- the player's call -----------------------------------------------------------------
    def next_guess(self, candidates, history):
        if history:
            _, sid = history[-1]
            bulls, bovines = self._split(sid)
            getattr(self, f"_result{self.phase}")(bulls, bovines)
        guess = getattr(self, f"_guess{self.phase}")()
        self.trace.append(str(self.phase))
        return self._code(guess)

    # ---- phase 1 ---------------------------------------------------------------------------
    def _next_set(self):
        self.set_index = (self.set_index + 1) % len(self.sets)
        digits = [int(ch, 16) for ch in self.sets[self.set_index]]
        digits = [d for d in digits if self.number[d] != GOAT]
        self.chunks = [digits[i:i + 4] for i in range(0, len(digits) - 3, 4)]
        self.pos = 0
        self.pen = self.field = self.pasture = None

    def _guess1(self):
        while self.pos >= len(self.chunks):
            self._next_set()
        return list(self.chunks[self.pos])

    def _result1(self, bulls, b):
        guess = self.chunks[self.pos]
        self.pos += 1
        if b == 0:
            for d in guess:
                self.number[d] = GOAT
            return
        for d in guess:
            self.number[d] += 1
        entry = (list(guess), b)
        if b >= 2 and self.pen is None:
            self.pen = entry
        elif self.field is None:
            self.field = entry
        elif b == 1 and self.pasture is None:
            self.pasture = entry
        total = sum(x[1] for x in (self.pen, self.field, self.pasture) if x is not None)
        if self.pen is not None and total == 4:
            self._enter2(bulls)

    # ---- phase 2 ---------------------------------------------------------------------------
    def _enter2(self, bulls):
        self.phase = 2
        self.status = [0] * 16
        assert self.pen is not None  # _result1 enters phase 2 once the Pen is found
        self.pen_digits = list(self.pen[0])
        self.prev = self.pen[1]
        self.field_digits = list(self.field[0]) if self.field else []
        self.field_count = self.field[1] if self.field else 0
        self.skip = 0
        self.swap: tuple[int, int] | None = None  # the Pen and Field indexes _guess2 swapped
        if self.prev == 4:
            self._enter3(bulls)

    def _guess2(self):
        st, pen, fld = self.status, self.pen_digits, self.field_digits
        i = next((k for k in range(4) if st[pen[k]] == 0), None)
        unknown = [k for k in range(len(fld)) if st[fld[k]] == 0]
        if unknown and self.wrap_skip:
            self.skip %= len(unknown)
        if i is None or self.skip >= len(unknown):
            raise PhaseStuck(f"phase 2: no unknown Field digit to swap (skip {self.skip})")
        j = unknown[self.skip]
        pen[i], fld[j] = fld[j], pen[i]
        self.swap = (i, j)
        return list(pen)

    def _result2(self, bulls, c):
        assert self.swap is not None  # the result is for the swap _guess2 made
        i, j = self.swap
        pen, fld, st = self.pen_digits, self.field_digits, self.status
        moved_in, moved_out = pen[i], fld[j]
        if c > self.prev:
            st[moved_in], st[moved_out] = 1, GOAT
            self.field_count -= 1
            if self.field_count == 0 and self.pasture is not None:
                self.field_digits = list(self.pasture[0])
                self.field_count = self.pasture[1]
                self.pasture = None
            self.prev = c
            self.skip = 0
        elif c < self.prev:
            st[moved_in], st[moved_out] = GOAT, 1
            pen[i], fld[j] = fld[j], pen[i]
        else:
            self.skip += 1
        if self.prev == 4:
            self._enter3(bulls)

    # ---- phase 3 ---------------------------------------------------------------------------
    def _enter3(self, bulls):
        self.phase = 3
        self.guess3 = list(self.pen_digits)
        self.mode = -1
        self.rotated = False        # a rotated guess waits to be played as it is
        self.bulls = bulls          # bulls of the guess just scored

    def _swap_pair(self, mode):
        a, b = mode, (mode + 1) & 3
        g = self.guess3
        g[a], g[b] = g[b], g[a]

    def _guess3(self):
        if self.rotated:
            self.rotated = False
        elif self.mode == -1:
            self.mode = 0
            self.last_bulls = self.bulls
            self._swap_pair(0)
        return list(self.guess3)

    def _result3(self, bulls, bovines):
        self.bulls = bulls
        if self.mode == -1:
            return                   # result of a rotated guess: _guess3 starts afresh
        d = bulls - self.last_bulls
        if d in (1, 2):
            self.last_bulls = bulls
            self.mode = (self.mode + d) & 3
            self._swap_pair(self.mode)
        elif d in (-1, -2):
            self._swap_pair(self.mode)
            self.mode = (self.mode - d) & 3
            self._swap_pair(self.mode)
        else:
            g = self.guess3
            self.guess3 = g[2:] + g[:2]
            self.mode = -1
            self.rotated = True
