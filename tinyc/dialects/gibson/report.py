"""Error numbers, texts and the error report of the Gibson dialect (gibson-dialect.md section 6).

The program memory of that dialect holds, in order, the seed statement (``[main();]`` or ``[CODE]``),
the libraries, the 10 bytes ``endlibrary`` and the application text.  A report names the part the
error lies in (``seed``, ``lib``, ``app``), a line number counted in LF bytes only, the error's index in
that memory, the text of the error, the line and a ``^`` one character before the error position.
"""

from __future__ import annotations

from dataclasses import dataclass

TEXTS = {
    1: "STATERR",
    2: "CURSERR, cursor out of range",
    3: "SYMERR, decl needed",
    5: "RPARERR, ) missing",
    6: "RANGERR, subscript out of range",
    7: "CLASERR",
    8: "TYPEERR",
    9: "SYNXERR",
    14: "LVALERR, not assignable",
    15: "POPERR, nothing to pop",
    16: "PUSHERR, overflowed stack area",
    17: "TMFUERR, overflowed function table",
    18: "TMVRERR, overflowed variable table",
    19: "TMVLERR, overflowed available space for values",
    20: "LINKERR",
    21: "ARGSERR, args don't match",
    22: "LBRCERR, [ required",
    23: "RBRCERR, ] required somewhere",
    24: "MCERR, no such MC",
    26: "SYMERRA, decl needed",
    27: "EQERR, illegal assign",
    28: "PTRERR",
    29: "APPERR, app not found",
    30: "DIVERR, divide by zero",
    98: "EXIT, stopped by exit call",
    99: "KILL, stopped by user",
    1023: "RBRCERR, ] required in -r ",
    2023: "RBRCERR, ] required in library",
    3023: "RBRCERR, ] required in app code",
}

# tinyc's own error numbers (PC dialect, tinyc.errors) that this dialect numbers differently
FROM_PC = {
    26: 3,   # an undeclared name is SYMERR, "decl needed"
    1: 9,    # a statement that is not recognised: the factor parser gives SYNXERR
}

EXIT = 98
KILL = 99


def gibson_code(code: int) -> int:
    """The Gibson error number for a tinyc error number (identical except those of ``FROM_PC``)."""
    return FROM_PC.get(int(code), int(code))


def text_of(code: int) -> str:
    return TEXTS.get(int(code), f"ERROR {int(code)}")


@dataclass(frozen=True)
class Layout:
    """Where the parts of the program memory begin: the seed at 0, the libraries at ``lib``, the
    ``endlibrary`` marker at ``marker`` and the application at ``app``, which ends at ``end``."""

    lib: int
    marker: int
    app: int
    end: int


def report(code: int, memory: bytes, error_at: int, layout: Layout) -> str:
    """The report of error ``code`` found at ``error_at`` (section 6.2): a leading LF, then
    ``WHERE line L (cursor pr[N])TEXT``, the line, and the caret line.  KILL is its text alone."""
    code = int(code)
    if code == KILL:
        return text_of(code) + "\n"
    e = max(0, min(error_at, layout.end))
    if e < len(memory) and memory[e] in (10, 13) and e > 0:
        e -= 1
    if e < layout.lib:
        where, line_no = "seed", 0
    else:
        where, start = ("lib", layout.lib) if e < layout.app else ("app", layout.app)
        line_no = 1 + memory.count(b"\n", start + 1, min(e + 2, len(memory)))
    begin = e
    while begin > 0 and memory[begin - 1] not in (10, 13):
        begin -= 1
    finish = e
    while finish < layout.end and finish < len(memory) and memory[finish] not in (10, 13):
        finish += 1
    # at the end of the text the line runs on to the NUL byte there (the last line, if the file has no
    # final line end, then that NUL; else the NUL alone)
    line = memory[begin:finish] if e < layout.end else memory[begin:e] + b"\0"
    indent = len(line) - len(line.lstrip(b" \t"))
    spaces = max(0, e - begin - indent - 1)
    shown = line.decode("latin-1")
    return (f"\n{where} line {line_no} (cursor pr[{e}]){text_of(code)}\n{shown}\n"
            f"{line[:indent].decode('latin-1')}{' ' * spaces}^\n")


def after_remarks(data: bytes | bytearray, pos: int) -> int:
    """Where the original's cursor stands after its ``_rem``: past blanks, tabs, CR and LF bytes and
    comments (``/*`` and ``//`` both run to the line's end there) from ``pos``.  That interpreter skips them
    after a machine call's arguments, before the call, so an error the call sets is reported there."""
    while True:
        while pos < len(data) and data[pos] in b" \t\r\n":
            pos += 1
        if data[pos:pos + 2] not in (b"/*", b"//"):
            return pos
        while pos < len(data) and data[pos] not in b"\r\n\0":
            pos += 1
