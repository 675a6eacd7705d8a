"""Machine calls of the Gibson dialect (gibson-dialect.md section 5): MC 0, 1-15 and 101-120.

``machine_call(m, values, node)`` takes the argument values in source order (``values[-1]`` is the MC
number), as that interpreter's dispatcher does.  Routines get ``(m, node, args)`` with ``args`` the
values before the number, and check their own argument counts (too few is error 21).  The file calls
live in :mod:`tinyc.dialects.gibson.files`.

Numbers (section 5.1): 1, 2, 7, 8, 9, 12, 13, 14 and 101-120 are defined; 0 is the debug call (a
symbol's entry on stderr); 3-6, 10, 11, 15, 121-125 and 201-210 are unassigned slots (error 24, with ``MC: no such number``
on stderr); every other number is out of the table (error 21).  Plug-in numbers (300 and up) are
error 21: plug-ins are not supported.  A machine call that fails also prints LF ``MC N not defined``.
"""

from __future__ import annotations

import math
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Callable

from ...errors import ErrorCode, TinyCError
from .files import (GibsonState, close_units, mc_fclose, mc_fgets, mc_fopen, mc_fpn, mc_fputc,  # noqa: F401
                           mc_fputs, mc_getproperty, mc_readfile, mc_writefile, state)
from .report import after_remarks
from . import plugins
from ...machine.machine_calls import MachineCalls
from ...machine.memory import MemoryFault

if TYPE_CHECKING:
    from ...machine.port import MachinePort as Machine

MAX_VALUES = 10        # values that may reach one machine call (section 3.7, 5.1)
EOF_LIMIT = 10         # consecutive reads at end of input before the program is stopped (our choice, error 99)
ARGSERR, MCERR = ErrorCode.ARGSERR, ErrorCode.MCERR


class QuietExit(Exception):
    """MC 109 (``abort``) and Ctrl-C read by MC 2: the interpreter ends at once, status 0, no report."""


def _need(args: list[int], k: int, node) -> None:
    if len(args) < k:
        raise TinyCError(ARGSERR, node.end)


def _cstr(m: Machine, addr: int) -> bytes:
    return m.memory.cstring(addr)


