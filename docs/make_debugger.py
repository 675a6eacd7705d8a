"""Fill in the sessions of docs/debugger.md: each ``<!-- debug: CMD -->`` block gets what CMD prints.

Run ``python docs/make_debugger.py`` from the checkout after a change to the debugger; tests/debug/test_debugger.py
fails while the page is stale."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "debugger.md"
BLOCK = re.compile(r"<!-- debug: (?P<cmd>.*?) -->\n.*?<!-- /debug -->", re.S)


def run(cmd: str) -> str:
    """What ``cmd`` prints (stdout, then stderr), run by bash in the checkout with this Python's tinyc."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    done = subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=env, capture_output=True, timeout=120)
    out = (done.stdout + done.stderr).decode("latin-1")
    return out if out.endswith("\n") else out + "\n"


def render(text: str) -> str:
    """``text`` with every debug block filled in afresh."""
    def fill(m: re.Match) -> str:
        cmd = m.group("cmd")
        return f"<!-- debug: {cmd} -->\n```text\n$ {cmd}\n{run(cmd)}```\n<!-- /debug -->"
    return BLOCK.sub(fill, text)


if __name__ == "__main__":
    DOC.write_text(render(DOC.read_text()))
