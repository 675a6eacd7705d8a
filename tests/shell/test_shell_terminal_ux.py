"""Issue 14's REPL expectations at a terminal (prompt_toolkit pipe input, DummyOutput), and that a pipe
keeps the original's bytes: .h, the meaning of an error, unsaved edits, completion where a name starts,
history suggestions, a multi-line paste, NO_COLOR/TERM=dumb, .e, tinyc run's input and Ctrl-C."""

from __future__ import annotations

import argparse
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from test_shell_terminal import CTRL_D, HELLO, PROGRAM, run
from tinyc.cli.options import machine_options
from tinyc.cli.options import boot
from tinyc.machine.console import Console
from tinyc.shell.highlight import colour_listing, colour_wanted
from tinyc.shell.shell import Shell, banner
from tinyc.shell.terminal import ProgramConsole, ShellCompleter, TerminalConsole, attach

PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


def piped(commands: bytes, program: bytes = PROGRAM) -> bytes:
    p = argparse.ArgumentParser()
    machine_options(p)
    out = io.BytesIO()
    m, ws = boot(p.parse_args([]), Console(io.BytesIO(commands), out))
    ws.append(program)
    Shell(m, ws).loop()
    return out.getvalue()[len(banner()):]


def test_help_lists_commands_and_error_meanings_on_a_terminal(tmp_path):
    _, out, _ = run([".h\r", CTRL_D], tmp_path / "h")
    assert b".r file" in out and b".c/old/new/" in out and b".x" in out
    assert b"   9 syntax error" in out and b"  17 too many active functions" in out


def test_help_through_a_pipe_stays_what_the_original_says():
    assert piped(b".h\n") == b"tc>???\r\ntc>\r\n"


