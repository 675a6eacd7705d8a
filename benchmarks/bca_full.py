"""The full bca.tc run (all 3024 secrets) per engine, checked against the solver.

    python benchmarks/bca_full.py [--seed 3141] [--games 3024] [--engine fast] [--engine reference]

For each engine it runs ``.bca`` through the tc> shell in-process (the random number and the game
count typed as input), prints the wall and CPU time (boot, load, link and run) and the report's histogram
and average, then the solver's ``random`` strategy on the same games, and says whether the reports
are equal line for line.  Default: the fast engine only; the reference evaluator needs about 10
minutes for 3024 games.  Not part of the test suite (issue 5: the full run is a benchmark).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tinyc.cli.options import machine_options  # noqa: E402
from tinyc.cli.options import boot  # noqa: E402
from tinyc.machine.console import Console  # noqa: E402
from tinyc.shell.shell import Shell  # noqa: E402
from tinyc.solver import evaluate, get_game  # noqa: E402


def run_bca(engine: str, seed: int, games: int) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, report text) of ``.r programs/bca.tc`` / ``.bca`` in the shell on ``engine``."""
    p = argparse.ArgumentParser()
    machine_options(p)
    args = p.parse_args(["--engine", engine, "--strip-cr"])
    typed = b".r programs/bca.tc\n.bca\n%d\n%d\n.x\n" % (seed, games)
    out = io.BytesIO()
    t0, c0 = time.perf_counter(), time.process_time()
    machine, ws = boot(args, Console(io.BytesIO(typed), out, strip_cr=True))
    Shell(machine, ws).loop()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    text = out.getvalue().decode("latin-1")
    report = text.split("How many games (1-3024)? ", 1)[-1].split("\ntc>")[0]
    return seconds, cpu, report.strip("\n")


def solver_report(seed: int, games: int) -> tuple[float, str]:
    """(seconds, report) computed by the solver in bca.tc's layout."""
    game = get_game("bulls-cows-1to9")
    t0 = time.perf_counter()
    ev = evaluate(game, "random", first=games, keep_games=True, seed=seed)
    seconds = time.perf_counter() - t0
    lines = []
    for g in range(max(0, games - 4), games):
        r = ev.games[g]
        words = [str(g), game.codes[r.secret], *(game.codes[x] for x in r.guesses)]
        lines.append(" " + " ".join(words) + f" {len(r.guesses)} tries!")
    lines.append("")
    lines += [f" {k} {ev.histogram.get(k, 0)}" for k in sorted(set(range(1, 10)) | set(ev.histogram))]
    whole, rest = divmod(ev.total, games)
    lines += ["", f"Average number of tries was {whole}.{rest * 10**5 // games:05d}"]
    return seconds, "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=3141, help="bca.tc's random number (default 3141)")
    ap.add_argument("--games", type=int, default=3024, help="games to play, 1-3024 (default 3024)")
    ap.add_argument("--engine", action="append", choices=["fast", "reference"],
                    help="engine(s) to time (default: fast)")
    a = ap.parse_args(argv)
    os.chdir(ROOT)  # the shell reads programs/bca.tc relative to the current directory
    s_seconds, expected = solver_report(a.seed, a.games)
    print(f"bca.tc, random number {a.seed}, {a.games} games")
    ok = True
    for engine in a.engine or ["fast"]:
        seconds, cpu, report = run_bca(engine, a.seed, a.games)
        same = report == expected
        ok &= same
        tail = report.split("\n\n", 1)[-1].replace("\n", "  ")
        print(f"{engine:>9}: {seconds:8.2f} s wall {cpu:8.2f} s CPU  {'= solver' if same else 'DIFFERS from the solver'}  | {tail}")
        if not same:
            print(report)
    tail = expected.split("\n\n", 1)[-1].replace("\n", "  ")
    print(f"{'solver':>9}: {s_seconds:8.2f} s wall (with its score table)  | {tail}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
