"""Guessing strategies, one file each, all with the ``Strategy`` interface (see base.py).

``STRATEGIES`` maps the command-line name to the class; ``make_strategy`` builds one.
"""
from __future__ import annotations

from ..games import Game, GameError
from ..table import ScoreTable, score_table
from .base import Strategy
from .entropy import Entropy
from .entropy_consistent import EntropyConsistent
from .entropy_int import EntropyInt
from .expected_size import ExpectedSize
from .knuth import Knuth
from .most_parts import MostParts
from .optimal import Optimal, TreeGap, TreeStrategy
from .partition import PartitionStrategy
from .phase import Phase, PhaseStuck
from .phase_fixed import PhaseFixed
from .phase_wrap import PhaseWrap
from .random_consistent import RandomConsistent

__all__ = ["Strategy", "STRATEGIES", "make_strategy", "PhaseStuck", "TreeGap"]

_CLASSES: list[type[Strategy]] = [
    RandomConsistent, Knuth, ExpectedSize, Entropy, EntropyConsistent, EntropyInt, MostParts, Optimal,
    TreeStrategy, Phase, PhaseWrap, PhaseFixed,
]
STRATEGIES: dict[str, type[Strategy]] = {cls.name: cls for cls in _CLASSES}


def make_strategy(name: str, game: Game, table: ScoreTable | None = None, **options) -> Strategy:
    """A new strategy object by name; options (e.g. seed=, divisor=) go to its constructor.

    ``opening`` (code text) fixes the first guess: passed to ``optimal`` (the best tree with
    that opening), set on the look-ahead strategies, refused by the others.

    Raises GameError for an unknown name, a game the strategy cannot play, or an opening the
    strategy cannot take.
    """
    cls = STRATEGIES.get(name)
    if cls is None:
        raise GameError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    table = table if table is not None else score_table(game)
    spec = dict(options)
    opening = options.pop("opening", None)
    if opening is None or issubclass(cls, Optimal):
        if opening is not None:
            options["opening"] = opening
        strat = cls(game, table, **options)
    elif not issubclass(cls, PartitionStrategy):
        raise GameError(f"the {name} strategy cannot take a fixed opening")
    else:
        strat = cls(game, table, **options)
        strat.opening = game.code_id(opening)
    strat.spec_options = spec
    return strat
