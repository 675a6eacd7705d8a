"""Fuzzing draw files (issue 35 item 3): random draw files through :func:`tinyc.dialects.gibson.drawing.render`.

A draw file is data: whatever its lines, rendering gives a picture or a :class:`DrawError` (never another
exception: that was exit 70), the child that draws is never stopped by a signal (SIGABRT from a cairo
assertion, SIGXCPU at the CPU-time bound, SIGKILL) and no rendering takes longer than its bound.

The lines mix the allow-list's commands with plausible arguments (in range, at the edges of the ranges, past
them), cairo methods and Python names outside it, and junk words (non-finite numbers, Python syntax,
unbalanced quotes, huge literals).  ``tests/dialects/test_drawing.py`` runs a short derandomized subset; the long run:

    .venv/bin/python -m tests.fuzz.draw_fuzz --cases 300 [--seed 1]

prints the cases, how each ended, the CPU seconds (tinyc and its children) and every finding.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

from tinyc.dialects.gibson import drawing
from tinyc.dialects.gibson.drawing import DrawError, render

NUMBERS = ["0", "1", "-1", "10", "255", "3.5", "-0.25", ".5", "1e3", "1e6", "-1e6", "1000001", "1e7", "1e300",
           "-1e300", "1e400", "nan", "inf", "-inf", "0x10", "1_000", "--1", "+7", "99999999999999999999", "1j",
           "()", "__import__('os')", "", "'", '"', "0.000001", "360", "-720", "36000", "36001", "28", "29", "6"]
TEXTS = ['"hello"', "'a b'", '"unclosed', "x" * 50, "é", "\\", ";", "&&", "$(id)"]
NAMES = sorted(drawing.COMMANDS) + sorted(drawing.OWN)
WILD = ["set_source", "set_source_surface", "__class__", "__init__", "eval", "exec", "get_target", "mask",
        "set_matrix", "set_dash", "arc", "show_page", "copy_page", "set_tolerance", "push_group", "pop_group",
        "frob", "", "#", "window", "Window", "MOVE_TO"]
WINDOWS = ["1 1", "10 10", "100 80", "640 480", "8192 1", "1 8192", "0 10", "-5 5", "16384 16384", "8192 8192",
           "4096 4096", "10", "10 10 10", "1e3 10", "nan 10"]


def build(pick, number) -> str:
    """A draw file from two sources of choices: ``pick(sequence)`` an element, ``number(lo, hi)`` an int
    (Hypothesis's draws in the tests, a seeded ``random.Random`` in the long run).  Mostly a window first,
    then up to 12 lines (a command with its argument count or near it, a wild name, a comment, a blank),
    mostly ending with ``show``."""
    out = []
    if number(0, 9):
        out.append("window " + pick(WINDOWS[:6]))
    for _ in range(number(0, 12)):
        kind = pick(["good"] * 6 + ["wild", "comment", "blank", "window"])
        if kind == "comment":
            out.append("# " + pick(TEXTS))
        elif kind == "blank":
            out.append("")
        elif kind == "window":
            out.append("window " + pick(WINDOWS))
        else:
            name = pick(NAMES if kind == "good" else WILD)
            arity = len(drawing.COMMANDS[name]) if name in drawing.COMMANDS else number(0, 6)
            arity = max(0, arity + pick([0, 0, 0, 0, 1, -1]))
            texts = name in ("show_text", "showtext", "text_path", "select_font_face", "showapp")
            out.append(" ".join([name, *(pick(NUMBERS + TEXTS if texts else NUMBERS) for _ in range(arity))]))
    if number(0, 3):
        out.append("show")
    return "\n".join(out) + "\n"


@st.composite
def draw_files(draw) -> str:
    """The Hypothesis strategy of :func:`build`."""
    return build(lambda seq: draw(st.sampled_from(seq)), lambda lo, hi: draw(st.integers(lo, hi)))


@dataclass
class Tally:
    """How the cases ended, and the findings (what broke a property), with the file that did it."""
    cases: int = 0
    drawn: int = 0
    refused: int = 0           # the checker's DrawError
    cairo: int = 0             # cairo's own error, reported by the child
    longest: float = 0.0
    findings: list[tuple[str, str]] = field(default_factory=list)


def check_one(text: str, folder: Path, tally: Tally | None = None) -> None:
    """Render ``text`` as ``folder/f.draw``; raises AssertionError on a finding (another exception, a
    signal, a rendering past its bound)."""
    path = folder / "f.draw"
    path.write_text(text, encoding="latin-1")
    bound = 3 * drawing.CPU_SECONDS + 10
    began = time.monotonic()
    try:
        render(path)
        outcome = "drawn"
    except DrawError as e:
        assert e.signal is None, f"the renderer was stopped by signal {e.signal}: {e}"
        outcome = "cairo" if ": cairo returned" in str(e) or "CAIRO_STATUS" in str(e) else "refused"
    elapsed = time.monotonic() - began
    assert elapsed < bound, f"rendering took {elapsed:.1f} s (bound {bound} s)"
    if tally is not None:
        tally.cases += 1
        setattr(tally, outcome, getattr(tally, outcome) + 1)
        tally.longest = max(tally.longest, elapsed)


def main(argv: list[str] | None = None) -> int:
    """The long run: ``--cases N`` random draw files from ``--seed``; prints the figures, exit 1 on a finding."""
    p = argparse.ArgumentParser(prog="python -m tests.fuzz.draw_fuzz")
    p.add_argument("--cases", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    tally = Tally()
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.cases):
            text = build(rng.choice, rng.randint)
            try:
                check_one(text, Path(tmp), tally)
            except AssertionError as e:
                tally.cases += 1
                tally.findings.append((str(e), text))
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    print(f"{tally.cases} cases in {time.monotonic() - began:.0f} s, {cpu:.1f} CPU seconds (children included): "
          f"{tally.drawn} drawn, {tally.refused} refused by the checker, {tally.cairo} stopped by cairo's own "
          f"error; longest {tally.longest:.2f} s; {len(tally.findings)} findings")
    for message, text in tally.findings:
        print(f"--- {message}\n{text}")
    return 1 if tally.findings else 0


if __name__ == "__main__":
    sys.exit(main())
