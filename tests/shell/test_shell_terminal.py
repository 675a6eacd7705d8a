"""The shell's prompt_toolkit front end, driven by a pipe input and a DummyOutput (no real terminal).

The interpreter's own output still goes to a BytesIO; what prompt_toolkit draws (the prompt text, the
typed line, highlighting) goes to the DummyOutput and is not checked here (see the tmux check in
docs/shell.md for that).
"""

from __future__ import annotations

import argparse
import io
import signal
import threading
import time
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tinyc.cli.options import machine_options
from tinyc.cli.options import boot
from tinyc.shell.shell import Shell, banner
from tinyc.shell.terminal import ShellCompleter, TerminalConsole, attach

HELLO = b'/*\nhello [\n ps "Hello world"\n]\n'
PROGRAM = HELLO + b"loop [\n  while(1) ;\n]\nask [\n  ps \"n? \"\n  pn 2*gn()\n]\n"
UP, CTRL_C, CTRL_D = "\x1b[A", "\x03", "\x04"


def run(keys: list[str], history_file: Path, program: bytes = PROGRAM, prompts: list | None = None,
        on_run=None, pause: float = 0.1) -> tuple[Shell, bytes, int]:
    """Type ``keys`` into a terminal shell with ``program`` loaded; returns (shell, output bytes, status).

    Each chunk of ``keys`` is typed 0.1 s after the one before, as a person would: history loading and
    completion run in the background and need that moment (``pause`` seconds: longer where a loaded machine
    could let the next key overtake them).  The text of each prompt shown is appended to ``prompts``."""
    p = argparse.ArgumentParser()
    machine_options(p)
    out = io.BytesIO()
    with create_pipe_input() as pipe:
        console = TerminalConsole(out=out, history=FileHistory(str(history_file)), input=pipe,
                                  output=DummyOutput())
        machine, ws = boot(p.parse_args([]), console)
        if on_run is not None:  # called as each statement starts, e.g. to arm a timer
            engine_run = machine.engine.run
            machine.engine.run = lambda stmts: (on_run(), engine_run(stmts))[1]
        shell = Shell(machine, ws)
        attach(shell, console)
        shell.listing = lambda data: data  # no colour codes, so the text is easy to check
        ws.append(program)
        if prompts is not None:
            for session in (console.commands, console.program):
                session.prompt = _recording(session.prompt, prompts)

        def typist():
            for chunk in keys:
                time.sleep(pause)
                pipe.send_text(chunk)
        thread = threading.Thread(target=typist)
        thread.start()
        status = shell.loop()
        thread.join()
    return shell, out.getvalue()[len(banner()):], status


def _recording(prompt, messages: list):
    def wrapper(message, **options):
        messages.append(message.value)
        return prompt(message, **options)
    return wrapper


STATUS = b" %%d 11 %d %d\r\n" % (len(PROGRAM), 90000 - len(PROGRAM))  # ./ with the line number to fill in


@pytest.fixture
def hist(tmp_path: Path) -> Path:
    return tmp_path / "history"


def test_typing_a_command(hist):
    prompts = []
    shell, out, status = run(["./\r", ".hello\r", CTRL_D], hist, prompts=prompts)
    assert status == 0
    # "tc>" is the text of the prompt prompt_toolkit draws, so it is not in the interpreter's output
    assert prompts == ["tc>"] * 3
    assert out == STATUS % 0 + b"Hello world\r\n\r\n"


def test_history_is_saved_and_recalled(hist):
    _, out, _ = run([".pn 6*7\r", UP, "\r", CTRL_D], hist)
    assert out == b" 42\r\n 42\r\n\r\n"
    assert ".pn 6*7" in hist.read_text()
    _, out, _ = run([UP, "\r", CTRL_D], hist)  # a new session reads the history file
    assert out == b" 42\r\n\r\n"


def test_completion_of_a_function_name(hist):
    _, out, _ = run([".hel", "\t", "\r", CTRL_D], hist, pause=0.5)
    assert out == b"Hello world\r\n\r\n"


def test_completer_offers_commands_functions_and_files(tmp_path):
    completer = ShellCompleter(lambda: ["hello", "pn", "ps"])

    def texts(line: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(line), CompleteEvent(True))]
    assert {".r", ".w", ".p", ".x", "./", "pn", "ps"} <= set(texts("."))
    assert texts(".p") == [".p", "pn", "ps"]
    assert texts(".pn 3*he") == ["hello"]
    assert texts("not a command") == []
    (tmp_path / "prog.tc").write_text("x\n")
    assert texts(f".r {tmp_path}/pr") == ["og.tc"]  # the rest of the file name
    (tmp_path / "examples").mkdir()
    assert texts(f".r {tmp_path}/exa") == ["mples/"]  # a folder keeps its / so that Tab goes on into it


def test_ctrl_c_at_the_prompt_clears_the_line(hist):
    shell, out, _ = run(["typed", CTRL_C, "./\r", CTRL_D], hist)
    assert b"typed" not in shell.ws.text
    assert out == STATUS % 0 + b"\r\n"  # prompt_toolkit itself moves to a new line


def test_ctrl_c_stops_a_running_endless_loop(hist):
    """On a terminal Ctrl-C is SIGINT, i.e. KeyboardInterrupt in the engine; a timer stands in for it."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    old = signal.signal(signal.SIGALRM, interrupt)
    arm = lambda: signal.setitimer(signal.ITIMER_REAL, 0.5)  # once the loop runs, however slow the start
    try:
        shell, out, _ = run([".loop\r", "./\r", CTRL_D], hist, on_run=arm)  # ./ is typed ahead
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert out == b"\r\nstopped\r\n" + STATUS % 6 + b"\r\n"


def test_program_input_through_the_same_terminal(hist):
    prompts = []
    _, out, _ = run([".ask\r", "21\r", CTRL_D], hist, prompts=prompts)
    # what the program printed after its last newline is the input prompt's text, on the input line
    assert prompts == ["tc>", "n? ", "tc>"]
    assert out == b" 42\r\n\r\n"


def test_ctrl_c_while_a_program_reads_stops_it(hist):
    _, out, _ = run([".ask\r", CTRL_C, "./\r", CTRL_D], hist)
    # stopped inside the library's gn, before the program text: the current line becomes 0; the line
    # editor has ended the input line itself, so no blank line comes before stopped (issue 23)
    assert out == b"stopped\r\n" + STATUS % 0 + b"\r\n"


def test_ctrl_d_exits_like_dot_x(hist):
    _, out, status = run([CTRL_D, ".hello\r"], hist)
    assert (out, status) == (b"\r\n", 0)


def test_getchar_reads_a_whole_line_then_its_bytes(hist):
    program = b"two [\n  pn getchar()\n  pn getchar()\n  pn getchar()\n]\n"
    prompts = []
    _, out, _ = run([".two\r", "A\r", "B\r", CTRL_D], hist, program, prompts)
    assert prompts == ["tc>", "", " 65 10", "tc>"]
    assert out == b" 66\r\n\r\n"
