"""The debugger's speed (issue 27 item 5): bca.tc's 300 games under ``tinyc debug`` with one breakpoint in
a function that is never reached, against ``tinyc run`` (goal: at most 2x).

    python benchmarks/debugger.py [--repeat 5] [--games 300] [--reference]

Whole processes, start-up included, alternated so that a busy moment of the machine hits both; the
medians of the CPU seconds (user + system of the child) and of the wall seconds, and their ratios.  The
function ``never`` comes from a second program file written for the run (``b never`` sets the
breakpoint).  ``--reference`` adds ``tinyc debug --engine reference`` (everything on the debug evaluator,
as before item 5) on a tenth of the games, scaled up (marked ``~``).  It checks that the program's output
under the debugger is that of ``tinyc run``.  Times the ``tinyc`` console script beside the Python that
runs it (see README.md: a normal install).  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BCA = ROOT / "programs" / "bca.tc"
SEED = 3141


def tinyc() -> list[str]:
    """The console script beside this Python, else ``python -m tinyc``."""
    script = Path(sys.executable).parent / "tinyc"
    return [str(script)] if script.exists() else [sys.executable, "-m", "tinyc"]


def timed(args: list[str], stdin: bytes) -> tuple[float, float, bytes]:
    """(CPU seconds, wall seconds, stdout) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(args, input=stdin, capture_output=True, cwd=ROOT, timeout=3600)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit status {done.returncode}\n{done.stderr.decode(errors='replace')}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall, done.stdout


def program_output(debug_out: bytes) -> bytes:
    """What the program wrote, out of a debugging session's output."""
    return debug_out.replace(b"(tc-db) ", b"").strip(b"\n")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5, help="runs of each command, the median taken (default 5)")
    p.add_argument("--games", type=int, default=300, help="bca games (default 300)")
    p.add_argument("--reference", action="store_true", help="also time tinyc debug --engine reference")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        never = Path(tmp) / "never.tc"
        never.write_text("never [\n  pl \"never reached\"\n]\n")
        typed = b"%d\n%d\n" % (SEED, args.games)
        run_cmd = tinyc() + ["run", str(BCA), "--entry", "bca"]
        debug_cmd = tinyc() + ["debug", str(BCA), str(never), "--entry", "bca"]
        session = b"b never\nr\n" + typed + b"q\n"
        runs, debugs = [], []
        for _ in range(args.repeat):
            runs.append(timed(run_cmd, typed))
            debugs.append(timed(debug_cmd, session))
        if program_output(debugs[0][2]) != runs[0][2].strip(b"\n"):
            raise SystemExit("the output under the debugger differs from tinyc run's")
        print(f"bca.tc, {args.games} games; {' '.join(tinyc())}; medians of {args.repeat}")
        print(f"{'command':38} {'CPU s':>7} {'wall s':>7} {'CPU x':>6} {'wall x':>6}")
        base_cpu = statistics.median(r[0] for r in runs)
        base_wall = statistics.median(r[1] for r in runs)
        for name, rows in (("tinyc run", runs), ("tinyc debug, b never (unreached)", debugs)):
            cpu, wall = statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)
            print(f"{name:38} {cpu:7.2f} {wall:7.2f} {cpu / base_cpu:6.2f} {wall / base_wall:6.2f}")
        if args.reference:
            small = b"%d\n%d\n" % (SEED, max(args.games // 10, 1))
            cpu, wall, _ = timed(tinyc() + ["debug", "--engine", "reference", str(BCA), str(never), "--entry", "bca"],
                                 b"b never\nr\n" + small + b"q\n")
            cpu, wall = cpu * 10, wall * 10
            print(f"{'tinyc debug --engine reference':38} {'~%.1f' % cpu:>7} {'~%.1f' % wall:>7} "
                  f"{cpu / base_cpu:6.0f} {wall / base_wall:6.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
