"""Line arithmetic of the tiny-c shell's program buffer (reference section 9.2).

The buffer is ``pr(0..pe)`` of a :class:`~tinyc.driver.workspace.Workspace`: ``pr(0)`` is a newline sentinel and
line k (k >= 1) runs from the byte after the k-th newline up to and including the next one.  Line 0 is
the empty position before line 1; printing it gives the sentinel alone, an empty line.  All positions
here are offsets into ``pr`` (bytes), the same offsets MC 11 reports.
"""

from __future__ import annotations

from bisect import bisect_left

from ..driver.workspace import Workspace


class LineBuffer:
    """The program buffer seen as numbered lines, with ``lo`` the current line (0..la).

    A line index (the offsets of the newlines in ``pr(0..pe)``) makes each edit cost the size of the edit
    plus the lines after it, not the whole buffer, so typing or piping N lines at the end costs O(N).  The
    index follows the buffer's own edits and appends; after a run (the program may write into ``pr``) it
    is rebuilt once with ``bytearray.find``.
    """

    def __init__(self, workspace: Workspace):
        self.ws = workspace
        self.lo = 0
        self._nl: list[int] = []   # offsets (from pr) of the newlines in pr(0..scanned-1)
        self._scanned = 0
        self._generation = -1

    @property
    def text(self) -> bytes:
        """``pr(0..pe)``."""
        return self.ws.text

    def _index(self) -> list[int]:
        ws = self.ws
        if self._generation != ws.generation or self._scanned > ws.pe + 1:
            self._nl, self._scanned, self._generation = [], 0, ws.generation
        end = ws.pe + 1
        if self._scanned < end:
            data, base, nl = ws.machine.memory.data, ws.pr, self._nl
            i = data.find(b"\n", base + self._scanned, base + end)
            while i >= 0:
                nl.append(i - base)
                i = data.find(b"\n", i + 1, base + end)
            self._scanned = end
        return self._nl

    @property
    def la(self) -> int:
        """Number of lines: the newlines in ``pr(1..pe)``."""
        nl = self._index()
        return len(nl) - (1 if nl and nl[0] == 0 else 0)

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Offsets ``(start, end)`` of lines first..last: start of line ``first`` to the newline ending
        line ``last`` (inclusive).  Line numbers are clamped to 0..la."""
        nl = self._index()
        la = len(nl) - 1
        first = max(0, min(first, la))
        last = max(first, min(last, la))
        start = nl[first - 1] + 1 if first >= 1 else 0
        return start, nl[last]

    def lines(self, first: int, count: int) -> bytes:
        """The bytes of ``count`` lines from ``first`` on, each with its newline (clamped to the end)."""
        start, end = self.span(first, first + max(count, 1) - 1)
        return self.ws.machine.memory.block(self.ws.pr + start, self.ws.pr + end)

    def line_of(self, offset: int) -> int:
        """The number of the line holding ``offset`` (clamped to 0..pe)."""
        offset = max(0, min(offset, self.ws.pe))
        return bisect_left(self._index(), offset)

    def replace(self, start: int, end: int, data: bytes) -> bool:
        """Put ``data`` in place of ``pr(start..end-1)``; False (nothing changed) if the result does not fit."""
        ws = self.ws
        new_pe = ws.pe - (end - start) + len(data)
        if new_pe > ws.capacity:
            return False
        nl = self._index()
        mem, base = ws.machine.memory.data, ws.pr
        tail = bytes(mem[base + end:base + ws.pe + 1])
        moved = data + tail
        mem[base + start:base + start + len(moved)] = moved
        ws.pe = new_pe
        lo, hi = bisect_left(nl, start), bisect_left(nl, end)
        delta = len(data) - (end - start)
        after = [o + delta for o in nl[hi:]] if delta else nl[hi:]
        added, i = [], data.find(b"\n")
        while i >= 0:
            added.append(start + i)
            i = data.find(b"\n", i + 1)
        nl[lo:] = added + after
        self._scanned = new_pe + 1
        return True

    def insert_after(self, line: int, data: bytes) -> bool:
        """Insert ``data`` and a newline after ``line``; the last line inserted becomes the current line
        (``data`` may hold several lines, as a paste does)."""
        _, end = self.span(line, line)
        if not self.replace(end + 1, end + 1, data + b"\n"):
            return False
        self.lo = min(line, self.la) + data.count(b"\n") + 1
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
        base = self.ws.pr
        at = self.ws.machine.memory.data.find(needle, base + (end if lead else end + 1), base + self.ws.pe + 1)
        if at < 0:
            return None
        return self.line_of(at - base + (1 if lead else 0))

    def change(self, old: bytes, new: bytes) -> bool | None:
        """Replace the first ``old`` in the current line by ``new``.

        Returns True on success, False if ``old`` is not in the line, None if the result does not fit."""
        if self.lo == 0:  # line 0 holds no text
            return False
        start, end = self.span(self.lo, self.lo)
        at = self.lines(self.lo, 1)[:end - start].find(old)
        if at < 0:
            return False
        if not self.replace(start + at, start + at + len(old), new):
            return None
        return True
