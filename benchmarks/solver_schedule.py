"""What ``evaluate --jobs N`` could reach with N idle cores, from measured task times
(plain script: prints figures, asserts nothing).

    python benchmarks/solver_schedule.py --game hex --strategy knuth --workers 2 4 16

The tasks of ``parallel.by_subtree`` (expand a node; walk a subtree) are run here one at a
time, each timed in CPU seconds of this process (``time.process_time``, which a loaded
machine disturbs far less than wall time). A simulated clock then schedules them exactly as
``by_subtree`` does for N workers: the largest ready node first, at most N tasks at once,
the children of an expanded node ready when its task ends. The simulated wall time
(makespan) against the sum of all task times gives the speed-up and the parallel efficiency
that N idle cores would give, without the cost of starting processes and of passing nodes
and results between them (which the real runs of ``solver_jobs.py`` include). It is an
estimate for machines this project does not have, not a measurement on them.
"""
from __future__ import annotations

import argparse
import heapq
import time

from tinyc.solver import get_game
from tinyc.solver.parallel import SPLIT_FACTOR
from tinyc.solver.strategies import make_strategy
from tinyc.solver.table import score_table
from tinyc.solver.treewalk import guess_at, root_node, settle, walk


def simulate(strat, table, root, max_guesses: int, workers: int) -> tuple[float, float, int]:
    """(makespan, sum of task CPU seconds, number of tasks) for ``workers`` workers."""
    split = max(1, root.weight // (SPLIT_FACTOR * workers))
    ready = [(-root.weight, 0, root)]
    events: list = []                        # (finish time, sequence, children)
    clock, busy, seq, work, tasks = 0.0, 0, 1, 0.0, 0
    while ready or events:
        while ready and busy < workers:
            _, _, node = heapq.heappop(ready)
            t0 = time.process_time()
            if node.weight > split:
                _, children = settle(table, node, guess_at(strat, node, max_guesses))
            else:
                walk(strat, table, node, max_guesses)
                children = []
            d = time.process_time() - t0
            work += d
            tasks += 1
            heapq.heappush(events, (clock + d, seq, children))
            seq += 1
            busy += 1
        clock, _, children = heapq.heappop(events)
        busy -= 1
        for child in children:
            heapq.heappush(ready, (-child.weight, seq, child))
            seq += 1
    return clock, work, tasks


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="bulls-cows")
    ap.add_argument("--strategy", default="knuth")
    ap.add_argument("--workers", type=int, nargs="+", default=[2, 4, 16])
    args = ap.parse_args()
    game = get_game(args.game)
    table = score_table(game)
    for n in args.workers:
        strat = make_strategy(args.strategy, game, table)    # a fresh cache of symmetry
        span, work, tasks = simulate(strat, table, root_node(game.size, game.size), 60, n)
        print(f"{args.game}:{args.strategy} workers {n:3d}: {tasks:5d} tasks, work "
              f"{work:8.2f} CPU s, simulated wall {span:8.2f} s, speed-up {work / span:5.2f}x, "
              f"efficiency {work / span / n:4.0%}", flush=True)


if __name__ == "__main__":
    main()
