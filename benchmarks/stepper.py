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
]


def main() -> None:
    wanted = sys.argv[1:]
    for label, dialect, program, entry, stdin in RUNS:
        if wanted and not any(w in label for w in wanted):
            continue
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
