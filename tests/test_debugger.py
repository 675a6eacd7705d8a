"""``tinyc debug`` / ``tinyc run -d`` (issue 27): transcript tests of whole sessions in both dialects.

Each case runs the debugger on a program of tests/debugger with a command file on stdin (the program's
input lines among the commands, as with Gibson's ``tc -d``) and compares stdout with ``NAME.out``.
``mirror`` follows Gibson's documented session (Documents/debugExample.txt of his repository) on a
program of our own; ``modern`` uses every command of a modern debugger; ``bad`` the bad input.
Regenerate an ``.out`` after a deliberate change with ``TINYC_REGEN=1 pytest tests/test_debugger.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "debugger"

CASES = {
    # name: (command line after `tinyc`, command file)
    "mirror_pc": (["debug", "double.tc"], "mirror.in"),
    "mirror_gibson": (["debug", "double_gibson.tc"], "mirror.in"),
    "mirror_run_d": (["run", "-d", "--dialect", "gibson", "-q", "double.tc"], "mirror.in"),
    "modern_pc": (["debug", "fact.tc"], "modern.in"),
    "modern_gibson": (["debug", "-q", "fact_gibson.tc"], "modern_gibson.in"),
    "bad_pc": (["run", "-d", "bad.tc"], "bad.in"),
    "bad_gibson": (["debug", "--dialect", "gibson", "-q", "bad.tc"], "bad.in"),
}


def session(args: list[str], commands: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tinyc", *args], input=commands, capture_output=True,
                          cwd=HERE, timeout=120)


@pytest.mark.parametrize("name", sorted(CASES))
def test_transcript(name: str) -> None:
    args, commands = CASES[name]
    done = session(args, (HERE / commands).read_bytes())
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    expected = HERE / f"{name}.out"
    if os.environ.get("TINYC_REGEN"):
        expected.write_bytes(done.stdout)
    assert done.stdout.decode("latin-1") == expected.read_text(encoding="latin-1")
