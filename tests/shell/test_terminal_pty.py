"""The terminal path as a user has it (issue 23): the installed ``tinyc`` driven through a pseudo-terminal
with pexpect, where prompt_toolkit really reads the keys and Ctrl-C at an input read is a key, not SIGINT.

What README.md and docs/shell.md promise holds on a terminal as through a pipe: Ctrl-C stops a program
with ``stopped`` on a line of its own, and ``tinyc run`` then exits 130, whether the program was
computing or reading its input; the end of input (Ctrl-D) at an input read is error 99, ``stopped``,
status 1; in the shell Ctrl-C or Ctrl-D at a program's input read stops the program and the shell goes
on; Ctrl-D at ``tc>`` leaves with status 0.
"""

from __future__ import annotations

import os
import re
import signal
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

# loop writes 10,000 bytes (more than the console holds back) before it loops: once they show, it runs
ASK = (b'ask [ int n; ps "n? "; n = gn; pn n*2 ]\n'
       b'loop [ int i; while i < 5000 [ ps "go"; i = i + 1 ]; while 1 ; ]\n')


def plain(data: bytes) -> bytes:
    """What the terminal shows, roughly: escape sequences, backspaces and CR bytes dropped."""
    return re.sub(rb"\x1b\[[0-9;?]*[a-zA-Z]|[\x08\r]", b"", data)


def default_sigint() -> None:
    """In the child before it starts: Ctrl-C's SIGINT back to its default, as a terminal's shell starts a
    program, even when the tests themselves run where it is ignored (a background job of a script)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(args: list[str], cwd, term: str = "xterm"):
    """``python -m tinyc ARGS`` (the installed package: the current directory is a temporary one) on a
    pseudo-terminal of 80x24."""
    env = {**os.environ, "TERM": term, "NO_COLOR": "1", "PROMPT_TOOLKIT_NO_CPR": "1"}
    env.pop("PYTHONPATH", None)
    return pexpect.spawn(sys.executable, ["-P", "-m", "tinyc", *args], cwd=str(cwd), env=env, timeout=60,
                         dimensions=(24, 80), preexec_fn=default_sigint)


def finish(child) -> tuple[bytes, int]:
    """Everything the child writes until it ends, as the terminal shows it, and its exit status."""
    child.expect(pexpect.EOF)
    child.close()
    return plain(child.before), child.exitstatus


@pytest.mark.parametrize("term", ["xterm", "dumb"])
def test_ctrl_c_at_an_input_read_exits_130_like_ctrl_c_while_computing(tmp_path, term):
    child = spawn(["run", "bc.tc", "--entry", "bullcow"], tmp_path, term)
    child.expect("Type a random number:")
    child.sendcontrol("c")
    out, status = finish(child)
    assert status == 130
    assert re.search(rb"\nstopped\n$", out) and b"^Cstopped" not in out and b"Traceback" not in out


def test_ctrl_c_while_computing_exits_130(tmp_path):
    (tmp_path / "ask.tc").write_bytes(ASK)
    child = spawn(["run", "ask.tc", "--entry", "loop"], tmp_path)
    child.expect("gogo")
    child.sendcontrol("c")  # the terminal turns it into SIGINT
    out, status = finish(child)
    assert status == 130 and re.search(rb"\nstopped\n$", out) and b"Traceback" not in out


def test_input_typed_at_the_prompt_is_read(tmp_path):
    (tmp_path / "ask.tc").write_bytes(ASK)
    child = spawn(["run", "ask.tc", "--entry", "ask"], tmp_path)
    child.expect("n\\?")
    child.send("21\r")
    out, status = finish(child)
    assert status == 0 and out.endswith(b"n? 21\n 42\n")


def test_ctrl_d_at_an_input_read_is_the_end_of_input_status_1(tmp_path):
    (tmp_path / "ask.tc").write_bytes(ASK)
    child = spawn(["run", "ask.tc", "--entry", "ask"], tmp_path)
    child.expect("n\\?")
    child.sendcontrol("d")
    out, status = finish(child)
    assert status == 1 and re.search(rb"\nstopped\n$", out)


def shell(tmp_path):
    (tmp_path / "ask.tc").write_bytes(ASK)
    child = spawn([], tmp_path)
    child.expect("tc>")
    child.send(".r ask.tc\r")
    child.expect("tc>")
    return child


def test_the_shell_goes_on_after_ctrl_c_or_ctrl_d_at_a_programs_input_read(tmp_path):
    child = shell(tmp_path)
    for key in "cd":
        child.send(".ask\r")
        child.expect("n\\?")
        child.sendcontrol(key)
        child.expect("tc>")
        shown = plain(child.before)
        assert shown.endswith(b"\nstopped\n") and b"\n\nstopped" not in shown  # on its own line, no blank
    child.send(".ask\r")
    child.expect("n\\?")
    child.send("5\r")
    child.expect("tc>")
    assert plain(child.before).endswith(b"n? 5\n 10\n")
    child.sendcontrol("d")
    _, status = finish(child)
    assert status == 0


def test_ctrl_c_in_the_shell_stops_a_computing_program_and_the_shell_goes_on(tmp_path):
    child = shell(tmp_path)
    child.send(".loop\r")
    child.expect("gogo")
    child.sendcontrol("c")
    child.expect("stopped")
    child.expect("tc>")
    child.send(".pn 6*7\r")
    child.expect("42")
    child.expect("tc>")
    child.sendcontrol("d")
    _, status = finish(child)
    assert status == 0
