"""Issue 26's shell items at a terminal (prompt_toolkit pipe input, as tests/shell/test_shell_terminal.py drives
it) and that a pipe keeps the original's bytes: hints for quit/exit/help, .h at 40 columns, numbered
listings, undo, a fresh buffer, an expression's value, a binary file read, and the current line after a
run (the original's rule, documented)."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_shell_terminal import CTRL_D, HELLO, run
from test_shell_terminal_ux import piped

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def plain(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")


# -- 15. the words other shells leave with

@pytest.mark.parametrize("word", ["quit", "help", "bye"])  # (.exit calls the library's exit: it leaves)
def test_dot_quit_and_help_suggest_x_and_h(word, tmp_path):
    _, out, _ = run([f".{word}\r", CTRL_D], tmp_path / "h")
    assert b"--- err  26" in out and b".x leaves the shell, .h lists the commands" in out


def test_a_bare_exit_says_it_was_inserted(tmp_path):
    shell, out, _ = run(["exit\r", ".u\r", ".x\r"], tmp_path / "h", program=HELLO)
    assert b"inserted `exit` as line 1 (.u takes it back); .x leaves the shell" in out
    assert shell.ws.text == b"\n" + HELLO  # .u took it back, so .x left at once


def test_the_hints_are_not_in_a_pipe():
    assert piped(b".quit\nexit\n") == b"tc>\r\n 0 --- err  26\r\nquit\r\n    <\r\ntc>tc>\r\n"


def test_help_fits_40_columns(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    _, out, _ = run([".h\r", CTRL_D], tmp_path / "h")
    table = out.split(b"errors (")[1].split(b"\r\n")[1:-1]
    assert table and all(len(line) <= 40 for line in table)
    assert all(len(line) <= 40 for line in out.split(b"errors (")[0].split(b"\r\n"))


# -- 16. what a REPL user expects

def test_n_lists_lines_with_their_numbers(tmp_path):
    _, out, _ = run([".1\r", ".n 3\r", CTRL_D], tmp_path / "h", program=HELLO)
    assert b"    1  /*\n    2  hello [\n    3   ps \"Hello world\"\n" in out


def test_undo_takes_back_edits_one_by_one(tmp_path):
    shell, out, _ = run([".2\r", ".d\r", ".c/world/there/\r", ".u\r", ".u\r", ".u\r", ".x\r"], tmp_path / "h",
                        program=HELLO)
    assert shell.ws.text == b"\n" + HELLO and b"nothing to undo" in out


def test_k_clears_and_o_opens_in_place_of_the_buffer(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # .o reads within the current directory tree (the sandbox, issue 35)
    other = tmp_path / "other.tc"
    other.write_bytes(b"main [ pn 5 ]\n")
    shell, out, _ = run([".k\r", "./\r", ".o other.tc\r", ".main\r", ".x\r"], tmp_path / "h", program=HELLO)
    assert b" 0 0 0 90000\r\n" in out and b" 5\r\n" in out
    assert shell.ws.text.replace(b"\0", b'"') == b"\nmain [ pn 5 ]\n"


def test_o_of_a_missing_file_keeps_the_buffer(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shell, out, _ = run([".o nosuch.tc\r", CTRL_D], tmp_path / "h", program=HELLO)
    assert b"File not found -1" in out and shell.ws.text == b"\n" + HELLO


def test_equals_prints_an_expression(tmp_path):
    _, out, _ = run([".= 2+3*4\r", CTRL_D], tmp_path / "h")
    assert b" 14\r\n" in out


def test_the_new_commands_stay_unknown_in_a_pipe():
    assert piped(b".n\n.u\n.k\n.= 1\n") == b"tc>???\r\n" * 4 + b"tc>\r\n"


# -- 6. a binary file read

def test_reading_a_binary_file_warns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # .r reads within the current directory tree (the sandbox, issue 35)
    binary = tmp_path / "b.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    shell, out, _ = run([".r b.bin\r", ".u\r", CTRL_D], tmp_path / "h", program=b"")
    assert b"looks binary" in out and shell.ws.pe == 0
    (tmp_path / "bc.tc").write_bytes((ROOT / "programs/bc.tc").read_bytes())
    _, out, _ = run([".r bc.tc\r", CTRL_D], tmp_path / "h", program=b"")
    assert b"looks binary" not in out


# -- 14. the current line after a run is the original's

def test_a_run_makes_line_0_current_as_the_original_does():
    out = piped(b"aaa\n.pn 1\nbbb\n.1\n.p 2\n", program=b"")
    assert out.endswith(b"bbb\naaa\ntc>\r\n")
    shell_md = (ROOT / "docs/shell.md").read_text()
    assert "the current line is the error's line, or line 0" in shell_md


def test_words_of_other_shells_are_inserted_with_one_dim_note(tmp_path, monkeypatch):
    """Issue 39: clear, ls, exit(), quit() typed at tc> are program lines; the note comes once, dim."""
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "xterm")
    shell, out, _ = run(["clear\r", "ls\r", "exit()\r", "quit()\r", ".x\r", ".x\r"], tmp_path / "h")
    assert b"\nclear\nls\nexit()\nquit()\n" in shell.ws.text
    assert out.count(b"(.u takes it back)") == 1
    assert b"\x1b[2m  inserted `clear` as line 1 (.u takes it back); .x leaves the shell" in out


def test_a_statement_longer_than_the_line_buffer_is_refused_by_name(tmp_path):
    """Issue 39: the original cuts it at 133 bytes and reports error 9 on the cut; a terminal says why."""
    long = '.pl "' + "x" * 140 + '"'
    shell, out, _ = run([long + "\r", ".x\r"], tmp_path / "h", program=HELLO)
    assert b"line too long: the statement after the dot has 145 bytes, the line buffer holds 133" in out
    assert b"err  9" not in out and b"x" * 130 not in out.split(b"line too long")[1]
    assert shell.ws.text == b"\n" + HELLO  # the buffer is kept
