"""The exact search (``optimal``) in several processes, resumable from a checkpoint file
(issue 29).

With the opening fixed, the least total is ``|S| + sum over the opening's non-winning
answers r of T(S_r)``. The first-level parts S_r are independent: they are disjoint, and so
is every candidate set below them, so a search of one part never uses what the search of
another found. Each part is therefore one task, solved exactly (no budget) by its own
``OptimalSearch`` in a worker process, which returns the part's total and its subtree;
without a fixed opening, every part of every opening class is a task. The largest parts
start first. A part solved whole makes the one-process search's choice of guesses (the first
guess in trial order with the least total, at every node), so the tree is the one
``optimal.optimal_tree`` gives, not only the total. A large part is split further by its
second guesses (``exact_tasks``): same total, and with several processes ties below the
second guess may break otherwise (with one, the guesses are tried in turn in one search:
the same tree). The best total of a split part is shared live between the processes.
Progress (parts done, bound, incumbent, rate): ``exact_progress``.

A checkpoint (``--checkpoint FILE``, SQLite) keeps every part, and every second guess of a
split part, as soon as it is solved; a run that is stopped, killed or moved to another
machine resumes with the work still to do. The file records the game, the guess limit, the
symmetry depth and the tinyc version, and is refused for another search.
"""
from __future__ import annotations

import json
import sqlite3
import time
from typing import Callable

import numpy as np

from .exact_progress import SearchProgress
from .exact_tasks import Part, Solved, Tried, run_parts
from .games import Game, GameError
from .optimal import OptimalSearch, _answer_key
from .pool import WorkerLost

__all__ = ["exact_tree", "Checkpoint", "FORMAT", "SPLIT_PART"]

#: the checkpoint layout; a file of another layout is refused
FORMAT = "1"
#: a part of at least this many candidates is split by its second guesses (``exact_tasks``)
SPLIT_PART = 200


def _identity(game: Game, max_depth: int | None, sym_depth: int) -> dict[str, str]:
    from .. import __version__
    return {"format": FORMAT, "tinyc": __version__, "strategy": "optimal",
            "game": f"{game.name} ({game.alphabet}, {game.length}, repeats {game.repeats}, "
                    f"leading zero {game.leading_zero})",
            "max_depth": str(max_depth), "sym_depth": str(sym_depth)}


class Checkpoint:
    """The solved first-level parts of one exact search, in an SQLite file.

    ``path``: the file (created if missing). ``identity``: what the search is (game, guess
    limit, symmetry depth, tinyc version, layout); a file made for another identity raises
    GameError naming the difference, and so does a file that is not such a checkpoint."""

    def __init__(self, path: str, identity: dict[str, str]):
        self.path = path
        try:
            self.db = sqlite3.connect(path)
            tables = {r[0] for r in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables - {"meta", "parts", "guesses"} or (tables and "meta" not in tables):
                raise sqlite3.DatabaseError("an SQLite file of something else")
            self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
            self.db.execute("CREATE TABLE IF NOT EXISTS parts (opening INTEGER, answer TEXT, "
                            "candidates INTEGER, total INTEGER, tree TEXT, nodes INTEGER, "
                            "seconds REAL, PRIMARY KEY (opening, answer))")
            self.db.execute("CREATE TABLE IF NOT EXISTS guesses (opening INTEGER, answer TEXT, "
                            "guess INTEGER, total INTEGER, exact INTEGER, tree TEXT, "
                            "nodes INTEGER, seconds REAL, PRIMARY KEY (opening, answer, guess))")
            have = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
            if not have:
                self.db.executemany("INSERT INTO meta VALUES (?, ?)", identity.items())
                self.db.commit()
        except sqlite3.Error as exc:
            raise GameError(f"cannot use {path} as a checkpoint: {exc}") from None
        if have and have != identity:
            diff = [f"{k} {have.get(k)!r} (this run: {v!r})" for k, v in identity.items()
                    if have.get(k) != v]
            raise GameError(f"the checkpoint {path} is from another search: "
                            + "; ".join(diff or ["other fields"]))

    def parts(self) -> dict[tuple[int, str], Solved]:
        """(opening id, answer) -> (total, subtree, nodes, CPU seconds) of the parts solved."""
        rows = self.db.execute("SELECT opening, answer, total, tree, nodes, seconds FROM parts")
        return {(o, a): (t, json.loads(tr) if tr else None, n, s) for o, a, t, tr, n, s in rows}

    def put(self, opening: int, answer: str, candidates: int, solved: Solved) -> None:
        """Record one solved part (committed at once: a kill loses nothing recorded)."""
        total, tree, nodes, seconds = solved
        self.db.execute("INSERT OR REPLACE INTO parts VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (opening, answer, candidates, total,
                         json.dumps(tree, separators=(",", ":")) if tree else None,
                         nodes, seconds))
        self.db.commit()

    def tried(self) -> dict[tuple[int, str], dict[int, Tried]]:
        """(opening id, answer) -> {second guess: (total, exact?, subtree, nodes, CPU s)} of
        the second guesses tried in split parts (a total that is not exact is a lower
        bound: the guess cannot beat the best total known when it was tried)."""
        out: dict[tuple[int, str], dict[int, Tried]] = {}
        rows = self.db.execute("SELECT opening, answer, guess, total, exact, tree, nodes, "
                               "seconds FROM guesses")
        for o, a, g, t, e, tr, n, sec in rows:
            out.setdefault((o, a), {})[g] = (t, bool(e), json.loads(tr) if tr else None, n, sec)
        return out

    def put_guess(self, opening: int, answer: str, guess: int, tried: Tried) -> None:
        """Record one second guess tried in a split part (committed at once)."""
        total, exact, tree, nodes, seconds = tried
        self.db.execute("INSERT OR REPLACE INTO guesses VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (opening, answer, guess, total, int(exact),
                         json.dumps(tree, separators=(",", ":")) if tree else None,
                         nodes, seconds))
        self.db.commit()

    def close(self) -> None:
        """Close the file."""
        self.db.close()


