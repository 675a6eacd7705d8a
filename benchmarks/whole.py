"""Whole-process timings: ``tinyc run FILE`` against ``python twins.py NAME``, start-up included (issues 12, 23).

    python benchmarks/whole.py [--fast] [--runs N] [--only NAME...] [--clock cpu|wall] [--json FILE]

Needs the ``bench`` extra (pyperf): measure tinyc as a user has it, a normal (not editable) install in a
fresh virtual environment, and run this script, from the checkout, with that environment's Python::

    python3 -m venv /tmp/bench-venv && /tmp/bench-venv/bin/pip install '.[test,bench]'
    /tmp/bench-venv/bin/python benchmarks/whole.py

It times the ``tinyc`` console script beside that Python (the package installed there, not the checkout's
``src/``), says on its first line which install it is (normal or editable: an editable install's import
hook slows every start of that environment's Python, ``python -c pass`` included, which flatters the
ratios), and stops with a message, not a traceback, when pyperf or the console script is missing.

For every benchmark program of run.py (bca with run.py's input, sieve, fib, matrix, strings, mandel,
scan) it times the command ``tinyc run FILE --entry ENTRY`` (stdin as run.py gives it) against its
plain-Python twin run as a whole process, ``python benchmarks/twins.py NAME``; and ``tinyc run
examples/hello.tc`` against ``python -c pass``.  It prints the median of each side, their ratio, the
geometric mean of the programs' ratios and the goals (each program at most 2.0x, geometric mean at most
1.6x, hello at most 2.5x).

The timing is pyperf's: each measurement is one run of a pyperf worker (this script with ``--worker``,
``pyperf.Runner.bench_time_func``) that starts the command once with ``subprocess.run``, and appends its
value to a pyperf JSON file per command (``--append``); the medians are pyperf's
(``pyperf.Benchmark.median``).  Running one measurement per pyperf call is what lets the two sides
alternate (tinyc, twin, tinyc, twin ...), so that a busy moment of the machine hits both.

The clock: ``cpu`` (default) is the user + system CPU time of the command's process, which other load on
a shared machine disturbs much less than the wall clock; ``wall`` is the elapsed time (what a user waits
for on an idle machine).

The commands run as a user's would: with the bytecode cache (PYTHONDONTWRITEBYTECODE is removed from
their environment) and with warm caches (before timing, every command runs once, which fills
``__pycache__``, tinyc's start-up cache and Lark's grammar cache in the user cache directory).
Not part of the test suite; it checks only that tinyc's output ends with its twin's.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYTHON = sys.executable
TINYC = str(Path(PYTHON).with_name("tinyc"))    # the console script installed beside this Python

GOAL_PROGRAM, GOAL_GEOMEAN, GOAL_HELLO = 2.0, 1.6, 2.5


def install_kind() -> str:
    """How tinyc is installed beside this Python: "normal install" or "editable install" (from its
    ``direct_url.json``), with its location."""
    from importlib.metadata import PackageNotFoundError, distribution
    try:
        dist = distribution("tinyc")
    except PackageNotFoundError:
        return "not installed"
    try:
        editable = json.loads(dist.read_text("direct_url.json") or "{}").get("dir_info", {}).get("editable", False)
    except (ValueError, AttributeError):
        editable = False
    from importlib.util import find_spec
    spec = find_spec("tinyc")
    where = Path(spec.origin).parent if spec is not None and spec.origin else dist.locate_file("tinyc")
    return f"{'editable' if editable else 'normal'} install, tinyc {dist.version} at {where}"


def missing() -> str | None:
    """Why this script cannot run here (pyperf or the console script missing), or None."""
    try:
        import pyperf  # noqa: F401
    except ImportError:
        return ("pyperf is missing: it comes with the bench extra: pip install '.[test,bench]' (or pip install pyperf) "
                f"into the environment of {PYTHON}")
    if not os.access(TINYC, os.X_OK):
        return f"no tinyc console script beside {PYTHON}: install tinyc there (pip install '.[test,bench]')"
    return None


def _programs() -> dict[str, tuple[list[str], list[str], bytes]]:
    """name -> (tinyc command, twin command, stdin), from run.py's PROGRAMS, plus ``hello``."""
    sys.path[:0] = [str(ROOT), str(HERE)]
    from run import BCA_GAMES, BCA_SEED, PROGRAMS
    progs = {}
    for name, (path, entry, stdin, _twin, _scale) in PROGRAMS.items():
        twin = [PYTHON, str(HERE / "twins.py"), name] + ([str(BCA_SEED), str(BCA_GAMES)] if name == "bca" else [])
        progs[name] = ([TINYC, "run", str(path), "--entry", entry], twin, stdin)
    progs["hello"] = ([TINYC, "run", str(ROOT / "examples/hello.tc")], [PYTHON, "-c", "pass"], b"")
    return progs


