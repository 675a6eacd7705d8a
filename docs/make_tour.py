"""Fill the command outputs embedded in docs/architecture.md (and any markdown given) from real runs.

A block to fill looks like this in the markdown::

    <!-- tour: tinyc ast -e 'pn 2+3*4' -->
    ...anything: replaced by a fenced block with the command and its output...
    <!-- /tour -->

Each command runs as ``python -m tinyc ARGS`` from the top of the repository, stdout and stderr
merged as a terminal shows them (CR bytes dropped).  A command that is not available yet (``tinyc
compile`` before the fast engine exists) leaves a note saying so; rerunning fills it in later.

    python docs/make_tour.py           # rewrite docs/architecture.md
    python docs/make_tour.py --check   # exit 1 if it is stale (tests/project/test_tour.py does this)
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
BLOCK = re.compile(r"<!-- tour: (?P<cmd>.*?) -->\n.*?<!-- /tour -->", re.S)


def run(command: str) -> str:
    """The terminal transcript of ``tinyc ...`` (``command`` starts with ``tinyc``)."""
    args = shlex.split(command)
    assert args[0] == "tinyc", command
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    done = subprocess.run([sys.executable, "-m", "tinyc", *args[1:]], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=120)
    out = done.stdout.decode("latin-1").replace("\r", "")
    if done.returncode == 2 and "not available" in out:
        return f"({args[1]} is not available in this version yet: docs/make_tour.py fills this in once it is)\n"
    if done.returncode:
        out += f"[exit status {done.returncode}]\n"
    return out


def render(text: str) -> str:
    """``text`` with every tour block refilled."""
    def fill(m: re.Match) -> str:
        cmd = m.group("cmd")
        return f"<!-- tour: {cmd} -->\n```text\n$ {cmd}\n{run(cmd)}```\n<!-- /tour -->"
    return BLOCK.sub(fill, text)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [Path(a) for a in argv if a != "--check"] or [DOC]
    stale = []
    for path in paths:
        old = path.read_text()
        new = render(old)
        if new != old:
            stale.append(path)
            if not check:
                path.write_text(new)
    if check and stale:
        print("stale: " + ", ".join(map(str, stale)) + " (run python docs/make_tour.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
