"""Symmetry of the Bulls-and-Cows / Mastermind games: the symbol and position permutations that fix the
guesses played so far map the candidate set onto itself, so only one guess of each class need be tried
(the exact search, ``optimal``; the look-ahead strategies, ``strategies.partition``)."""
from __future__ import annotations

import itertools

import numpy as np

from .games import Game

__all__ = ["Symmetry", "code_map"]


class Symmetry:
    """Symbol and position permutations of a game that fix a history of guesses.

    ``representatives(history)`` -> bool array (n_codes,): True for the least code id of each
    class of guesses equivalent under the permutations that fix every guess in ``history``
    (a tuple of code ids). Only for games whose code set is closed under every symbol and
    position permutation (``available``); hits-strikes (no leading 0) is not.
    """

    def __init__(self, game: Game):
        self.game = game
        self.available = bool(game.leading_zero)
        d = game.digits.astype(np.int64)
        self.digits = d
        k, L = len(game.alphabet), game.length
        self.k, self.L = k, L
        self.weights = k ** np.arange(L - 1, -1, -1, dtype=np.int64)
        lookup = np.full(k ** L, -1, dtype=np.int64)
        lookup[d @ self.weights] = np.arange(game.size)
        self.lookup = lookup
        self.perms = list(itertools.permutations(range(L)))
        self._cache: dict[tuple, np.ndarray] = {}

    def _maps(self, history: tuple) -> list[tuple[tuple, np.ndarray]]:
        hs = [self.digits[g] for g in history]
        out = []
        for perm in self.perms:
            sigma = np.full(self.k, -1, dtype=np.int64)
            inv = np.full(self.k, -1, dtype=np.int64)
            ok = True
            for h in hs:
                for q in range(self.L):
                    a, b = h[perm[q]], h[q]
                    if (sigma[a] >= 0 and sigma[a] != b) or (inv[b] >= 0 and inv[b] != a):
                        ok = False
                        break
                    sigma[a], inv[b] = b, a
                if not ok:
                    break
            if ok:
                out.append((perm, sigma))
        return out

    def representatives(self, history: tuple) -> np.ndarray:
        """Mask of the canonical guesses after ``history`` (see the class docstring)."""
        got = self._cache.get(history)
        if got is not None:
            return got
        n = self.game.size
        if not self.available:
            return np.ones(n, dtype=bool)
        used = np.zeros(self.k, dtype=bool)
        for g in history:
            used[self.digits[g]] = True
        unused_syms = np.flatnonzero(~used)
        rows = np.arange(n)
        canon: np.ndarray | None = None
        for perm, sigma in self._maps(history):
            src = self.digits[:, list(perm)]
            out = np.empty_like(src)
            assigned = np.full((n, self.k), -1, dtype=np.int64)
            nxt = np.zeros(n, dtype=np.int64)
            for p in range(self.L):
                x = src[:, p]
                free = ~used[x]
                a = assigned[rows, x]
                new = free & (a < 0)
                assigned[rows[new], x[new]] = nxt[new]
                nxt[new] += 1
                lab = assigned[rows, x]
                out[:, p] = np.where(free, unused_syms[np.maximum(lab, 0)] if len(unused_syms)
                                     else 0, sigma[x])
            ids = self.lookup[out @ self.weights]
            canon = ids if canon is None else np.minimum(canon, ids)
        assert canon is not None  # the identity permutation always fixes the history: one map at least
        reps = canon == np.arange(n)
        if len(self._cache) < (64 << 20) // max(1, n):      # at most 64 MB of masks
            self._cache[history] = reps
        return reps


def code_map(game: Game, source: str, target: str):
    """A symmetry of ``game`` that takes the code ``source`` to ``target`` (code texts), as a function
    from code text to code text: a position permutation and a symbol permutation, both applied to every
    code, which keep every score (bulls and cows count the same after it). None when the game has no
    such symmetry (hits-strikes: no leading zero) or no symmetry takes one code to the other (Mastermind
    1123 and 1234)."""
    if not Symmetry(game).available:
        return None
    alphabet = game.alphabet
    for perm in itertools.permutations(range(game.length)):
        sigma: dict[str, str] = {}
        if all(sigma.setdefault(source[perm[q]], target[q]) == target[q] for q in range(game.length)) \
                and len(set(sigma.values())) == len(sigma):
            free = iter(sorted(set(alphabet) - set(sigma.values())))
            for ch in alphabet:                 # the other symbols: in order, onto those left
                if ch not in sigma:
                    sigma[ch] = next(free)
            return lambda code, perm=perm, sigma=sigma: "".join(
                sigma[code[perm[q]]] for q in range(len(code)))
    return None
