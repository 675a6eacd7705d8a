"""Issue 39 on a real terminal: the installed ``tinyc`` through a pseudo-terminal with pexpect (the shell,
the debugger, ``tinyc run``), where prompt_toolkit reads the keys as a user types them."""

from __future__ import annotations

import io
import os
import re
import signal
import sys
import time

import pytest

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


def plain(data: bytes) -> bytes:
    """What the terminal shows, roughly: escape sequences, backspaces and CR bytes dropped."""
    return re.sub(rb"\x1b\[[0-9;?]*[a-zA-Z]|[\x08\r]", b"", data)


def spawn(args: list[str], cwd, **env_extra):
    """``python -m tinyc ARGS`` (the installed package) on an 80x24 pseudo-terminal, SIGINT at its default."""
    env = {**os.environ, "TERM": "xterm", "NO_COLOR": "1", "PROMPT_TOOLKIT_NO_CPR": "1",
           "XDG_STATE_HOME": str(cwd / "state"), **env_extra}
    env.pop("PYTHONPATH", None)
    child = pexpect.spawn(sys.executable, ["-P", "-m", "tinyc", *args], cwd=str(cwd), env=env, timeout=60,
                          dimensions=(24, 80), preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    child.logfile_read = io.BytesIO()
    return child


def finish(child) -> tuple[bytes, int]:
    """Everything the child showed, from its start, as the terminal shows it, and its exit status."""
    child.expect(pexpect.EOF)
    child.close()
    return plain(child.logfile_read.getvalue()), child.exitstatus


def unwritable_history(tmp_path) -> None:
    """The history files are directories: neither read nor written, even by root."""
    (tmp_path / "state" / "tinyc" / "history").mkdir(parents=True)
    (tmp_path / "state" / "tinyc" / "debug-history").mkdir(parents=True)


def test_the_shell_warns_once_when_the_history_cannot_be_written(tmp_path):
    unwritable_history(tmp_path)
    child = spawn([], tmp_path)
    for n in (1, 2, 3):
        child.expect_exact("tc>")
        child.sendline(f"pl {n}")
    for _ in range(2):  # the first .x warns of the unsaved lines
        child.expect_exact("tc>")
        child.sendline(".x")
    shown, status = finish(child)
    assert status == 0
    assert b"Unhandled exception" not in shown and b"Traceback" not in shown and b"Press ENTER" not in shown
    assert shown.count(b"history file") == 1, shown
    assert b"going on without saving history" in shown


def test_the_debugger_warns_once_when_the_history_cannot_be_written(tmp_path):
    unwritable_history(tmp_path)
    (tmp_path / "p.tc").write_text("main [\n  pl 1\n  pl 2\n]\n")
    child = spawn(["debug", "p.tc"], tmp_path)
    for command in ("s", "s", "q"):
        child.expect_exact("(tc-db)")
        child.sendline(command)
    shown, status = finish(child)
    assert b"Unhandled exception" not in shown and b"Traceback" not in shown, shown
    assert shown.count(b"history file") == 1, shown


def test_the_debugger_pauses_a_compiled_loop_at_the_first_ctrl_c_on_a_line_of_its_own(tmp_path):
    """The first Ctrl-C in a compiled loop that calls nothing pauses it (issue 36's pause; it used to print
    nothing) and says so on a line of its own (tests/debug/test_pause.py: the second Ctrl-C, DAP)."""
    (tmp_path / "loop.tc").write_text('main [\n  int i\n  ps "go"\n  while 1 i = i + 1\n]\n')
    child = spawn(["debug", "loop.tc"], tmp_path)
    child.expect_exact("(tc-db)")
    child.sendline("r")
    time.sleep(1.5)  # in the compiled loop ("go" waits in the console's buffer)
    child.sendintr()
    child.expect_exact("paused")
    child.expect_exact("(tc-db)")
    child.sendline("q")
    shown, status = finish(child)
    assert status == 0
    assert re.search(rb"(^|\n)paused", shown), shown
    assert b"gopaused" not in shown and b"^Cpaused" not in shown


def test_the_solver_reports_an_interrupt_on_a_line_of_its_own(tmp_path):
    env = {**os.environ, "TERM": "xterm"}
    child = pexpect.spawn(os.path.join(os.path.dirname(sys.executable), "tinyc-solver"), ["play"], cwd=str(tmp_path),
                          env=env, timeout=60, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    child.logfile_read = io.BytesIO()
    child.expect_exact("score? ")
    child.sendintr()
    shown, status = finish(child)
    assert status == 130
    assert re.search(rb"score\? (\^C)?\nstopped\n", shown), shown
