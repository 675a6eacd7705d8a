"""Piping an N-line program into the tc> shell: the editing time, without the boot (issue 12).

Each line typed or piped at ``tc>`` is inserted after the current line of the program buffer; with the
line index of src/tinyc/shell/editor.py that costs the size of the line, so N lines cost O(N).  This times the
shell's command loop over N program lines (4,000 by default) with pyperf, after the library has booted;
the goal is under 0.2 s for 4,000 lines.  Run:

    python benchmarks/shell_buffer.py                  # 4,000 lines
    python benchmarks/shell_buffer.py --lines 10000    # to see that time per line stays flat
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

try:
    import pyperf  # noqa: E402
except ImportError:  # the bench extra is not installed: say so, not a traceback
    sys.exit("this benchmark needs pyperf, the bench extra: .venv/bin/pip install '.[test,bench]' "
             "(see benchmarks/README.md)")

from tinyc.cli.options import common_options  # noqa: E402
from tinyc.machine.session import boot  # noqa: E402
from tinyc.machine.console import Console  # noqa: E402
from tinyc.shell.shell import Shell  # noqa: E402


def program(lines: int) -> bytes:
    """``lines`` short lines (the buffer holds 90,000 bytes: up to about 10,000 of them)."""
    body = [b"int n", b"main ["]
    while len(body) < lines - 1:
        body.append(b" n=%d" % len(body))
    body.append(b"pn n ]")
    return b"\n".join(body) + b"\n"


def edit_time(loops: int, lines: int) -> float:
    """Seconds for ``loops`` sessions that each type ``lines`` lines (the boot is not timed)."""
    total = 0.0
    text = program(lines) + b"./\n.x\n"
    args = common_options().parse_args(["--engine", "reference"])
    for _ in range(loops):
        out = io.BytesIO()
        m, ws = boot(args, Console(io.BytesIO(text), out))
        shell = Shell(m, ws)
        t0 = time.perf_counter()
        shell.loop()
        total += time.perf_counter() - t0
        assert b" %d %d " % (lines, lines) in out.getvalue(), out.getvalue()[-200:]
    return total


def main() -> None:
    runner = pyperf.Runner(add_cmdline_args=lambda cmd, args: cmd.extend(["--lines", str(args.lines)]))
    runner.argparser.add_argument("--lines", type=int, default=4000)
    args = runner.parse_args()
    runner.bench_time_func(f"pipe {args.lines} lines into tc>", edit_time, args.lines)


if __name__ == "__main__":
    main()
