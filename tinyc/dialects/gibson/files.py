"""The file machine calls of the Gibson dialect (gibson-dialect.md sections 4.6-4.9): MC 103 ``readfile``,
107 ``writefile``, 111-115 ``fopen``/``fputs``/``fputc``/``fgets``/``fclose``, 116 ``getproperty`` and
118 ``fpn``, with the per-machine state of the dialect's machine calls (:class:`GibsonState`).

Every file is opened through the machine's file sandbox (:mod:`tinyc.machine.sandbox`); a refused open
is reported as the original reports a failed one.  No call reads more than fits where its bytes go,
and none raises: a unit opened the other way or a failing device gives the call's error number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import ErrorCode, TinyCError
from ...machine.machine_calls import OPENED
from ...machine.sandbox import Refused

if TYPE_CHECKING:
    from ...machine.port import MachinePort as Machine
    from .plugins import Plugin

MAX_UNITS = 10         # unit table size; unit 0 is the application file (section 4.6)
FAILED = (OSError, ValueError)  # what a file object raises: an I/O error, the wrong direction, closed


class GibsonState:
    """Per-machine state of the dialect's calls: the file units, one byte of input looked at but not
    taken, the end-of-input count, whether ``system`` may run and the ``#loadMC`` plug-in."""

    def __init__(self, allow_system: bool = False):
        self.units: dict[int, object] = {}
        self.next_unit = 1         # unit 0 is the application file, never given back
        self.pending: int | None = None
        self.eofs = 0
        self.overrun = False       # the library's gs read at the end of input: its tables are gone
        self.allow_system = allow_system
        self.warned_system = False
        self.plugin: Plugin | None = None  # the #loadMC plug-in (machine calls 300 and up)


def state(m: Machine) -> GibsonState:
    """The dialect's state of the machine ``m``'s calls (given to the machine when it was built)."""
    st = m.state
    if not isinstance(st, GibsonState):
        raise TypeError("a machine of the Gibson dialect is built with its GibsonState")
    return st


def _need(args: list[int], k: int, node) -> None:
    if len(args) < k:
        raise TinyCError(ErrorCode.ARGSERR, node.end)


def _name(m: Machine, addr: int) -> str:
    return m.memory.cstring(addr).decode("latin-1")


def _room(m: Machine, addr: int) -> int:
    """Bytes of memory from ``addr`` to the end (0 outside it): more could not be stored there."""
    return m.memory.size - addr if 0 <= addr < m.memory.size else 0


def mc_readfile(m: Machine, node, args):
    """MC 103: read up to len bytes of a file into buff, NUL after them; 0 if missing (or refused by the
    sandbox), -1 on a read error.  Only what memory can hold is read: a longer file (``/dev/zero`` with
    ``--allow-files-anywhere``) is error 6 (the NUL does not fit) without reading gigabytes first."""
    _need(args, 3, node)
    name, buff, length = args[:3]
    try:
        with m.files.open(_name(m, name), "rb") as f:
            data = f.read(min(max(length, 0), _room(m, buff)))
    except (FileNotFoundError, Refused):
        return 0
    except FAILED:
        return -1
    m.memory.store(buff, data + b"\0")
    return len(data)


def mc_writefile(m: Machine, node, args):
    """MC 107: create or truncate a file and write len bytes of buff; 0 if it cannot be opened (or is
    refused), -1 if writing or closing it failed (a full disk)."""
    _need(args, 3, node)
    name, buff, length = args[:3]
    data = m.memory.block(buff, buff + length - 1)
    try:
        f = m.files.open(_name(m, name), "wb")
    except FAILED:
        return 0
    try:
        with f:
            f.write(data)
    except FAILED:
        return -1
    return len(data)


def _mode(mode: str) -> str | None:
    if not mode or mode[0] not in "rwa":
        return None
    return mode[0] + ("+" if "+" in mode else "") + "b"


