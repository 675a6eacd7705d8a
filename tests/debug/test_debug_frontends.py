"""The debugger from the ``tc>`` shell (``.debug STATEMENT``) and from a notebook (``%%tinyc --debug``),
issue 27 item 3: transcripts of whole sessions."""

from __future__ import annotations

import argparse
import io

import pytest

from tinyc.cli.options import machine_options
from tinyc.machine.console import Console
from tinyc.cli.options import boot
from tinyc.shell.shell import Shell, banner
from tinyc.debug.runs import shell_debugger

TWICE = b"/*\ntwice int n [\n  return n*2\n]\nmain [ pn twice(21) ]\n"


def shell_session(commands: bytes, interactive: bool = True) -> str:
    """The shell's output after its banner, on a terminal (``.debug`` is a terminal command) or a pipe."""
    p = argparse.ArgumentParser()
    machine_options(p)
    out = io.BytesIO()
    m, ws = boot(p.parse_args([]), Console(io.BytesIO(commands), out))
    ws.append(TWICE)
    shell = Shell(m, ws)
    shell.interactive = interactive
    shell.debugger = shell_debugger(shell)
    assert shell.loop() == 0
    return out.getvalue()[len(banner()):].decode("latin-1")


def test_shell_debug_a_statement_then_back_at_the_prompt() -> None:
    out = shell_session(b".debug pn twice(4)\nb twice\nr\nbt\np n\nx n 4\nfinish\nc\nq\n./\n")
    assert out == ("tc>(tc-db) breakpoint 1 at twice, line 2\n(tc-db) \nbreak at line 2 cursor pr[16]: twice\n"
                   "twice int n [\n"
                   "(tc-db) *#0  twice(n=4) at line 2\n"
                   "(tc-db) n:  4\n"
                   "(tc-db)    8562: 04 00 00 00              |....    |  int 4  twice: n\n"
                   "(tc-db) twice returns 8\nline 0 cursor(pr[-134])->pn twice(4\n"
                   "(tc-db)  8\n(tc-db) tc> 0 5 54 89946\r\ntc>\r\n")


def test_shell_debug_alone_runs_main_and_errors_stop_in_the_debugger() -> None:
    out = shell_session(b".debug\nb twice\nr\nup\np n\nq\n.debug nothere(1)\nr\nbt\nq\n.x\n")
    assert "break at line 5 cursor pr[48]: twice\nmain [ pn twice(21) ]\n" in out
    assert "(tc-db) #1  main at line 5\n" in out
    assert "(tc-db) no such symbol\n" in out  # main has no n
    assert "(tc-db)  0 --- err  26\nnothere(1)\n" in out  # the typed statement's error, then the debugger
    assert out.endswith("(tc-db) #0  the entry statement\n(tc-db) tc>\r\n")


def test_shell_debug_through_a_pipe_stays_a_statement() -> None:
    """Through a pipe the shell is the original's: ``.debug`` runs the statement ``debug``."""
    out = shell_session(b".debug\n.x\n", interactive=False)
    assert "(tc-db)" not in out and "err" in out


pytest.importorskip("IPython")


def test_notebook_debug_with_the_commands_in_the_cell(ip, capsys) -> None:
    ip.run_cell_magic("tinyc", "--debug", TWICE.decode() + "---\nb twice if n==21\nr\nbt\np n*2\nc\n")
    out = capsys.readouterr().out
    assert out == ("(tc-db) breakpoint 1 at twice, line 2 if n==21\n(tc-db) \nbreak at line 5 cursor pr[48]: twice\n"
                   "main [ pn twice(21) ]\n"
                   "(tc-db) *#0  twice(n=21) at line 2\n #1  main() at line 5\n"
                   "(tc-db) n*2:  42\n(tc-db)  42\n(tc-db) \n")


def test_notebook_debug_with_commands_option_and_input_lines(ip, capsys) -> None:
    program = 'main [ int k; ps "k? "; k = gn; pn k*2 ]\n'
    ip.run_cell_magic("tinyc", "--debug --commands 'b 1\\nr\\nn\\nn\\nn\\nn\\n21\\np k\\nq\\n'", program)
    out = capsys.readouterr().out
    assert "k?" in out and "(tc-db) k:  21\n" in out


def test_notebook_debug_gibson(ip, capsys) -> None:
    program = "#include pps/library.tc\ntwice int n [\n  return n*2\n]\nmain [ pn(twice(21)) ]\n---\nb twice\nr\np n\nc\n"
    ip.run_cell_magic("tinyc", "--debug -q", program)
    out = capsys.readouterr().out
    assert "break at line" in out and "(tc-db) n:  21\n" in out and "42" in out


@pytest.mark.parametrize("line, cell, message", [
    ("--debug", "main [ ]\n", "%%tinyc --debug: give the debugger's commands after a line ---"),
    ("--debug --commands 'q'", "main [ ]\n---\nq\n", "give them after a --- line or with --commands, not both"),
    ("--debug --input '1\\n'", "main [ ]\n---\nq\n", "--input: with --debug"),
    ("--commands 'q'", "main [ ]\n", "--commands: give it with --debug"),
])
def test_notebook_debug_bad_arguments_are_one_line(ip, capsys, line, cell, message) -> None:
    ip.run_cell_magic("tinyc", line, cell)
    out, err = capsys.readouterr()
    assert message in err and "Traceback" not in err and err.count("\n") == 1
