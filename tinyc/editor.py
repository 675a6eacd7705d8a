"""Line arithmetic of the tiny-c shell's program buffer (reference section 9.2).

The buffer is ``pr(0..pe)`` of a :class:`~tinyc.workspace.Workspace`: ``pr(0)`` is a newline sentinel and
line k (k >= 1) runs from the byte after the k-th newline up to and including the next one.  Line 0 is
the empty position before line 1; printing it gives the sentinel alone, an empty line.  All positions
here are offsets into ``pr`` (bytes), the same offsets MC 11 reports.
"""

from __future__ import annotations

from .workspace import Workspace


class LineBuffer:
    """The program buffer seen as numbered lines, with ``lo`` the current line (0..la)."""

    def __init__(self, workspace: Workspace):
        self.ws = workspace
        self.lo = 0

    @property
    def text(self) -> bytes:
        """``pr(0..pe)``."""
        return self.ws.text

    @property
    def la(self) -> int:
        """Number of lines: the newlines in ``pr(1..pe)``."""
        return self.text.count(b"\n", 1)

    def _newlines(self, text: bytes) -> list[int]:
        return [i for i, c in enumerate(text) if c == 10]

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Offsets ``(start, end)`` of lines first..last: start of line ``first`` to the newline ending
        line ``last`` (inclusive).  Line numbers are clamped to 0..la."""
        text = self.text
        nl = self._newlines(text)
        la = len(nl) - 1
        first = max(0, min(first, la))
        last = max(first, min(last, la))
        start = nl[first - 1] + 1 if first >= 1 else 0
        return start, nl[last]

    def lines(self, first: int, count: int) -> bytes:
        """The bytes of ``count`` lines from ``first`` on, each with its newline (clamped to the end)."""
        start, end = self.span(first, first + max(count, 1) - 1)
        return self.text[start:end + 1]

    def line_of(self, offset: int) -> int:
        """The number of the line holding ``offset`` (clamped to 0..pe)."""
        text = self.text
        offset = max(0, min(offset, len(text) - 1))
        return text.count(b"\n", 0, offset)

    def replace(self, start: int, end: int, data: bytes) -> bool:
        """Put ``data`` in place of ``pr(start..end-1)``; False (nothing changed) if the result does not fit."""
        text = self.text
        new_pe = self.ws.pe - (end - start) + len(data)
        if new_pe > self.ws.capacity:
            return False
        self.ws.machine.memory.store(self.ws.pr + start, data + text[end:])
        self.ws.pe = new_pe
        return True

    def insert_after(self, line: int, data: bytes) -> bool:
        """Insert ``data`` and a newline as a new line after ``line``; it becomes the current line."""
        _, end = self.span(line, line)
        if not self.replace(end + 1, end + 1, data + b"\n"):
            return False
        self.lo = min(line, self.la) + 1
        return True

    def delete(self, first: int, count: int) -> None:
        """Delete ``count`` lines from ``first`` (>= 1) on; the line before them becomes current."""
        start, end = self.span(first, first + max(count, 1) - 1)
        self.replace(start, end + 1, b"")
        self.lo = first - 1

    def locate(self, pattern: bytes) -> int | None:
        """The first line after the current one holding ``pattern`` (``^`` at either end = a newline).

        Returns the line number, or None if it is not found."""
        lead = pattern.startswith(b"^")
        trail = len(pattern) > 1 and pattern.endswith(b"^")
        body = pattern[1 if lead else 0:len(pattern) - 1 if trail else len(pattern)]
        needle = (b"\n" if lead else b"") + body + (b"\n" if trail else b"")
        _, end = self.span(self.lo, self.lo)
        # a leading ^ may match the newline that ends the current line, so the next line's start counts
        at = self.text.find(needle, end if lead else end + 1)
        if at < 0:
            return None
        return self.line_of(at + (1 if lead else 0))

    def change(self, old: bytes, new: bytes) -> bool | None:
        """Replace the first ``old`` in the current line by ``new``.

        Returns True on success, False if ``old`` is not in the line, None if the result does not fit."""
        if self.lo == 0:  # line 0 holds no text
            return False
        start, end = self.span(self.lo, self.lo)
        at = self.text[start:end].find(old)
        if at < 0:
            return False
        if not self.replace(start + at, start + at + len(old), new):
            return None
        return True
