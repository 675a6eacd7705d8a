"""``evaluate --jobs N``: the work of an evaluation spread over N processes (issue 29).

* A deterministic strategy (knuth, entropy, ..., optimal, tree) is split by subtree of its
  decision tree (``treewalk``). Nodes holding more than 1/(8 N) of the secrets are
  *expanded*: one process computes the node's guess, this process splits the candidate set
  by score and queues the children. Smaller nodes are *subtree* tasks: one process plays its
  whole subtree. Every node's guess is thus computed exactly once in the whole run, as with
  one process, and the first levels of the tree are computed in parallel too. The ready
  nodes wait here, largest first, and at most N tasks are in flight, so the large subtrees
  start early and the small ones fill the end (longest-processing-time-first scheduling).
* Other strategies that may be split (the phase strategies, which keep state in a game) are
  split by secret: contiguous chunks of secrets, each process playing its chunks.
* ``random`` carries one generator through all games and is never split (``evaluate``).

The processes come from ``concurrent.futures.ProcessPoolExecutor``; each builds the
strategy once from ``Strategy.worker_spec()`` and uses the process's score table.
"""
from __future__ import annotations

import heapq
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Callable

from .games import Game
from .playing import GameResult, play
from .pool import WorkerLost, ignore_ctrl_c, worker_pool
from .strategies import Strategy, make_strategy
from .table import score_table
from .treewalk import Node, guess_at, settle, walk

__all__ = ["by_subtree", "by_secret", "SPLIT_FACTOR", "WorkerLost"]

#: a node with more than total / (SPLIT_FACTOR * jobs) secrets is expanded, not handed out
SPLIT_FACTOR = 8

_WORKER: dict = {}


Progress = Callable[[int], None] | None


def _init_worker(game: Game, name: str, options: dict) -> None:
    ignore_ctrl_c()
    table = score_table(game)
    _WORKER["table"] = table
    _WORKER["strategy"] = make_strategy(name, game, table, **options)


def _guess_task(node: Node, max_guesses: int) -> int | str:
    return guess_at(_WORKER["strategy"], node, max_guesses)


def _subtree_task(node: Node, max_guesses: int) -> tuple[list[GameResult], int]:
    stats: dict = {}
    return walk(_WORKER["strategy"], _WORKER["table"], node, max_guesses, stats=stats), stats["nodes"]


def _secret_task(task: tuple[int, int, int]) -> list[GameResult]:
    lo, hi, max_guesses = task
    strat, table = _WORKER["strategy"], _WORKER["table"]
    return [play(strat, table, s, max_guesses) for s in range(lo, hi)]


def _pool(game: Game, strat: Strategy, jobs: int):
    return worker_pool(jobs, _init_worker, (game, *strat.worker_spec()))


def by_subtree(game: Game, strat: Strategy, root: Node, max_guesses: int, jobs: int,
               progress: Progress = None, stats: dict | None = None) -> list[GameResult]:
    """Play every secret below ``root`` with ``jobs`` processes, split by subtree (see the
    module docstring). Returns the GameResults in no particular order; a worker's exception
    (a malformed tree, say) is raised here. ``stats`` (if given) receives "expanded" (nodes
    whose guess one task computed), "subtrees" (the weights of the subtree tasks), "nodes"
    (all nodes, expanded or walked: each one guess computed) and "split" (the largest
    weight of a subtree task)."""
    stats = {} if stats is None else stats
    stats.update(expanded=0, subtrees=[], nodes=0)
    table = score_table(game)
    split = stats["split"] = max(1, root.weight // (SPLIT_FACTOR * jobs))
    ready: list[tuple[int, int, Node]] = []    # (-weight, sequence number, node): a heap
    seq = 0

    def push(node: Node) -> None:
        nonlocal seq
        heapq.heappush(ready, (-node.weight, seq, node))
        seq += 1

    push(root)
    out: list[GameResult] = []
    flying: dict[Future, Node | None] = {}     # None: a subtree task
    with _pool(game, strat, jobs) as pool:
        while ready or flying:
            while ready and len(flying) < jobs:
                _, _, node = heapq.heappop(ready)
                if node.weight > split:
                    flying[pool.submit(_guess_task, node, max_guesses)] = node
                    stats["expanded"] += 1
                else:
                    flying[pool.submit(_subtree_task, node, max_guesses)] = None
                    stats["subtrees"].append(node.weight)
            finished, _ = wait(flying, return_when=FIRST_COMPLETED)
            for fut in finished:
                expanded = flying.pop(fut)
                if expanded is None:
                    done, walked = fut.result()
                    stats["nodes"] += walked
                else:
                    stats["nodes"] += 1
                    done, children = settle(table, expanded, fut.result())
                    for child in children:
                        push(child)
                out.extend(done)
                if progress is not None and done:
                    progress(len(done))
    return out


def by_secret(game: Game, strat: Strategy, n: int, max_guesses: int, jobs: int,
              progress: Progress = None) -> list[GameResult]:
    """Play secrets 0..n-1 with ``jobs`` processes, in contiguous chunks (for strategies
    that keep state within a game); returns the GameResults in secret order."""
    step = max(1, -(-n // (jobs * 8)))
    tasks = [(lo, min(n, lo + step), max_guesses) for lo in range(0, n, step)]
    results: list[list[GameResult]] = [[] for _ in tasks]
    with _pool(game, strat, jobs) as pool:
        futures = {pool.submit(_secret_task, t): k for k, t in enumerate(tasks)}
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                k = futures[fut]
                results[k] = fut.result()
                if progress is not None:
                    progress(tasks[k][1] - tasks[k][0])
    return [r for chunk in results for r in chunk]
