"""Solve chosen first-level parts of an exact search into its checkpoint (plain script).

    PYTHONPATH=src python benchmarks/solver_parts.py --game bulls-cows --opening 0123 \\
        --checkpoint bc.db                         # every part, smallest first
    PYTHONPATH=src python benchmarks/solver_parts.py --game bulls-cows-1to9 --opening 1234 \\
        --depth-limit 6 --checkpoint d6.db --parts 0,1 --seed-tree TREE.json.gz

The file is the one ``tinyc-solver tree --strategy optimal --checkpoint FILE`` writes and
reads (same identity), so that command, run afterwards with the same game, opening and guess
limit, resumes from the parts solved here and prints the whole tree. Unlike the command,
this one process takes the parts smallest first (or only ``--parts``), so a run that cannot
finish proves as many parts as it can; several such processes may share one file.

``--seed-tree FILE``: with ``--depth-limit N``, a part whose subtree in FILE (an optimal
tree of the same game and opening without the limit) already needs at most N guesses is
recorded with that subtree and its total: no tree within the limit can cost less than the
unlimited optimum, and this one attains it.

``--upper FILE``: a JSON object answer -> subtree (within the guess limit, e.g. the
unlimited optimum's subtree with its too-deep branches searched again under the limit):
the part is searched with that subtree's total U as its budget. A total below U found by
the search is exact and its tree is used; otherwise no tree costs less than U, and the given
subtree, which costs U, is recorded.

``--budget N``: the parts are searched with budget N (a guess whose bound reaches N is not
tried): a total below N is exact and recorded; otherwise the part costs at least N (printed,
not recorded). Near the optimum this is much cheaper than a search without a budget.
Printed per part: total, nodes, CPU seconds.
"""
from __future__ import annotations

import argparse
import json
import resource
import time

import numpy as np

from tinyc.solver import get_game
from tinyc.solver.exact import Checkpoint, _identity, _parts
from tinyc.solver.exact_tasks import solve_part
from tinyc.solver.optimal import OptimalSearch, build_tree
from tinyc.solver.tree import load_tree_file


def depth(node: dict) -> int:
    """Guesses a subtree needs at most (its root's guess is 1)."""
    return 1 + max((depth(c) for c in node.get("answers", {}).values()), default=0)


def total(node: dict) -> int:
    """Total guesses a subtree spends on its candidates (each pays every guess it sees)."""
    return node["candidates"] + sum(total(c) for c in node.get("answers", {}).values())


def below(game, opening: int, cands: np.ndarray, limit: int | None, sub: dict):
    """The part searched with the total of ``sub`` (a subtree within ``limit``) as budget:
    (total, tree, nodes, CPU s), from the search if it found less, else ``sub``'s."""
    if limit is not None and depth(sub) > limit - 1:
        raise SystemExit(f"the --upper subtree needs {depth(sub) + 1} guesses")
    c0 = time.process_time()
    search = OptimalSearch(game, max_depth=limit)
    cap = total(sub)
    got = search.solve(cands, cap, (opening,))
    tree = build_tree(search, cands, (opening,)) if got < cap else sub
    print(f"  budget {cap}: the search {'found ' + str(got) if got < cap else 'proved it least'}",
          flush=True)
    return min(got, cap), tree, search.nodes, time.process_time() - c0


def budgeted(game, opening: int, cands: np.ndarray, limit: int | None, budget: int):
    """(total, tree, nodes, CPU s) of the part if its total is below ``budget``, else None
    (printed: it costs at least ``budget``)."""
    c0 = time.process_time()
    search = OptimalSearch(game, max_depth=limit)
    got = search.solve(cands, budget, (opening,))
    cpu = time.process_time() - c0
    if got >= budget:
        print(f"  at least {got}: nothing below the budget {budget} ({search.nodes} nodes, "
              f"{cpu:.1f} s CPU)", flush=True)
        return None
    return got, build_tree(search, cands, (opening,)), search.nodes, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--opening", required=True)
    ap.add_argument("--depth-limit", type=int)
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--parts", nargs="*", help="answers such as 0,1 (default: all)")
    ap.add_argument("--seed-tree", help="an unlimited optimal tree (see the docstring)")
    ap.add_argument("--upper", help="JSON answer -> subtree: budgets (see the docstring)")
    ap.add_argument("--budget", type=int, help="search below this total only")
    args = ap.parse_args()
    game = get_game(args.game)
    opening = game.code_id(args.opening)
    search = OptimalSearch(game, max_depth=args.depth_limit)
    parts = sorted(_parts(search, [opening]), key=lambda p: len(p[2]))
    ck = Checkpoint(args.checkpoint, _identity(game, args.depth_limit, 2))
    seed = load_tree_file(args.seed_tree)["tree"]["answers"] if args.seed_tree else {}
    upper = json.load(open(args.upper, encoding="utf-8")) if args.upper else {}
    for o, a, cands in parts:
        if args.parts and a not in args.parts or (o, a) in ck.parts():
            continue
        sub = seed.get(a)
        if sub is not None and (args.depth_limit is None or depth(sub) <= args.depth_limit - 1):
            ck.put(o, a, len(cands), (total(sub), sub, 0, 0.0))
            print(f"{a}: {len(cands)} candidates, total {total(sub)} from the seed tree "
                  f"(depth {depth(sub) + 1})", flush=True)
            continue
        t0 = time.perf_counter()
        if a in upper:
            solved = below(game, o, np.asarray(cands), args.depth_limit, upper[a])
        elif args.budget is not None:
            solved = budgeted(game, o, np.asarray(cands), args.depth_limit, args.budget)
            if solved is None:
                continue
        else:
            solved = solve_part(game, o, np.asarray(cands), args.depth_limit, 2)
        ck.put(o, a, len(cands), solved)
        print(f"{a}: {len(cands)} candidates, total {solved[0]}, {solved[2]} nodes, "
              f"{solved[3]:.1f} s CPU, {time.perf_counter() - t0:.1f} s wall, peak RSS "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB", flush=True)
    ck.close()


if __name__ == "__main__":
    main()
