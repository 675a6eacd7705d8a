"""tinyc.solver: Bulls-and-Cows / Mastermind games, strategies and whole-game evaluation.

Independent of the tiny-c interpreter (it imports nothing from ``tinyc`` outside this
package). Modules: games (codes, scoring, bc.tc's 0-13 code), table (NumPy score tables),
rng (tiny-c ``random``), strategies/ (one file per strategy), playing (one game), evaluate,
treewalk (evaluation by decision tree), parallel and pool (``--jobs``), optimal (the exact
search), exact and exact_tasks (it in several processes, with a checkpoint), seeds (bca.tc's seed
search), cli (``tinyc-solver``), interactive (its play command), common (what they share), plot (optional matplotlib).
"""
from .evaluate import Evaluation, evaluate, play
from .games import GAMES, Game, GameError, bc_code, from_bc_code, get_game, score
from .rng import TinyRandom
from .strategies import STRATEGIES, Strategy, make_strategy
from .table import ScoreTable, score_table

__all__ = [
    "GAMES", "Game", "GameError", "get_game", "score", "bc_code", "from_bc_code",
    "TinyRandom", "ScoreTable", "score_table", "Strategy", "STRATEGIES", "make_strategy",
    "Evaluation", "evaluate", "play",
]
