"""Play a strategy against every secret (or the first N) and summarise the tries.

The secrets are played in ascending order, one strategy object for the whole run (so the
``random`` strategy's generator state runs through every game, as in bca.tc). A deterministic
strategy's evaluation walks its decision tree instead (``treewalk``): each node's guess is
computed once, and each node's candidate set is split once by score, which is what makes a
full Knuth evaluation fast and lets ``--jobs`` split the work by subtree (``parallel``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from .games import Game, GameError
from .playing import DEFAULT_MAX_GUESSES, GameResult, play
from .strategies import Strategy, make_strategy
from .table import ScoreTable, score_table

__all__ = ["Evaluation", "GameResult", "play", "evaluate", "DEFAULT_MAX_GUESSES"]

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
    def solved(self) -> int:
        """Number of secrets found."""
        return sum(self.histogram.values())

    @property
    def unsolved(self) -> int:
        """Number of secrets not found (``failed``)."""
        return len(self.failed)

    @property
    def average(self) -> float:
        """Average tries of the solved games (float)."""
        return float(self.average_exact)

    def as_json(self) -> dict:
        """The ``--json`` object: exactly game, strategy, secrets, solved, unsolved, histogram,
        total, average, worst, seconds (histogram keys are strings, JSON's only key type;
        total, average and histogram cover the solved secrets only)."""
        return {
            "game": self.game, "strategy": self.strategy, "secrets": self.secrets,
            "solved": self.solved, "unsolved": self.unsolved,
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "total": self.total, "average": self.average, "worst": self.worst,
            "seconds": round(self.seconds, 4),
        }


def _play_range(strat: Strategy, table: ScoreTable, lo: int, hi: int, max_guesses: int,
                progress=None) -> list[GameResult]:
    """Play secrets lo..hi-1 one after the other with one strategy object (per-secret play;
    a deterministic strategy shares one cache of its guesses per history)."""
    cache: dict = {}
    out = []
    for secret in range(lo, hi):
        out.append(play(strat, table, secret, max_guesses, cache))
        if progress is not None:
            progress(1)
    return out


def _results(game: Game, strat: Strategy, table: ScoreTable, n: int, max_guesses: int,
             jobs: int, by: str, progress) -> list[GameResult]:
    """Every secret's GameResult, in secret order, by the method ``by`` (see ``evaluate``)."""
    from . import parallel, treewalk
    if by == "auto":
        by = "tree" if strat.deterministic and strat.uses_candidates else "secret"
    if by == "tree":
        if not (strat.deterministic and strat.uses_candidates):
            raise ValueError(f"the {strat.name} strategy has no decision tree to walk")
        root = treewalk.root_node(game.size, n)
        if jobs > 1 and n > 1:
            results = parallel.by_subtree(game, strat, root, max_guesses, jobs, progress)
        else:
            results = treewalk.walk(strat, table, root, max_guesses, progress)
        return sorted(results, key=lambda r: r.secret)
    if by != "secret":
        raise ValueError(f"by must be auto, tree or secret, not {by!r}")
    if jobs > 1 and n > 1:
        return parallel.by_secret(game, strat, n, max_guesses, jobs, progress)
    return _play_range(strat, table, 0, n, max_guesses, progress)


def evaluate(game: Game, strategy: str | Strategy, first: int | None = None,
             max_guesses: int = DEFAULT_MAX_GUESSES, keep_games: bool = False,
             progress: Callable[[int], None] | None = None, jobs: int = 1,
             by: str = "auto", **options) -> Evaluation:
    """Play every secret of ``game`` in ascending order (or the first ``first``).

    ``strategy``: a name (built with ``options``, e.g. seed=N) or a Strategy object.
    ``progress(k)`` is called as k more games are done. ``by``: "tree" walks the decision
    tree of a deterministic strategy, computing each node's guess once (``treewalk``);
    "secret" plays every secret on its own (``play``; a deterministic strategy caches its
    guess per history); "auto" (default) takes "tree" for the deterministic strategies that
    use the candidate set, else "secret". ``jobs`` > 1 uses that many processes
    (``parallel``): by subtree for "tree", by chunks of secrets for "secret". The result is
    the same for every ``by`` and ``jobs`` (``seconds`` aside). Raises GameError if the
    strategy cannot be split (``random`` carries one generator through all games in order).
    Returns an ``Evaluation``.
    """
    table = score_table(game)
    strat = make_strategy(strategy, game, table, **options) if isinstance(strategy, str) else strategy
    n = game.size if first is None else max(0, min(int(first), game.size))
    if jobs < 1:
        raise GameError("--jobs must be at least 1")
    t0 = time.perf_counter()
    if jobs > 1 and n > 1 and not strat.splittable:
        raise GameError(f"the {strat.name} strategy plays the secrets in one sequence "
                        "(one generator for all games); it cannot use --jobs")
    results = _results(game, strat, table, n, max_guesses, jobs, by, progress)
    hist: dict[int, int] = {}
    failed, repeated, games = [], [], []
    for r in results:
        if r.solved:
            hist[len(r.guesses)] = hist.get(len(r.guesses), 0) + 1
        else:
            failed.append(r)
        if r.repeated:
            repeated.append(r)
        if keep_games:
            games.append(r)
    seconds = time.perf_counter() - t0
    hist = dict(sorted(hist.items()))
    solved = sum(hist.values())
    total = sum(k * v for k, v in hist.items())
    return Evaluation(
        game=game.name, strategy=strat.name, secrets=n, histogram=hist, total=total,
        average_exact=Fraction(total, solved) if solved else Fraction(0), worst=max(hist, default=0),
        seconds=seconds, failed=failed, repeated=repeated, games=games if keep_games else None)
