"""The shell's program buffer (tinyc/shell/editor.py): the line index agrees with a plain recount after any
sequence of edits, appends and runs; a paste leaves the last pasted line current; ``.r`` of any name."""

from __future__ import annotations

import argparse
import io

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tinyc.cli.options import machine_options
from tinyc.cli.options import boot
from tinyc.machine.console import Console
from tinyc.shell.editor import LineBuffer
from tinyc.shell.shell import Shell, banner
from tinyc.driver.workspace import Workspace

_MACHINE = None
ROOT = Path(__file__).resolve().parents[2]


def fresh(capacity: int = 2000):
    global _MACHINE
    if _MACHINE is None:
        p = argparse.ArgumentParser()
        machine_options(p)
        import sys
        limit = sys.getrecursionlimit()  # the machine raises it; Hypothesis warns if a test changes it
        _MACHINE = boot(p.parse_args(["--engine", "reference"]), Console(io.BytesIO(), io.BytesIO()))[0]
        sys.setrecursionlimit(limit)
    top = _MACHINE.top
    ws = Workspace(_MACHINE, capacity)
    _MACHINE.top = top  # every example reuses the same space
    return ws


def recount(ws: Workspace):
    text = ws.text
    nl = [i for i, c in enumerate(text) if c == 10]
    return text, nl


lines = st.binary(max_size=12).map(lambda b: b.replace(b"\n", b"x"))
ops = st.one_of(
    st.tuples(st.just("insert"), st.integers(0, 30), st.lists(lines, min_size=1, max_size=4)),
    st.tuples(st.just("delete"), st.integers(1, 30), st.integers(1, 4)),
    st.tuples(st.just("change"), st.integers(1, 30), st.binary(max_size=3), st.binary(max_size=5)),
    st.tuples(st.just("append"), st.binary(max_size=20)),
    st.tuples(st.just("poke"), st.integers(0, 400), st.sampled_from([b"\n", b"a", b"\0"])),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ops, max_size=25))
def test_the_line_index_agrees_with_a_recount(seq):
    ws = fresh()
    buf = LineBuffer(ws)
    for op in seq:
        if op[0] == "insert":
            before = buf.la
            ok = buf.insert_after(min(op[1], buf.la), b"\n".join(op[2]))
            if ok:
                assert buf.la == before + len(op[2])
        elif op[0] == "delete" and buf.la:
            buf.delete(min(op[1], buf.la), op[2])
        elif op[0] == "change" and op[2]:
            buf.lo = min(op[1], buf.la)
            buf.change(op[2], op[3])
        elif op[0] == "append":
            ws.append(op[1])
        elif op[0] == "poke" and ws.pe:  # a running program writes into pr: the shell runs it first
            ws.machine.memory.data[ws.pr + 1 + op[1] % ws.pe] = op[2][0]
            ws.generation += 1
        text, nl = recount(ws)
        assert buf.la == text.count(b"\n", 1)
        for line in range(0, len(nl)):
            start = nl[line - 1] + 1 if line else 0
            assert buf.span(line, line) == (start, nl[line])
            assert buf.lines(line, 1) == text[start:nl[line] + 1]
        for offset in range(0, len(text), 7):
            assert buf.line_of(offset) == text.count(b"\n", 0, offset)


def test_a_pasted_block_leaves_its_last_line_current():
    ws = fresh()
    buf = LineBuffer(ws)
    assert buf.insert_after(0, b"one\ntwo\nthree")
    assert buf.lo == 3
    assert buf.insert_after(buf.lo, b"four")
    assert ws.text == b"\none\ntwo\nthree\nfour\n" and buf.lo == 4


def shell_session(commands: bytes, *options: str) -> bytes:
    p = argparse.ArgumentParser()
    machine_options(p)
    out = io.BytesIO()
    m, ws = boot(p.parse_args(list(options)), Console(io.BytesIO(commands), out))
    assert Shell(m, ws).loop() == 0
    return out.getvalue()[len(banner()):]


def test_read_of_a_name_with_a_nul_is_file_not_found():
    out = shell_session(b".r a\0b\n./\n")
    assert out == b"tc>\r\nFile not found -1\r\ntc> 0 0 0 90000\r\ntc>\r\n"


def test_read_of_an_endless_file_stops_at_the_capacity():
    out = shell_session(b".r /dev/zero\n./\n", "--allow-files-anywhere")  # else outside the sandbox
    assert out == b"tc>\r\nToo big -2\r\ntc> 0 0 0 90000\r\ntc>\r\n"


def test_read_of_a_directory_is_file_not_found(tmp_path):
    out = shell_session(b".r " + str(tmp_path).encode() + b"\n", "--allow-read", str(tmp_path))
    assert out.startswith(b"tc>\r\nFile not found -1\r\n")


def test_read_finds_a_shipped_program_by_its_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = shell_session(b".r hello.tc\n")
    size = len((ROOT / "examples/hello.tc").read_bytes())
    assert out.startswith(b"tc> %d\r\n 0 10 %d %d\r\n" % (size, size, 90000 - size))
