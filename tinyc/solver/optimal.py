"""Exact optimal strategies: the guess tree that minimises the total (so the expected) number
of guesses over all secrets, found by depth-first branch-and-bound, as Koyama and Lai (1993)
did for Mastermind (total 5625) and Tanaka (1996) for Bulls and Cows with digits 0-9.

The search (``OptimalSearch``):

* ``T(S)``, the least total number of guesses that finds every secret of the candidate set S
  (code ids), is ``|S| + sum over the non-winning answers r of T(S_r)`` minimised over the
  guess; guesses come from all codes of the game, not only from S.
* Lower bound: with at most ``R`` different non-winning answers to a guess, at most 1 secret
  is found with the next guess, at most R with the one after, R*R with the next, and so on
  (``lower_bounds``). The bound of a guess is ``|S| + sum LB(|S_r|)``; guesses are tried in
  ascending bound (ties: smaller sum of squared parts, a consistent code, the least code), and
  the loop stops when the bound reaches the best total found.
* Exact totals of sets of 1, 2 and 3 codes without search (1, 3, and 5 or 6).
* Symmetry: symbol permutations and position permutations that fix every guess played so far
  map the candidate set onto itself, so only one guess of each equivalence class is tried
  (at the top ``sym_depth`` levels; 5 opening classes on Mastermind, 1 on distinct digits).
* Memoisation: exact totals (with their best guess) and proven lower bounds of candidate sets.
* NumPy: the part sizes of every guess at once (``bincount`` over the score table).

``optimal_tree`` turns the result into a decision tree (a dict, written as JSON)::

    {"guess": "1123", "candidates": 1296, "answers": {"0,0": {...}, "1,2": {...}}}

A node's answers map "bulls,cows" to the subtree played after that answer; the winning answer
has no entry. A node whose guess is its only candidate has no ``answers``.
"""
from __future__ import annotations

import time
from typing import Callable

import numpy as np

from .games import Game, GameError
from .symmetry import Symmetry
from .table import ScoreTable, score_table

__all__ = ["OptimalSearch", "optimal_tree", "build_tree", "lower_bounds", "Symmetry", "Abandon"]


class Abandon(Exception):
    """Raised inside a watched search (``OptimalSearch.ceiling``) when the shared best total
    falls to the lower bound of the guess being searched: that guess cannot win."""


def lower_bounds(n: int, responses: int) -> np.ndarray:
    """LB[k] for k = 0..n: the least possible total guesses for any set of k secrets when a
    guess has at most ``responses`` non-winning answers (1 secret at guess 1, ``responses``
    at guess 2, ``responses**2`` at guess 3, ...). int64 array of shape (n + 1,)."""
    lb = np.zeros(n + 1, dtype=np.int64)
    depth, room, used = 1, 1, 0
    for k in range(1, n + 1):
        if used == room:
            depth += 1
            room *= responses
            used = 0
        lb[k] = lb[k - 1] + depth
        used += 1
    return lb


