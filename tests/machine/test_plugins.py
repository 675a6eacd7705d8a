"""Plug-in machine calls (issue 30, part 3): ``#loadMC NAME`` finds the shipped ports, installed plug-ins and,
only with --allow-plugins, NAME.py beside the program; the ports print what their C prints.

pigra's expected canvas (tests/draw/pigra.expected.txt) was printed by Lee Bradley's pigra.c itself, compiled
with a driver that makes the same calls as PIGRA below; fibpi's and amort's figures are those of his
published runs (fibpi.tc.out, amort.png).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1]
DOCS = HERE.parent / "docs"
ENGINES = ["reference", "fast"]

PIGRA = """#loadMC pigra
#include pps/library.tc
main [
  MC 1001
  MC 30,50,1003; MC 30,51,1003; MC 48,28,1003
  MC 10,10,70,70,1004; MC 5,70,75,3,1004; MC 0,0,79,1,1004
  MC 40,40,25,29,1005; MC 40,40,25,7,1006; MC 3,3,20,60,50,7,1009; MC 60,20,15,5,1005
  MC 32,50," <-- see the dot",1007; MC 70,2,"cut",1007
  MC 40,79,41,0,1004; MC 79,79,0,78,1004
  MC 1002
]
"""


def run(tmp_path: Path, source: str, *options: str, stdin: bytes = b"", engine: str = "reference"):
    program = tmp_path / "prog.tc"
    program.write_text(source)
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", "-q", "--engine", engine, *options, str(program)],
                          cwd=tmp_path, input=stdin, capture_output=True, timeout=60,
                          env={**os.environ, "TINYC_NO_CACHE": "1"})


@pytest.mark.parametrize("engine", ENGINES)
def test_pigra_draws_the_canvas_the_c_draws(tmp_path, engine):
    done = run(tmp_path, PIGRA, engine=engine)
    assert done.returncode == 0, done.stderr
    expected = (HERE / "draw" / "pigra.expected.txt").read_bytes()
    assert expected in done.stdout


def _limited_memory():
    """The child's address space capped at 1 GiB: a plug-in that grows without bound fails there (a
    MemoryError) instead of taking the machine's memory."""
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("n,options", [(100000, ("--memory", "200000")), (2147483647, ())])
def test_a_plugin_holds_no_more_than_memory_allows(tmp_path, engine, n, options):
    """Issue 35 item 6: pigra's n-gon of n points counts them against --memory; beyond it the MC stops with
    error 19 (TMVLERR) and the dialect's report, in bounded memory and time (each point is 8 bytes: 100000
    of them do not fit in 200000 bytes, 2**31 - 1 in no memory tinyc allows)."""
    source = f"#loadMC pigra\n#include pps/library.tc\nmain [\n MC 1001\n MC 40,40,25,{n},1005\n pl \"after\"\n]\n"
    program = tmp_path / "prog.tc"
    program.write_text(source)
    done = subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", "-q", "--engine", engine, *options,
                           str(program)], cwd=tmp_path, capture_output=True, timeout=60,
                          env={**os.environ, "TINYC_NO_CACHE": "1"}, preexec_fn=_limited_memory)
    assert done.returncode == 0, done.stderr
    assert b"MC 1005 not defined" in done.stdout and b"TMVLERR" in done.stdout, done.stdout + done.stderr
    assert b"\nafter" not in done.stdout and b"Traceback" not in done.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_pifib_gives_the_fibonacci_numbers_of_the_published_run(tmp_path, engine):
    source = ('#loadMC pifib\n#include pps/library.tc\nfib int n [ return MC(n, 1001) ]\n'
              'main [ int n; n = gn; printf "fib(%d) = %d, fib(%d) = %d%c", n+1, fib(n+1), n, fib(n), 10 ]\n')
    done = run(tmp_path, source, stdin=b"41\n", engine=engine)
    assert b"fib(42) = 267914296, fib(41) = 165580141" in done.stdout, done.stdout + done.stderr


def test_amortpi_gives_the_payments_of_the_published_run(tmp_path):
    source = ('#loadMC amortpi\n#include pps/library.tc\n'
              'main [ int a(1), p(1), i(1), r(1)\n'
              '  a(0) = 100; a(1) = 1; p(0) = 2000; p(1) = 1; i(0) = 8; i(1) = 1200\n'
              '  MC a, p, i, r, 1001\n  printf "%d/%d%c", r(0), r(1), 10 ]\n')
    done = run(tmp_path, source)
    assert b"2153/100" in done.stdout, done.stdout + done.stderr


def test_spiralpi_and_pospi(tmp_path):
    source = ('#loadMC spiralpi\n#include pps/library.tc\n'
              'main [ int r(0); MC 314, 100, 50, r, 10, 1001; printf "%d ", r(0)\n'
              '  MC 157, 100, 50, r, 10, 1002; printf "%d%c", r(0), 10 ]\n')
    assert b"-69 58" in run(tmp_path, source).stdout   # floor(50*e^0.314*cos 3.14), floor(50*e^0.157*sin 1.57)
    source = '#loadMC pospi\n#include pps/library.tc\nmain [ MC 3, 1, "hi", 1001 ]\n'
    assert b"\x1b[2;4Hhi" in run(tmp_path, source).stdout


def test_an_unknown_plug_in_stops_as_gibsons_tc_stops(tmp_path):
    done = run(tmp_path, "#loadMC nosuch\n#include pps/library.tc\nmain [ pl \"x\" ]\n")
    assert done.returncode == 1 and done.stdout == b""
    assert b"\nCould not open ./libnosuch.so\ndlerror: ./libnosuch.so: " in done.stderr


def test_a_plug_in_beside_the_program_needs_the_users_opt_in(tmp_path):
    marker = tmp_path / "ran"
    (tmp_path / "mine.py").write_text(f"open({str(marker)!r}, 'w').close()\n"
                                      "MACHINE_CALLS = {1001: lambda machine, args: args[0] * 2}\n")
    source = '#loadMC mine\n#include pps/library.tc\nmain [ printf "%d%c", MC(21, 1001), 10 ]\n'
    done = run(tmp_path, source)
    assert done.returncode == 1 and b"--allow-plugins" in done.stderr and not marker.exists()
    done = run(tmp_path, source, "--allow-plugins")
    assert done.returncode == 0 and b"42" in done.stdout and marker.exists()


def test_a_network_plug_in_is_refused(tmp_path):
    done = run(tmp_path, "#loadMC urldownloadpi\n#include pps/library.tc\nmain [ pl \"x\" ]\n")
    assert done.returncode == 1 and b"network" in done.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_machine_call_numbers_without_a_plug_in_or_beyond_its_table(tmp_path, engine):
    done = run(tmp_path, "#include pps/library.tc\nmain [ MC 1, 1001 ]\n", engine=engine)
    assert b"ARGSERR" in done.stdout and b"MC 1001 not defined" in done.stdout
    done = run(tmp_path, "#loadMC pifib\n#include pps/library.tc\nmain [ MC 1, 1005 ]\n", engine=engine)
    assert b"MC 1005 not defined" in done.stdout and b"ARGSERR" not in done.stdout


def test_the_example_in_the_plug_in_docs_runs_as_it_says(tmp_path):
    page = (DOCS / "plugins.md").read_text()
    module, program = re.findall(r"```(?:python)?\n(.*?)```", page, re.S)[:2]
    (tmp_path / "tally.py").write_text(module)
    done = run(tmp_path, program, "--allow-plugins")
    expected = re.search(r"prints `(.*?)`", page).group(1)
    assert done.returncode == 0 and expected.encode() in done.stdout, done.stdout + done.stderr
