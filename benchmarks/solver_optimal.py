"""Benchmark and generator of the exact optimal trees (plain script: prints figures).

    PYTHONPATH=. python benchmarks/solver_optimal.py --game mastermind --opening 1123
    PYTHONPATH=. python benchmarks/solver_optimal.py --game mastermind            # all 5 openings
    PYTHONPATH=. python benchmarks/solver_optimal.py --game bulls-cows-1to9 --opening 1234 \\
        --write tinyc/solver/trees                                                  # ~minutes

For each run: the optimum, CPU and wall seconds, search nodes, the tree's own histogram, and
the replay of the tree over every secret by ``evaluate`` (the ordinary scorer), which must
give the same total. ``--write DIR`` saves the tree as DIR/GAME-optimal[-OPENING].json.gz
(the name ``packaged_tree`` looks for; without --opening the best opening's tree).
"""
from __future__ import annotations

import argparse
import os
import resource
import time

from tinyc.solver import evaluate, get_game
from tinyc.solver.optimal import OptimalSearch, optimal_tree
from tinyc.solver.strategies import make_strategy
from tinyc.solver.tree import save_tree, tree_stats


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="mastermind")
    ap.add_argument("--opening", help="fix the first guess (default: every opening class)")
    ap.add_argument("--depth-limit", type=int, help="best average with at most N guesses")
    ap.add_argument("--sym-depth", type=int, default=2, help="symmetry at the top N levels")
    ap.add_argument("--write", metavar="DIR", help="save the tree (gzip JSON) in DIR")
    args = ap.parse_args()

    game = get_game(args.game)
    t0, c0 = time.perf_counter(), time.process_time()
    search = OptimalSearch(game, sym_depth=args.sym_depth, max_depth=args.depth_limit,
                           progress=lambda s: print("  " + s, flush=True))
    if args.opening:
        opening = game.code_id(args.opening)
        total = search.best_with_opening(opening)
        print(f"{game.name} opening {args.opening}: total {total} = {total / game.size:.5f}")
    else:
        opening, totals = search.best_opening()
        print(f"{game.name}: best opening {game.codes[opening]}; "
              + ", ".join(f"{game.codes[g]}: {t}" for g, t in totals.items()))
    doc = optimal_tree(search, opening)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    found, total, hist = tree_stats(doc["tree"])
    print(f"search: {cpu:.1f} s CPU, {wall:.1f} s wall, {search.nodes} nodes, "
          f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    print(f"tree: finds {found} of {game.size}, total {total}, worst {max(hist)}, "
          f"histogram {' '.join(f'{k}:{v}' for k, v in hist.items())}")
    strat = make_strategy("tree", game, doc=doc)
    ev = evaluate(game, strat)
    print(f"replay: solved {ev.solved} unsolved {ev.unsolved} total {ev.total} "
          f"average {ev.average:.5f} worst {ev.worst} "
          f"histogram {' '.join(f'{k}:{v}' for k, v in ev.histogram.items())} "
          f"({'agrees' if ev.total == doc['total'] and not ev.failed else 'DISAGREES'})")
    if args.write:
        os.makedirs(args.write, exist_ok=True)
        name = f"{game.name}-optimal" + (f"-{args.opening.upper()}" if args.opening else "") + (
            f"-depth{args.depth_limit}" if args.depth_limit else "") + ".json.gz"
        path = os.path.join(args.write, name)
        save_tree(doc, path)
        print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()
