"""Score tables in NumPy: the score id of guesses against codes, computed once.

A score id is ``bulls * (length + 1) + cows`` (uint8, < ``game.n_scores``). For games up to
``FULL_LIMIT`` codes the whole (n, n) table is computed once and cached per game (9000 codes
-> 81 MB). Larger games (``hex``, 43680 codes, a full table would be 1.9 GB) compute the
blocks they are asked for on demand, so memory stays far below 2 GiB.
"""
from __future__ import annotations

import numpy as np

from .games import Game

__all__ = ["ScoreTable", "score_table", "FULL_LIMIT"]

FULL_LIMIT = 10000
_CHUNK = 2048
_POPCOUNT16 = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.uint8)


class ScoreTable:
    """Scores of codes of one game against each other.

    ``block(G, S)`` -> uint8 array (len(G), len(S)) of score ids of guess ids G against
    code ids S (the score is symmetric, so "guess" and "secret" may be swapped).
    ``row(g)`` -> uint8 array (n,) of guess g against every code.
    ``full`` -> the (n, n) table, or None when the game is too large for it.
    """

    def __init__(self, game: Game, full: bool | None = None):
        self.game = game
        self.n = game.size
        d = game.digits
        self._digits = d
        k = len(game.alphabet)
        self._distinct = not game.repeats and k <= 16
        if self._distinct:
            self._mask = (np.left_shift(1, d.astype(np.int64)).sum(axis=1)).astype(np.uint16)
            self._mask_list = self._mask.tolist()
            self._digit_list = [bytes(r) for r in d.tolist()]
        else:
            counts = np.zeros((self.n, k), dtype=np.uint8)
            for p in range(game.length):
                np.add.at(counts, (np.arange(self.n), d[:, p]), 1)
            self._counts = counts
        if full is None:
            full = self.n <= FULL_LIMIT
        self.full = None
        if full:
            t = np.empty((self.n, self.n), dtype=np.uint8)
            everything = np.arange(self.n)
            for lo in range(0, self.n, _CHUNK):
                t[lo:lo + _CHUNK] = self._compute(everything[lo:lo + _CHUNK], everything)
            self.full = t

    def _compute(self, g: np.ndarray, s: np.ndarray) -> np.ndarray:
        dg, ds = self._digits[g], self._digits[s]
        bulls = np.zeros((len(g), len(s)), dtype=np.uint8)
        for p in range(self.game.length):
            bulls += dg[:, p, None] == ds[None, :, p]
        if self._distinct:
            common = _POPCOUNT16[self._mask[g][:, None] & self._mask[s][None, :]]
        else:
            cg, cs = self._counts[g], self._counts[s]
            common = np.zeros_like(bulls)
            for sym in range(cg.shape[1]):
                common += np.minimum(cg[:, sym, None], cs[None, :, sym])
        # score id = bulls*(L+1) + cows = bulls*L + common
        return bulls * np.uint8(self.game.length) + common

    def block(self, g, s) -> np.ndarray:
        """Score ids, shape (len(g), len(s)), uint8, of guess ids g against code ids s."""
        g = np.asarray(g, dtype=np.intp)
        s = np.asarray(s, dtype=np.intp)
        if self.full is not None:
            if len(s) == self.n:
                return self.full[g]
            return self.full[np.ix_(g, s)]
        out = np.empty((len(g), len(s)), dtype=np.uint8)
        step = max(1, (1 << 24) // max(1, len(s)))
        for lo in range(0, len(g), step):
            out[lo:lo + step] = self._compute(g[lo:lo + step], s)
        return out

    def row(self, g: int) -> np.ndarray:
        """Score ids, shape (n,), uint8, of guess id g against every code."""
        if self.full is not None:
            return self.full[g]
        return self._compute(np.array([g]), np.arange(self.n))[0]

    def score(self, a: int, b: int) -> int:
        """Score id of code id a against code id b."""
        if self.full is not None:
            return int(self.full[a, b])
        if self._distinct:
            da, db = self._digit_list[a], self._digit_list[b]
            bulls = sum(x == y for x, y in zip(da, db))
            return bulls * self.game.length + (self._mask_list[a] & self._mask_list[b]).bit_count()
        return int(self._compute(np.array([a]), np.array([b]))[0, 0])


_CACHE: dict[str, ScoreTable] = {}


def score_table(game: Game) -> ScoreTable:
    """The cached ScoreTable of a game (computed once per process)."""
    t = _CACHE.get(game.name)
    if t is None:
        t = _CACHE[game.name] = ScoreTable(game)
    return t
