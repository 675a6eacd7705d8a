"""A function with declarations in nested blocks, on the fast engine (issue 24's performance cliff).

Such a function ran wholly on the reference evaluator; now a name a block declares once, used only after
its declaration in that block, is a static local of the generated code.  This times, in process (CPU time,
best of N, parse and link included, the boot apart), the program below on the fast engine as it is, on the
fast engine with those functions sent to the reference evaluator as before (the analysis patched to
refuse nested declarations again), and on the reference evaluator.  Run:

    python benchmarks/nested_blocks.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from engine_harness import run_program  # noqa: E402

from tinyc.engines import analysis  # noqa: E402

PROGRAM = b"""int total
step int n [
  int i, s
  for(i=0; i<n; ++i) s=s+i%7
  if (s>0) [ int t, u(3); t=s/3; u(1)=t; total=total+u(1) ]
  return s
]
main [
  int r
  for(r=0; r<20; ++r) [ step(20000) ]
  pn total
]
"""


def cpu(engine: str, repeat: int) -> tuple[float, bytes]:
    best, out = float("inf"), b""
    for _ in range(repeat):
        # each run is a new Session with empty caches: it generates its code, as a first run does
        t = time.process_time()
        out = run_program(PROGRAM, engine)[0]
        best = min(best, time.process_time() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    import os
    os.environ["TINYC_NO_CACHE"] = "1"
    now, out = cpu("fast", args.repeat)
    original = analysis.Analysis._scoped

    def refuse(self, body, bits):
        raise analysis.Unsupported("declaration in a nested statement")
    analysis.Analysis._scoped = refuse  # type: ignore[method-assign]
    try:
        before, out_before = cpu("fast", args.repeat)
    finally:
        analysis.Analysis._scoped = original  # type: ignore[method-assign]
    ref, out_ref = cpu("reference", 1)
    assert out == out_before == out_ref, (out, out_before, out_ref)
    print(f"{'engine':<34} {'cpu s':>8} {'vs fast':>8}")
    for name, t in (("fast (nested blocks compiled)", now), ("fast as before (reference runs it)", before),
                    ("reference evaluator", ref)):
        print(f"{name:<34} {t:8.3f} {t / now:8.1f}")


if __name__ == "__main__":
    main()
