"""pospi (Lee Bradley, for ``testpospi.tc``): MC 1001 column, row, text writes the text at that place of
the screen.  The original moved the Windows console's cursor; this port writes the ANSI (VT100) escape that
any terminal understands: ESC [ row+1 ; column+1 H, then the text."""

from __future__ import annotations


def pos(machine, args: list[int]) -> int:
    """MC 1001 c, r, msg: the cursor to column c, row r (from 0), then the text at address msg."""
    if len(args) < 3:
        machine.fail(24)
    column, row, text = args[0], args[1], machine.read_string(args[2])
    machine.write(b"\x1b[%d;%dH" % (row + 1, column + 1) + text)
    return 0


MACHINE_CALLS = {1001: pos}
