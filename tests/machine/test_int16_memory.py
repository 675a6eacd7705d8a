"""Reference section 14 item 21: with ``--int-bits 16`` the machine has 65536 bytes unless a smaller size is
given, ``--memory`` above 65536 is refused, and the shell's program buffer is the DOS shell's 12000 bytes,
so that the system file, bc.tc, bca.tc and their arrays fit in 64 KB.  Every run goes through
``python -m tinyc`` in a temporary directory, on both engines."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from test_programs import GAME, TABLE, bca_expected, code_of
from tinyc.solver import make_strategy, play

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ["reference", "fast"]


def tinyc(cwd: Path, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TINYC_")}
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], input=stdin, capture_output=True,
                          cwd=cwd, env=env, timeout=120)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    for name in ("bc.tc", "bca.tc"):
        (tmp_path / name).write_bytes((ROOT / "programs" / name).read_bytes())
    return tmp_path


# A char pointer to any address: q bound to the int p (40000 prints as -25536 but addresses 40000), read at
# p+k.  65535 is the memory's last byte; 65536 is past it.
PEEK = b"""peek int p,k [ char q(0); q=p; pn q(k) ]
main [ peek(40000, 25535); peek(40000, 25536) ]
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_the_machine_has_65536_bytes_and_an_address_beyond_is_error_6(work, engine):
    (work / "peek.tc").write_bytes(PEEK)
    r = tinyc(work, "run", "--int-bits", "16", "--engine", engine, "peek.tc")
    assert r.returncode == 1
    assert r.stdout == b" 0\n"  # 65535 read
    assert r.stderr.startswith(b" 1 --- err  6\npeek int p,k [ char q(0); q=p; pn q(k) ]\n")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_smaller_memory_ends_where_it_says(work, engine):
    (work / "peek.tc").write_bytes(b"peek int p,k [ char q(0); q=p; pn q(k) ]\n"
                                   b"main [ peek(39999, 0); peek(39999, 1) ]\n")
    r = tinyc(work, "run", "--int-bits", "16", "--memory", "40000", "--engine", engine, "peek.tc")
    assert r.returncode == 1 and r.stdout == b" 0\n"
    assert r.stderr.startswith(b" 1 --- err  6\n")


def test_two_30000_byte_arrays_do_not_fit_in_16_bit_mode(work):
    (work / "big.tc").write_bytes(b"char a(30000),b(30000)\nmain [ pl \"ok\" ]\n")
    assert tinyc(work, "run", "big.tc").stdout == b"\r\nok\n"  # 1 MiB with 32-bit ints
    r = tinyc(work, "run", "--int-bits", "16", "big.tc")
    assert r.returncode == 1 and b"err  19" in r.stderr  # too many values: the 64 KB are full


@pytest.mark.parametrize("argv", [["run", "bc.tc"], ["shell"], ["trace", "bc.tc"], ["boot", "system.ipl"],
                                  ["tokens", "bc.tc"]])
def test_memory_above_65536_with_16_bit_ints_is_a_usage_error(work, argv):
    r = tinyc(work, *argv, "--int-bits", "16", "--memory", "65537", stdin=b".x\n")
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode().splitlines() == [
        "tinyc: --memory 65537 is more than 16-bit ints can address: "
        "with --int-bits 16 the machine has at most 65536 bytes"]


def test_65536_bytes_given_and_more_with_32_bit_ints_are_fine(work):
    (work / "hi.tc").write_bytes(b"main [ pl \"hi\" ]\n")
    assert tinyc(work, "run", "--int-bits", "16", "--memory", "65536", "hi.tc").returncode == 0
    assert tinyc(work, "run", "--memory", "300000", "hi.tc").returncode == 0


def program_of(size: int) -> bytes:
    """A program of exactly ``size`` bytes: main, then comment lines."""
    head = b"main [ pl \"fits\" ]\n"
    body = size - len(head)
    lines, rest = divmod(body, 100)
    text = head + (b"/*" + b"x" * 97 + b"\n") * lines
    return text + (b"/*" + b"y" * (rest - 3) + b"\n" if rest else b"")


@pytest.mark.parametrize("engine", ENGINES)
def test_the_program_buffer_holds_12000_bytes(work, engine):
    (work / "fits.tc").write_bytes(program_of(12000))
    (work / "over.tc").write_bytes(program_of(12001))
    assert len((work / "over.tc").read_bytes()) == 12001
    r = tinyc(work, "run", "--int-bits", "16", "--engine", engine, "fits.tc")
    assert (r.returncode, r.stdout) == (0, b"\r\nfits\n")
    r = tinyc(work, "run", "--int-bits", "16", "--engine", engine, "over.tc")
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr == b"tinyc: over.tc: too big: more than the 12000 bytes the program buffer holds\n"
    assert tinyc(work, "run", "--engine", engine, "over.tc").stdout == b"\r\nfits\n"  # 90000 with 32-bit ints


@pytest.mark.parametrize("shell", [[], ["boot", "system.ipl"]])
def test_the_shells_refuse_a_file_over_12000_bytes(work, shell):
    (work / "over.tc").write_bytes(program_of(12001))
    (work / "fits.tc").write_bytes(program_of(12000))
    r = tinyc(work, *shell, "--int-bits", "16", stdin=b".r over.tc\n.r fits.tc\n.main\n.x\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout.replace(b"\r\n", b"\n")
    assert b"tc>\nToo big -2\ntc>" in out  # the file over the buffer is refused, as with 90000 bytes
    assert b"tc> 12000\n" in out and b"tc>\nfits\n" in out, out  # one of exactly 12000 bytes fits and runs


def bullcow_session(seed: int, secret: str) -> tuple[bytes, list[str]]:
    """bc.tc's input for one game against ``secret``, and the guesses the 16-bit library's random makes."""
    strat = make_strategy("random", GAME, TABLE, seed=seed, bits=16)
    guesses = [GAME.codes[g] for g in play(strat, TABLE, GAME.index[secret]).guesses]
    return b"\n".join([b"%d" % seed] + [code_of(g.encode(), secret) for g in guesses]) + b"\n", guesses


@pytest.mark.parametrize("engine", ENGINES)
def test_bullcow_in_16_bit_mode(work, engine):
    typed, guesses = bullcow_session(3141, "5831")
    r = tinyc(work, "run", "--int-bits", "16", "--engine", engine, "bc.tc", "--entry", "bullcow", stdin=typed)
    assert r.returncode == 0, r.stderr
    assert re.findall(rb"Guess \d+: (\d{4})", r.stdout) == [g.encode() for g in guesses]
    assert b"I got it in %d tries!" % len(guesses) in r.stdout


@pytest.mark.parametrize("engine", ENGINES)
def test_bca_in_16_bit_mode(work, engine):
    r = tinyc(work, "run", "--int-bits", "16", "--engine", engine, "bca.tc", "--entry", "bca", stdin=b"3141\n20\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith(b"(1-3024)? \r\n" + bca_expected(3141, 20, bits=16))


@pytest.mark.slow  # whole bca.tc runs through both shells; test_bca_in_16_bit_mode stays in the quick run
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("shell", [[], ["boot", "system.ipl"]])
def test_the_shells_run_bca_in_16_bit_mode(work, engine, shell):
    r = tinyc(work, *shell, "--int-bits", "16", "--engine", engine, stdin=b".r bca.tc\n.bca\n3141\n20\n.x\n")
    assert r.returncode == 0, r.stderr
    assert b"(1-3024)? \r\n" + bca_expected(3141, 20, bits=16) in r.stdout