class OptimalSearch:
    """Branch-and-bound for the least total number of guesses (see the module docstring).

    ``game``: a game whose score table fits in memory (not ``hex``; raises GameError).
    ``sym_depth``: symmetry reduction for nodes with at most this many guesses played.
    ``max_depth``: if given, only strategies that find every secret in at most that many
    guesses count (the best average among strategies of that worst case); None = no limit.
    ``progress(text)`` is called for each opening or first-level answer finished.
    ``two_pass``: at nodes of at least this many candidates a guess is first bounded by its
    parts' own best first-guess bounds, and dropped before any deep search if that reaches
    the best total found.

    ``ceiling``: if set, a callable giving the best total known elsewhere (another process's
    search of the same set); a search from a fixed guess (``_expand(..., fixed=g)``) reads
    it between its parts and at every node below, and gives the guess up (a lower bound,
    not exact) as soon as it reaches the guess's lower bound.
    """

    #: a part of at most this many codes first tries its own codes as guesses for its bound
    SMALL_PART = 40
    #: the largest flat index table built (bytes); a game with more codes (hits-strikes' 9000:
    #: 324 MB) gathers its candidates' columns of the score table at every count instead
    FLAT_BYTES = 128 << 20

    def __init__(self, game: Game, table: ScoreTable | None = None, sym_depth: int = 2,
                 max_depth: int | None = None, progress: Callable[[str], None] | None = None,
                 two_pass: int = 40):
        self.game = game
        self.table = table if table is not None else score_table(game)
        if self.table.full is None:
            raise GameError(f"the optimal strategy needs the whole score table; {game.name} "
                            f"({game.size} codes) is too large")
        self.full = self.table.full
        self.n = game.size
        self.win = game.win
        self.k = game.n_scores
        seen = np.zeros(self.k, dtype=bool)
        seen[np.unique(self.full)] = True
        # the answers that occur, numbered densely (fewer columns to count)
        self._dense = (np.cumsum(seen) - 1).astype(np.uint8)
        self._kd = int(seen.sum())
        self._win_col = int(self._dense[self.win])
        seen[self.win] = False
        self.responses = int(seen.sum())
        self.lb = lower_bounds(self.n, self.responses)
        # the least LB-sum of m codes split into at most R parts (the most even split)
        q, r = np.divmod(np.arange(self.SMALL_PART + 1), self.responses)
        self._outside = r * self.lb[np.minimum(q + 1, self.n)] + (self.responses - r) * self.lb[q]
        self.sym = Symmetry(game)
        self.sym_depth = sym_depth
        self.two_pass = two_pass
        self.max_depth = max_depth
        self.progress = progress
        self.exact: dict = {}      # key -> (total, guess id)
        self.lower: dict = {}      # key -> proven lower bound
        self.nodes = 0
        self.ceiling: Callable[[], int] | None = None
        self._floor: int | None = None    # the watched guess's lower bound so far
        self._flat: np.ndarray | None = None
        self.INF = 1 << 60
        if max_depth is not None:
            # most secrets a tree of depth d can find: 1 + R + R^2 + ... (per node: 1 found)
            self._cap = [0] * (max_depth + 2)
            for d in range(1, max_depth + 2):
                self._cap[d] = 1 + self.responses * self._cap[d - 1]

    # ---- helpers ---------------------------------------------------------------------------
    def _key(self, S: np.ndarray, depth_left):
        b = S.astype(np.int16 if self.n < 32768 else np.int32).tobytes()
        return b if self.max_depth is None else (b, depth_left)

    def _small(self, S: np.ndarray, depth_left) -> tuple[int, int]:
        """Exact (total, guess) for |S| <= 3 (depth limits checked by the caller)."""
        m = len(S)
        if m == 1:
            return 1, int(S[0])
        if m == 2:
            return 3, int(S[0])
        sub = self.full[np.ix_(S, S)]
        for i in range(3):
            o = [j for j in range(3) if j != i]
            if sub[i, o[0]] != sub[i, o[1]]:
                return 5, int(S[i])
        if depth_left is not None and depth_left < 3:
            # a non-candidate that splits all three (total 6, depth 2)
            rows = self.full[:, S]
            ok = np.flatnonzero((rows[:, 0] != rows[:, 1]) & (rows[:, 0] != rows[:, 2])
                                & (rows[:, 1] != rows[:, 2]))
            if len(ok):
                return 6, int(ok[0])
            return self.INF, -1
        return 6, int(S[0])

    def _perfect(self, S: np.ndarray, budget: int):
        """Small sets (at most R + 1 codes): (2m - 1, g) if a candidate g tells all others
        apart, else (2m, g) if some code does (no other guess can do better: a candidate
        that leaves a part of 2 or more costs at least 2m); (2m, -1) as a lower bound when
        the budget is reached first; None when the search must decide."""
        m = len(S)
        sub = np.sort(self.full[np.ix_(S, S)], axis=1)
        ok = np.flatnonzero((sub[:, 1:] != sub[:, :-1]).all(axis=1))
        if len(ok):
            return 2 * m - 1, int(S[ok[0]])
        if budget <= 2 * m:
            return 2 * m, -1
        sub = np.sort(self.full[:, S], axis=1)
        ok = np.flatnonzero((sub[:, 1:] != sub[:, :-1]).all(axis=1))
        if len(ok):
            return 2 * m, int(ok[0])
        return None

    def _part_bound(self, S: np.ndarray) -> int:
        """A lower bound of T(S) at least LB(|S|): exact if known, else the least first-guess
        bound over all guesses (remembered as a proven lower bound)."""
        m = len(S)
        if m <= 3:
            return self._small(S, None)[0]
        key = self._key(S, None)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        low = self.lower.get(key)
        if low is not None:
            return low
        if m <= self.SMALL_PART:
            low = self._candidates_bound(S)
            if low is not None:
                self.lower[key] = low
                return low
        # the least first-guess bound over all guesses: a useless guess (one part) bounds
        # m + LB(m), no less than any other guess's, since LB is superadditive
        low = self._least_bound(self._counts(S), m)
        self.lower[key] = low
        return low

    def _candidates_bound(self, S: np.ndarray) -> int | None:
        """The least first-guess bound of S over all guesses when a guess from S itself
        attains it, found from S's own m x m scores (not all n x m): a guess outside S puts
        all m codes in at most R parts, so its bound is at least m + the LB-sum of the most
        even such split (``_outside``). None when the codes of S do not settle it."""
        m = len(S)
        best = self._least_bound(self._histograms(self._dense[self.full[np.ix_(S, S)]]), m)
        return best if best <= m + self._outside[m] else None

    def _least_bound(self, counts: np.ndarray, m: int) -> int:
        """The least first-guess bound ``m + sum LB(part)`` over the guesses whose part sizes
        are the rows of ``counts`` (its winning column is cleared), and at least LB(m)."""
        counts[:, self._win_col] = 0
        return max(m + int(self.lb[counts].sum(axis=1).min()), int(self.lb[m]))

    def _histograms(self, answers: np.ndarray) -> np.ndarray:
        """Part sizes row by row: ``answers`` int (guesses, m), the dense answer of each guess
        to each candidate -> int64 (guesses, answers seen), by one ``bincount``."""
        rows = answers.shape[0]
        flat = answers.astype(np.int32) + (np.arange(rows, dtype=np.int32) * self._kd)[:, None]
        return np.bincount(flat.ravel(), minlength=rows * self._kd).reshape(rows, self._kd)

    def _counts(self, S: np.ndarray) -> np.ndarray:
        """Part sizes of every guess for candidate set S: int64 (n_codes, answers seen),
        column ``_win_col`` the winning answer. One ``bincount`` over S's rows of a flat
        index table (int32 (n_codes, n_codes), row s holding ``g * answers + answer(g, s)``
        for every guess g), built on first use: 4 bytes per pair (102 MB for bulls-cows'
        5040 codes), and 2 to 3 times faster than gathering S's columns of the score table,
        which is done instead for games whose table would exceed ``FLAT_BYTES``."""
        if self.n * self.n * 4 > self.FLAT_BYTES:       # too large: S's columns each time
            return self._histograms(self._dense[self.full[:, S]])
        if self._flat is None:
            self._flat = np.ascontiguousarray(self._dense[self.full.T], dtype=np.int32)
            self._flat += (np.arange(self.n, dtype=np.int32) * self._kd)[None, :]
        counts = np.bincount(self._flat[S].ravel(), minlength=self.n * self._kd)
        return counts.reshape(self.n, self._kd)

    def _bound_ok(self, m: int, depth_left) -> bool:
        return depth_left is None or m <= self._cap[depth_left]

    # ---- the search ------------------------------------------------------------------------
    def solve(self, S: np.ndarray, budget: int, history: tuple = (),
              depth_left: int | None = None) -> int:
        """Exact least total of candidate set S (sorted code ids) if it is below ``budget``,
        else some lower bound >= budget. ``history``: guesses played (for symmetry)."""
        m = len(S)
        if depth_left is None and self.max_depth is not None:
            depth_left = self.max_depth - len(history)
        if depth_left is not None:
            if depth_left <= 0 or not self._bound_ok(m, depth_left):
                return self.INF
        if m <= 3:
            return self._small(S, depth_left)[0]
        if self.lb[m] >= budget:
            return int(self.lb[m])
        key = self._key(S, depth_left)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        low = self.lower.get(key, 0)
        if low >= budget:
            return low
        if m <= self.responses + 1 and (depth_left is None or depth_left >= 2):
            got = self._perfect(S, budget)
            if got is not None:
                total, g = got
                if g >= 0:
                    self.exact[key] = (total, g)
                    return total
                if total >= budget:
                    self.lower[key] = max(low, total)
                    return total
            elif depth_left == 2:        # no code tells all of S apart: 2 guesses cannot do
                self.lower[key] = self.INF
                return self.INF
        self.nodes += 1
        if self._floor is not None and self.ceiling is not None and self.ceiling() <= self._floor:
            raise Abandon
        best, best_g = self._expand(S, budget, history, depth_left)
        if best_g >= 0:
            self.exact[key] = (best, best_g)
            self.lower.pop(key, None)
            return best
        self.lower[key] = max(low, budget)
        return budget

    def _candidate_guesses(self, S, history, fixed=None, symmetry=True, largest=None):
        """Guess ids in trial order with their bounds: (ids, bounds) int arrays. ``largest``:
        leave out the guesses that leave a part of more codes (the guess limit's cap)."""
        m = len(S)
        guesses: np.ndarray | None
        if fixed is not None:
            guesses = np.array([fixed])
            counts = np.bincount(self._dense[self.full[fixed, S]],
                                 minlength=self._kd).reshape(1, self._kd)
        else:
            guesses = None
            counts = self._counts(S)
        in_s = counts[:, self._win_col] > 0
        counts[:, self._win_col] = 0
        most = counts.max(axis=1)
        useful = most < m if largest is None else (most < m) & (most <= largest)
        if fixed is None:
            if symmetry and len(history) <= self.sym_depth:
                useful &= self.sym.representatives(history)
            guesses = np.flatnonzero(useful)
            counts, in_s = counts[guesses], in_s[guesses]
        bounds = m + self.lb[counts].sum(axis=1)
        sq = (counts * counts).sum(axis=1)
        assert guesses is not None  # the fixed guess, or the useful ones
        order = np.lexsort((guesses, ~in_s, sq, bounds))
        return guesses[order], bounds[order]

    def _expand(self, S, budget, history, depth_left, fixed=None):
        best, best_g = budget, -1
        m = len(S)
        sub_depth = None if depth_left is None else depth_left - 1
        guesses, bounds = self._candidate_guesses(
            S, history, fixed, largest=None if sub_depth is None else self._cap[sub_depth])
        full = self.full
        for g, bound in zip(guesses.tolist(), bounds.tolist()):
            if bound >= best:
                break
            row = full[g, S]
            order = np.argsort(row, kind="stable")
            srt = row[order]
            cuts = np.flatnonzero(np.diff(srt)) + 1
            parts = [p for p in np.split(S[order], cuts)]
            parts = [p for p, s0 in zip(parts, srt[np.r_[0, cuts]]) if s0 != self.win]
            if sub_depth is not None and any(not self._bound_ok(len(p), sub_depth) for p in parts):
                continue
            parts.sort(key=len, reverse=True)
            running = bound
            hist = history + (g,)
            lbs = None
            if m >= self.two_pass:
                # first pass: each part's own best first-guess bound, before any deep search
                # (without the guess limit: a valid lower bound with it too)
                # (largest parts first, stopping as soon as the guess cannot win)
                lbs = []
                for p in parts:
                    lbs.append(self._part_bound(p))
                    running += lbs[-1] - int(self.lb[len(p)])
                    if running >= best:
                        break
                if running >= best:
                    continue
            report = self.progress if fixed is not None else None
            watch = fixed is not None and self.ceiling is not None and self._floor is None
            for i, p in enumerate(parts):
                lbp = int(self.lb[len(p)]) if lbs is None else lbs[i]
                if watch:
                    best = min(best, self.ceiling())        # type: ignore[misc]
                    if running >= best:
                        break
                    v = self._watched(p, best - running + lbp, hist, sub_depth, running)
                    if v is None:                 # the shared best reached this guess's bound
                        best = min(best, self.ceiling())    # type: ignore[misc]
                        break
                else:
                    v = self.solve(p, best - running + lbp, hist, sub_depth)
                running += v - lbp
                if report:
                    sid = int(full[g, p[0]])
                    report(f"{self.game.codes[g]} answer {_answer_key(self.game, sid)}: "
                           f"{len(p)} candidates, total {v} ({self.nodes} nodes)")
                if running >= best:
                    break
            else:
                best, best_g = running, g
        return best, best_g

    def _watched(self, S, budget, history, depth_left, floor) -> int | None:
        """``solve`` under the watch of ``ceiling`` (see the class docstring): None if it
        fell to ``floor``, the lower bound of the guess being searched."""
        self._floor = floor
        try:
            return self.solve(S, budget, history, depth_left)
        except Abandon:
            return None
        finally:
            self._floor = None

    # ---- whole games -----------------------------------------------------------------------
    def best_with_opening(self, opening: int) -> int:
        """Least total over all secrets when the first guess is ``opening`` (code id)."""
        S = np.arange(self.n)
        key = ("opening", opening, self.max_depth)
        hit = self.exact.get(key)
        if hit is not None:
            return hit[0]
        best, g = self._expand(S, self.INF, (), self.max_depth, fixed=opening)
        if g >= 0:
            self.exact[key] = (best, g)
        return best

    def openings(self) -> list[int]:
        """One opening of each symmetry class (code ids, ascending)."""
        reps = self.sym.representatives(())
        return [int(g) for g in np.flatnonzero(reps)]

    def best_opening(self) -> tuple[int, dict[int, int]]:
        """(best opening, {opening: total}) over one opening per symmetry class; the least
        code id wins ties."""
        totals = {}
        for g in self.openings():
            t0 = time.perf_counter()
            totals[g] = self.best_with_opening(g)
            if self.progress:
                self.progress(f"opening {self.game.codes[g]}: total {totals[g]} "
                              f"({time.perf_counter() - t0:.1f} s, {self.nodes} nodes)")
        best = min(totals, key=lambda g: (totals[g], g))
        return best, totals

    def best_guess(self, S: np.ndarray, history: tuple = ()) -> tuple[int, int]:
        """(least total, a best guess) for candidate set S after ``history``."""
        depth_left = None if self.max_depth is None else self.max_depth - len(history)
        m = len(S)
        if m <= 3:
            t, g = self._small(S, depth_left)
            if g < 0:
                raise GameError("no strategy finds these secrets within the guess limit")
            return t, g
        key = self._key(S, depth_left)
        if key not in self.exact:
            self.solve(S, self.INF, history, depth_left)
        hit = self.exact.get(key)
        if hit is None:
            raise GameError("no strategy finds these secrets within the guess limit")
        return hit