def user_environ() -> dict[str, str]:
    """This process's environment without PYTHONDONTWRITEBYTECODE: a user's Python keeps its bytecode cache."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def time_command(loops: int, command: list[str], stdin: bytes, clock: str) -> float:
    """Seconds for ``loops`` runs of ``command`` (its output discarded): CPU seconds (user + system)
    of the child processes with ``clock="cpu"``, elapsed seconds with ``clock="wall"``."""
    env = user_environ()
    total = 0.0
    for _ in range(loops):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run(command, input=stdin, stdout=subprocess.DEVNULL, env=env)
        elapsed = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            raise SystemExit(f"{command} exited with status {done.returncode}")
        if clock == "cpu":
            total += (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        else:
            total += elapsed
    return total


def worker() -> None:
    """The pyperf side: ``whole.py --worker-of NAME SIDE --clock C [pyperf options]`` times one command."""
    import pyperf

    def pass_on(cmd: list[str], args: argparse.Namespace) -> None:
        cmd.extend(["--worker-of", *args.worker_of, "--clock", args.clock])

    runner = pyperf.Runner(add_cmdline_args=pass_on)
    runner.argparser.add_argument("--worker-of", nargs=2, metavar=("NAME", "SIDE"), required=True)
    runner.argparser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = runner.parse_args()
    name, side = args.worker_of
    tinyc, twin, stdin = _programs()[name]
    runner.bench_time_func(f"{name} {side}", time_command, tinyc if side == "tinyc" else twin, stdin, args.clock)


def check_and_warm(name: str, tinyc: list[str], twin: list[str], stdin: bytes) -> None:
    """Run both commands once (this fills the caches) and check that tinyc's output ends with the twin's."""
    env = user_environ()
    out = subprocess.run(tinyc, input=stdin, capture_output=True, env=env, check=True).stdout
    ref = subprocess.run(twin, input=stdin, capture_output=True, env=env, check=True).stdout
    if not out.endswith(ref):
        raise SystemExit(f"{name}: tinyc's output does not end with the twin's:\n{out[-300:]!r}\n{ref[-300:]!r}")


def measure_once(name: str, side: str, clock: str, append: Path) -> None:
    """One pyperf measurement of one command (one worker process, one value, no warm-up), appended to ``append``."""
    cmd = [PYTHON, __file__, "--worker-of", name, side, "--clock", clock,
           "--processes", "1", "--values", "1", "--warmups", "0", "--loops", "1",
           "--copy-env", "--quiet", "--append", str(append)]
    subprocess.run(cmd, env=user_environ(), check=True, stdout=subprocess.DEVNULL)


def median(path: Path) -> float:
    """pyperf's median of the values in a pyperf JSON file, in seconds."""
    import pyperf
    return pyperf.Benchmark.load(str(path)).median()


def main() -> int:
    why = missing()
    if why:
        print(f"whole.py: {why}", file=sys.stderr)
        return 1
    progs = _programs()
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7, help="timed runs of each command, alternated (default 7)")
    p.add_argument("--fast", action="store_true", help="a quick check: 3 runs each")
    p.add_argument("--only", nargs="*", choices=list(progs), help="programs to time (hello included by name)")
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                   help="cpu: user+system CPU seconds of the command (default); wall: elapsed seconds")
    p.add_argument("--json", type=Path, help="save the figures (and every value) to this file")
    p.add_argument("--keep", type=Path, help="keep pyperf's JSON files in this directory")
    args = p.parse_args()
    runs = 3 if args.fast else args.runs
    names = args.only or list(progs)
    outdir = args.keep or Path(tempfile.mkdtemp(prefix="tinyc-whole-"))
    outdir.mkdir(parents=True, exist_ok=True)

    print(f"tinyc: {install_kind()}; Python {sys.version.split()[0]}; {os.cpu_count()} CPUs", flush=True)
    print(f"whole process, {args.clock} clock, median of {runs} runs each, tinyc and twin alternated", flush=True)
    print(f"{'program':15} {'tinyc s':>8} {'twin s':>8} {'ratio':>6}  goal", flush=True)
    results, ratios = {}, []
    for name in names:
        tinyc, twin, stdin = progs[name]
        check_and_warm(name, tinyc, twin, stdin)
        files = {side: outdir / f"{name}-{side}.json" for side in ("tinyc", "twin")}
        for f in files.values():
            f.unlink(missing_ok=True)
        for _ in range(runs):
            for side in ("tinyc", "twin"):
                measure_once(name, side, args.clock, files[side])
        t, py = median(files["tinyc"]), median(files["twin"])
        ratio = t / py
        goal = GOAL_HELLO if name == "hello" else GOAL_PROGRAM
        if name != "hello":
            ratios.append(ratio)
        import pyperf
        results[name] = {"tinyc_s": t, "twin_s": py, "ratio": ratio, "goal": goal,
                         "tinyc_values": pyperf.Benchmark.load(str(files["tinyc"])).get_values(),
                         "twin_values": pyperf.Benchmark.load(str(files["twin"])).get_values()}
        label = "hello (-c pass)" if name == "hello" else name
        print(f"{label:15} {t:8.3f} {py:8.3f} {ratio:6.2f}  <= {goal} {'ok' if ratio <= goal else 'MISSED'}",
              flush=True)
    summary = {"clock": args.clock, "runs": runs, "install": install_kind(), "programs": results}
    if ratios:
        gm = math.exp(sum(map(math.log, ratios)) / len(ratios))
        summary["geomean"] = gm
        print(f"{'geo. mean':15} {'':8} {'':8} {gm:6.2f}  <= {GOAL_GEOMEAN} {'ok' if gm <= GOAL_GEOMEAN else 'MISSED'}"
              f"  (programs, hello left out)")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    if "--worker-of" in sys.argv:
        worker()
    else:
        sys.exit(main())
