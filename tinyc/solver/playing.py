"""One game: a strategy plays against one secret (``play``), and what it gives (``GameResult``).

``evaluate`` plays every secret this way (``by="secret"``) or walks the decision tree
(``treewalk``); ``play`` and ``hint`` of the command line use ``play``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .strategies import Strategy
from .table import ScoreTable

__all__ = ["GameResult", "play", "DEFAULT_MAX_GUESSES"]

DEFAULT_MAX_GUESSES = 60


@dataclass
class GameResult:
    """One game: the secret (code id), the guesses (code ids), solved or why not."""

    secret: int
    guesses: list[int]
    solved: bool
    reason: str = ""

    @property
    def repeated(self) -> bool:
        """True if some guess was played twice in this game."""
        return len(set(self.guesses)) != len(self.guesses)


def play(strategy: Strategy, table: ScoreTable, secret: int,
         max_guesses: int = DEFAULT_MAX_GUESSES, cache: dict | None = None) -> GameResult:
    """Play one game against ``secret`` (code id). ``cache`` (history tuple -> guess) is used
    only for deterministic strategies."""
    game = table.game
    win = game.win
    full = table.full
    strategy.reset()
    cands = np.arange(game.size) if strategy.uses_candidates else None
    history: list[tuple[int, int]] = []
    guesses: list[int] = []
    memo = cache if strategy.deterministic else None  # the cache, if this strategy may use it
    while len(guesses) < max_guesses:
        key = tuple(history)
        g = memo.get(key) if memo is not None else None
        if g is None:
            try:
                g = strategy.next_guess(cands, history)
            except RuntimeError as exc:      # PhaseStuck, TreeGap, bc.tc's RANGERR
                return GameResult(secret, guesses, False, str(exc))
            if memo is not None:
                memo[key] = g
        guesses.append(g)
        sc = int(full[g, secret]) if full is not None else table.score(g, secret)
        if sc == win:
            return GameResult(secret, guesses, True)
        history.append((g, sc))
        if cands is not None:
            row = full[g, cands] if full is not None else table.block([g], cands)[0]
            cands = cands[row == sc]
            if len(cands) == 0:
                return GameResult(secret, guesses, False, "no candidate left")
    return GameResult(secret, guesses, False, f"not solved in {max_guesses} guesses")
