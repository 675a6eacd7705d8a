"""The tinyc command line: where options may stand, IPL boot, exit statuses (tinyc/cli/main.py)."""

import subprocess
import sys

import pytest


def tinyc(*args, stdin=b""):
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], input=stdin, capture_output=True, timeout=60)


@pytest.fixture
def ipl(tmp_path):
    path = tmp_path / "a.ipl"
    path.write_bytes(b"[main();]\nmain [ MC 65,1 ]\n")
    return str(path)


@pytest.mark.parametrize("args", [["{ipl}"], ["{ipl}", "--engine", "reference"],
                                  ["--engine", "reference", "{ipl}"], ["--memory", "300000", "{ipl}"]])
def test_an_ipl_boots_with_options_before_or_after_it(ipl, args):
    r = tinyc(*[a.format(ipl=ipl) for a in args])
    assert (r.returncode, r.stdout, r.stderr) == (0, b"A", b"")


def test_options_may_come_before_a_command(tmp_path):
    prog = tmp_path / "p.tc"
    prog.write_bytes(b"main [ pn 32767+1 ]\n")
    assert tinyc("--int-bits", "16", "run", str(prog)).stdout == b" -32768\n"
    assert tinyc("run", str(prog), "--int-bits", "16").stdout == b" -32768\n"


def test_a_dos_end_of_file_byte_is_a_blank(tmp_path):
    path = tmp_path / "dos.ipl"
    path.write_bytes(b"[main();]\r\nmain [ MC 66,1 ]\r\n\x1a")
    r = tinyc(str(path))
    assert (r.returncode, r.stdout) == (0, b"B")


def test_a_missing_ipl_is_a_usage_error_not_a_traceback(tmp_path):
    r = tinyc(str(tmp_path / "none.ipl"))
    assert r.returncode == 2 and b"Traceback" not in r.stderr and b"none.ipl" in r.stderr
