"""Terminal input and output for the interpreter: the byte streams behind MC 1, 2, 12, 13, 14 and 15.

One input stream serves the shell's command lines and the running program (section 14 item 10), so a
piped session reads commands and program input in order.  Output is buffered and flushed before every
read, so prompts appear before the input they ask for.
"""

from __future__ import annotations

import os
import select
import sys
from typing import BinaryIO


class Console:
    """Byte-level I/O: ``write`` bytes out, ``read_line``/``read_char`` in.

    ``strip_cr`` drops CR bytes from the output (section 14 item 9); ``echo`` writes each line read back to
    the output (section 14 item 10).  ``read_line`` returns None at end of input.
    """

    def __init__(self, inp: BinaryIO | None = None, out: BinaryIO | None = None,
                 strip_cr: bool = False, echo: bool = False):
        self.inp = inp if inp is not None else sys.stdin.buffer
        self.out = out if out is not None else sys.stdout.buffer
        self.strip_cr = strip_cr
        self.echo = echo
        self._buf = bytearray()
        self.last = b"\n"  # the last byte written, so a command can end an unfinished line
        self.at_eof = False  # input has ended

    def write(self, data: bytes) -> None:
        if data:
            self.last = data[-1:]
        self._buf += data
        if len(self._buf) > 8192:
            self.flush()

    def flush(self) -> None:
        if self._buf:
            data = bytes(self._buf).replace(b"\r", b"") if self.strip_cr else bytes(self._buf)
            self._buf.clear()
            try:
                self.out.write(data)
                self.out.flush()
            except (BrokenPipeError, ValueError):
                pass

    def read_line(self) -> bytes | None:
        """One input line without its line end (LF, and a CR before it), or None at end of input."""
        self.flush()
        line = self.inp.readline()
        if not line:
            self.at_eof = True
            return None
        line = line.rstrip(b"\n").rstrip(b"\r")
        if self.echo:
            self.write(line + b"\n")
        return line

    def read_char(self) -> int | None:
        """One input byte (a line end reads as LF, 10), or None at end of input."""
        self.flush()
        c = self.inp.read(1)
        if not c:
            self.at_eof = True
            return None
        if self.echo:
            self.write(c)
        return c[0]

    def key_ready(self) -> int:
        """MC 12: the waiting character on a terminal, else 0 (piped input never counts as a key press)."""
        try:
            fd = self.inp.fileno()
        except (AttributeError, OSError, ValueError):
            return 0
        if not os.isatty(fd):
            return 0
        ready, _, _ = select.select([fd], [], [], 0)
        if not ready:
            return 0
        c = os.read(fd, 1)
        return c[0] if c else 0
