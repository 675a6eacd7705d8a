"""Piping an N-line program into the tc> shell: the editing time, without the boot (issue 12).

Each line typed or piped at ``tc>`` is inserted after the current line of the program buffer; with the
line index of tinyc/shell/editor.py that costs the size of the line, so N lines cost O(N).  This times the
shell's command loop over N program lines (4,000 by default) with pyperf, after the library has booted;
the goal is under 0.2 s for 4,000 lines.  It also times 20 statements typed at ``tc>`` against an 80 KB
buffer, one that links and one that does not (an unclosed ``[`` at its end, error 2; issue 24): each
statement links the buffer (MC 11), and the parse of a buffer is cached whether it links or not, so the
broken buffer should cost no more than the good one.  Run:

    python benchmarks/shell_buffer.py                  # 4,000 lines
    python benchmarks/shell_buffer.py --lines 10000    # to see that time per line stays flat
"""

from __future__ import annotations

import argparse
import io
import os
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
from tinyc.cli.options import boot  # noqa: E402
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


def big_buffer(links: bool) -> bytes:
    """About 80 KB of small functions; with ``links`` False an unclosed ``[`` ends it (error 2)."""
    lines = [b"int g"]
    while sum(len(line) + 1 for line in lines) < 80_000:
        k = len(lines)
        lines.append(b"f%d int a [ int b; b = a*2; while(b>0) b=b-1; return b+%d ]" % (k, k))
    return b"\n".join(lines + ([] if links else [b"broken [ pn 1"])) + b"\n"


def statements_time(loops: int, links: bool) -> float:
    """Seconds for ``loops`` sessions of 20 statements each against :func:`big_buffer` (no disk cache, the
    in-process one cleared before each session; the boot and the loading of the buffer not timed)."""
    from tinyc.driver import interpreter
    os.environ["TINYC_NO_CACHE"] = "1"
    args = common_options().parse_args(["--engine", "reference"])
    total = 0.0
    for _ in range(loops):
        out = io.BytesIO()
        m, ws = boot(args, Console(io.BytesIO(b".pn 1\n" * 20 + b".x\n"), out))
        ws.append(big_buffer(links))
        shell = Shell(m, ws)
        interpreter._parsed.cache_clear()
        t0 = time.perf_counter()
        shell.loop()
        total += time.perf_counter() - t0
        assert out.getvalue().count(b" 1\r\n" if links else b"err  2") == 20, out.getvalue()[-200:]
    return total


def main() -> None:
    runner = pyperf.Runner(add_cmdline_args=lambda cmd, args: cmd.extend(["--lines", str(args.lines)]))
    runner.argparser.add_argument("--lines", type=int, default=4000)
    args = runner.parse_args()
    runner.bench_time_func(f"pipe {args.lines} lines into tc>", edit_time, args.lines)
    runner.bench_time_func("20 statements, 80 KB buffer that links", statements_time, True)
    runner.bench_time_func("20 statements, 80 KB buffer with a link error", statements_time, False)


if __name__ == "__main__":
    main()
