"""The program buffer of the tiny-c shell, kept in the flat memory as the Linux shell keeps it.

The Linux shell (reference sections 3 and 9.2) declares ``char ln(133)`` directly before
``char pr(90000)``: ``pr(0)`` is a newline sentinel, the program is ``pr(1..pe)``, and a typed
statement is placed in ``ln`` padded with spaces, so it runs on into that newline.  ``tinyc run`` and
the shell both use this buffer, so a program's globals and string addresses are the same in both.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from pathlib import Path  # annotations only: pathlib costs a start 2 ms (it imports urllib)

from ..errors import error_report, line_report, position
from .interpreter import Machine

LINE = 133       # ln(133): the typed line
CAPACITY = 90000  # pr(90000) and lp: the Linux shell's buffer
CAPACITY_16 = 12000  # pr(12000): the DOS shell's, with 16-bit ints (section 14 item 21)


class Workspace:
    """``ln`` and ``pr`` allocated in ``machine``'s memory after the library, with ``pe`` the program end.

    Offsets into the program (cursor, ``pe``) are relative to ``pr``, as MC 11 reports them.
    """

    def __init__(self, machine: Machine, capacity: int | None = None):
        from ..machine.shipped import program_capacity
        self.machine = machine
        if capacity is None:  # as the shell of the machine's era: 12000 bytes with 16-bit ints
            capacity = program_capacity(machine.memory.int_bits)
        self.capacity = capacity
        self.ln = machine.allocate("char", LINE + 1, 0)
        self.pr = machine.allocate("char", capacity + 1, 0)
        machine.memory.data[self.pr] = 10
        self.pe = 0
        self.files: list[tuple[str, int, int]] = []  # (name, first byte, end) of each file read, in pr
        self.generation = 0  # counts runs: a running program may write into pr, so line indexes start over

    @property
    def text(self) -> bytes:
        """``pr(0..pe)``: the sentinel newline and the program."""
        return self.machine.memory.block(self.pr, self.pr + self.pe)

    @property
    def free(self) -> int:
        return self.capacity - self.pe

    def append(self, data: bytes, name: str | None = None) -> bool:
        """Append bytes at the program end; False (nothing changed) if they do not fit.

        ``name`` (a file's) is remembered with the bytes' place, for reports that name the file."""
        if self.pe + len(data) > self.capacity:
            return False
        self.machine.memory.store(self.pr + self.pe + 1, data)
        if name is not None:
            self.files.append((name, self.pe + 1, self.pe + 1 + len(data)))
        self.pe += len(data)
        return True

    def read_file(self, path: str | Path) -> int:
        """Append a file as ``.r`` does: returns its byte count, -1 if it cannot be read, -2 if it does not fit,
        -3 if the machine's file sandbox does not let a program read it (:mod:`tinyc.machine.sandbox`: a
        shared notebook's ``.r`` cell is someone else's code, issue 35).

        CR bytes are dropped as the file is read (section 2, the Linux shell strips them).  Any name is at
        worst -1 (a directory, a NUL in the name...); reading stops once the buffer's free space is
        exceeded, so an endless file (allowed with ``--allow-files-anywhere``) is -2 like any file too big.
        A bare file name that is not in the current directory is looked for among the programs shipped with
        tinyc.
        """
        from ..machine.sandbox import Outside
        from ..machine.shipped import program_path
        try:
            with self.machine.files.open(program_path(str(path)), "rb") as f:
                data, raw = bytearray(), 0
                while True:
                    chunk = f.read(65536)
                    if not chunk:
                        break
                    raw += len(chunk)
                    data += chunk.replace(b"\r", b"")
                    if len(data) > self.free:
                        return -2
        except Outside:
            return -3
        except (OSError, ValueError):
            return -1
        if not self.append(bytes(data), str(path)):
            return -2
        return raw

    def type_statement(self, statement: bytes) -> None:
        """Put ``statement`` in the line buffer ``ln``, padded with blanks, as the shell types it."""
        mem = self.machine.memory
        line = statement[:LINE]
        mem.store(self.ln, line)
        mem.fill(self.ln + len(line), LINE + 1 - len(line), 32)

    def run(self, statement: bytes) -> tuple[int, int]:
        """Run one statement against the program (MC 11); returns (error number, cursor in pr)."""
        self.type_statement(statement)
        self.generation += 1
        return self.machine.run_application(self.ln, self.pr + self.pe, self.pr)

    def report(self, error: int, cursor: int, by_file: bool = False) -> str:
        """The shell's three-line error report for an error at ``cursor`` (section 10.2).

        An error in the typed statement (before ``pr``) shows that statement, with line number 0 as the
        shell numbers it; an error in the system library's text says so and shows the library line; with
        ``by_file`` an error in a file read into the buffer names the file and its line within it."""
        address = self.pr + cursor
        mem = self.machine.memory
        if self.ln <= address <= self.pr:  # pr(0), the newline the typed line runs into, ends it
            line = mem.block(self.ln, self.ln + LINE)
            cut = min((k for k in (line.find(b"\n"), line.find(b"\0")) if k >= 0), default=len(line))
            line = line[:cut].rstrip(b" ")
            return line_report(error, 0, line, min(address - self.ln, len(line)))
        lib = self.machine.library_text
        if lib is not None and lib.base <= address < lib.base + len(lib.text):
            return error_report(error, b"\n" + lib.text, address - lib.base + 1, "the system library")
        if by_file and 0 < cursor <= self.pe:
            for name, first, end in self.files:
                if first <= cursor < end or (cursor == end and end == self.pe + 1):
                    text = b"\n" + mem.block(self.pr + first, self.pr + end - 1)
                    return error_report(error, text, cursor - first + 1, name)
        return error_report(error, self.text, cursor)

    def locate(self, cursor: int) -> tuple[str | None, int, int]:
        """``(file, line, column)`` of ``cursor`` (relative to ``pr``) for editor-style reports: the file
        read into the buffer that holds it (None: not in a file) and the line in that file, both from 1,
        the column of the report's ``<`` (just after the place found, as tiny-c points), from 1."""
        for name, first, end in self.files:
            if first <= cursor < end or (cursor == end and end == self.pe + 1):
                text = b"\n" + self.machine.memory.block(self.pr + first, self.pr + end - 1)
                line, column = position(text, cursor - first + 1)
                return name, line, column + 1
        line, column = position(self.text, cursor)
        return None, line, column + 1