def test_an_error_report_is_followed_by_its_meaning_on_a_terminal(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    _, out, _ = run([".pn 2+\r", CTRL_D], tmp_path / "h")
    assert b" --- err  9\r\n" in out
    assert b"<\r\n  err 9: syntax error  (.h lists them all)\r\n" in out
    assert b"err 9: syntax" not in piped(b".pn 2+\n")


def test_the_meaning_is_dim_when_colour_is_wanted(tmp_path, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    _, out, _ = run([".pn 2+\r", CTRL_D], tmp_path / "h")
    assert b"\x1b[2m  err 9: syntax error" in out


def test_leaving_with_unsaved_edits_warns_once(tmp_path):
    shell, out, status = run(["new line\r", ".x\r", ".x\r"], tmp_path / "h")
    assert status == 0 and out.count(b"unsaved edits") == 1
    assert shell.ws.text.startswith(b"\nnew line\n")


def test_ctrl_d_with_unsaved_edits_warns_and_w_clears_them(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # .w writes within the current directory tree (the sandbox, issue 35)
    target = tmp_path / "saved.tc"
    _, out, _ = run(["new line\r", CTRL_D, ".w saved.tc\r", CTRL_D], tmp_path / "h")
    assert out.count(b"unsaved edits") == 1 and target.read_bytes().startswith(b"new line\n")


def test_no_warning_without_edits_or_through_a_pipe(tmp_path):
    _, out, _ = run([".x\r"], tmp_path / "h")
    assert b"unsaved" not in out
    assert b"unsaved" not in piped(b"new line\n.x\n")


def test_function_names_are_offered_only_where_a_name_can_start():
    completer = ShellCompleter(lambda: ["hello", "pn", "ps"])

    def texts(line: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(line), CompleteEvent(True))]
    assert texts(".pn ") == []              # after a space: nothing until a letter is typed
    assert texts(".pn 2+") == []
    assert texts(".pn 2+h") == ["hello"]
    assert texts('.ps "he') == []           # inside a string
    assert texts(".pn 12") == []
    assert texts(".pn 1 /* he") == []       # inside a comment


def test_suggestions_come_from_history(tmp_path):
    console = TerminalConsole(out=io.BytesIO(), input=None, output=DummyOutput(),
                              history=__import__("prompt_toolkit.history").history.InMemoryHistory())
    assert isinstance(console.commands.auto_suggest, AutoSuggestFromHistory)


def test_a_multi_line_paste_is_typed_line_by_line(tmp_path):
    """Its lines are entered at once (no extra Enter); a last line without a line end waits at the prompt,
    to be edited and entered (here: "c" then "x" typed, then Enter)."""
    shell, out, _ = run([PASTE_START + "a\nb\nc" + PASTE_END, "x\r", "d\r", ".x\r", ".x\r"], tmp_path / "h",
                        program=b"")
    assert shell.ws.text == b"\na\nb\ncx\nd\n"


def test_a_paste_ending_with_a_line_end_needs_no_enter(tmp_path):
    shell, out, _ = run([PASTE_START + "a\nb\n" + PASTE_END, ".x\r", ".x\r"], tmp_path / "h", program=b"")
    assert shell.ws.text == b"\na\nb\n"
    assert out.count(b"b") == 1  # each pasted line shown once, after its own prompt


def test_a_pasted_dot_command_runs(tmp_path):
    _, out, _ = run([PASTE_START + ".hello\n./\n" + PASTE_END, CTRL_D], tmp_path / "h", program=HELLO)
    assert b"Hello world" in out and b" 0 4 31 " in out


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}, {"TERM": "unknown"}])
def test_no_color_and_dumb_terminals_get_plain_listings(env, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    data = b'main [ pl "hi" ] /* x\n'
    assert colour_listing(data) != data and colour_wanted()
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert not colour_wanted() and colour_listing(data) == data


def test_colour_listing_keeps_the_bytes(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    data = 'pl "h\u00e9" /* \xff\n'.encode("utf-8") + b"\xff\n"
    import re
    assert re.sub(rb"\x1b\[[0-9;]*m", b"", colour_listing(data)) == data


def test_e_edits_the_buffer_in_the_editor(tmp_path, monkeypatch):
    monkeypatch.setenv("EDITOR", "sed -i s/world/there/")
    monkeypatch.delenv("VISUAL", raising=False)
    shell, out, _ = run([".e\r", ".hello\r", ".x\r", ".x\r"], tmp_path / "h", program=HELLO)
    assert b"Hello there" in out  # (after the run the string's closing quote is a NUL: section 2)
    assert shell.ws.text.replace(b"\0", b'"') == b"\n" + HELLO.replace(b"world", b"there")


def test_run_reads_program_input_with_line_editing():
    out = io.BytesIO()
    with create_pipe_input() as pipe:
        console = ProgramConsole(out=out, input=pipe, output=DummyOutput())
        p = argparse.ArgumentParser()
        machine_options(p)
        m, ws = boot(p.parse_args([]), console)
        ws.append(b'main [ int n; ps "n? "; n = gn; pn n*2 ]\n')
        pipe.send_text("21\r")
        err, _ = ws.run(b"main")
        console.flush()
    assert err == 0 and out.getvalue().endswith(b" 42")


def test_ctrl_c_ends_tinyc_run_with_status_130(tmp_path):
    prog = tmp_path / "loop.tc"
    prog.write_bytes(b"main [ while(1) ; ]\n")
    p = subprocess.Popen([sys.executable, "-P", "-m", "tinyc", "run", str(prog)], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130 and b"stopped" in err and b"Traceback" not in err


def test_end_of_input_is_still_error_99_status_1():
    r = subprocess.run([sys.executable, "-P", "-m", "tinyc", "run", "-"], input=b"main [ pn gn ]\n",
                       capture_output=True, timeout=60)
    assert (r.returncode, r.stderr) == (1, b"stopped\n")


def test_ctrl_x_ctrl_e_is_dot_e(tmp_path, monkeypatch):
    monkeypatch.setenv("EDITOR", "sed -i s/world/there/")
    monkeypatch.delenv("VISUAL", raising=False)
    shell, out, _ = run(["\x18\x05", ".hello\r", ".x\r", ".x\r"], tmp_path / "h", program=HELLO)
    assert b"Hello there" in out
