"""The stepper's recorder (issue 37, docs/stepper.md): steps, JSON size and record time of a few runs.

    .venv/bin/python benchmarks/stepper.py            # bc.tc's start, bca.tc with 10 games, fact.tc, fib.tc

Each line: the run, its steps (statement steps), status, the JSON's size, the recording's wall-clock
seconds, and the page's size (``tinyc step -o``).  Results with the machine go in benchmarks/stepper.md.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tinyc.debug.stepper_page import page
from tinyc.driver.session import Session

ROOT = Path(__file__).resolve().parent.parent
RUNS = [
    ("fact.tc", "pc", str(ROOT / "examples/fact.tc"), None, b""),
    ("gibson fib.tc", "gibson", str(ROOT / "examples/gibson/fib.tc"), None, b""),
    ("bc.tc start (bullcow, one guess)", "pc", "bc.tc", "bullcow", b"1234\n"),
    ("bca.tc, 10 games", "pc", "bca.tc", "bca", b"3141\n10\n"),
    ("bc.tc, a whole game (secret 5738)", "pc", "bc.tc", "bullcow", None),
]


CODES = {(4, 0): 0, (3, 0): 1, (2, 0): 2, (2, 1): 3, (2, 2): 4, (1, 0): 5, (1, 1): 6, (1, 2): 7, (1, 3): 8,
         (0, 0): 9, (0, 1): 10, (0, 2): 11, (0, 3): 12, (0, 4): 13}  # bc.tc's table of scores


def bc_game(secret: str = "5738") -> bytes:
    """The input of a whole bc.tc game against ``secret``: each guess scored as its table says (found by
    recording the game so far, statements only, until it is won)."""
    import re
    lines = b"1234\n"
    while True:
        trace = Session().record("bc.tc", "bullcow", lines, small=False)
        guesses = re.findall(r"Guess \d+: (\d{4})", trace.data["output"])
        if "I got it" in trace.data["output"] or not guesses:
            return lines
        g = guesses[-1]
        bulls = sum(a == b for a, b in zip(g, secret))
        lines += b"%d\n" % CODES[(bulls, len(set(g) & set(secret)) - bulls)]


def main() -> None:
    wanted = sys.argv[1:]
    for label, dialect, program, entry, stdin in RUNS:
        if wanted and not any(w in label for w in wanted):
            continue
        if stdin is None:
            stdin = bc_game()
        started = time.perf_counter()
        trace = Session(dialect).record(program, entry, stdin)
        seconds = time.perf_counter() - started
        text = trace.json()
        statements = sum(1 for s in trace.steps if s["k"] == "s")
        html = page(trace)
        print(f"{label:34} {len(trace.steps):>9,} steps ({statements:,} statements) {trace.status:8} "
              f"JSON {len(text) / 1e6:6.2f} MB  page {len(html) / 1e6:6.2f} MB  recorded in {seconds:5.1f} s")


if __name__ == "__main__":
    main()
