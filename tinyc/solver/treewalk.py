"""Evaluation of a deterministic strategy by walking its decision tree (issue 29).

A deterministic strategy's guess depends on the history alone, so the games of all secrets
form one decision tree. A node is a history (the (guess, score) pairs played) with its
candidate set (the codes consistent with it, ascending) and the secrets being evaluated
among them. The node's guess is computed once; the candidates are then split by their score
against it (the partition), and each non-winning answer is a child node. The secret equal to
the guess is solved at this node, with one guess more than the history holds.

The children of a node are independent, which is what ``parallel.py`` hands to other
processes. Every secret's game is the one ``evaluate.play`` plays for it (same guesses, same
reasons for unsolved games): the candidate set of a child is filtered stably, as the player
filters it, so the strategy sees exactly the same arguments.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .playing import GameResult
from .strategies import Strategy
from .table import ScoreTable

__all__ = ["Node", "root_node", "guess_at", "settle", "walk", "fail_all"]


@dataclass
class Node:
    """One node of the decision tree. ``history``: ((guess id, score id), ...);
    ``cands``: int array of the consistent code ids, ascending; ``mask``: bool array aligned
    with ``cands``, True for the secrets being evaluated (only nodes with one are kept)."""

    history: tuple[tuple[int, int], ...]
    cands: np.ndarray
    mask: np.ndarray

    @property
    def weight(self) -> int:
        """Number of secrets evaluated below this node (the size used to balance tasks)."""
        return int(np.count_nonzero(self.mask))

    @property
    def path(self) -> list[int]:
        """The guesses (code ids) played to reach this node."""
        return [g for g, _ in self.history]

    def secrets(self) -> np.ndarray:
        """Code ids of the secrets evaluated below this node, ascending."""
        return self.cands[self.mask]


def root_node(n_codes: int, secrets: int) -> Node:
    """The empty history: every code a candidate, the first ``secrets`` code ids evaluated."""
    mask = np.zeros(n_codes, dtype=bool)
    mask[:secrets] = True
    return Node((), np.arange(n_codes), mask)


def fail_all(node: Node, reason: str) -> list[GameResult]:
    """Every secret below ``node`` unsolved for ``reason``, with the node's guesses."""
    path = node.path
    return [GameResult(int(s), list(path), False, reason) for s in node.secrets()]


def guess_at(strat: Strategy, node: Node, max_guesses: int) -> int | str:
    """The strategy's guess (code id) at ``node``, or the reason its secrets are not solved
    (the guess limit reached, or the strategy's own RuntimeError: TreeGap, a stuck phase)."""
    if len(node.history) >= max_guesses:
        return f"not solved in {max_guesses} guesses"
    strat.reset()
    try:
        return int(strat.next_guess(node.cands, list(node.history)))
    except RuntimeError as exc:
        return str(exc)


def settle(table: ScoreTable, node: Node, guess: int | str) -> tuple[list[GameResult], list[Node]]:
    """Play ``guess`` (or fail with its text) at ``node``: the games that end here, and the
    child nodes, one per non-winning answer that holds an evaluated secret."""
    if isinstance(guess, str):
        return fail_all(node, guess), []
    game = table.game
    cands, mask = node.cands, node.mask
    if table.full is not None:
        row = table.full[guess, cands]
    else:
        row = table.block([guess], cands)[0]
    order = np.argsort(row, kind="stable")      # stable: each part stays ascending
    cuts = np.flatnonzero(np.diff(row[order])) + 1
    done: list[GameResult] = []
    children: list[Node] = []
    for part in np.split(order, cuts):
        sc = int(row[part[0]])
        if sc == game.win:                       # the part is the guess itself
            if mask[part[0]]:
                done.append(GameResult(guess, node.path + [guess], True))
            continue
        m = mask[part]
        if m.any():
            children.append(Node(node.history + ((guess, sc),), cands[part], m))
    return done, children


def walk(strat: Strategy, table: ScoreTable, node: Node, max_guesses: int,
         progress: Callable[[int], None] | None = None,
         stats: dict | None = None) -> list[GameResult]:
    """Play every secret below ``node`` by walking its subtree depth first; returns their
    GameResults (in no particular order). ``progress(k)`` is called as k more games end;
    ``stats["nodes"]`` (if given) counts the nodes visited, one guess computed at each."""
    out: list[GameResult] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        if stats is not None:
            stats["nodes"] = stats.get("nodes", 0) + 1
        done, children = settle(table, cur, guess_at(strat, cur, max_guesses))
        out.extend(done)
        if progress is not None and done:
            progress(len(done))
        stack.extend(children)
    return out
