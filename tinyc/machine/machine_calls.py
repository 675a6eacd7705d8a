"""Machine calls: ``MC a1,...,ak,N`` (reference section 8).

The last argument is the MC number; each routine takes its own arguments from the end of the list, as
the original popped them from its stack (extra leading arguments are ignored, too few is error 21).
Each routine returns the call's int value.  Numbers with no routine give error 24.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

from ..errors import ErrorCode, ExitProgram, TinyCError

if TYPE_CHECKING:
    from typing import IO, Callable, TypeVar

    from .. import ast
    from .port import MachinePort as Machine

    _Read = TypeVar("_Read", int, bytes)

BLOCK = 512          # bytes per MC 4 read, the chunk size the library's readfile/writefile use
VERSION = 7          # MC 1005 (section 13 item 1: the Linux value is unknown; 7 is the JS port's)


def _need_input(value: _Read | None, node: ast.Node) -> _Read:
    if value is None:  # end of input while a program reads: stopped as by Ctrl-C (section 14 item 10)
        raise TinyCError(ErrorCode.KILL, node.pos)
    return value


def mc_putc(m: Machine, node: ast.Node, c: int) -> int:
    m.console.put(c & 0xFF)
    return c


def mc_getc(m: Machine, node: ast.Node) -> int:
    return _need_input(m.console.read_char(), node)


# every file a tiny-c program opened in this process: the ``tinyc`` command closes (flushes) them before it
# ends the process without tearing it down (:func:`tinyc.cli.main.entry`), as C's exit() flushes its streams
OPENED: list[IO[bytes]] = []


IOERR = -3  # MC 4/5 on a unit that cannot do it (opened the other way) or a failing device: "< -1 on error"


def mc_open(m: Machine, node: ast.Node, rw: int, name: int, size: int, unit: int) -> int:
    """MC 3: open ``name`` on ``unit`` for reading (rw 1) or writing; 0, or -1 when it cannot be opened
    or the file sandbox refuses it (:mod:`tinyc.machine.sandbox`)."""
    path = m.memory.cstring(name).decode("latin-1")
    m.close_unit(unit)
    try:
        m.units[unit] = f = m.files.open(path, "rb" if rw == 1 else "wb")
    except (OSError, ValueError):
        return -1
    OPENED.append(f)
    return 0


def mc_read(m: Machine, node: ast.Node, where: int, unit: int) -> int:
    """MC 4: one block into ``where``: its length, -1 at the end, -2 with no file on the unit, -3 when
    the unit cannot be read (opened for writing, a read error)."""
    f = m.units.get(unit)
    if f is None:
        return -2
    try:
        data = f.read(BLOCK)
    except (OSError, ValueError):
        return IOERR
    if not data:
        return -1
    m.memory.store(where, data)
    return len(data)


def mc_write(m: Machine, node: ast.Node, first: int, last: int, unit: int) -> int:
    """MC 5: write bytes first..last: their count, -2 with no file on the unit, -3 when the unit cannot
    be written (opened for reading, a full disk)."""
    f = m.units.get(unit)
    if f is None:
        return -2
    data = m.memory.block(first, last)
    try:
        f.write(data)
    except (OSError, ValueError):
        return IOERR
    return len(data)


def mc_close(m: Machine, node: ast.Node, unit: int) -> int:
    """MC 6: 0, or -1 when the file's last bytes could not be written (the unit is closed either way)."""
    return 0 if m.close_unit(unit) else -1


def mc_movebl(m: Machine, node: ast.Node, first: int, last: int, k: int) -> int:
    """Move bytes first..last inclusive by k bytes (up if k > 0), overlap-safe."""
    data = m.memory.block(first, last)
    m.memory.store(first + k, data)
    return 0


def mc_countch(m: Machine, node: ast.Node, first: int, last: int, ch: int) -> int:
    return m.memory.block(first, last).count(ch & 0xFF)


