"""Play a strategy against every secret (or the first N) and summarise the tries.

The secrets are played in ascending order, one strategy object for the whole run (so the
``random`` strategy's generator state runs through every game, as in bca.tc). A deterministic
strategy's guess for a given history is computed once and reused (a decision tree built as
it is walked), which is what makes a full Knuth evaluation fast.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

from .games import Game
from .strategies import Strategy, make_strategy
from .table import ScoreTable, score_table

__all__ = ["Evaluation", "GameResult", "play", "evaluate", "DEFAULT_MAX_GUESSES"]

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


@dataclass
class Evaluation:
    """Summary of a run. ``histogram``: tries -> number of solved games (ascending tries);
    ``total``: sum of tries of solved games; ``average``: total / solved (float) and
    ``average_exact`` (Fraction); ``worst``: most tries; ``seconds``: wall time.
    ``failed``: unsolved games (capped or stuck); ``repeated``: games with a repeated guess."""

    game: str
    strategy: str
    secrets: int
    histogram: dict[int, int]
    total: int
    average_exact: Fraction
    worst: int
    seconds: float
    failed: list[GameResult] = field(default_factory=list)
    repeated: list[GameResult] = field(default_factory=list)
    games: list[GameResult] | None = None

    @property
    def average(self) -> float:
        """Average tries of the solved games (float)."""
        return float(self.average_exact)

    def as_json(self) -> dict:
        """The ``--json`` object: exactly game, strategy, secrets, histogram, total, average,
        worst, seconds (histogram keys are strings, JSON's only key type)."""
        return {
            "game": self.game, "strategy": self.strategy, "secrets": self.secrets,
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "total": self.total, "average": self.average, "worst": self.worst,
            "seconds": round(self.seconds, 4),
        }


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
    use_cache = cache is not None and strategy.deterministic
    while len(guesses) < max_guesses:
        key = tuple(history)
        g = cache.get(key) if use_cache else None
        if g is None:
            try:
                g = strategy.next_guess(cands, history)
            except RuntimeError as exc:      # e.g. PhaseStuck
                return GameResult(secret, guesses, False, str(exc))
            if use_cache:
                cache[key] = g
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


def evaluate(game: Game, strategy: str | Strategy, first: int | None = None,
             max_guesses: int = DEFAULT_MAX_GUESSES, keep_games: bool = False,
             progress: Callable[[int], None] | None = None, **options) -> Evaluation:
    """Play every secret of ``game`` in ascending order (or the first ``first``).

    ``strategy``: a name (built with ``options``, e.g. seed=N) or a Strategy object.
    ``progress(k)`` is called after each game. Returns an ``Evaluation``.
    """
    table = score_table(game)
    strat = make_strategy(strategy, game, table, **options) if isinstance(strategy, str) else strategy
    n = game.size if first is None else max(0, min(int(first), game.size))
    t0 = time.perf_counter()
    cache: dict = {}
    hist: dict[int, int] = {}
    failed, repeated, games = [], [], []
    for secret in range(n):
        r = play(strat, table, secret, max_guesses, cache)
        if r.solved:
            hist[len(r.guesses)] = hist.get(len(r.guesses), 0) + 1
        else:
            failed.append(r)
        if r.repeated:
            repeated.append(r)
        if keep_games:
            games.append(r)
        if progress is not None:
            progress(1)
    seconds = time.perf_counter() - t0
    hist = dict(sorted(hist.items()))
    solved = sum(hist.values())
    total = sum(k * v for k, v in hist.items())
    return Evaluation(
        game=game.name, strategy=strat.name, secrets=n, histogram=hist, total=total,
        average_exact=Fraction(total, solved) if solved else Fraction(0), worst=max(hist, default=0),
        seconds=seconds, failed=failed, repeated=repeated, games=games if keep_games else None)
