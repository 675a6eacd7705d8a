"""How the ``tinyc`` command ends its process (``cli.main.entry``): without tearing down its heap, but with
every byte written and the status of :func:`main`.  Each case runs ``python -m tinyc`` as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tinyc(*args: str, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], input=stdin, capture_output=True, cwd=cwd,
                          timeout=120)


def test_a_file_the_program_left_open_is_complete(tmp_path):
    # C's exit() flushes the streams a program did not close; so does tinyc before os._exit
    (tmp_path / "w.tc").write_text('char b(20)\nmain [ fopen 2,"out.txt",0,1; move "hello, file",b; '
                                   'fwrite b,b+10,1; pl "written" ]\n')
    done = tinyc("run", "w.tc", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == b"\r\nwritten\n"
    assert (tmp_path / "out.txt").read_bytes() == b"hello, file"


def test_a_long_output_into_a_pipe_arrives_whole(tmp_path):
    (tmp_path / "many.tc").write_text("main [ int k; while(k<20000) [ pn k; ++k ] ]\n")
    done = tinyc("run", "many.tc", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.split() == [str(k).encode() for k in range(20000)]


@pytest.mark.parametrize("args, status", [
    (["run", "ok.tc"], 0),
    (["run", "bad.tc"], 1),           # a tiny-c error
    (["run", "missing.tc"], 2),       # a file that cannot be read
    (["run", "--no-such-option"], 2),  # argparse's SystemExit
    (["--version"], 0),
])
def test_the_status_is_mains(tmp_path, args, status):
    (tmp_path / "ok.tc").write_text('main [ pl "ok" ]\n')
    (tmp_path / "bad.tc").write_text("main [ pn 1/0 ]\n")
    done = tinyc(*args, cwd=tmp_path)
    assert done.returncode == status
    if status == 1:
        assert b"err  30" in done.stderr


# ---- issue 24: output is flushed on every way out; a closed pipe stops the program

PLANTED = ("import sys, tinyc.machine.console as c, tinyc.dialects.gibson.calls as g\n"
           "def planted(*a):\n    raise RuntimeError('a planted bug')\n"
           "c.Console.key_ready = planted; g.ROUTINES[12] = planted\n"
           "from tinyc.cli.main import entry\nentry()\n")


@pytest.mark.parametrize("dialect", ["pc", "gibson"])
@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_an_internal_error_keeps_the_output_printed_before_it(tmp_path, dialect, engine):
    # a bug in tinyc (exit 70) must not lose what the program printed: the console is flushed on that path
    (tmp_path / "p.tc").write_text('main [ pl "printed before"; MC 12; pl "not reached" ]\n')
    done = subprocess.run([sys.executable, "-c", PLANTED, "run", "p.tc", "--engine", engine, "--dialect", dialect],
                          capture_output=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 70
    assert b"internal error" in done.stderr and b"a planted bug" in done.stderr
    assert b"printed before" in done.stdout and b"not reached" not in done.stdout


@pytest.mark.parametrize("dialect", ["pc", "gibson"])
@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_a_closed_pipe_stops_an_endless_writer(tmp_path, dialect, engine):
    # tinyc run p.tc | head -1: the program stops at the first broken pipe, quietly, as Python programs end
    (tmp_path / "p.tc").write_text('main [ while 1 [ pl "yes" ] ]\n')
    proc = subprocess.Popen([sys.executable, "-P", "-m", "tinyc", "run", "p.tc", "--engine", engine, "--dialect", dialect],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert proc.stdout is not None and proc.stderr is not None
    assert b"yes" in b"".join(proc.stdout.readline() for _ in range(4))  # after the Gibson banner
    proc.stdout.close()  # head -1 has quit
    try:
        status = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail("the program went on writing into a closed pipe")
    assert status in (141, 1)
    assert proc.stderr.read() == b""  # no traceback, no "Exception ignored" at exit
