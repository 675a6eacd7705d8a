"""Benchmark of ``evaluate --jobs`` (plain script: prints figures, asserts nothing).

    python benchmarks/solver_jobs.py [--jobs 2] [--repeat 3] [--case hex:knuth ...]

For every case it runs full evaluations with 1 and with N processes, alternating (1, N, 1,
N, ...) so that a change in the machine's load hits both, and prints the least and the
median wall seconds of each, the CPU seconds (this process and its workers), the speed-up
(least wall of 1 / least wall of N), the parallel efficiency (speed-up / N), how the tree was
split (nodes expanded, subtree tasks) and whether every result equals the one-process result.
The header names the machine (cores, load average) and where tinyc was imported from
(site-packages for a normal install, src/ for an editable one).
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

import tinyc
from tinyc.solver import get_game
from tinyc.solver.evaluate import evaluate
from tinyc.solver.table import score_table

CASES = ["bulls-cows:knuth", "bulls-cows:entropy", "bulls-cows-1to9:most-parts",
         "hex:phase-fixed"]


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _run(game, strat: str, jobs: int, first):
    c0, t0 = _cpu(), time.perf_counter()
    ev = evaluate(game, strat, jobs=jobs, first=first)
    wall = time.perf_counter() - t0
    return wall, _cpu() - c0, (ev.histogram, ev.total, ev.worst, ev.unsolved)


def bench(case: str, jobs: int, repeat: int, first) -> None:
    """Time one game:strategy case with 1 and ``jobs`` processes and print one line."""
    game_name, strat = case.split(":")
    game = get_game(game_name)
    score_table(game)                       # built once per process, outside the timing
    walls: dict[int, list[float]] = {1: [], jobs: []}
    cpus: dict[int, list[float]] = {1: [], jobs: []}
    results: list = []
    for _ in range(repeat):
        for j in (1, jobs):
            wall, cpu, res = _run(game, strat, j, first)
            walls[j].append(wall)
            cpus[j].append(cpu)
            results.append(res)
    best1, bestn = min(walls[1]), min(walls[jobs])
    speed = best1 / bestn
    total = results[0][1]
    equal = all(r == results[0] for r in results)
    print(f"{case:28s} jobs 1: {best1:7.2f} s (median {statistics.median(walls[1]):7.2f}, "
          f"CPU {min(cpus[1]):7.2f})   jobs {jobs}: {bestn:7.2f} s (median "
          f"{statistics.median(walls[jobs]):7.2f}, CPU {min(cpus[jobs]):7.2f})   speed-up "
          f"{speed:4.2f}x   efficiency {speed / jobs:4.0%}   equal: {equal}   "
          f"total {total}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--secrets", type=int, default=None, help="only the first N secrets")
    ap.add_argument("--case", action="append", metavar="GAME:STRATEGY",
                    help=f"default: {' '.join(CASES)}")
    args = ap.parse_args()
    print(f"# {platform.node()}: {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"tinyc {tinyc.__version__} from {os.path.dirname(tinyc.__file__)}, "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    for case in args.case or CASES:
        bench(case, args.jobs, args.repeat, args.secrets)
    print(f"# load average at the end {os.getloadavg()[0]:.2f}", file=sys.stdout)


if __name__ == "__main__":
    main()
