"""The fast engine's benchmark: tiny-c programs against their plain-Python twins, side by side.

    python benchmarks/run.py [--repeat N] [--reference] [--only NAME...]

For each program it prints the time of the fast engine, of the Python twin (best of N runs) and
their ratio (goal: at most 3 each, about 2 in the geometric mean), and with ``--reference`` the time
of the reference evaluator.  The reference evaluator is slow: for bca it plays a tenth of the games and
the time is scaled up (marked ``~``).

What is timed (CPU time of this process, so that other load on the machine disturbs the figures
less): an engine's time covers reading the program, parsing, linking, compiling it to Python
and running it -- everything ``tinyc run`` does after start-up.  Start-up (building the machine and
booting the library, system.ipl) is a fixed cost like the Python interpreter's own start-up, which the
twin's time leaves out too; it is printed in its own column ("boot s", best of the runs in this
process, so the library parse is cached) and not counted in the ratios.  The first run of a program
compiles its functions; later runs of the same text reuse the code (the engine caches it per program
text), so "1st s" shows the first run and "fast s" the best.
Not part of the test suite; it asserts only that each engine's output ends with its twin's.
"""

from __future__ import annotations

import argparse
import io
import math
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import twins  # noqa: E402
from tinyc.machine.console import Console  # noqa: E402
from tinyc.errors import ExitProgram  # noqa: E402
from tinyc import Session  # noqa: E402

BCA_SEED = 3141   # the seed that reproduces the published bca.tc table (docs/solver.md)
BCA_GAMES = 300

# name -> (tiny-c file, entry, stdin, twin, reference scale: run 1/scale of the work, or None)
PROGRAMS = {
    "bca": (HERE.parent / "programs/bca.tc", "bca", b"%d\n%d\n" % (BCA_SEED, BCA_GAMES),
            lambda: twins.bca_main(BCA_SEED, BCA_GAMES), 10),
    "sieve": (HERE / "programs/sieve.tc", "main", b"", twins.sieve_main, None),
    "fib": (HERE / "programs/fib.tc", "main", b"", twins.fib_main, None),
    "matrix": (HERE / "programs/matrix.tc", "main", b"", twins.matrix_main, None),
    "strings": (HERE / "programs/strings.tc", "main", b"", twins.strings_main, None),
    "mandel": (HERE / "programs/mandel.tc", "main", b"", twins.mandel_main, None),
    "scan": (HERE / "programs/scan.tc", "main", b"", twins.scan_main, None),
}


def run_tinyc(path: Path, entry: str, stdin: bytes, engine: str) -> tuple[float, bytes, float]:
    """(seconds, output, boot seconds) of ``tinyc run`` in-process: boot the library (timed apart),
    then load, link, compile and run."""
    out = io.BytesIO()
    t_boot = time.process_time()
    m, ws = Session(engine=engine, console=Console(io.BytesIO(stdin), out)).boot()
    t0 = time.process_time()
    ws.read_file(path)
    try:
        err, cursor = ws.run(entry.encode())
    except ExitProgram:
        err = 0
    m.console.flush()
    elapsed = time.process_time() - t0
    if err:
        raise SystemExit(f"{path.name} on {engine}: error {err}\n{ws.report(err, cursor)}")
    return elapsed, out.getvalue(), t0 - t_boot


def best(fn, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        times.append(time.process_time() - t0)
    return min(times), result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3, help="runs per measurement, best taken (default 3)")
    p.add_argument("--reference", action="store_true", help="also time the reference evaluator")
    p.add_argument("--only", nargs="*", choices=list(PROGRAMS), help="programs to run")
    args = p.parse_args()
    names = args.only or list(PROGRAMS)
    print(f"{'program':10} {'boot s':>7} {'1st s':>7} {'fast s':>8} {'python s':>9} {'fast/py':>8}"
          + (f" {'reference s':>12} {'ref/py':>8}" if args.reference else ""))
    ratios = []
    for name in names:
        path, entry, stdin, twin, scale = PROGRAMS[name]
        runs, py_runs = [], []
        for _ in range(args.repeat):  # alternate, so that a busy moment of the machine hits both
            runs.append(run_tinyc(path, entry, stdin, "fast"))
            py_runs.append(best(twin, 1))
        fast_out = min(runs)
        boot = min(r[2] for r in runs)
        py_t, py_out = min(py_runs)
        if not fast_out[1].endswith(py_out):
            raise SystemExit(f"{name}: the fast engine's output does not end with the twin's:\n"
                             f"{fast_out[1][-300:]!r}\n{py_out[-300:]!r}")
        ratio = fast_out[0] / py_t
        ratios.append(ratio)
        line = f"{name:10} {boot:7.3f} {runs[0][0]:7.3f} {fast_out[0]:8.3f} {py_t:9.3f} {ratio:8.2f}"
        if args.reference:
            if scale:
                small = stdin.replace(b"\n%d\n" % BCA_GAMES, b"\n%d\n" % (BCA_GAMES // scale))
                ref_t = run_tinyc(path, entry, small, "reference")[0] * scale
                line += f" {'~%.1f' % ref_t:>12} {ref_t / py_t:8.0f}"
            else:
                ref_t = run_tinyc(path, entry, stdin, "reference")[0]
                line += f" {ref_t:12.2f} {ref_t / py_t:8.0f}"
        print(line, flush=True)
    print(f"{'geo. mean':10} {'':7} {'':7} {'':8} {'':9} {math.exp(sum(map(math.log, ratios)) / len(ratios)):8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
