"""Knuth's minimax strategy (D. E. Knuth, "The computer as Master Mind", J. Recreational
Mathematics 9, 1976-77), in the two forms of the seed documents.

* Seed 003 form (default): guesses from all codes; minimise the size of the largest part of
  the candidates; among the best prefer a consistent code, then the least numeric value.
  On ``mastermind`` the opening comes out as 1122 and every code is solved in at most 5
  guesses, total 5801 over the 1296 codes (histogram 1:1 2:6 3:62 4:533 5:694).
* Seed 002 form (``hits-strikes``, numbers 1000-9999): opening 1122; minimax over all codes;
  the least numeric guess among the best, with no preference for consistent codes. When a
  single candidate is left it is played (read literally, the seed would play the least
  code 1000 for ever).
"""
from __future__ import annotations


from .partition import PartitionStrategy

__all__ = ["Knuth"]


class Knuth(PartitionStrategy):
    """Minimax on the largest part (Knuth 1977). Option ``form``: "003", "002" or None
    (the game's own form: "002" for hits-strikes, else "003")."""

    name = "knuth"
    summary = "Knuth 1977 minimax: smallest worst-case part (seed 003; seed 002 for hits-strikes)"

    def __init__(self, game, table, form: str | None = None):
        super().__init__(game, table)
        self.form = form or game.knuth_form
        if self.form not in ("002", "003"):
            raise ValueError(f"knuth form must be 002 or 003, not {form!r}")
        # instance attribute shadows the class default
        self.prefer_consistent = self.form == "003"

    def first_guess(self):
        if self.opening is not None:
            return self.opening
        if self.form == "002" and self.game.knuth_first_guess:
            return self.game.code_id(self.game.knuth_first_guess)
        return None

    def rate(self, counts, n_candidates):
        return counts.max(axis=1)
