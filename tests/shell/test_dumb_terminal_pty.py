"""A dumb terminal (``TERM=dumb``) through a pseudo-terminal (issue 26 item 11): the terminal itself edits
and echoes each line, so what the screen shows is the line that runs.  prompt_toolkit's own fallback
echoed only the character before the cursor after each edit: Tab completion of ``.bu`` showed ``.bup``
while ``.bump`` ran, and Ctrl-U left ``.pn 12`` on the screen in front of the retyped ``.pn 34``."""

from __future__ import annotations

import sys

import pytest

pexpect = pytest.importorskip("pexpect")

from test_terminal_pty import spawn  # noqa: E402  (the installed tinyc on an 80x24 pseudo-terminal)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")

PROGRAM = b"bump [ pn 7 ]\nask [ int n; ps \"n? \"; n = gn; pn n*2 ]\n"


def screen(data: bytes) -> list[str]:
    """The lines a dumb terminal shows for ``data``: BS moves back, CR to the line start, LF down, TAB to
    the next multiple of 8, anything else overwrites; trailing blanks dropped."""
    lines: list[list[str]] = [[]]
    col = 0
    for ch in data.decode("utf-8", errors="replace"):
        line = lines[-1]
        if ch == "\n":
            lines.append([])
            col = 0
        elif ch == "\r":
            col = 0
        elif ch == "\b":
            col = max(0, col - 1)
        else:
            width = 8 - col % 8 if ch == "\t" else 1
            for c in (" " * width if ch == "\t" else ch):
                line.extend(" " * (col + 1 - len(line)))
                line[col] = c
                col += 1
    return ["".join(line).rstrip() for line in lines]


def dumb_shell(tmp_path):
    (tmp_path / "p.tc").write_bytes(PROGRAM)
    child = spawn([], tmp_path, term="dumb")
    child.expect("tc>")
    child.send(".r p.tc\r")
    child.expect("tc>")
    return child


def entered(child, keys: list[bytes], prompt: bytes = b"tc>") -> list[str]:
    """Send ``keys`` one at a time (each edit reaches the terminal on its own), then what the screen shows
    from the line of ``prompt`` (already shown) up to the next ``tc>`` prompt."""
    for key in keys:
        child.send(key)
    child.expect("tc>")
    return screen(prompt + child.before)


def test_tab_inserts_a_tab_and_the_line_shown_is_the_line_run(tmp_path):
    child = dumb_shell(tmp_path)
    shown = entered(child, [b".bu", b"\t", b"\r"])
    assert shown[0] == "tc>.bu"  # no completion to .bump: the line ran as shown
    assert "err  26" in "\n".join(shown) and " 7" not in shown


def test_ctrl_u_clears_the_line_on_the_screen(tmp_path):
    child = dumb_shell(tmp_path)
    shown = entered(child, [b".pn 12", b"\x15", b".pn 34\r"])
    assert shown[:2] == ["tc>.pn 34", " 34"]
    shown = entered(child, [b".bumq", b"\x7f", b"p\r"])  # backspace erases on the screen too
    assert shown[:2] == ["tc>.bump", " 7"]
    child.sendcontrol("d")
    child.expect(pexpect.EOF)


def test_ctrl_u_at_a_programs_input_read(tmp_path):
    child = dumb_shell(tmp_path)
    child.send(".ask\r")
    child.expect("n\\? ")  # typed ahead, the keys would show before the question
    shown = entered(child, [b"12", b"\x15", b"21\r"], prompt=b"n? ")
    assert shown[:2] == ["n? 21", " 42"]


def test_ctrl_c_and_ctrl_d_at_the_dumb_prompt(tmp_path):
    child = dumb_shell(tmp_path)
    child.send(".pn 5")
    child.expect_exact(".pn 5")  # Ctrl-C flushes the terminal's output queue: let the echo show first
    child.sendcontrol("c")  # SIGINT on a dumb terminal: the line is dropped, the next prompt on a new line
    child.expect("tc>")
    assert screen(b"tc>.pn 5" + child.before)[-2:] == ["tc>.pn 5^C", ""]
    assert entered(child, [b".pn 6\r"])[:2] == ["tc>.pn 6", " 6"]
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize("key, shown", [("c", "n? ^C"), ("d", "n?")])
def test_ctrl_c_or_ctrl_d_at_a_programs_input_read_stops_it_on_a_line_of_its_own(tmp_path, key, shown):
    child = dumb_shell(tmp_path)
    child.send(".ask\r")
    child.expect("n\\? ")
    child.sendcontrol(key)
    child.expect("tc>")
    assert screen(b"n? " + child.before) == [shown, "stopped", ""]
