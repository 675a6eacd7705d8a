"""Terminal input and output for the interpreter: the byte streams behind MC 1, 2, 12, 13, 14 and 15.

One input stream serves the shell's command lines and the running program (section 14 item 10), so a
piped session reads commands and program input in order.  Output is buffered and flushed before every
read, so prompts appear before the input they ask for.
"""

from __future__ import annotations

import os
import sys
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it
if TYPE_CHECKING:
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
        self._last = b"\n"  # the last byte flushed (see ``last``)
        self.at_eof = False  # input has ended

    @property
    def last(self) -> bytes:
        """The last byte written (a newline before any), so a command can end an unfinished line."""
        return bytes(self._buf[-1:]) if self._buf else self._last

    def write(self, data: bytes) -> None:
        self._buf += data
        if len(self._buf) > 8192:
            self.flush()

    def put(self, c: int) -> None:
        """One byte (0..255) out: MC 1, which programs call once per character (the library's ``ps``)."""
        buf = self._buf
        buf.append(c)
        if len(buf) > 8192:
            self.flush()

    def flush(self) -> None:
        if self._buf:
            self._last = bytes(self._buf[-1:])
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
        import select  # only a program that polls a terminal needs it
        ready, _, _ = select.select([fd], [], [], 0)
        if not ready:
            return 0
        c = os.read(fd, 1)
        return c[0] if c else 0


# ---- showing program text: one rule for every view and report
#
# Program text is bytes.  Inside tinyc it travels as ``str`` decoded one byte to one character (Latin-1),
# so offsets stay byte offsets.  Whatever tinyc prints goes back out as those same bytes, unchanged, and
# the terminal decodes them exactly as it decodes the program's own output: UTF-8 source shows as UTF-8,
# whatever the locale or PYTHONIOENCODING says.  Characters of tinyc's own messages that are not Latin-1
# are written in UTF-8, and the surrogates of an undecodable file name as the bytes they stand for.

import codecs  # noqa: E402
import io  # noqa: E402


def _as_bytes(error: UnicodeError) -> tuple[bytes, int]:
    assert isinstance(error, UnicodeEncodeError)  # used only to encode program text for stdout/stderr
    out = bytearray()
    for ch in error.object[error.start:error.end]:
        o = ord(ch)
        out += bytes([o - 0xDC00]) if 0xDC80 <= o <= 0xDCFF else ch.encode("utf-8", "replace")
    return bytes(out), error.end


codecs.register_error("tinyc.bytes", _as_bytes)


class byte_transparent_stdio:
    """While inside (``with byte_transparent_stdio():``), ``sys.stdout``/``sys.stderr`` (real text streams)
    write program text as its bytes.  A class, not contextlib's decorator: every ``tinyc run`` enters it,
    and importing contextlib costs a start 1 ms."""

    def __enter__(self) -> None:
        self.saved: list = []
        for stream in (sys.stdout, sys.stderr):
            if isinstance(stream, io.TextIOWrapper) and hasattr(stream, "reconfigure"):
                try:
                    stream.flush()
                    self.saved.append((stream, stream.encoding, stream.errors))
                    stream.reconfigure(encoding="latin-1", errors="tinyc.bytes")
                except (ValueError, OSError, io.UnsupportedOperation):
                    self.saved.pop() if self.saved and self.saved[-1][0] is stream else None

    def __exit__(self, *exc) -> None:
        for stream, encoding, errors in self.saved:
            try:
                stream.flush()
                stream.reconfigure(encoding=encoding, errors=errors)
            except (ValueError, OSError, io.UnsupportedOperation):
                pass


def display_width(text: str) -> int:
    """Columns that program text (Latin-1 view of its bytes) takes on a UTF-8 terminal."""
    from wcwidth import wcswidth
    shown = text.encode("latin-1", "replace").decode("utf-8", "replace")
    width = wcswidth(shown)
    return width if width >= 0 else len(shown)


def align_report(report: str) -> str:
    """A tiny-c error report with its ``<`` moved under the same character as the terminal shows it.

    ``error_report`` pads with one space per byte; a UTF-8 character before the error point takes fewer
    columns than bytes.  Reports of ASCII lines are returned unchanged."""
    lines = report.split("\n")
    if len(lines) < 3 or not lines[2].endswith("<") or lines[1].isascii():
        return report
    pad = len(lines[2]) - 1
    lines[2] = " " * display_width(lines[1][:pad]) + "<"
    return "\n".join(lines)