def _parts(search: OptimalSearch, openings: list[int]) -> list[Part]:
    out = []
    everything = np.arange(search.n)
    for o in openings:
        row = search.full[o]
        for sid in np.unique(row).tolist():
            if sid != search.win:
                out.append((o, _answer_key(search.game, sid), everything[row == sid]))
    return out


def exact_tree(game: Game, opening: int | None = None, max_depth: int | None = None,
               jobs: int = 1, checkpoint: str | None = None,
               progress: Callable[[str], None] | None = None, sym_depth: int = 2,
               split_part: int = SPLIT_PART, report: str | None = None) -> dict:
    """The optimal decision tree document (as ``optimal.optimal_tree``: from ``opening`` (code
    id) if given, else from the best opening class, the least code winning ties), its
    first-level parts solved by ``jobs`` processes (parts of at least ``split_part``
    candidates split by their second guesses) and kept in ``checkpoint`` (a file path) if
    given. The document has one more key, "search": parts, parts_done, resumed (parts read
    from the checkpoint), bound and incumbent (equal to the total at the end),
    rate_parts_per_hour, jobs, nodes, cpu_seconds (of the parts, whoever solved them),
    wall_seconds (of this run) and totals (opening code -> total).

    ``progress(text)`` gets one line per part solved (the part, its total, the parts done,
    the bound, the incumbent and the rate) and per second guess of a split part; ``report``
    "bar" shows them above a tqdm bar on stderr instead, "json" writes each as one JSON
    object on stderr (``exact_progress``). Raises GameError for a game too large for the
    search, a checkpoint of another search or that cannot be used, a lost worker process
    (the checkpoint keeps what was solved), or no tree within the guess limit."""
    t0 = time.perf_counter()
    search = OptimalSearch(game, max_depth=max_depth, sym_depth=sym_depth)
    openings = [opening] if opening is not None else search.openings()
    parts = _parts(search, openings)
    ck = Checkpoint(checkpoint, _identity(game, max_depth, sym_depth)) if checkpoint else None
    watch = None
    try:
        done = ck.parts() if ck else {}
        watch = SearchProgress(search, parts, done, report, progress)

        def record(part: Part, solved: Solved) -> None:
            done[(part[0], part[1])] = solved
            if ck is not None:
                ck.put(part[0], part[1], len(part[2]), solved)
            watch.part_done(part, solved)

        def note(part: Part, guess: int, tried: Tried) -> None:
            if ck is not None:
                ck.put_guess(part[0], part[1], guess, tried)
            watch.guess_done(part, guess, tried)

        try:
            run_parts(search, [p for p in parts if (p[0], p[1]) not in done], jobs, max_depth,
                      sym_depth, record, split_part, ck.tried() if ck else {}, note)
        except WorkerLost as exc:
            kept = (f"the checkpoint {checkpoint} keeps the {len(done)} of {len(parts)} parts "
                    "solved: run the same command again to resume" if ck
                    else "no checkpoint was given (--checkpoint FILE keeps the parts solved)")
            raise WorkerLost(f"{exc}; {kept}") from None
    finally:
        if watch is not None:
            watch.close()
        if ck is not None:
            ck.close()
    doc = _document(search, openings, parts, done, jobs, time.perf_counter() - t0)
    doc["search"] = {**watch.fields(), **doc["search"]}
    return doc


def _document(search, openings, parts, done, jobs, wall) -> dict:
    game, inf = search.game, search.INF
    totals = {o: search.n for o in openings}
    for o, a, _ in parts:
        totals[o] = min(inf, totals[o] + done[(o, a)][0])
    best = min(openings, key=lambda g: (totals[g], g))
    if totals[best] >= inf:
        raise GameError("no strategy from this opening finds every secret within the limit")
    answers = {a: done[(o, a)][1] for o, a, _ in parts if o == best}
    tree = {"guess": game.codes[best], "candidates": int(search.n), "answers": answers}
    return {"game": game.name, "strategy": "optimal", "opening": game.codes[best],
            "total": int(totals[best]), "secrets": int(search.n), "max_depth": search.max_depth,
            "tree": tree,
            "search": {"jobs": jobs,
                       "nodes": sum(done[(o, a)][2] for o, a, _ in parts),
                       "cpu_seconds": round(sum(done[(o, a)][3] for o, a, _ in parts), 3),
                       "wall_seconds": round(wall, 3),
                       "totals": {game.codes[o]: int(t) for o, t in totals.items()}}}
