"""Loading a long program: parse and link time per line, for 10,000 and 50,000 lines (issue 12).

The load should cost the same per line whatever the size of the program (the goal: the time per line of
the 50,000-line program within 20% of the 10,000-line one's).  This times, in-process and with pyperf,
what MC 11 does to a program before it runs a statement (``Machine.link_application``: parse the text
and link it), on a generated program of eleven-line functions, with the library booted beforehand and not
timed, and with tinyc's disk cache of parsed texts off (TINYC_NO_CACHE) and the in-process cache cleared,
so that every load parses.  The program is loaded into the machine's memory directly: 50,000 lines do
not fit the 90,000-byte program buffer of ``tinyc run`` and the shell.  Run:

    python benchmarks/parse_scaling.py              # 10,000 and 50,000 lines
    python benchmarks/parse_scaling.py --fast       # pyperf's quick mode
    python benchmarks/parse_scaling.py --sizes 1000 10000 100000
"""

from __future__ import annotations

import io
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["TINYC_NO_CACHE"] = "1"   # every load parses (set before tinyc reads it)

try:
    import pyperf  # noqa: E402
except ImportError:  # the bench extra is not installed: say so, not a traceback
    sys.exit("this benchmark needs pyperf, the bench extra: .venv/bin/pip install '.[test,bench]' "
             "(see benchmarks/README.md)")

from tinyc.driver import interpreter
from tinyc.machine.console import Console  # noqa: E402
from tinyc import Session  # noqa: E402

FUNCTION = b"""f%d int a,b [
  int i,s
  s=0
  for(i=0;i<a;++i) [
    if(i%%3==0) s=s+i*b
    else s=s-1
  ]
  while(s>100) s=s/2
  ps "f%d"
  return s
]
"""


def program(lines: int) -> bytes:
    """A program of about ``lines`` lines: eleven-line functions (declarations, for, if/else, while, a string),
    a global declaration and a main."""
    body = [b"int g,h(10)\n"]
    for k in range(max(1, (lines - 2) // 11)):
        body.append(FUNCTION % (k, k))
    body.append(b"main [ pn f0(3,4) ]\n")
    return b"".join(body)


def load_time(loops: int, text: bytes) -> float:
    """Seconds for ``loops`` loads (parse + link) of ``text``, each on a freshly booted machine (boot not timed)."""
    total = 0.0
    for _ in range(loops):
        m = Session(engine="fast", memory=max(1 << 20, 4 * len(text)), console=Console(io.BytesIO(), io.BytesIO())).machine()
        m.boot_library()
        interpreter._parsed.cache_clear()
        base = m.load_text(text)
        t0 = time.perf_counter()
        m.link_application(base + len(text) - 1, base)
        total += time.perf_counter() - t0
    return total


def main() -> None:
    runner = pyperf.Runner(processes=3, values=1, warmups=1,
                           add_cmdline_args=lambda cmd, args: cmd.extend(["--sizes", *map(str, args.sizes)]))
    runner.argparser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 50_000],
                                  help="program sizes in lines (default 10000 50000)")
    args = runner.parse_args()
    per_line = {}
    for n in args.sizes:
        text = program(n)
        lines = text.count(b"\n")
        bench = runner.bench_time_func(f"load {lines} lines", load_time, text)
        if bench is not None and not args.worker:  # the figures, in the main process only
            per_line[lines] = bench.median() / lines
    if per_line:
        print()
        print(f"{'lines':>8} {'us/line':>8} {'vs first':>9}")
        first = next(iter(per_line.values()))
        for lines, t in per_line.items():
            print(f"{lines:8} {t * 1e6:8.1f} {t / first:9.2f}")
        print("goal: the time per line of every size within 20% of the first (ratio 0.80..1.20)")


if __name__ == "__main__":
    main()