def _wrap(v: int) -> int:
    return ((v + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


# ---- input: one byte at a time, with the look-ahead MC 12 needs

def _peek(m: Machine) -> int | None:
    st = state(m)
    if st.pending is None:  # through the console's read_char: a kernel's console asks the front end
        console = m.console
        echo, console.echo = console.echo, False  # _take echoes the byte when it is taken
        try:
            c = console.read_char()
        finally:
            console.echo = echo
        st.pending = -1 if c is None else c
    return None if st.pending == -1 else st.pending


def _take(m: Machine) -> int | None:
    st = state(m)
    c = _peek(m)
    if c is not None:
        st.pending = None
        if m.console.echo:  # --echo: a piped session reads like a terminal's
            m.console.write(bytes([c]))
    return c


def _signed(b: int) -> int:
    return b - 256 if b > 127 else b


def mc_getc(m: Machine, node, args):
    """MC 2: one byte from stdin as a signed char; -1 at end of input; arrow keys -65..-68."""
    st = state(m)
    c = _take(m)
    if c is None:
        if in_gs(m, node):
            # the original's gs stores 255 for ever at the end of input, over the end of its program
            # memory into its name tables: its next name lookup fails (G 4.3; the evaluator's lookup)
            st.overrun = True
        st.eofs += 1
        if st.eofs > EOF_LIMIT:  # a program that reads on for ever at end of input (section 9 item 2)
            raise TinyCError(ErrorCode.KILL, node.end)
        return -1
    st.eofs = 0
    if c == 3:
        raise QuietExit()
    if c == 27:
        if _peek(m) == ord("["):
            _take(m)
            d = _take(m)
            if d is not None and ord("A") <= d <= ord("D"):
                return -d
        raise TinyCError(ErrorCode.KILL, node.end)
    return _signed(c)


def in_gs(m: Machine, node) -> bool:
    """True when ``node`` lies in a function ``gs``, the library's line reader (whose end of input G 4.3
    tells) or an application's copy of it (Gibson's trek.tc, Lee Bradley's icalc.tc)."""
    for table in (getattr(m, "program", None), getattr(m, "library", None)):
        fn = getattr(table.get("gs"), "function", None) if table is not None else None
        if fn is not None and fn.pos <= node.pos < fn.end:
            return True
    return False


def mc_chrdy(m: Machine, node, args):
    """MC 12: the next input byte without taking it, or 0 when none is waiting (or at the end)."""
    c = _peek(m)
    return 0 if c is None else c


# ---- output and memory (1-14)

def mc_putc(m: Machine, node, args):
    _need(args, 1, node)
    m.console.put(args[-1] & 0xFF)
    return args[-1]


def mc_movebl(m: Machine, node, args):
    _need(args, 3, node)
    first, last, k = args[-3:]
    m.memory.store(first + k, m.memory.block(first, last))
    return 0


def mc_countch(m: Machine, node, args):
    _need(args, 3, node)
    first, last, ch = args[-3:]
    return m.memory.block(first, last).count(ch & 0xFF)


def mc_scann(m: Machine, node, args):
    """MC 9: scan first..last; each ch decrements the int at nptr; stop when it is <= 0 (section 5.3)."""
    _need(args, 4, node)
    first, last, ch, nptr = args[-4:]
    mem, ch = m.memory, ch & 0xFF
    n = mem.read(nptr, "int")
    addr = first
    while addr <= last:
        if mem.byte(addr) == ch:
            n -= 1
            if n <= 0:
                break
        addr += 1
    mem.write(nptr, "int", n)
    return addr - first


def mc_putbl(m: Machine, node, args):
    _need(args, 2, node)
    m.console.write(m.memory.block(args[-2], args[-1]))
    return 0


def mc_putn(m: Machine, node, args):
    _need(args, 1, node)
    m.console.write(str(args[-1]).encode())
    return 0


def mc_debug(m: Machine, node, args):
    """MC 0 (section 5.1; Gibson's machineCall.c ``_mzero``): with a symbol's name (and a label, by
    default the name) it writes LF, the label, a colon and two blanks on stderr, then the symbol's entry
    (:meth:`~tinyc.dialects.gibson.evaluator.GibsonEvaluator.symbol_entry`) or ``NAME, no such symbol``
    and LF.  Standard output is untouched; the result is 0."""
    if args:
        from .evaluator import GibsonEvaluator
        name = _cstr(m, args[0]).decode("latin-1")
        label = _cstr(m, args[1]).decode("latin-1") if len(args) > 1 else name
        engine = getattr(getattr(m, "engine", None), "ref", getattr(m, "engine", None))  # the fast engine runs a program with MC 0 on its ref
        entry = engine.symbol_entry(name) if isinstance(engine, GibsonEvaluator) else None
        m.console.flush()
        sys.stderr.write(f"\n{label}:  " + (entry if entry is not None else f"{name}, no such symbol\n"))
        sys.stderr.flush()
    return 0


# ---- 101-120

def format_printf(m: Machine, fmt: bytes, values: list[int]) -> bytes:
    """MC 101 (section 4.2): each % consumes the next value; a directive is % + digits + one of dscx."""
    out = bytearray()
    vals = iter(values)
    i, n = 0, len(fmt)
    while i < n:
        c = fmt[i]
        if c != 37:  # %
            out.append(c)
            i += 1
            continue
        value = next(vals, 0)
        j = i + 1
        while j < n and 48 <= fmt[j] <= 57 and j - i < 5:
            j += 1
        letter = None
        if j < n and j - i < 5 and fmt[j] in b"dscx":
            letter = chr(fmt[j])
            j += 1
        if j - i >= 5:
            out += b"\nBAD FMT, max 3 digits, then one of dscx\n"
            i = j
            continue
        digits = fmt[i + 1:j - (1 if letter else 0)].decode()
        i = j
        if letter is None:
            continue
        out += _directive(m, letter, digits, value)
    return bytes(out)


def _directive(m: Machine, letter: str, digits: str, value: int) -> bytes:
    zero = digits.startswith("0")
    width = int(digits) if digits else 0
    if letter == "d":
        body = str(_wrap(value)).encode()
    elif letter == "x":
        body = format(value & 0xFFFFFFFF, "x").encode()
    elif letter == "c":
        body = bytes([value & 0xFF])
    else:
        body = b"(null)" if value == 0 else _cstr(m, value)
    if len(body) >= width:
        return body
    pad = width - len(body)
    if zero and letter in "dx":
        if body.startswith(b"-"):
            return b"-" + b"0" * pad + body[1:]
        return b"0" * pad + body
    return b" " * pad + body


def mc_printf(m: Machine, node, args):
    _need(args, 1, node)
    m.console.write(format_printf(m, _cstr(m, args[0]), args[1:]))
    return 0


def mc_sleep(m: Machine, node, args):
    _need(args, 1, node)
    if args[0] > 0:
        m.console.flush()
        time.sleep(min(args[0], 3600))
    return 0


def mc_strlen(m: Machine, node, args):
    _need(args, 1, node)
    return len(_cstr(m, args[0]))


def mc_strcat(m: Machine, node, args):
    _need(args, 2, node)
    a, b = args[:2]
    m.memory.store(a + len(_cstr(m, a)), _cstr(m, b) + b"\0")
    return a


def mc_strcpy(m: Machine, node, args):
    _need(args, 2, node)
    a, b = args[:2]
    m.memory.store(a, _cstr(m, b) + b"\0")
    return a


def mc_exit(m: Machine, node, args):
    raise TinyCError(98, node.end)


def mc_abort(m: Machine, node, args):
    raise QuietExit()


def mc_cdate(m: Machine, node, args):
    _need(args, 1, node)
    m.memory.store(args[0], time.strftime("%Y-%m-%d %H:%M:%S").encode() + b"\0")
    return args[0]


def mc_system(m: Machine, node, args):
    """MC 117: run a shell command (only with --allow-system); returns the raw wait status.  Gibson's
    ``python cairopy.py NAME`` starts nothing: tinyc renders NAME.draw itself (:mod:`.drawing`)."""
    _need(args, 1, node)
    from .drawing import draw_for_program, gibson_viewer_command  # only a program that calls system needs it
    if (drawing := gibson_viewer_command(_cstr(m, args[0]))) is not None:
        m.console.flush()
        return draw_for_program(drawing, m.files, m.console.pictures)
    st = state(m)
    if not st.allow_system:
        if not st.warned_system:
            sys.stderr.write("tinyc: system() is disabled; run with --allow-system to allow it\n")
            st.warned_system = True
        return -1
    m.console.flush()
    r = subprocess.run(_cstr(m, args[0]).decode("latin-1"), shell=True)
    return (r.returncode & 0xFF) << 8 if r.returncode >= 0 else -r.returncode


def mc_sqrt(m: Machine, node, args):
    _need(args, 1, node)
    if args[0] < 0:
        raise TinyCError(ARGSERR, node.end)
    return int(math.sqrt(args[0]) + 0.5)


def mc_arctan(m: Machine, node, args):
    _need(args, 1, node)
    x = args[0]
    v = math.atan(x / 1000) * 180 / 3.14159
    return int(v + 0.5) if x > 0 else int(v - 0.5)


ROUTINES: dict[int, Callable] = {
    0: mc_debug, 1: mc_putc, 2: mc_getc, 7: mc_movebl, 8: mc_countch, 9: mc_scann, 12: mc_chrdy,
    13: mc_putbl, 14: mc_putn,
    101: mc_printf, 102: mc_sleep, 103: mc_readfile, 104: mc_strlen, 105: mc_strcat, 106: mc_strcpy,
    107: mc_writefile, 108: mc_exit, 109: mc_abort, 110: mc_cdate, 111: mc_fopen, 112: mc_fputs,
    113: mc_fputc, 114: mc_fgets, 115: mc_fclose, 116: mc_getproperty, 117: mc_system, 118: mc_fpn,
    119: mc_sqrt, 120: mc_arctan,
}
UNASSIGNED = {3, 4, 5, 6, 10, 11, 15, *range(121, 126), *range(201, 211)}


def machine_call(m: Machine, values: list[int], node) -> int:
    """Run ``MC values...`` (``values[-1]`` is the number); errors as section 5.1 describes."""
    if not values:
        raise TinyCError(MCERR, node.end)
    number, args = values[-1], values[:-1]
    try:
        if len(values) > MAX_VALUES + 1:  # the original overflows a C array here
            raise TinyCError(ARGSERR, node.end)
        routine = ROUTINES.get(number)
        if routine is None and number < 300:
            if number in UNASSIGNED:
                m.console.flush()
                sys.stderr.write("MC: no such number\n")
                raise TinyCError(MCERR, node.end)
            raise TinyCError(ARGSERR, node.end)
        try:
            if routine is None:  # 300 and up: the #loadMC plug-in's (Gibson's machinecall)
                return plugins.call(state(m).plugin, m, number, args, node.end)
            return routine(m, node, args)
        except MemoryFault:
            raise TinyCError(ErrorCode.RANGERR, node.end) from None
    except TinyCError as e:
        if int(e.code) not in (98, 99):
            m.console.write(b"\nMC %d not defined" % number)
            if e.address == node.end:  # the original sets it after skipping what follows the arguments
                raise TinyCError(e.code, after_remarks(m.memory.data, node.end)) from None
        raise


CALLS = MachineCalls(machine_call, ROUTINES)  # the dialect's table, handed to each of its machines
