"""The one interface every guessing strategy implements.

A strategy object plays one game (``Game``) with its ``ScoreTable``. The player calls
``reset()`` before each secret, then repeatedly ``next_guess(candidates, history)``:

* ``candidates``: int array of the code ids still consistent with every score so far, in
  ascending order (the player filters stably after each score);
* ``history``: list of (guess id, score id) pairs played in this game so far.

It returns the code id of the next guess. ``deterministic`` strategies return a guess that
depends on ``history`` alone, so the evaluator may cache it; ``uses_candidates = False``
tells the player it need not keep the candidate list (e.g. ``phase``).
"""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..games import Game
from ..table import ScoreTable

__all__ = ["Strategy"]


class Strategy:
    """Base class: subclass, set ``name``/``summary``, implement ``next_guess``."""

    name: str = ""  # per class; an instance may override it (TreeStrategy's label)
    summary: ClassVar[str] = ""
    deterministic: ClassVar[bool] = True
    uses_candidates: ClassVar[bool] = True
    #: games may be played in any order and by several processes (evaluate --jobs)
    splittable: ClassVar[bool] = True

    spec_options: dict[str, Any]  # the options make_strategy built it with (set there, read by worker_spec)

    def __init__(self, game: Game, table: ScoreTable, **options):
        self.game = game
        self.table = table
        if options:
            raise TypeError(f"{self.name}: unknown options {sorted(options)}")

    def worker_spec(self) -> tuple[str, dict]:
        """(strategy name, options) that rebuild an equal strategy in another process
        (``make_strategy(name, game, **options)``); set by ``make_strategy``."""
        return self.name, dict(getattr(self, "spec_options", {}))

    def reset(self) -> None:
        """Start a new game (secret). Default: nothing to forget."""

    def next_guess(self, candidates: np.ndarray | None, history: list[tuple[int, int]]) -> int:
        """Code id of the next guess (``candidates`` is None for a strategy that does not use them)."""
        raise NotImplementedError
