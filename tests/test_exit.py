"""How the ``tinyc`` command ends its process (``cli.main.entry``): without tearing down its heap, but with
every byte written and the status of :func:`main`.  Each case runs ``python -m tinyc`` as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def tinyc(*args: str, cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tinyc", *args], input=stdin, capture_output=True, cwd=cwd,
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
