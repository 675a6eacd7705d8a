"""The long fuzzing campaign: many seeded programs and shell sessions, in worker processes.

    python -m tests.fuzz.campaign --programs 100000 --frames 10000 --files 10000 --gibson 20000 \
        --sessions 10000 --piped 2000 --pokes 10000 --jobs 2 --out DIR

Each item is made from its own seed (``random.Random(kind, seed)``), so a failure is reproduced with
``python -m tests.fuzz.campaign --show KIND SEED``.  Workers run chunks of seeds; a worker that dies (a
crash of the interpreter) is reported with the seed it was running.  Results: ``DIR/failures.jsonl`` and
a summary of the counts by class on stdout.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

STDIN = b"5\n7\nabc\n-3\n"


def item(kind: str, seed: int) -> bytes:
    """The input of one campaign item: a program (valid or mutated) or a shell session."""
    from fuzz import gen_gibson
    from fuzz.gen import frame_program, mutate, program, session
    from fuzz.gen_files import file_program
    r = random.Random(f"{kind}-{seed}")
    if kind == "frame":
        return frame_program(r).encode("latin-1")
    if kind == "pokes":  # programs that poke their own text (issue 35 item 1); a quarter in Gibson's dialect
        from fuzz import gen_pokes
        return gen_pokes.program(r, gibson=r.random() < 0.25)
    if kind == "files":
        return file_program(r).encode("latin-1")
    if kind == "gibson":
        src = gen_gibson.program(r)
        return gen_gibson.mutate(r, src) if r.random() < 0.35 else src.encode("latin-1")
    if kind == "program":
        src = program(r, size=r.choice([1, 1, 2]))
        return mutate(r, src) if r.random() < 0.35 else src.encode("latin-1")
    return session(r)


def run_item(kind: str, seed: int):
    from fuzz.runner import differential, gibson_differential, piped_session, poke_differential, shell_differential
    data = item(kind, seed)
    if kind == "pokes":
        return poke_differential(data, gibson=data.startswith(b"#include"), stdin=STDIN, seconds=3.0)
    bits = 16 if random.Random(seed).random() < 0.15 else 32
    if kind in ("program", "frame", "files"):
        return differential(data, STDIN, int_bits=bits, seconds=3.0)
    if kind == "gibson":
        return gibson_differential(data, STDIN, seconds=3.0)
    if kind == "session":
        return shell_differential(data, seconds=8.0, int_bits=bits)
    return piped_session(data, seconds=10)


def worker(kind: str, start: int, count: int, progress: Path) -> None:
    counts = collections.Counter()
    fails = []
    for seed in range(start, start + count):
        progress.write_text(str(seed))
        o = run_item(kind, seed)
        counts[o.kind + ("/" + o.detail if o.detail and not o.failed else "")] += 1
        if o.failed:
            fails.append({"kind": kind, "seed": seed, "class": o.kind, "detail": str(o.detail)[:500],
                          "ref": repr(o.ref)[:300], "fast": repr(o.fast)[:300]})
    print(json.dumps({"counts": counts, "fails": fails}))


def campaign(args) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    queues = []
    for kind, n in (("program", args.programs), ("frame", args.frames), ("files", args.files),
                    ("gibson", args.gibson), ("session", args.sessions), ("piped", args.piped),
                    ("pokes", args.pokes)):
        chunk = {"program": 250, "frame": 250, "files": 250, "gibson": 250, "session": 100, "piped": 25,
                 "pokes": 25}[kind]
        queues.append([(kind, s, min(chunk, args.seed + n - s)) for s in range(args.seed, args.seed + n, chunk)])
    todo = []  # interleaved in proportion, so that a campaign stopped early has run every kind
    total = sum(len(q) for q in queues)
    for step in range(total):
        for q, n0 in zip(queues, [len(q) for q in queues]):
            while q and (n0 - len(q)) * total <= step * n0:
                todo.append(q.pop(0))
    counts = collections.Counter()
    fails = []
    running: list = []
    t0 = time.time()
    cpu0 = os.times()
    k = 0
    while todo or running:
        while todo and len(running) < args.jobs:
            kind, s, n = todo.pop(0)
            prog = out / f"progress-{k}"
            k += 1
            p = subprocess.Popen([sys.executable, "-m", "tests.fuzz.campaign", "--worker", kind, str(s), str(n),
                                  str(prog)], stdout=subprocess.PIPE, cwd=ROOT)
            running.append((p, kind, s, n, prog))
        time.sleep(0.2)
        for entry in list(running):
            p, kind, s, n, prog = entry
            if p.poll() is None:
                continue
            running.remove(entry)
            text = p.stdout.read().decode()
            if p.returncode == 0 and text.strip():
                res = json.loads(text.strip().splitlines()[-1])
                counts.update({f"{kind}:{c}": v for c, v in res["counts"].items()})
                fails += res["fails"]
            else:  # the worker died: the seed it was running crashed the interpreter
                bad = int(prog.read_text()) if prog.exists() else s
                fails.append({"kind": kind, "seed": bad, "class": f"crash-{p.returncode}", "detail": text[-300:]})
                counts[f"{kind}:crash"] += 1
                done = bad - s + 1
                if done < n:
                    todo.insert(0, (kind, bad + 1, n - done))
                counts[f"{kind}:ok"] += bad - s  # the seeds before it ran (their outcomes are lost: counted ok)
            with open(out / "failures.jsonl", "w") as f:
                for x in fails:
                    f.write(json.dumps(x) + "\n")
            done_n = sum(v for c, v in counts.items())
            print(f"[{time.time() - t0:7.0f}s] {done_n} items, {len(fails)} failures", flush=True)
            summary = _summary(t0, cpu0, counts, fails)  # kept current: a campaign may be stopped early
            (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary, indent=1))
    return 1 if fails else 0


def _summary(t0, cpu0, counts, fails) -> dict:
    cpu = os.times()
    return {"wall_seconds": round(time.time() - t0), "cpu_seconds_children": round(
        cpu.children_user + cpu.children_system - cpu0.children_user - cpu0.children_system),
        "counts": dict(sorted(counts.items())), "failures": len(fails),
        "classes": dict(collections.Counter(x["class"] for x in fails))}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", type=int, default=1000)
    ap.add_argument("--frames", type=int, default=0, help="programs that abuse their frames (item 6)")
    ap.add_argument("--files", type=int, default=200, help="programs that use the file calls")
    ap.add_argument("--gibson", type=int, default=500, help="programs of the Gibson dialect, valid and mutated")
    ap.add_argument("--sessions", type=int, default=100)
    ap.add_argument("--piped", type=int, default=20)
    ap.add_argument("--pokes", type=int, default=0, help="programs that poke their own text (issue 35 item 1)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="fuzz-out")
    ap.add_argument("--worker", nargs=4, metavar=("KIND", "START", "COUNT", "PROGRESS"))
    ap.add_argument("--show", nargs=2, metavar=("KIND", "SEED"), help="print one item and its outcome")
    a = ap.parse_args(argv)
    if a.worker:
        kind, start, count, prog = a.worker
        worker(kind, int(start), int(count), Path(prog))
        return 0
    if a.show:
        kind, seed = a.show[0], int(a.show[1])
        sys.stdout.buffer.write(item(kind, seed) + b"\n")
        print(run_item(kind, seed))
        return 0
    return campaign(a)


if __name__ == "__main__":
    sys.exit(main())
