"""The Gibson dialect's default library (gibson-dialect.md 1.3, step 5): an application without #include lines
gets ``pps/library.tc`` as an #include of it would find it (the current directory's, as the original loads
it), and tinyc's own library where there is none."""

from __future__ import annotations

import os
import subprocess
import sys


def run(cwd, *args):
    return subprocess.run([sys.executable, "-m", "tinyc", "run", "-q", "--dialect", "gibson", *args], cwd=cwd,
                          capture_output=True, timeout=60, stdin=subprocess.DEVNULL,
                          env={**os.environ, "TINYC_NO_CACHE": "1"})


def test_the_current_directorys_pps_library_is_the_default(tmp_path):
    (tmp_path / "app.tc").write_text("main [ hello ]\n")
    (tmp_path / "pps").mkdir()
    (tmp_path / "pps" / "library.tc").write_text('hello [ MC 72, 1; MC 105, 1 ]\n')
    done = run(tmp_path, "app.tc")
    assert done.returncode == 0 and done.stdout.startswith(b"Hi"), done.stdout + done.stderr


def test_without_one_the_shipped_library_is_the_default(tmp_path):
    (tmp_path / "app.tc").write_text('main [ printf "%d%c", 6 * 7, 10 ]\n')
    done = run(tmp_path, "app.tc")
    assert done.returncode == 0 and done.stdout.startswith(b"42\n"), done.stdout + done.stderr
