"""Loading a function whose statements do not parse: time per failing statement (issue 24).

A statement that does not parse is an error only when it runs (reference section 14 item 16), so the
loader keeps going after each one (tinyc/syntax/recovery.py).  This times, in-process, the load
(parse and link, what MC 11 does before a statement runs) of ``main [`` followed by N lines `` @`` and
``]``, for several N, on a freshly booted machine with tinyc's disk cache of parsed texts off; best of
``--repeat`` loads, in CPU seconds (the machine may be shared).  Goal: linear, and 10,000 failing statements in under a second.  Run:

    python benchmarks/failing_statements.py                      # 800, 3200 and 10000 statements
    python benchmarks/failing_statements.py --sizes 1000 20000 --repeat 5
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["TINYC_NO_CACHE"] = "1"   # every load parses (set before tinyc reads it)

from tinyc.driver import interpreter
from tinyc.machine.console import Console  # noqa: E402
from tinyc import Session  # noqa: E402


def program(n: int) -> bytes:
    return b"main [\n" + b" @\n" * n + b"]\n"


def load_time(text: bytes) -> float:
    """Seconds to parse and link ``text`` (the boot not timed)."""
    m = Session(engine="fast", memory=max(1 << 20, 4 * len(text)), console=Console(io.BytesIO(), io.BytesIO())).machine()
    m.boot_library()
    interpreter._parsed.cache_clear()
    base = m.load_text(text)
    t0 = time.process_time()
    m.link_application(base + len(text) - 1, base)
    return time.process_time() - t0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[800, 3200, 10_000])
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    for n in args.sizes:
        best = min(load_time(program(n)) for _ in range(args.repeat))
        print(f"{n:>7} failing statements: {best:7.3f} s  ({best / n * 1e6:6.1f} us each)")


if __name__ == "__main__":
    main()
