"""Decision trees of deterministic strategies: build, load, save, export (JSON, DOT, text).

A tree document is a dict (see ``optimal.optimal_tree``)::

    {"game": "mastermind", "strategy": "optimal", "opening": "1123", "total": 5625,
     "secrets": 1296, "tree": {"guess": "1123", "candidates": 1296,
                               "answers": {"0,0": {...}, "1,2": {...}}}}

Every node has the guess (code text) and the number of candidates left before it is played;
``answers`` maps "bulls,cows" to the subtree after that answer (the winning answer has none).
``strategy_tree`` builds the document of any deterministic strategy by following it over
every secret; the optimal trees for the small games ship as package data (``trees/``).
"""
from __future__ import annotations

import gzip
import json
from importlib import resources

import numpy as np

from .games import Game, GameError
from .strategies.base import Strategy
from .symmetry import code_map
from .table import score_table

__all__ = ["strategy_tree", "tree_stats", "tree_to_dot", "tree_to_text", "load_tree_file",
           "packaged_tree", "relabel_tree", "save_tree", "TREE_DIR"]

TREE_DIR = "trees"


def _key(game: Game, sid: int) -> str:
    b, c = game.split_score(sid)
    return f"{b},{c}"


def strategy_tree(game: Game, strategy: Strategy, name: str | None = None) -> dict:
    """Tree document of a deterministic strategy that uses the candidate list, built by
    following it from the full code set. Raises GameError for other strategies."""
    if not strategy.deterministic or not strategy.uses_candidates:
        raise GameError(f"the {strategy.name} strategy has no decision tree "
                        "(its guesses depend on more than the answers so far)")
    table = score_table(game)
    full = table.full

    def build(S, history, depth):
        if depth > 60:
            raise GameError(f"the {strategy.name} strategy does not finish within 60 guesses")
        g = strategy.next_guess(S, history)
        node = {"guess": game.codes[g], "candidates": int(len(S))}
        row = full[g, S] if full is not None else table.block([g], S)[0]
        answers = {}
        for sid in np.unique(row).tolist():
            if sid == game.win:
                continue
            sub = S[row == sid]
            if len(sub) == len(S):
                raise GameError(f"the {strategy.name} strategy repeats a useless guess "
                                f"({game.codes[g]})")
            answers[_key(game, sid)] = build(sub, history + [(g, sid)], depth + 1)
        if answers:
            node["answers"] = answers
        return node

    strategy.reset()
    tree = build(np.arange(game.size), [], 1)
    found, total, hist = tree_stats(tree)
    return {"game": game.name, "strategy": name or strategy.name, "opening": tree["guess"],
            "total": total, "secrets": game.size, "tree": tree}


def tree_stats(node: dict, depth: int = 1) -> tuple[int, int, dict[int, int]]:
    """(secrets found, total guesses, histogram guesses -> secrets) that a tree claims,
    counted from the tree alone (a node whose guess is among its candidates finds it)."""
    found = total = 0
    hist: dict[int, int] = {}
    answers = node.get("answers", {})
    below = sum(a["candidates"] for a in answers.values())
    if node["candidates"] - below == 1:
        found, total, hist[depth] = 1, depth, 1
    for sub in answers.values():
        f, t, h = tree_stats(sub, depth + 1)
        found += f
        total += t
        for k, v in h.items():
            hist[k] = hist.get(k, 0) + v
    return found, total, dict(sorted(hist.items()))


def tree_to_dot(doc: dict) -> str:
    """Graphviz DOT text of a tree document (one node per guess, edges labelled b,c)."""
    lines = ["digraph tree {", '  node [shape=box, fontname="monospace"];']
    counter = [0]

    def walk(node):
        me = f"n{counter[0]}"
        counter[0] += 1
        lines.append(f'  {me} [label="{node["guess"]}\\n{node["candidates"]}"];')
        for ans, sub in node.get("answers", {}).items():
            child = walk(sub)
            lines.append(f'  {me} -> {child} [label="{ans}"];')
        return me

    walk(doc["tree"])
    lines.append("}")
    return "\n".join(lines) + "\n"


def tree_to_text(doc: dict, max_depth: int | None = None) -> str:
    """Indented outline: ``answer -> guess (candidates)``, one line per node."""
    out = []

    def walk(node, depth, label):
        out.append(f"{'  ' * depth}{label}{node['guess']} ({node['candidates']})")
        if max_depth is not None and depth + 1 >= max_depth:
            return
        for ans, sub in node.get("answers", {}).items():
            walk(sub, depth + 1, f"{ans} -> ")

    walk(doc["tree"], 0, "")
    return "\n".join(out) + "\n"


def load_tree_file(path: str) -> dict:
    """Read a tree document (JSON, or gzip-compressed JSON if the name ends in .gz).
    Raises GameError with one line if it cannot be read."""
    try:
        opener = gzip.open if str(path).endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as exc:
        raise GameError(f"cannot read tree {path}: {exc}") from None
    if not isinstance(doc, dict) or "tree" not in doc or "game" not in doc:
        raise GameError(f"{path} is not a tree document (no 'game' and 'tree')")
    return doc


def save_tree(doc: dict, path: str) -> None:
    """Write a tree document as compact JSON (gzip if the name ends in .gz)."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wt", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))


def packaged_tree(game: str, opening: str | None = None, max_depth: int | None = None):
    """The shipped optimal tree of ``game`` (best opening, or ``opening``), or None."""
    name = f"{game}-optimal" + (f"-{opening}" if opening else "") + (
        f"-depth{max_depth}" if max_depth else "") + ".json.gz"
    try:
        ref = resources.files("tinyc.solver").joinpath(TREE_DIR, name)
        if not ref.is_file():
            return None
        with ref.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError, ModuleNotFoundError):
        return None


def relabel_tree(game: Game, doc: dict, opening: str) -> dict | None:
    """The tree document ``doc`` moved to start with ``opening`` (a code text) by a symmetry of the game
    (``symmetry.code_map``): every guess, and every answer's secrets, mapped alike, so every total and
    depth stays; an optimal tree stays optimal. None when no symmetry takes its opening to ``opening``."""
    move = code_map(game, doc["opening"], opening)
    if move is None:
        return None

    def node(n: dict) -> dict:
        out = {**n, "guess": move(n["guess"])}
        if "answers" in n:
            out["answers"] = {a: node(c) for a, c in n["answers"].items()}
        return out
    return {**doc, "opening": opening, "tree": node(doc["tree"])}
