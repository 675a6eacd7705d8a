"""Program bytes never become code (issue 35 item 1; docs/security.md).

A tiny-c program can write into its own text (an unchecked ``char s(0)`` parameter, MC 7, MC 16).  The
fast engine used to copy each statement's text into the generated Python as a comment, split on LF only,
and the unchecked version of a recursive function was built with ``str.splitlines()``: a CR, VT, FF, FS,
GS, RS or NEL poked into a function not yet called ended the comment, and what followed ran as Python;
the start-up cache then kept that code for a later, innocent program.  These tests run those programs
(:mod:`fuzz.gen_pokes`) and check every generated module with :mod:`ast` (:mod:`fuzz.oracle`) over the
conformance corpus, the fuzz generators' seeds and programs that poke every byte 0-255.
"""

from __future__ import annotations

import builtins
import marshal
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine_harness import run_program
from fuzz import gen, gen_gibson, gen_pokes
from fuzz.oracle import checked_generation
from fuzz.runner import differential, gibson_differential, poke_differential
from tinyc.driver import startcache
from tinyc.engines import compiler

MARK = "__import__('builtins').TINYC_INJECTED = 1"
# (form of gen_pokes._templates, poked byte, payload indentation): each ran MARK on the old engine
EXPLOITS = [(0, 13, 8)] + [(1, b, 4) for b in (11, 12, 28, 29, 30, 133)]


@pytest.fixture
def fresh(monkeypatch):
    """A process with no code generated yet and no start-up cache: every function is generated."""
    monkeypatch.setenv("TINYC_NO_CACHE", "1")
    yield
    if hasattr(builtins, "TINYC_INJECTED"):
        del builtins.TINYC_INJECTED


@pytest.mark.parametrize("form, byte, indent", EXPLOITS)
def test_a_poked_line_end_does_not_become_python(fresh, form, byte, indent):
    program = gen_pokes.exploit(byte, " " * indent + MARK + " #", form)
    fast = run_program(program, "fast")
    assert not hasattr(builtins, "TINYC_INJECTED"), f"the payload ran after byte {byte}"
    assert fast == run_program(program, "reference")


def tinyc(cwd: Path, cache: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("TINYC_NO_CACHE", None)
    return subprocess.run([sys.executable, "-P", "-m", "tinyc", *args], capture_output=True, cwd=cwd, env=env,
                          timeout=120)


def test_tinyc_run_does_not_run_a_poked_payload(tmp_path):
    (tmp_path / "p.tc").write_bytes(gen_pokes.exploit(13, "        open('pwned', 'w') #"))
    fast = tinyc(tmp_path, tmp_path / "cache", "run", "--engine", "fast", "p.tc")
    assert not (tmp_path / "pwned").exists()
    ref = tinyc(tmp_path, tmp_path / "cache", "run", "--engine", "reference", "p.tc")
    assert (fast.returncode, fast.stdout) == (ref.returncode, ref.stdout) == (0, b"\r\n\r        open('pwned', 'w') #\n")


def test_the_start_up_cache_does_not_replay_a_poked_function(tmp_path):
    # the same t0 at the same address in both programs; the second writes 'X' over the 'X' (no change)
    payload = "    open('pwned', 'w') #"
    (tmp_path / "poke.tc").write_bytes(gen_pokes.exploit(12, payload, 1))
    (tmp_path / "innocent.tc").write_bytes(gen_pokes.exploit(ord("X"), payload, 1))
    tinyc(tmp_path, tmp_path / "cache", "run", "--engine", "fast", "poke.tc")
    assert not (tmp_path / "pwned").exists()
    innocent = tinyc(tmp_path, tmp_path / "cache", "run", "--engine", "fast", "innocent.tc")
    assert innocent.stdout == b" 5\n" and not (tmp_path / "pwned").exists()


def test_the_code_cache_keeps_what_the_current_text_would_make(tmp_path, monkeypatch):
    """The cache's key (the AST and shapes) covers the generated code: what a program that poked its
    text stored is exactly what a program that did not would generate."""
    monkeypatch.delenv("TINYC_NO_CACHE", raising=False)
    stored: dict[bytes, bytes] = {}
    real = startcache.code

    def code(key, generate):
        stored[key] = real(key, generate)
        return stored[key]
    monkeypatch.setattr(startcache, "code", code)
    kept = []
    for n, byte in enumerate((12, ord("X"))):  # a poke, then the same program writing what was there
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / f"cache{n}"))  # each its own: both generate
        run_program(gen_pokes.exploit(byte, "    " + MARK + " #", 1), "fast")
        kept.append(dict(stored))
        stored.clear()
    assert not hasattr(builtins, "TINYC_INJECTED")
    common = kept[0].keys() & kept[1].keys()  # all but main's and the entry's (the byte poked is in main)
    assert any(b"\x8c\x02t0" in key for key in common)
    for key in common:  # the same code, line map and nodes (the file names differ: a serial number each)
        (code0, *rest0), (code1, *rest1) = (marshal.loads(run[key]) for run in kept)
        assert marshal.dumps(compiler._renamed(code0, "f")) == marshal.dumps(compiler._renamed(code1, "f"))
        assert rest0 == rest1