def mc_scann(m: Machine, node: ast.Node, first: int, last: int, ch: int, counter: int) -> int:
    """Scan first..last for the n-th ch, n held in the int at ``counter`` (decremented as found)."""
    n = m.memory.read(counter, "int")
    if n == 0:
        return -1
    mem, ch = m.memory, ch & 0xFF
    addr = first
    while True:
        if mem.byte(addr) == ch:
            n -= 1
            if n == 0:
                break
        if addr >= last:
            break
        addr += 1
    m.memory.write(counter, "int", n)
    return addr - first


def mc_exit(m: Machine, node: ast.Node) -> int:
    raise ExitProgram()


def mc_appl(m: Machine, node: ast.Node, facts: int, start: int, end: int, progstart: int) -> int:
    """Link progstart..end as the program level, run the statement at start, report in facts(0..1)."""
    err, cursor = m.run_application(start, end, progstart)
    m.memory.write(facts, "int", err)
    m.memory.write(facts + m.memory.int_size, "int", cursor)
    return 0


def mc_chrdy(m: Machine, node: ast.Node) -> int:
    return m.console.key_ready()


def mc_putbl(m: Machine, node: ast.Node, first: int, last: int) -> int:
    m.console.write(m.memory.block(first, last).replace(b"\0", b'"'))
    return 0


def mc_putn(m: Machine, node: ast.Node, n: int) -> int:
    m.console.write(str(n).encode())
    return n


def mc_getln(m: Machine, node: ast.Node, buf: int) -> int:
    line = _need_input(m.console.read_line(), node)
    m.memory.store(buf, line + b"\0")
    return len(line)


def mc_setmem(m: Machine, node: ast.Node, start: int, count: int, ch: int) -> int:
    m.memory.fill(start, count, ch)
    return 0


def mc_beep(m: Machine, node: ast.Node, freq: int, duration: int) -> int:
    return 0  # no sound device is assumed; a bell byte would corrupt piped output


def mc_version(m: Machine, node: ast.Node) -> int:
    return VERSION


ROUTINES: dict[int, Callable[..., int]] = {
    1: mc_putc, 2: mc_getc, 3: mc_open, 4: mc_read, 5: mc_write, 6: mc_close, 7: mc_movebl,
    8: mc_countch, 9: mc_scann, 10: mc_exit, 11: mc_appl, 12: mc_chrdy, 13: mc_putbl, 14: mc_putn,
    15: mc_getln, 16: mc_setmem, 17: mc_beep, 1005: mc_version,
}
ARITY = {n: f.__code__.co_argcount - 2 for n, f in ROUTINES.items()}
# the arguments of each MC that are addresses: with 16-bit ints they are read unsigned (section 14 item 21)
ADDRESSES = {3: (1,), 4: (0,), 5: (0, 1), 7: (0, 1), 8: (0, 1), 9: (0, 1, 3), 11: (0, 1, 2, 3), 13: (0, 1),
             15: (0,), 16: (0,)}


def machine_call(m: Machine, values: list[int], node: ast.Node) -> int:
    """Run ``MC values...``; ``values[-1]`` is the MC number.  Raises TinyCError 24 or 21."""
    if not values:
        raise TinyCError(ErrorCode.MCERR, node.end)
    number = values[-1]
    routine = ROUTINES.get(number)
    if routine is None:
        raise TinyCError(ErrorCode.MCERR, node.end)
    k = ARITY[number]
    if len(values) - 1 < k:
        raise TinyCError(ErrorCode.ARGSERR, node.end)
    args = values[len(values) - 1 - k:len(values) - 1]
    if m.memory.int_bits == 16:
        for i in ADDRESSES.get(number, ()):
            args[i] &= 0xFFFF
    result: int = routine(m, node, *args)
    return result


class MachineCalls:
    """A dialect's machine calls, handed to a machine when it is built: ``call(machine, values, node) -> int``
    runs ``MC values...`` (the last value is the number); ``routines`` maps an MC number to its routine (the
    fast engine calls those directly).  (A plain class: a NamedTuple would import typing at every start.)"""

    __slots__ = ("call", "routines")

    def __init__(self, call: Callable[[Machine, list[int], ast.Node], int],
                 routines: dict[int, Callable[..., int]]) -> None:
        self.call = call
        self.routines = routines


PC_CALLS = MachineCalls(machine_call, ROUTINES)  # tiny-c/PC's: MC 1-17 and 1005
