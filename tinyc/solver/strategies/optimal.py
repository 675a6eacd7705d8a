"""Strategies that follow a decision tree: ``tree`` (a tree document given by the caller, e.g.
``evaluate --tree FILE.json``) and ``optimal`` (the exact least-total tree of
``tinyc.solver.optimal``, Koyama and Lai 1993; shipped precomputed for the small games,
computed by branch-and-bound otherwise).

The guesses come from the tree; the player scores them with the ordinary score table, so an
evaluation is an independent check of the total the tree claims. A history that follows the
tree's guesses but reaches an answer the tree has no branch for raises ``TreeGap`` (the
evaluation reports the secret as not solved). ``optimal`` after moves that leave the tree
(``hint`` with the user's own guesses) searches the remaining candidates instead.
"""
from __future__ import annotations

import sys

from ..games import GameError
from .base import Strategy

__all__ = ["TreeStrategy", "Optimal", "TreeGap"]


class TreeGap(RuntimeError):
    """The tree has no branch for the answer just given."""


class TreeStrategy(Strategy):
    """Follow a tree document (option ``doc``: the dict of ``tinyc.solver.tree``; ``label``:
    the name to report instead of "tree")."""

    name = "tree"
    summary = "follows a decision tree given as JSON (evaluate --tree FILE)"

    def __init__(self, game, table, doc: dict | None = None, label: str | None = None):
        super().__init__(game, table)
        if label is not None:
            self.name = label
        if doc is None:
            raise GameError("the tree strategy needs a tree (evaluate --tree FILE.json)")
        if doc.get("game") != game.name:
            raise GameError(f"the tree is for game {doc.get('game')!r}, not {game.name!r}")
        self.doc = doc
        self.root = doc["tree"]

    def worker_spec(self):
        """Other processes follow the same tree document."""
        return "tree", {"doc": self.doc, "label": self.name}

    def _walk(self, history):
        """The node reached by ``history``, or None if the history left the tree's guesses."""
        node = self.root
        for g, sid in history:
            if node["guess"] != self.game.codes[g]:
                return None
            b, c = self.game.split_score(sid)
            nxt = node.get("answers", {}).get(f"{b},{c}")
            if nxt is None:
                raise TreeGap(f"the tree has no branch for {node['guess']}={b},{c}")
            node = nxt
        return node

    def off_tree(self, candidates, history) -> int:
        """Guess after a history that left the tree: here an error."""
        raise GameError("these guesses are not the tree's; it has no answer for them")

    def next_guess(self, candidates, history):
        try:
            node = self._walk(history)
            if node is not None:
                node["guess"]
        except (KeyError, TypeError, AttributeError) as exc:
            raise GameError(f"malformed tree: a node without {exc}") from None
        if node is None:
            return self.off_tree(candidates, history)
        try:
            return self.game.code_id(node["guess"])
        except (KeyError, GameError):
            raise GameError(f"the tree's guess {node['guess']!r} is not a {self.game.name} code")


class Optimal(TreeStrategy):
    """Exact least expected number of guesses. Options: ``opening`` (code text: best tree
    with that first guess; default the best opening), ``max_depth`` (best average among trees
    that need at most that many guesses), ``progress`` (callable(str) for search reports),
    ``jobs`` (processes for the search, one task per first-level part) and ``checkpoint`` (an
    SQLite file that keeps the solved parts, so that a stopped search resumes; giving it
    always searches, even where a tree is shipped), ``report`` (that search's progress: "bar"
    for a tqdm bar on stderr, "json" for JSON lines on stderr; ``exact_progress``)."""

    name = "optimal"
    summary = "exact least expected guesses, branch-and-bound tree (Koyama-Lai 1993)"

    def __init__(self, game, table, opening: str | None = None, max_depth: int | None = None,
                 progress=None, jobs: int = 1, checkpoint: str | None = None,
                 report: str | None = None):
        from ..optimal import OptimalSearch, optimal_tree
        from ..tree import packaged_tree, relabel_tree
        Strategy.__init__(self, game, table)
        if opening is not None:
            opening = game.normalize(opening)
        if max_depth is not None and max_depth < 1:
            raise GameError("the guess limit must be at least 1")
        self.search = None
        self._progress = progress
        self._max_depth = max_depth
        if jobs < 1:
            raise GameError("--jobs must be at least 1")
        doc = None if checkpoint else packaged_tree(game.name, None, max_depth)
        if not checkpoint and (doc is None or (opening is not None and doc["opening"] != opening)):
            shipped, doc = doc, packaged_tree(game.name, opening, max_depth)
            if doc is None and shipped is not None and opening is not None:
                doc = relabel_tree(game, shipped, opening)   # an opening of the same class
        if doc is None and (jobs > 1 or checkpoint):
            from ..exact import exact_tree
            doc = exact_tree(game, None if opening is None else game.code_id(opening),
                             max_depth, jobs, checkpoint, progress, report=report)
        if doc is None:
            if progress is not None:
                progress(f"no shipped optimal tree for {game.name}: searching (CPU seconds on "
                         "mastermind, half a minute on bulls-cows-1to9, 12 minutes on "
                         "bulls-cows; --jobs N shares it out)")
            self.search = OptimalSearch(game, table, max_depth=max_depth, progress=progress)
            doc = optimal_tree(self.search, None if opening is None else game.code_id(opening))
        self.doc = doc
        self.root = doc["tree"]

    def worker_spec(self):
        """Other processes follow the same tree (and name it ``optimal``)."""
        return "tree", {"doc": self.doc, "label": self.name}

    def off_tree(self, candidates, history):
        """After guesses that are not the tree's (``hint``): search the candidates left for
        a best next guess (code id)."""
        from ..optimal import OptimalSearch
        if self.search is None:
            self.search = OptimalSearch(self.game, self.table, max_depth=self._max_depth,
                                        progress=self._progress)
        _, g = self.search.best_guess(candidates, tuple(g for g, _ in history))
        return g


def stderr_progress(text: str) -> None:
    """Progress reports of a long search, on stderr."""
    print(text, file=sys.stderr, flush=True)