def mc_fopen(m: Machine, node, args):
    """MC 111: a unit from 1 up, never reused; -1 if the file cannot be opened (or is refused), -9 when
    none is left."""
    _need(args, 2, node)
    st = state(m)
    mode = _mode(_name(m, args[1]))
    if mode is None:
        return -1
    try:
        f = m.files.open(_name(m, args[0]), mode)
    except FAILED:
        return -1
    if st.next_unit >= MAX_UNITS:
        _close(f)
        return -9
    unit = st.next_unit
    st.next_unit += 1
    st.units[unit] = f
    OPENED.append(f)
    return unit


def _unit(m: Machine, unit: int):
    if unit < 0 or unit > MAX_UNITS:
        return -8
    f = state(m).units.get(unit)
    return -9 if f is None else f


def _close(f) -> bool:
    try:
        f.close()
    except FAILED:
        return False
    return True


def _put(m: Machine, node, args, text) -> int:
    """Write ``text(args[0])`` to the unit ``args[1]``: its length, -2 if writing failed (a unit opened
    for reading, a full disk), or the unit's own error number."""
    _need(args, 2, node)
    f = _unit(m, args[1])
    if isinstance(f, int):
        return f
    data = text(args[0])
    try:
        f.write(data)
    except FAILED:
        return -2
    return len(data)


def mc_fputs(m: Machine, node, args):
    return _put(m, node, args, lambda a: m.memory.cstring(a))


def mc_fpn(m: Machine, node, args):
    return _put(m, node, args, lambda a: str(a).encode())


def mc_fputc(m: Machine, node, args):
    _need(args, 2, node)
    f = _unit(m, args[1])
    if isinstance(f, int):
        return f
    try:
        f.write(bytes([args[0] & 0xFF]))
    except FAILED:
        return -3
    return -3 if args[0] & 0xFF == 0 else 1


def mc_fgets(m: Machine, node, args):
    """MC 114: one line (at most len-1 bytes, LF included) and a NUL; -4 at the end of the file or when
    the unit cannot be read."""
    _need(args, 3, node)
    buff, length, unit = args[:3]
    f = _unit(m, unit)
    if isinstance(f, int):
        return f
    try:
        line = f.readline(max(length - 1, 0)) if length > 1 else b""
    except FAILED:
        return -4
    if not line:
        return -4
    m.memory.store(buff, line + b"\0")
    return len(line)


def mc_fclose(m: Machine, node, args):
    """MC 115: 0; -1 when the last bytes could not be written (``/dev/full``: the unit is closed all the
    same); -8 or -9 for a unit out of the table or not open."""
    _need(args, 1, node)
    f = _unit(m, args[0])
    if isinstance(f, int):
        return f
    del state(m).units[args[0]]
    return 0 if _close(f) else -1


def mc_getproperty(m: Machine, node, args):
    """MC 116 (section 4.9): the first line of a file that begins with name, after blanks and '='.  At
    most the machine's memory size is read: lines past it (an endless ``/dev/zero``) are not looked at."""
    file, name, buff, blen, default = (args + [0] * 5)[:5]
    blen = max(blen, 0)
    d = m.memory.cstring(default)[:blen] if default else b""
    m.memory.store(buff, d + (b"\0" if len(d) < blen else b""))
    key = m.memory.cstring(name)
    try:
        with m.files.open(_name(m, file), "rb") as f:
            data = f.read(m.memory.size + 1)
    except FAILED:
        return -1
    lines = data.split(b"\n")
    if len(data) > m.memory.size:
        lines.pop()  # the line the limit cut is not a whole line
    for line in lines:
        if line.startswith(key):
            value = line[len(key):].lstrip(b" \t=")[:blen]
            m.memory.store(buff, value + (b"\0" if len(value) < blen else b""))
            return 1
    return 0


def close_units(m: Machine) -> None:
    """Close every unit the program left open (flushing it; a failure is not reported); forget an overrun."""
    st = m.state
    if not isinstance(st, GibsonState):
        return
    for f in st.units.values():
        _close(f)
    st.units.clear()
    st.overrun = False  # the run is over: a next one on this machine finds its names again
