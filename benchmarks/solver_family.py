"""The exact search on the family "4 distinct symbols of k" (plain script; issue 29's hex
estimate): the optimum from the opening of the first four symbols, its search nodes, CPU
and wall seconds and peak memory, in one process.

    PYTHONPATH=src python benchmarks/solver_family.py 6 7 8     # seconds
    PYTHONPATH=src python benchmarks/solver_family.py 9         # bulls-cows-1to9: half a minute

k = 9 is bc.tc's game (1-9), k = 10 Bulls and Cows (0-9: about 12 CPU minutes), k = 16 hex
(out of reach).
"""
from __future__ import annotations

import resource
import sys
import time

from tinyc.solver.exact import exact_tree
from tinyc.solver.games import Game


def run(k: int) -> str:
    """One line of figures for k symbols."""
    symbols = "123456789"[:k] if k < 10 else "0123456789ABCDEF"[:k]
    game = Game(f"distinct-{k}", symbols, 4, repeats=False)
    c0, t0 = time.process_time(), time.perf_counter()
    doc = exact_tree(game, game.code_id(symbols[:4]), jobs=1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return (f"k={k} codes={game.size} total={doc['total']} nodes={doc['search']['nodes']} "
            f"cpu={time.process_time() - c0:.1f} wall={time.perf_counter() - t0:.1f} "
            f"peak={peak}MiB")


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["6", "7", "8"]:
        print(run(int(arg)), flush=True)
