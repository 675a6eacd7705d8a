"""Progress of the exact search (``exact``): parts done, bound, incumbent and rate (issue 29).

For each opening searched, the **bound** is a proven lower bound of its total: the opening's
|S| plus, per first-level part, its exact total if solved, else its best first-guess bound
(``OptimalSearch._part_bound``). The **incumbent** is the best total of a complete tree known
so far: |S| plus, per part, its exact total if solved, else the best exact total of its second
guesses tried so far (split parts only); None while some part has neither. Over several
openings both are the least over the openings. When the search ends, bound = incumbent =
the optimum.

Shown as a tqdm bar on stderr (``mode="bar"``, when it is a terminal: the part lines above
it), as one JSON object per event on stderr (``mode="json"``, for ``--json`` runs whose
stderr is a file), or not at all; ``fields()`` goes into the tree document's "search" key.
"""
from __future__ import annotations

import json
import sys
import time
from typing import Callable

from .exact_tasks import Part, Solved, Tried
from .optimal import OptimalSearch

__all__ = ["SearchProgress"]


class SearchProgress:
    """Tracks an exact search's parts (see the module docstring).

    ``parts``: every part of the search; ``done``: (opening, answer) -> Solved already known
    (from a checkpoint; counted as resumed); ``mode``: "bar", "json" or None; ``lines``:
    callable(str) for the one-line reports of parts and guesses (with a bar they are written
    above it instead)."""

    def __init__(self, search: OptimalSearch, parts: list[Part], done: dict,
                 mode: str | None = None, lines: Callable[[str], None] | None = None):
        self.search, self.mode, self.lines = search, mode, lines
        self.t0 = time.perf_counter()
        self.sizes = {(o, a): len(c) for o, a, c in parts}
        self.floor = {(o, a): search._part_bound(c) for o, a, c in parts if (o, a) not in done}
        self.done = dict((k, v[0]) for k, v in done.items() if k in self.sizes)
        self.resumed = len(self.done)
        self.best_guess: dict[tuple[int, str], int] = {}
        self.bar = None
        if mode == "bar":
            from tqdm import tqdm
            self.bar = tqdm(total=len(parts), initial=self.resumed, unit="part", file=sys.stderr,
                            desc=f"{search.game.name} exact")
            self._refresh()

    # ---- events ------------------------------------------------------------------------------
    def part_done(self, part: Part, solved: Solved) -> None:
        """A part was solved (its exact total, or INF for none within the guess limit)."""
        o, a, cands = part
        self.done[(o, a)] = solved[0]
        codes = self.search.game.codes
        self._say(f"{codes[o]} answer {a}: {len(cands)} candidates, total {solved[0]} "
                  f"({solved[2]} nodes, {solved[3]:.1f} s CPU); {self._summary()}",
                  {"event": "part", "opening": codes[o], "answer": a, "candidates": len(cands),
                   "total": int(solved[0]), "nodes": solved[2], "cpu_seconds": round(solved[3], 3)})
        if self.bar is not None:
            self.bar.update(1)
            self._refresh()

    def guess_done(self, part: Part, guess: int, tried: Tried) -> None:
        """A second guess of a split part was tried (exact total, or a lower bound)."""
        o, a, cands = part
        if tried[1]:
            self.best_guess[(o, a)] = min(self.best_guess.get((o, a), tried[0]), tried[0])
        codes = self.search.game.codes
        total = tried[0] if tried[1] else f"at least {tried[0]}"
        self._say(f"{codes[o]} answer {a} ({len(cands)} candidates) then {codes[guess]}: "
                  f"total {total} ({tried[3]} nodes, {tried[4]:.1f} s CPU)",
                  {"event": "guess", "opening": codes[o], "answer": a, "guess": codes[guess],
                   "total": int(tried[0]), "exact": tried[1], "nodes": tried[3],
                   "cpu_seconds": round(tried[4], 3)})
        self._refresh()

    def close(self) -> None:
        """Take the bar down."""
        if self.bar is not None:
            self.bar.close()

    # ---- figures -----------------------------------------------------------------------------
    def fields(self) -> dict:
        """parts, parts_done, resumed, bound, incumbent (None if not known yet), rate (parts
        per hour solved by this run)."""
        fresh = len(self.done) - self.resumed
        hours = max(1e-9, time.perf_counter() - self.t0) / 3600
        bound, incumbent = self._bounds()
        return {"parts": len(self.sizes), "parts_done": len(self.done), "resumed": self.resumed,
                "bound": bound, "incumbent": incumbent,
                "rate_parts_per_hour": round(fresh / hours, 1)}

    def _bounds(self) -> tuple[int, int | None]:
        n, inf = self.search.n, self.search.INF
        low: dict[int, int] = {}
        high: dict[int, int | None] = {}
        for key in self.sizes:
            o = key[0]
            exact = self.done.get(key)
            lo = exact if exact is not None else self.floor[key]
            hi = exact if exact is not None else self.best_guess.get(key)
            low[o] = min(inf, low.get(o, n) + lo)
            prev = high.get(o, n)
            high[o] = None if prev is None or hi is None else min(inf, prev + hi)
        known = [h for h in high.values() if h is not None]
        return int(min(low.values())), (int(min(known)) if known else None)

    def _summary(self) -> str:
        f = self.fields()
        inc = "none yet" if f["incumbent"] is None else f["incumbent"]
        return (f"{f['parts_done']}/{f['parts']} parts done, total at least {f['bound']}, "
                f"best found {inc}, {f['rate_parts_per_hour']:.0f} parts/hour")

    def _say(self, text: str, event: dict) -> None:
        if self.mode == "json":
            print(json.dumps({**event, **self.fields()}), file=sys.stderr, flush=True)
        elif self.bar is not None:
            self.bar.write(text, file=sys.stderr)
        elif self.lines is not None:
            self.lines(text)

    def _refresh(self) -> None:
        if self.bar is not None:
            bound, inc = self._bounds()
            self.bar.set_postfix_str(f"bound {bound}, incumbent {'-' if inc is None else inc}")
