"""Benchmark of tinyc.solver (plain script: prints figures, asserts nothing).

    PYTHONPATH=. python benchmarks/bench_solver.py            # timings of the issue-4 targets
    PYTHONPATH=. python benchmarks/bench_solver.py --table    # + every game x strategy (minutes)

Prints: score-table build time per game, full evaluations (Knuth on mastermind and
bulls-cows, random on bca.tc's 300 games with the bca seed, phase on hex), the seed search
speed, peak memory (ru_maxrss), and with --table a Markdown table for docs/solver.md.
"""
from __future__ import annotations

import argparse
import resource
import sys
import time

from tinyc.solver import evaluate, get_game, GAMES, STRATEGIES
from tinyc.solver.seeds import find_seed
from tinyc.solver.table import ScoreTable

BCA_SEED = 3141   # found by tinyc.solver.seeds.find_seed(1, 100000): the only one below 100000

# hex's 43680 codes make the all-codes look-ahead strategies (O(n^2) per tree level) too slow
HEX_STRATEGIES = ("random", "phase", "phase-wrap")


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def line(label, ev):
    extra = f"  NOT SOLVED {len(ev.failed)}" if ev.failed else ""
    print(f"{label:42s} avg {ev.average:.4f} worst {ev.worst:2d} total {ev.total:7d} "
          f"{ev.seconds:8.3f} s{extra}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", action="store_true", help="evaluate every game x strategy")
    args = ap.parse_args()

    print("score tables (computed once per game):")
    for name, g in GAMES.items():
        t0 = time.perf_counter()
        t = ScoreTable(g)
        kind = "full" if t.full is not None else "rows on demand"
        print(f"  {name:16s} {g.size:6d} codes  {time.perf_counter() - t0:6.3f} s  ({kind})")

    print("\nevaluations (table already built):")
    for game, strat, opts, first in [
        ("mastermind", "knuth", {}, None),
        ("bulls-cows-1to9", "knuth", {}, None),
        ("bulls-cows", "knuth", {}, None),
        ("bulls-cows-1to9", "random", {"seed": BCA_SEED}, 300),
        ("hex", "phase", {}, None),
    ]:
        ev = evaluate(get_game(game), strat, first=first, **opts)
        line(f"{game} {strat}" + (f" first {first}" if first else ""), ev)

    t0 = time.perf_counter()
    find_seed(1, 1001)
    print(f"\nseed search: {(time.perf_counter() - t0):.2f} s per 1000 seeds")
    print(f"peak memory so far: {rss_mib():.0f} MiB")

    if args.table:
        rows = []
        for name, g in GAMES.items():
            for s in STRATEGIES:
                if s.startswith("phase") and name != "hex":
                    continue
                if name == "hex" and s not in HEX_STRATEGIES:
                    continue
                ev = evaluate(g, s)
                rows.append((name, s, ev))
                print(f"  {name} {s}: {ev.average:.4f} {ev.worst} {ev.seconds:.2f}s "
                      f"failed {len(ev.failed)} repeated {len(ev.repeated)}", file=sys.stderr)
        print("\n| game | strategy | secrets | average | exact | worst | not solved | seconds |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for name, s, ev in rows:
            a = ev.average_exact
            print(f"| {name} | {s} | {ev.secrets} | {ev.average:.4f} | {a.numerator}/{a.denominator}"
                  f" | {ev.worst} | {len(ev.failed)} | {ev.seconds:.2f} |")
        print(f"\npeak memory: {rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
