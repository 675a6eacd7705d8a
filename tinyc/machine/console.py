"""Terminal input and output for the interpreter: the byte streams behind MC 1, 2, 12, 13, 14 and 15.

One input stream serves the shell's command lines and the running program (section 14 item 10), so a
piped session reads commands and program input in order.  Output is buffered and flushed before every
read, so prompts appear before the input they ask for.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
import weakref
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it
if TYPE_CHECKING:
    from pathlib import Path
    from typing import IO, BinaryIO, Callable, TextIO


def binary_stream(stream: TextIO | None) -> BinaryIO:
    """The byte stream under the text stream ``stream``: its ``.buffer`` where it has one (a real file),
    else a :class:`TextBytes` over it (ipykernel's OutStream, io.StringIO, any text stream); an empty
    input for None (no standard stream at all)."""
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        underneath: BinaryIO = buffer
        return underneath
    if stream is None:
        import io
        return io.BytesIO()
    return TextBytes(stream)  # type: ignore[return-value]  # the part of BinaryIO a Console uses


class TextBytes:
    """Bytes over a text stream without a ``.buffer``: what is written is decoded as UTF-8 (a character
    split between two writes is kept whole; bytes that are not UTF-8 show as U+FFFD), what is read is
    the text encoded as UTF-8.  Only the calls a :class:`Console` makes: write, flush, readline, read."""

    def __init__(self, stream: TextIO) -> None:
        import codecs
        self.stream = stream
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending = b""  # bytes of a character read but not yet handed out

    def write(self, data: bytes) -> int:
        self.stream.write(self._decoder.decode(data))
        return len(data)

    def flush(self) -> None:
        self.stream.flush()

    def readline(self) -> bytes:
        line, self._pending = self._pending, b""
        if not line.endswith(b"\n"):
            line += self.stream.readline().encode("utf-8", "surrogateescape")
        return line

    def read(self, n: int = 1) -> bytes:
        """Up to ``n`` (at least 1) bytes; b"" at the end of the text."""
        if not self._pending:
            self._pending = self.stream.read(1).encode("utf-8", "surrogateescape")
        data, self._pending = self._pending[:n], self._pending[n:]
        return data

    def fileno(self) -> int:
        return self.stream.fileno()


class OutputClosed(BaseException):
    """The reader of the output has gone (a broken pipe, as after ``tinyc run p.tc | head -1``): the
    program stops here.  A BaseException, so that nothing on the way (a tiny-c error handler, the shell's
    guard against internal errors) takes it for something else; ``tinyc`` ends with status 141, as a
    process that SIGPIPE ended."""


class StreamFailed(BaseException):
    """A standard stream that cannot be used: stdout closed (``tinyc run p.tc >&-``) or full (``> /dev/full``),
    stdin closed (``<&-``).  ``message`` is the one line ``tinyc`` prints before it ends with status 74
    (EX_IOERR of sysexits.h).  A BaseException, as OutputClosed, so that nothing on the way takes it for a
    tiny-c error or a bug."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def stream_failed(error: OSError, reading: bool) -> StreamFailed:
    """The StreamFailed of ``error``, met writing the output (``reading`` False) or reading the input."""
    import errno
    if error.errno == errno.EBADF:
        why = "standard input is closed" if reading else "standard output is closed"
    else:
        why = error.strerror or str(error)
    return StreamFailed(f"tinyc: cannot {'read the input' if reading else 'write the output'}: {why}")


class ClosedStream(io.RawIOBase):
    """What stands for a standard stream the process started without (Python makes it None): reading or
    writing fails with EBADF, as on a closed file descriptor, so that the Console says so."""

    def readable(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def readinto(self, b: object) -> int:
        import errno
        raise OSError(errno.EBADF, "Bad file descriptor")

    def write(self, b: object) -> int:
        import errno
        raise OSError(errno.EBADF, "Bad file descriptor")


class stand_in_streams:
    """While inside, a standard stream the process started without (``sys.stdin`` None after ``<&-``,
    ``sys.stdout`` after ``>&-``) is a :class:`ClosedStream`, so that using it ends in StreamFailed's one
    line, not an AttributeError on None."""

    def __enter__(self) -> None:
        self.saved = sys.stdin, sys.stdout, sys.stderr
        if sys.stdin is None:
            sys.stdin = io.TextIOWrapper(io.BufferedReader(ClosedStream()))
        if sys.stdout is None:
            sys.stdout = io.TextIOWrapper(io.BufferedWriter(ClosedStream()))
        if sys.stderr is None:
            sys.stderr = open(os.devnull, "w")

    def __exit__(self, *exc: object) -> None:
        _STAND_INS.extend(s for s in (sys.stdin, sys.stdout, sys.stderr) if s not in self.saved)
        sys.stdin, sys.stdout, sys.stderr = self.saved


_STAND_INS: list[object] = []  # kept for the life of the process: freeing one would flush it, and fail, again
_LIVE: weakref.WeakSet[Console] = weakref.WeakSet()  # every console, for flush_consoles


def flush_consoles() -> None:
    """Write out what every console still buffers (``tinyc`` calls it on every way out, an internal
    error included, so that output already printed is not lost); a closed output is passed over."""
    for console in list(_LIVE):
        try:
            console.flush()
        except (OutputClosed, StreamFailed):
            pass


class Console:
    """Byte-level I/O: ``write`` bytes out, ``read_line``/``read_char`` in.

    ``strip_cr`` drops CR bytes from the output (section 14 item 9); ``echo`` writes each line read back to
    the output (section 14 item 10).  ``read_line`` returns None at end of input.  ``interrupted`` says
    that Ctrl-C came at an input read as a key (a terminal's line editor), not as SIGINT;
    ``read_ended`` that the last input read ended with Ctrl-C or Ctrl-D in that editor, which ended the
    line on the terminal itself.  ``pictures``, when set, is told the path of each picture the program drew
    (Gibson's graphics): a front end that can show pictures (the notebook) sets it.
    """

    interrupted = False
    read_ended = False
    pictures: Callable[[Path], None] | None = None

    def __init__(self, inp: BinaryIO | None = None, out: BinaryIO | None = None,
                 strip_cr: bool = False, echo: bool = False):
        self.inp = inp if inp is not None else binary_stream(sys.stdin)
        self.out = out if out is not None else binary_stream(sys.stdout)
        self.strip_cr = strip_cr
        self.echo = echo
        self._buf = bytearray()
        self._last = b"\n"  # the last byte flushed (see ``last``)
        self.at_eof = False  # input has ended
        # a UTF-8 terminal drops bytes that are not UTF-8 (a Latin-1 file's "café"): show them as Latin-1
        self._terminal = utf8_terminal(self.out) and codecs.getincrementaldecoder("utf-8")("tinyc.latin1")
        _LIVE.add(self)

    @property
    def last(self) -> bytes:
        """The last byte written (a newline before any), so a command can end an unfinished line."""
        return bytes(self._buf[-1:]) if self._buf else self._last

    def write(self, data: bytes) -> None:
        self._buf += data
        if len(self._buf) > 8192:
            self.flush(final=False)

    def put(self, c: int) -> None:
        """One byte (0..255) out: MC 1, which programs call once per character (the library's ``ps``)."""
        buf = self._buf
        buf.append(c)
        if len(buf) > 8192:
            self.flush(final=False)

    def flush(self, final: bool = True) -> None:
        """Write the buffered output; ``final`` False (a full buffer) may hold back the start of a UTF-8
        character that the next bytes complete.  Raises OutputClosed when the reader has gone (a broken
        pipe): a program writing into a closed pipe would otherwise run for ever."""
        if self._buf:
            self._last = bytes(self._buf[-1:])
            data = bytes(self._buf).replace(b"\r", b"") if self.strip_cr else bytes(self._buf)
            self._buf.clear()
            if self._terminal:
                data = self._terminal.decode(data, final).encode("utf-8")
            try:
                self.out.write(data)
                self.out.flush()
            except BrokenPipeError:
                raise OutputClosed from None
            except ValueError:  # the stream was closed on our side (a test's buffer, a notebook's cell)
                pass
            except OSError as e:  # closed (>&-) or full (> /dev/full)
                raise stream_failed(e, reading=False) from None

    def read_line(self) -> bytes | None:
        """One input line without its line end (LF, and a CR before it), or None at end of input."""
        self.flush()
        try:
            line = self.inp.readline()
        except OSError as e:  # a closed stdin (<&-)
            raise stream_failed(e, reading=True) from None
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
        try:
            c = self.inp.read(1)
        except OSError as e:  # a closed stdin (<&-)
            raise stream_failed(e, reading=True) from None
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



def _as_bytes(error: UnicodeError) -> tuple[bytes, int]:
    assert isinstance(error, UnicodeEncodeError)  # used only to encode program text for stdout/stderr
    out = bytearray()
    for ch in error.object[error.start:error.end]:
        o = ord(ch)
        out += bytes([o - 0xDC00]) if 0xDC80 <= o <= 0xDCFF else ch.encode("utf-8", "replace")
    return bytes(out), error.end


codecs.register_error("tinyc.bytes", _as_bytes)


def _as_latin1(error: UnicodeError) -> tuple[str, int]:
    assert isinstance(error, UnicodeDecodeError)  # used only to decode output for a UTF-8 terminal
    return error.object[error.start:error.end].decode("latin-1"), error.end


codecs.register_error("tinyc.latin1", _as_latin1)


def utf8_terminal(stream: IO[str] | IO[bytes]) -> bool:
    """Whether ``stream`` is a terminal that decodes UTF-8 (the locale's encoding)."""
    try:
        if not os.isatty(stream.fileno()):
            return False
    except (AttributeError, OSError, ValueError):
        return False
    import locale
    return locale.getpreferredencoding(False).lower().replace("-", "") == "utf8"


def for_terminal(text: str) -> str:
    """Program text (the Latin-1 view of its bytes) as a UTF-8 terminal should show it in a report: valid
    UTF-8 as it is, any other byte as its Latin-1 character, and control bytes other than a tab (which
    would move the cursor, ring the bell or clear the screen) escaped as ``\\xNN``."""
    shown = text.encode("latin-1").decode("utf-8", "tinyc.latin1")
    shown = "".join(f"\\x{ord(c):02x}" if (ord(c) < 32 and c != "\t") or 0x7F <= ord(c) < 0xA0 else c
                    for c in shown)
    return shown.encode("utf-8").decode("latin-1")


class byte_transparent_stdio:
    """While inside (``with byte_transparent_stdio():``), ``sys.stdout``/``sys.stderr`` (real text streams)
    write program text as its bytes.  A class, not contextlib's decorator: every ``tinyc run`` enters it,
    and importing contextlib costs a start 1 ms."""

    def __enter__(self) -> None:
        self.saved: list[tuple[io.TextIOWrapper, str, str | None]] = []
        for stream in (sys.stdout, sys.stderr):
            if isinstance(stream, io.TextIOWrapper) and hasattr(stream, "reconfigure"):
                try:
                    stream.flush()
                    self.saved.append((stream, stream.encoding, stream.errors))
                    stream.reconfigure(encoding="latin-1", errors="tinyc.bytes")
                except (ValueError, OSError, io.UnsupportedOperation):
                    self.saved.pop() if self.saved and self.saved[-1][0] is stream else None

    def __exit__(self, *exc: object) -> None:
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


SHOWN = 160  # characters of a long report line shown on a terminal, around the error point


def align_report(report: str, terminal: bool = False) -> str:
    """A tiny-c error report with its ``<`` moved under the same character as the terminal shows it.

    ``error_report`` pads with one space per byte; a UTF-8 character before the error point takes fewer
    columns than bytes.  With ``terminal`` (the report goes to one) the line is shown by
    :func:`for_terminal`, and a line longer than SHOWN characters (a binary file run as a program) is cut
    to the part around the error point, with ``...`` where it was cut.  Reports of plain ASCII lines are
    returned unchanged."""
    lines = report.split("\n")
    at = next((i for i in range(1, len(lines)) if lines[i].endswith("<") and not lines[i].strip(" <")), None)
    if at is None:
        return report
    source, pad = lines[at - 1], len(lines[at]) - 1
    plain = source.isascii() and source.isprintable() and len(source) <= SHOWN
    if plain or (not terminal and source.isascii()):
        return report
    if terminal:
        start = max(0, pad - SHOWN // 2)
        head = "..." if start else ""
        tail = "..." if len(source) > start + SHOWN else ""
        prefix = head + for_terminal(source[start:pad])
        source = prefix + for_terminal(source[pad:start + SHOWN]) + tail
    else:
        prefix = source[:pad]
    lines[at - 1] = source
    lines[at] = " " * display_width(prefix) + "<"
    return "\n".join(lines)
