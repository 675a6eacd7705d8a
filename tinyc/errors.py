"""tiny-c error numbers and the shell's error report (reference sections 10.1 and 10.2)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from collections.abc import Iterator


class _Numbered(type):
    """ErrorCode's class: iterating over ErrorCode gives its members in number order, as over an enum."""

    def __iter__(cls) -> Iterator[ErrorCode]:
        return iter(sorted(ErrorCode._members.values()))


def _number(n: int) -> ErrorCode:
    """A member's number in ErrorCode's body: an int until the members are made after it, typed as one."""
    return n  # type: ignore[return-value]


class ErrorCode(int, metaclass=_Numbered):
    """The numbered errors of reference section 10.1, plus 30 (division by zero, section 14 item 2).

    Each member is an int with a ``name`` and a ``text``; ``ErrorCode(n)`` is the member numbered ``n``
    (ValueError if none is); ``str`` and ``format`` give the number.  It behaves as the IntEnum it was, and
    is not one: creating an enum class costs every start of tinyc 1 ms (tests/driver/test_startup.py)."""

    STATERR = _number(1)   # statement not recognised
    CURSERR = _number(2)   # cursor ran off the program: unbalanced [ or (, unterminated literal
    SYMERR = _number(3)    # symbol expected
    RPARERR = _number(5)   # ) missing
    RANGERR = _number(6)   # subscript out of range (also: address outside the flat memory)
    CLASERR = _number(7)   # subscripting a non-array
    SYNXERR = _number(9)   # factor not recognised
    LVALERR = _number(14)  # assignment to a non-lvalue
    PUSHERR = _number(16)  # expression-stack overflow
    TMFUERR = _number(17)  # too many active functions
    TMVRERR = _number(18)  # variable table full
    TMVLERR = _number(19)  # value space exhausted
    LINKERR = _number(20)  # link (program scan) error
    ARGSERR = _number(21)  # argument count differs from parameter count
    LBRCERR = _number(22)  # [ expected
    MCERR = _number(24)    # bad MC number
    SYMERRA = _number(26)  # symbol not found in any level
    DIVERR = _number(30)   # division by zero
    KILL = _number(99)     # user interrupt

    _members: dict[int, ErrorCode] = {}
    name: str

    def __new__(cls, value: int) -> ErrorCode:
        try:
            return cls._members[value]
        except (KeyError, TypeError):
            raise ValueError(f"{value!r} is not a valid ErrorCode") from None

    def __repr__(self) -> str:
        return f"<ErrorCode.{self.name}: {int(self)}>"

    __str__ = int.__repr__
    __format__ = int.__format__

    def __reduce__(self) -> tuple[type[ErrorCode], tuple[int]]:
        return ErrorCode, (int(self),)

    @property
    def text(self) -> str:
        """The error's meaning in words (reference section 10.1), e.g. "division by zero" for 30."""
        return _TEXTS[self]


for _name, _value in list(vars(ErrorCode).items()):
    if _name.isupper() and type(_value) is int:  # STATERR = _number(1) ...
        _member = int.__new__(ErrorCode, _value)
        _member.name = _name
        ErrorCode._members[_value] = _member
        setattr(ErrorCode, _name, _member)


_TEXTS = {
    ErrorCode.STATERR: "statement not recognised",
    ErrorCode.CURSERR: "cursor ran off the program",
    ErrorCode.SYMERR: "symbol expected",
    ErrorCode.RPARERR: ") missing",
    ErrorCode.RANGERR: "subscript out of range",
    ErrorCode.CLASERR: "subscript on a non-array",
    ErrorCode.SYNXERR: "syntax error",
    ErrorCode.LVALERR: "not an lvalue",
    ErrorCode.PUSHERR: "expression too complex",
    ErrorCode.TMFUERR: "too many active functions",
    ErrorCode.TMVRERR: "too many variables",
    ErrorCode.TMVLERR: "out of memory",
    ErrorCode.LINKERR: "link error",
    ErrorCode.ARGSERR: "wrong number of arguments",
    ErrorCode.LBRCERR: "[ expected",
    ErrorCode.MCERR: "bad MC number",
    ErrorCode.SYMERRA: "undefined symbol",
    ErrorCode.DIVERR: "division by zero",
    ErrorCode.KILL: "stopped",
}


class Problem(Exception):
    """The common base of the errors tinyc raises on purpose, each a way a run or a command cannot go on
    (not a bug in tinyc): TinyCError, ExitProgram, MemoryFault, a program file that cannot be read
    (:class:`tinyc.machine.shipped.ProgramFileError` and :class:`tinyc.machine.shipped.DoesNotFit`), a
    dialect's program that cannot start (:class:`tinyc.driver.dialect.CannotStart`), an unknown dialect, the
    kernel's and the magics' refusals.  A run tells how it ended as an Outcome
    (:mod:`tinyc.driver.outcome`); the signals the engines and the debugger use inside a run (a ``return``,
    a ``break``, a restart) and the BaseExceptions of a standard stream that went away are not Problems."""


class TinyCError(Problem):
    """A tiny-c error: its number and the error cursor, an absolute byte address in the flat memory.

    Only the first error is kept (section 10.1): code that catches and re-raises keeps the original."""

    def __init__(self, code: ErrorCode | int, address: int):
        self.code = ErrorCode._members.get(code, code)
        self.address = address
        super().__init__(f"tiny-c error {int(code)} at {address}")


class ExitProgram(Problem):
    """MC 10: the interpreter terminates (section 8)."""


def error_report(code: int, text: bytes, cursor: int, where: str | None = None) -> str:
    """The shell's report of error ``code`` at byte offset ``cursor`` of a program buffer (section 10.2).

    ``text`` is the buffer as the Linux shell holds it: ``text[0]`` is the newline sentinel ``pr(0)`` and
    the program occupies ``text[1:]``.  ``cursor`` is clamped to ``0..len(text)-1``.  Returns three
    lines, each ending in a newline: `` L --- err  E``, the program line, and a ``<`` under the cursor;
    with ``where`` (a file name, "the system library") a line ``in WHERE:`` comes after the first.
    """
    cursor = max(0, min(cursor, len(text) - 1))
    line_no, column = position(text, cursor)
    start = cursor - column
    end = text.find(b"\n", start)
    line = text[start:end if end >= 0 else len(text)]
    return line_report(code, line_no, line, column, where)


def position(text: bytes, cursor: int) -> tuple[int, int]:
    """``(line, column)`` of byte offset ``cursor`` in a buffer ``text`` whose ``text[0]`` is the newline
    sentinel: the line counts from 1 (the report's number), the column from 0 (where the ``<`` stands)."""
    cursor = max(0, min(cursor, len(text) - 1))
    return text.count(b"\n", 0, cursor), cursor - (text.rfind(b"\n", 0, cursor) + 1)


def line_report(code: int, line_no: int, line: bytes, column: int, where: str | None = None) -> str:
    """The three (or four) lines of a report: number, ``in WHERE:``, the line, a ``<`` at ``column``."""
    shown = line.replace(b"\0", b'"').decode("latin-1")
    head = f" {line_no} --- err  {int(code)}\n" + (f"in {where}:\n" if where else "")
    return f"{head}{shown}\n{' ' * max(0, column)}<\n"


class MemoryFault(Problem):
    """An access outside the flat memory (:mod:`tinyc.machine.memory`); the engines turn it into tiny-c
    error 6 at their cursor.  Here, at the bottom, so that the engines need not import the machine."""