def _answer_key(game: Game, sid: int) -> str:
    b, c = game.split_score(sid)
    return f"{b},{c}"


def optimal_tree(search: OptimalSearch, opening: int | None = None) -> dict:
    """The optimal decision tree of ``search.game`` (from ``opening`` if given, else from the
    best opening) as a JSON-ready dict: ``{"game", "strategy", "opening", "total", "secrets",
    "max_depth", "tree"}`` with nodes as in the module docstring."""
    game = search.game
    if opening is None:
        opening, _ = search.best_opening()
    total = search.best_with_opening(opening)
    if total >= search.INF:
        raise GameError("no strategy from this opening finds every secret within the limit")
    _, first = search.exact[("opening", opening, search.max_depth)]
    tree = build_tree(search, np.arange(search.n), (), first)
    return {"game": game.name, "strategy": "optimal", "opening": game.codes[opening],
            "total": int(total), "secrets": int(search.n), "max_depth": search.max_depth,
            "tree": tree}


def build_tree(search: OptimalSearch, S: np.ndarray, history: tuple,
               guess: int | None = None) -> dict:
    """The decision tree (a node dict, see the module docstring) of candidate set ``S``
    after the guesses ``history``, from ``guess`` if given, else from the best guess
    (``search.best_guess``, which searches what the search has not solved yet)."""
    game = search.game
    if guess is None:
        _, guess = search.best_guess(S, history)
    node: dict = {"guess": game.codes[guess], "candidates": int(len(S))}
    row = search.full[guess, S]
    answers = {}
    for sid in np.unique(row).tolist():
        if sid == search.win:
            continue
        answers[_answer_key(game, sid)] = build_tree(search, S[row == sid], history + (guess,))
    if answers:
        node["answers"] = answers
    return node
