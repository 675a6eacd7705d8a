"""Benchmark of ``evaluate --jobs`` (plain script: prints figures, asserts nothing).

    PYTHONPATH=. python benchmarks/solver_jobs.py [--jobs 2]

Wall seconds of full evaluations with 1 and N processes, and whether the results are equal.
"""
from __future__ import annotations

import argparse
import time

from tinyc.solver import evaluate, get_game


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    for game, strat in [("bulls-cows", "knuth"), ("bulls-cows", "entropy"),
                        ("hex", "phase-fixed")]:
        g = get_game(game)
        row = []
        res = []
        for jobs in (1, args.jobs):
            t0 = time.perf_counter()
            ev = evaluate(g, strat, jobs=jobs)
            row.append(time.perf_counter() - t0)
            res.append((ev.histogram, ev.total, ev.unsolved))
        print(f"{game:12s} {strat:12s} jobs 1: {row[0]:7.2f} s   jobs {args.jobs}: {row[1]:7.2f} s"
              f"   equal: {res[0] == res[1]}   total {res[0][1]}")


if __name__ == "__main__":
    main()
