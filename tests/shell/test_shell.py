"""The tc> shell in-process (reference section 9.3), with BytesIO consoles: edge cases of each command."""

from __future__ import annotations

import argparse
import io
import signal

import pytest

from tinyc import __version__
from tinyc.cli.options import machine_options
from tinyc.cli.options import boot
from tinyc.machine.console import Console
from tinyc.shell.shell import Shell, banner
from tinyc.driver.workspace import Workspace

HELLO = b'/*\nhello [\n ps "Hello world"\n]\n'
LOOP = b"loop [\n  int n\n  while(1) ++n\n]\n"


def make(stdin: bytes = b"", engine: str | None = None, capacity: int | None = None):
    p = argparse.ArgumentParser()
    machine_options(p)
    args = p.parse_args([] if engine is None else ["--engine", engine])
    out = io.BytesIO()
    machine, ws = boot(args, Console(io.BytesIO(stdin), out))
    if capacity is not None:
        ws = Workspace(machine, capacity)
    return Shell(machine, ws), out


def session(commands: bytes, program: bytes = b"", **kw) -> tuple[Shell, bytes]:
    """Run the shell on ``commands`` with ``program`` already in the buffer; the output after the banner."""
    shell, out = make(commands, **kw)
    shell.ws.append(program)
    assert shell.loop() == 0
    return shell, out.getvalue()[len(banner()) + 3:]  # after the banner and the first tc>


def test_banner_names_the_project_then_the_shell_line_then_the_prompt():
    shell, out = make(b"")
    shell.loop()
    text = out.getvalue()
    first, rest = text.split(b"\r\n", 1)
    assert first.startswith(f"tinyc {__version__}".encode()) and b"tiny-c/PC" in first
    assert rest == f"\r\ntiny-c shell - tinyc {__version__}\r\n\r\ntc>\r\n".encode()


def test_end_of_input_at_the_prompt_exits_zero():
    shell, out = session(b"./\n")
    assert out == b" 0 0 0 90000\r\ntc>\r\n"


def test_insert_goes_after_the_current_line_and_becomes_current():
    shell, out = session(b"first\nthird\n.1\nsecond\n./\n.1\n.p 3\n")
    assert shell.ws.text == b"\nfirst\nsecond\nthird\n"
    assert b" 2 3 19 89981\r\n" in out
    assert out.endswith(b"tc>first\nsecond\nthird\ntc>\r\n")


def test_moves_are_clamped_to_the_buffer():
    _, out = session(b"+9\n-9\n.77\n\n", HELLO)
    assert out == b"]\ntc>\ntc>]\ntc>]\ntc>\r\n"


def test_print_makes_the_last_printed_line_current():
    shell, out = session(b".2\n.p 2\n./\n", HELLO)
    assert out == b'hello [\ntc>hello [\n ps "Hello world"\ntc> 3 4 31 89969\r\ntc>\r\n'


def test_delete_removes_lines_and_refuses_line_0():
    shell, out = session(b".d\n.2\n.d 2\n./\n", HELLO)
    assert out.startswith(b"cannot delete line 0\r\n")
    assert shell.ws.text == b"\n/*\n]\n"
    assert b" 1 2 5 89995\r\n" in out


def test_locate_with_line_end_marks_and_repeat():
    program = b"ab\nb\nxab\nab\n"
    shell, out = session(b".l ^ab\n.l\n.l b^\n.l\n.l zz\n", program)
    # ^ab: a line starting with ab after line 0 is line 1; bare .l repeats it: line 4; b^ from line 4: none
    assert out == b"ab\ntc>ab\ntc>at bottom\r\ntc>at bottom\r\ntc>at bottom\r\ntc>\r\n"
    shell, out = session(b".1\n.l b^\n.l\n.l nowhere\n", program)
    assert out == b"ab\ntc>b\ntc>xab\ntc>?\r\ntc>\r\n"


def test_locate_what_when_no_pattern_was_ever_set():
    _, out = session(b".l\n", HELLO)
    assert out == b"\r\nlocate what?\r\ntc>\r\n"


def test_change_any_delimiter_and_repeat():
    shell, out = session(b".1\n.c,a,AA,\n.c\n.c\n.c#zz#y#\n", b"banana\n")
    assert out == b"banana\ntc>bAAnana\ntc>bAAnAAna\ntc>bAAnAAnAA\ntc>?\r\ntc>\r\n"
    assert shell.ws.text == b"\nbAAnAAnAA\n"


