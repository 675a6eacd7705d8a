"""The Gibson dialect's default library (gibson-dialect.md 1.3, step 5): an application without #include lines
gets ``pps/library.tc`` as an #include of it would find it (the current directory's, as the original loads
it), and tinyc's own library where there is none."""

from __future__ import annotations

import os
import subprocess
import sys


def run(cwd, *args):
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", "-q", "--dialect", "gibson", *args], cwd=cwd,
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


def test_reports_count_the_default_library_that_was_loaded(tmp_path):
    """despooner.1.tc (Lee Bradley) runs beside his own pps/library.tc, 9 bytes longer than Gibson's: his
    RANGERR is at pr[6962], 9 past where it is with the shipped library's layout.  Distilled: the
    application's offsets follow the size of the pps/library.tc that was loaded."""
    app = 'main [ char a(3); int k\n  while 1 [ a(k) = 1; k = k + 1 ] ]\n'
    (tmp_path / "app.tc").write_text(app)
    shipped = run(tmp_path, "app.tc").stdout
    assert shipped.startswith(b"\napp line 2 (cursor pr[5539])RANGERR"), shipped  # 5499 + 40, as Gibson's tc
    (tmp_path / "pps").mkdir()
    (tmp_path / "pps" / "library.tc").write_text("// a library of 100 bytes" + "-" * 74 + "\n")
    own = run(tmp_path, "app.tc").stdout
    assert own.startswith(b"\napp line 2 (cursor pr[" + str(9 + 100 + 10 + 40).encode() + b"])RANGERR"), own


def test_a_library_gs_at_the_end_of_input_fails_its_next_name_lookup(tmp_path):
    """G 4.3: at the end of the input the original's gs stores 255 until it overruns its name tables,
    and its next name lookup is SYMERR.  tinyc does that for the gs of whatever library is loaded
    (Gibson's own text when pps/library.tc is his), on both engines.  This library and its expected
    report were checked against Gibson's tc."""
    (tmp_path / "app.tc").write_text("main [ char b(9); gs b; pn 1 ]\n")
    (tmp_path / "pps").mkdir()
    lib = ("gs char q(0) [ int k\n  k = 0\n  while ((q(k) = MC(2)) != 10) [\n    if q(k) == 13 break\n"
           "    k = k + 1\n  ]\n  q(k) = 0\n  return k\n]\npn int n [ MC n, 14 ]\n")
    (tmp_path / "pps" / "library.tc").write_text(lib)
    for engine in ("reference", "fast"):
        done = run(tmp_path, "--engine", engine, "app.tc")
        assert done.stdout == b"\nlib line 4 (cursor pr[79])SYMERR, decl needed\n    if q(k) == 13 break\n       ^\n", \
            done.stdout
