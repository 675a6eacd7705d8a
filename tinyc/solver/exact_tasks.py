"""The tasks of the parallel exact search (``exact``) and their scheduler (issue 29).

A first-level part (the candidates left after the opening gave one answer) is solved either
whole by one task (``solve_part``) or, when it is large and several processes work, split by
its second guesses (``solve_guesses``): the guesses go out in the search's trial order
(ascending bound), in tasks of 1, 2, 4, ... up to ``CHUNK`` consecutive guesses, each task
with the best total found so far among the guesses before it as its budget, so that the branch and bound prunes as it does in one process; no guess is
sent once its bound reaches the best total, and none beside the first until one total is
known (the first guess in trial order is usually the best, and a guess with no budget is
searched in full). The part's total is the least exact total, and
its guess the first one in trial order with that total, which is the one-process choice.

The best exact total of each split part is also shared *live* (``Incumbents``, one
``multiprocessing`` shared integer per split part, handed to the workers when they start): a
worker reads it before each guess, between the parts below the guess and at every search
node, and gives its guess up as soon as the shared total reaches the guess's lower bound. A
total from a guess later in trial order counts one more than it is (a tie with it must not
prune an earlier guess), so the part's guess is still the first in trial order with the
least total. With live sharing the guesses after the first go out at once, before any
total is known: they take whatever total comes while they run. On a Dask cluster (no shared
memory) the budget at the start of a task is all a task knows.

Each worker process keeps one ``OptimalSearch`` for the guesses it is given, so its memo of
solved candidate sets serves its later tasks. Below the second guess the ties between equally
good guesses may then break otherwise than in one process (the symmetry classes depend on the
guesses played before a set is first met): the totals are the same, the tree may differ.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import time
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Callable, Iterator

import numpy as np

from .games import Game
from .cluster import CLIENT
from .optimal import OptimalSearch, build_tree
from .pool import ignore_ctrl_c, worker_pool

__all__ = ["solve_part", "solve_guesses", "run_parts", "Part", "Solved", "Tried",
           "Incumbents"]

Part = tuple[int, str, np.ndarray]              # (opening id, answer "b,c", candidates)
Solved = tuple[int, dict | None, int, float]    # (total, subtree, search nodes, CPU s)
Tried = tuple[int, bool, dict | None, int, float]   # (total, exact?, subtree, nodes, CPU s)

#: most second guesses in one task (the first task has 1, then 2, 4, ...)
CHUNK = 32

_SEARCH: dict = {}     # per worker process: (game, max_depth, sym_depth) -> OptimalSearch
_SHARED: list = [None]     # per worker process: the Incumbents of the run, if any


class Incumbents:
    """The best exact total found so far in each split part, in shared memory, as
    ``(total, trial index of its guess)`` packed into one 64-bit integer per part, so that
    one locked compare-and-store keeps the least pair. ``slots``: how many parts. Pass it to
    the worker processes when they start (``worker_pool``'s initargs), not with a task."""

    SHIFT = 20                      # trial indexes below 2**20 (a game of up to 1M codes)
    NONE = (1 << 62) - 1            # no total yet

    def __init__(self, slots: int):
        self.values = multiprocessing.Array("q", [self.NONE] * max(1, slots))

    def offer(self, slot: int, total: int, index: int) -> None:
        """Keep (total, index) in ``slot`` if it is less than what is there."""
        packed = (min(total, self.NONE >> self.SHIFT) << self.SHIFT) | index
        with self.values.get_lock():
            if packed < self.values[slot]:
                self.values[slot] = packed

    def ceiling(self, slot: int, index: int, inf: int) -> int:
        """The total the guess of trial index ``index`` must get below to count: the best
        total of ``slot``, plus 1 if a later guess found it (``inf`` if none yet)."""
        packed = self.values[slot]
        if packed == self.NONE:
            return inf
        total, at = packed >> self.SHIFT, packed & ((1 << self.SHIFT) - 1)
        return total if at < index else total + 1


def _init_worker(incumbents: Incumbents | None) -> None:
    ignore_ctrl_c()
    _SHARED[0] = incumbents


def solve_part(game: Game, opening: int, cands: np.ndarray, max_depth: int | None,
               sym_depth: int) -> Solved:
    """Exact total and subtree of the candidates left after ``opening`` gave one answer
    (a worker's task; a total of ``OptimalSearch.INF`` means no tree within the limit)."""
    c0 = time.process_time()
    search = OptimalSearch(game, max_depth=max_depth, sym_depth=sym_depth)
    total = search.solve(cands, search.INF, (opening,))
    tree = None if total >= search.INF else build_tree(search, cands, (opening,))
    return int(total), tree, search.nodes, time.process_time() - c0


def solve_guesses(game: Game, opening: int, cands: np.ndarray, guesses: list[int],
                  budget: int, max_depth: int | None, sym_depth: int,
                  live: tuple[int, list[int]] | None = None) -> list[Tried]:
    """The part ``cands`` (after ``opening``) played from each of ``guesses`` (in trial
    order) in turn: a guess's exact total and subtree if the total is below ``budget`` and
    below every exact total of the guesses before it here, else (a lower bound of that
    budget, False, None). One task, so that guesses pruned at once cost no round trip.
    ``live``: (slot, trial indexes of ``guesses``) in the worker's ``Incumbents``, read
    while searching and given each exact total found (see the module docstring)."""
    key = (game, max_depth, sym_depth)
    search = _SEARCH.get(key)
    if search is None:
        search = _SEARCH[key] = OptimalSearch(game, max_depth=max_depth, sym_depth=sym_depth)
    shared = _SHARED[0] if live is not None else None
    depth_left = None if max_depth is None else max_depth - 1
    out: list[Tried] = []
    for k, guess in enumerate(guesses):
        c0, nodes = time.process_time(), search.nodes
        if shared is not None and live is not None:
            slot, index = live[0], live[1][k]
            search.ceiling = lambda: shared.ceiling(slot, index, search.INF)
        try:
            total, g = search._expand(cands, budget, (opening,), depth_left, fixed=guess)
        finally:
            search.ceiling = None
        exact = g >= 0
        tree = build_tree(search, cands, (opening,), guess) if exact else None
        if exact:
            budget = total
            if shared is not None and live is not None:
                shared.offer(live[0], int(total), live[1][k])
        out.append((int(total), exact, tree, search.nodes - nodes, time.process_time() - c0))
    return out


class _Whole:
    """A part solved by one task."""

    def __init__(self, part: Part):
        self.part, self.sent, self.result = part, False, None

    def next_task(self, args):
        if self.sent:
            return None
        self.sent = True
        return None, solve_part, (args[0], self.part[0], self.part[2], *args[1:])

    def take(self, tag, result, note) -> None:
        self.result = result

    def done(self) -> bool:
        return self.result is not None


class _Split:
    """A part solved by its second guesses (see the module docstring). ``tried``: guess ->
    Tried already known (from a checkpoint)."""

    def __init__(self, search: OptimalSearch, part: Part, tried: dict[int, Tried],
                 shared: Incumbents | None = None, slot: int = 0):
        self.part, self.inf, self.shared, self.slot = part, search.INF, shared, slot
        largest = (None if search.max_depth is None      # the guess limit's cap on a part
                   else search._cap[max(0, search.max_depth - 2)])
        guesses, bounds = search._candidate_guesses(part[2], (part[0],), largest=largest)
        self.guesses, self.bounds = guesses.tolist(), bounds.tolist()
        self.tried = dict(tried)
        self.next, self.flying, self.chunk = 0, 0, 1
        self.best: tuple[int, int] = (self.inf, len(self.guesses))   # (total, trial index)
        for i, g in enumerate(self.guesses):
            if g in self.tried and self.tried[g][1]:
                self.best = min(self.best, (self.tried[g][0], i))
        if shared is not None and self.best[0] < self.inf:
            shared.offer(slot, *self.best)

    def next_task(self, args):
        if self.best[0] >= self.inf and self.flying and self.shared is None:
            return None          # no total yet: a second guess sent now would have no budget
        chunk: list[int] = []    # trial indexes, sent as one task
        while self.next < len(self.guesses) and len(chunk) < self.chunk:
            i = self.next
            if self.bounds[i] >= self.best[0]:
                self.next = len(self.guesses)      # the bounds ascend: none of the rest can win
                break
            self.next += 1
            if self.guesses[i] not in self.tried:
                chunk.append(i)
        if not chunk:
            return None
        self.flying += 1
        self.chunk = min(2 * self.chunk, CHUNK)
        o, _, cands = self.part
        guesses = [self.guesses[i] for i in chunk]
        live = None if self.shared is None else (self.slot, chunk)
        return chunk, solve_guesses, (args[0], o, cands, guesses, self.best[0], *args[1:], live)

    def take(self, chunk: list[int], results: list[Tried], note) -> None:
        self.flying -= 1
        for i, result in zip(chunk, results):
            self.tried[self.guesses[i]] = result
            if result[1]:
                self.best = min(self.best, (result[0], i))
            note(self.part, self.guesses[i], result)

    def done(self) -> bool:
        return self.next >= len(self.guesses) and self.flying == 0

    @property
    def result(self) -> Solved:
        total, i = self.best
        runs = self.tried.values()
        nodes, cpu = sum(r[3] for r in runs), sum(r[4] for r in runs)
        if total >= self.inf:
            return self.inf, None, nodes, cpu
        return total, self.tried[self.guesses[i]][2], nodes, cpu


def run_parts(search: OptimalSearch, todo: list[Part], jobs: int, max_depth, sym_depth,
              record: Callable[[Part, Solved], None], split_part: int,
              tried: dict[tuple[int, str], dict[int, Tried]],
              note: Callable[[Part, int, Tried], None]) -> None:
    """Solve the parts of ``todo`` with ``jobs`` processes (in this one if ``jobs`` is 1;
    largest first, but smallest first with one process), calling ``record(part, solved)``
    as each ends. A part of at least ``split_part`` candidates is split by its second guesses, ``tried`` giving the guesses
    already tried per (opening, answer) and ``note(part, guess, tried)`` called as each guess
    ends (with one process too, so that a checkpoint keeps them: the guesses are then tried
    one after another in one search, as the one-process search tries them)."""
    game = search.game
    args = (game, max_depth, sym_depth)
    # several processes: largest first (the long tasks start early); one: smallest first
    # (as many parts proved as soon as possible, for a run that may not finish)
    todo = sorted(todo, key=lambda p: -len(p[2]) if jobs > 1 else len(p[2]))
    big = [p for p in todo if len(p[2]) >= split_part]
    shared = Incumbents(len(big)) if big and not CLIENT and jobs > 1 else None   # none on Dask
    slots = {(p[0], p[1]): k for k, p in enumerate(big)}
    sources: list = [_Split(search, p, tried.get((p[0], p[1]), {}), shared, slots[p[0], p[1]])
                     if len(p[2]) >= split_part else _Whole(p) for p in todo]
    flying: dict = {}
    pool = worker_pool(jobs, _init_worker, (shared,)) if jobs > 1 else _inline()
    with pool as executor:
        while sources:
            for src in list(sources):
                while len(flying) < jobs:
                    task = src.next_task(args)
                    if task is None:
                        break
                    tag, fn, fargs = task
                    flying[executor.submit(fn, *fargs)] = (src, tag)
                if src.done():
                    sources.remove(src)
                    record(src.part, src.result)
            if not flying:
                continue
            finished, _ = wait(flying, return_when=FIRST_COMPLETED)
            for fut in finished:
                src, tag = flying.pop(fut)
                src.take(tag, fut.result(), note)


class _InlineExecutor(Executor):
    """Runs each task in this process when it is submitted (``run_parts`` with one job)."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        fut: Future = Future()
        fut.set_result(fn(*args, **kwargs))     # an exception (Ctrl-C) goes to the caller
        return fut


@contextlib.contextmanager
def _inline() -> Iterator[Executor]:
    _SHARED[0] = None
    try:
        yield _InlineExecutor()
    finally:
        _SEARCH.clear()        # this process's memo of the split parts: not kept after the run