def test_safe_comment_keeps_printable_ascii_and_escapes_the_rest():
    from tinyc.engines.genbase import safe_comment
    every = bytes(b for b in range(256) if b not in b"\n\r")
    text = safe_comment(every)
    assert text is not None and set(text) <= set(map(chr, range(0x20, 0x7F)))
    assert ("# " + text).splitlines() == ["# " + text]
    assert "\\x0c" in text and "\\x85" in text and "\\x09" in text and 'pl "a"' == safe_comment(b'pl "a\0')
    assert safe_comment(b"pn 1 /* a\rb") == "pn 1 /* a" and safe_comment(b"  \n x") is None


@pytest.mark.parametrize("dialect", ["tiny-c", "gibson"])
def test_tinyc_compile_shows_control_bytes_escaped(tmp_path, dialect):
    src = b'f [\n  pl "a\x0bb\x0cc\x1cd\x85e"\n  pl "x" /* \x1e\x1d\x7f\xff\n]\nmain [ f ]\n'
    (tmp_path / "p.tc").write_bytes(src)
    out = subprocess.run([sys.executable, "-P", "-m", "tinyc", "compile", *(["--dialect", "gibson"]
                          if dialect == "gibson" else []), "p.tc"], capture_output=True, cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode("ascii")  # printable ASCII and line ends only
    assert set(text) <= set(map(chr, range(0x20, 0x7F))) | {"\n"}
    assert 'pl "a\\x0bb\\x0cc\\x1cd\\x85e"' in text


# ---- every generated module holds the generator's statements and expressions only

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance"


@pytest.mark.parametrize("case", sorted(p.stem for p in CONFORMANCE.glob("*.tc")))
def test_generated_code_of_the_conformance_corpus(case, fresh, monkeypatch, tmp_path):
    """Each case run as ``tinyc run --engine fast`` runs it (its .args and .in), every module checked."""
    import io
    from tinyc.cli import main as cli
    base = CONFORMANCE / case
    args = base.with_suffix(".args")
    stdin = base.with_suffix(".in")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.read_bytes() if stdin.exists() else b"")))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), write_through=True))
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with checked_generation() as findings:
        cli.main(["run", str(base.with_suffix(".tc")), "--engine", "fast",
                  *(args.read_text().split() if args.exists() else [])])
    assert not findings, "\n".join(findings)


@pytest.mark.slow  # a fuzz sweep (40 generated programs a dialect); the exploits and corpus stay quick
@pytest.mark.parametrize("seed", range(0, 40, 4))
def test_generated_code_of_the_fuzz_seeds(seed, fresh):
    for k in range(seed, seed + 4):  # the generators' programs of the atheris seed corpus, both dialects
        r = random.Random(k)
        for source, run in ((gen.program(r).encode("latin-1"), differential),
                            (gen.frame_program(r).encode("latin-1"), differential),
                            (gen_gibson.program(r).encode("latin-1"), gibson_differential)):
            with checked_generation() as findings:
                outcome = run(source, seconds=10.0)
            assert not findings, "\n".join(findings) + "\n" + source.decode("latin-1")
            assert not outcome.failed, outcome


@pytest.mark.slow  # a fuzz sweep (each of 256 bytes in each form); the named exploits stay in the quick run
@pytest.mark.parametrize("gibson", [False, True], ids=["tiny-c", "gibson"])
@pytest.mark.parametrize("first", range(0, 256, 32))
def test_generated_code_when_every_byte_is_poked(fresh, first, gibson):
    """Each byte 0-255 written over the marker of a function of each form before its first call."""
    for values in (range(first, first + 16), range(first + 16, first + 32)):
        program = gen_pokes.every_byte(values, gibson)
        outcome = poke_differential(program, gibson=gibson, seconds=20.0, scramble=False)
        assert not outcome.failed, f"{outcome.kind}: {outcome.detail}\n{program.decode('latin-1')}"