def test_change_on_line_0_or_without_a_previous_change():
    _, out = session(b".c\n.c/a/b/\n", b"a\n")
    assert out == b"?\r\ntc>?\r\ntc>\r\n"


def test_unknown_letter_and_lone_dot():
    _, out = session(b".q\n.\n.?\n")
    assert out == b"???\r\ntc>tc>???\r\ntc>\r\n"


def test_wont_fit_keeps_the_buffer():
    shell, out = session(b"12345678\n123456789\nab\n.1\n.c/1/xxxxxxxx/\n", capacity=12)
    assert out == b"tc>won't fit\r\ntc>tc>12345678\ntc>won't fit\r\ntc>\r\n"
    assert shell.ws.text == b"\n12345678\nab\n"


def test_read_too_big_and_missing_leave_the_buffer(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the shell's .r and .w stay in the sandbox: the current tree (issue 35)
    big = tmp_path / "big.tc"
    big.write_bytes(b"x" * 20 + b"\n")
    shell, out = session(f".r {big}\n.r {tmp_path}/none.tc\n./\n".encode(), b"keep\n", capacity=12)
    assert out == b"\r\nToo big -2\r\ntc>\r\nFile not found -1\r\ntc> 0 1 5 7\r\ntc>\r\n"
    assert shell.ws.text == b"\nkeep\n"


def test_read_strips_cr_and_ends_the_last_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the shell's .r and .w stay in the sandbox: the current tree (issue 35)
    f = tmp_path / "dos.tc"
    f.write_bytes(b"a\r\nb")
    shell, out = session(f".r {f}\n".encode())
    assert out == b" 4\r\n 0 2 4 89996\r\ntc>\r\n"
    assert shell.ws.text == b"\na\nb\n"


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_a_program_runs_again_and_writes_back_its_quotes(tmp_path, engine, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the shell's .r and .w stay in the sandbox: the current tree (issue 35)
    """A run turns closing quotes into NUL (section 2); the next run and .w must not mind."""
    target = tmp_path / "out.tc"
    shell, out = session(f".hello\n.hello\n.w {target}\n".encode(), HELLO, engine=engine)
    assert b"\0" in shell.ws.text
    assert out == b"Hello world\r\ntc>Hello world\r\ntc> 0 4 31 89969\r\n 31\r\ntc>\r\n"
    assert target.read_bytes() == HELLO


def test_print_shows_nul_string_ends_as_quotes():
    _, out = session(b".hello\n.3\n", HELLO)
    assert out.endswith(b'tc> ps "Hello world"\ntc>\r\n')


def test_write_failure_is_reported(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the shell's .r and .w stay in the sandbox: the current tree (issue 35)
    _, out = session(f".w {tmp_path}/no/such/dir/f.tc\n".encode(), HELLO)
    assert out == b" 0 4 31 89969\r\n\r\ncannot write file -1\r\ntc>\r\n"


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_runtime_error_report_sets_the_current_line(engine):
    program = b"main [\n  int a(2)\n  a(3) = 1\n]\n"
    shell, out = session(b".main\n./\n", program, engine=engine)
    assert out == b"\r\n 3 --- err  6\r\n  a(3) = 1\r\n      <\r\ntc> 3 4 31 89969\r\ntc>\r\n"


def test_error_in_the_typed_statement_is_reported_at_line_0():
    """Line 0 as the shell numbers it, with the statement shown and the < under the error (issue 10)."""
    _, out = session(b".pn 1/0\n", HELLO)
    assert out == b"\r\n 0 --- err  30\r\npn 1/0\r\n      <\r\ntc>\r\n"


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_interrupted_loop_says_stopped_and_keeps_everything(engine):
    """Ctrl-C (here a timer's KeyboardInterrupt) stops the program: error 99, ``stopped``."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    old = signal.signal(signal.SIGALRM, interrupt)
    shell, out = make(b".loop\n./\n", engine=engine)
    shell.ws.append(LOOP)
    engine_run = shell.machine.engine.run

    def run_with_timer(stmts):  # arm the timer as the loop starts, however slow the boot was
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        return engine_run(stmts)
    shell.machine.engine.run = run_with_timer
    try:
        assert shell.loop() == 0
        out = out.getvalue()[len(banner()) + 3:]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert out == b"\r\nstopped\r\ntc> 3 4 32 89968\r\ntc>\r\n"
    assert shell.ws.text == b"\n" + LOOP


def test_exit_mc_10_ends_the_shell_at_once():
    _, out = session(b".exit\n.pn 1\n")
    assert out == b""  # nothing more: not even the blank line .x leaves


def test_dot_x_with_anything_non_alphanumeric_exits():
    _, out = session(b".x=5\n.pn 1\n")
    assert out == b"\r\n"


def test_two_letter_command_lookalikes_run_as_statements():
    _, out = session(b".p20\n")  # gotcha 17: p20 is a statement, an undefined name
    assert out.startswith(b"\r\n 0 --- err  26\r\n")


def test_program_input_comes_from_the_command_stream():
    program = b"ask [\n  pn 2*gn()\n]\n"
    _, out = session(b".ask\n21\n./\n", program)
    assert out == b" 42\r\ntc> 0 3 20 89980\r\ntc>\r\n"


def test_interpreter_bug_does_not_end_the_session(monkeypatch):
    shell, out = make(b".main\n./\n")
    monkeypatch.setattr(shell.ws, "run", lambda text: 1 / 0)
    shell.loop()
    assert b"internal error: ZeroDivisionError" in out.getvalue()
    assert out.getvalue().endswith(b"tc> 0 0 0 90000\r\ntc>\r\n")


def test_ctrl_c_at_the_prompt_drops_the_line():
    shell, out = make()
    lines = iter([KeyboardInterrupt, b"./", None])

    def read():
        item = next(lines)
        if item is KeyboardInterrupt:
            raise KeyboardInterrupt
        return item
    shell.read_command = read
    assert shell.loop() == 0
    assert out.getvalue()[len(banner()):] == b"tc>\r\ntc> 0 0 0 90000\r\ntc>\r\n"


def test_function_names_for_completion():
    shell, _ = make()
    shell.ws.append(b"main [\n  if(1) [\n  ]\n]\nfact int n [\n]\n")
    names = shell.function_names()
    assert {"main", "fact", "pl", "gn"} <= set(names)
    assert "if" not in names and "n" not in names


def test_a_buffer_that_does_not_link_is_parsed_once_until_it_is_edited(monkeypatch):
    # issue 24: the failed link (here error 2, an unclosed [) is cached like a good one, keyed by the text
    from tinyc.syntax import pipeline
    monkeypatch.setenv("TINYC_NO_CACHE", "1")  # the disk cache apart; the program's names are this test's own
    parsed: list[str] = []
    real = pipeline.parse_program
    monkeypatch.setattr(pipeline, "parse_program", lambda text, *a: parsed.append(text) or real(text, *a))
    program = b"cached_link_f int a [ return a+1 ]\ncached_link_g [ pn 1\n"
    shell, out = session(b".pn 1\n.pn 2\n.pn 3\n.pn 4\n./\n]\n.pn cached_link_f(41)\n.pn 5\n", program)
    assert out.count(b"err  2") == 4 and b" 42" in out and out.endswith(b"tc> 5\r\ntc>\r\n")
    parsed = [text for text in parsed if "cached_link_g" in text]  # not the system file the boot parses
    assert len(parsed) == 2  # once with the error, once after the edit that closes the [


def test_read_and_write_keep_the_sandbox(tmp_path, monkeypatch):
    # issue 35 item 5: .r and .w (the kernel's and the notebook's too) open what a program may open
    (tmp_path / "work").mkdir()
    (tmp_path / "secret.tc").write_bytes(b"secret [ ]\n")
    monkeypatch.chdir(tmp_path / "work")
    shell, out = session(b".r ../secret.tc\n.w ../out.tc\n.w evil.py\n.w ok.tc\n", HELLO)
    assert out == (b"\r\nNot allowed: outside the sandbox (--allow-read PATH) -3\r\ntc> 0 4 31 89969\r\n"
                   b"\r\nNot allowed: outside the sandbox (--allow-write PATH) -1\r\ntc> 0 4 31 89969\r\n"
                   b"\r\nNot allowed: a program may not create or overwrite Python code (*.py, *.pth, ...) or files "
                   b"under .git/; --allow-write-code allows it -1\r\ntc> 0 4 31 89969\r\n 31\r\ntc>\r\n")
    assert not (tmp_path / "out.tc").exists() and not (tmp_path / "work" / "evil.py").exists()
    assert (tmp_path / "work" / "ok.tc").read_bytes() == HELLO
