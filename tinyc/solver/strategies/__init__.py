"""Guessing strategies, one file each, all with the ``Strategy`` interface (see base.py).

``STRATEGIES`` maps the command-line name to the class; ``make_strategy`` builds one.
"""
from __future__ import annotations

from ..games import Game, GameError
from ..table import ScoreTable, score_table
from .base import Strategy
from .entropy import Entropy
from .entropy_consistent import EntropyConsistent
from .expected_size import ExpectedSize
from .knuth import Knuth
from .most_parts import MostParts
from .phase import Phase, PhaseStuck
from .phase_wrap import PhaseWrap
from .random_consistent import RandomConsistent

__all__ = ["Strategy", "STRATEGIES", "make_strategy", "PhaseStuck"]

STRATEGIES: dict[str, type[Strategy]] = {cls.name: cls for cls in [
    RandomConsistent, Knuth, ExpectedSize, Entropy, EntropyConsistent, MostParts, Phase, PhaseWrap,
]}


def make_strategy(name: str, game: Game, table: ScoreTable | None = None, **options) -> Strategy:
    """A new strategy object by name; options (e.g. seed=, divisor=) go to its constructor.

    Raises GameError for an unknown name or a game the strategy cannot play.
    """
    cls = STRATEGIES.get(name)
    if cls is None:
        raise GameError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    return cls(game, table if table is not None else score_table(game), **options)
