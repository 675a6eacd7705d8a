"""Plug-in machine calls: the Gibson dialect's ``#loadMC NAME`` header line (gibson-dialect.md 1.3).

Gibson's ``tc`` opens ``./libNAME.so`` for that line, and the program's ``MC a, b, ..., 1001`` calls the
plug-in's first machine call, 1002 its second, and so on; only the last ``#loadMC`` counts.  A tinyc plug-in
is a Python module with a table of machine calls::

    MACHINE_CALLS = {1001: fib}          # the MC number the program writes -> a function

    def fib(machine, args):              # machine: a PluginMachine; args: the MC's argument values (ints)
        return ...                       # the MC's value (an int; None is 0)

A plug-in is found by name, in this order: the plug-ins shipped with tinyc (:mod:`tinyc.plugins`), installed
plug-ins (the entry-point group ``tinyc.plugins``: ``NAME = "package.module"``), and, only with
``--allow-plugins``, a file ``NAME.py`` beside the program (loading it runs its code).  A name found nowhere
stops the program as Gibson's ``tc`` stops (its two lines about ``./libNAME.so``, exit status 1).
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable

from ...driver.dialect import CannotStart
from ...errors import ErrorCode, TinyCError

if TYPE_CHECKING:
    from ...machine.port import MachinePort as Machine

GROUP = "tinyc.plugins"
SHIPPED = ("pifib", "pospi", "amortpi", "spiralpi", "pigra", "urldownloadpi")  # tinyc/plugins/NAME.py


class PluginError(CannotStart):
    """The program cannot start with this plug-in: ``message`` (for stderr) and the exit ``status``."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message, status)


class PluginFault(Exception):
    """Raised by a plug-in (``machine.fail(code)``) for the error Gibson's plug-ins set with ``eset``."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


@dataclass
class Plugin:
    """A loaded plug-in: its name, its machine calls by MC number, and where it came from."""
    name: str
    calls: dict[int, Callable[..., Any]]
    origin: str
    state: dict[str, Any] = field(default_factory=dict)  # the plug-in's own data for this run


class PluginMachine:
    """What a plug-in's machine call sees of the machine: memory as ints and bytes, the console, errors.

    Addresses are byte addresses in the machine's flat memory; an int is ``int_size`` bytes (4 in the
    Gibson dialect), little-endian and signed.  A read or write outside the memory is the dialect's
    range error.  What a plug-in builds from the program's numbers is counted against ``--memory``
    (:meth:`reserve`), so a plug-in cannot grow without bound.
    """

    def __init__(self, m: Machine, state: dict[str, Any]):
        self._m = m
        self.int_size = m.memory.int_size
        self.state = state  # kept from call to call for this run (a canvas, say), empty at the start

    def read_int(self, addr: int) -> int:
        """The int stored at byte address ``addr``."""
        return self._m.memory.read(addr, "int")

    def write_int(self, addr: int, value: int) -> None:
        """Store ``value`` (wrapped to the int size) at byte address ``addr``."""
        self._m.memory.write(addr, "int", value)

    def read_string(self, addr: int) -> bytes:
        """The NUL-terminated bytes at ``addr`` (without the NUL)."""
        return self._m.memory.cstring(addr)

    def write(self, data: bytes) -> None:
        """Write ``data`` to the program's standard output, in order with its own output."""
        self._m.console.write(data)

    def reserve(self, nbytes: int, keep: bool = False) -> None:
        """Count ``nbytes`` a machine call is about to hold against ``--memory``: they must fit in the
        program's free value space (less what the plug-in keeps from call to call, ``keep``), else the call
        stops with error 19 (TMVLERR, out of memory), as the program's own allocations do.  A plug-in
        calls it before building anything whose size a program's numbers choose."""
        kept = self.state.get("_kept", 0)
        free = self._m.memory.size - self._m.top - kept
        if nbytes > free:
            raise PluginFault(int(ErrorCode.TMVLERR))
        if keep:
            self.state["_kept"] = kept + nbytes

    def fail(self, code: int = 24) -> None:
        """Stop the machine call with error ``code`` (24, MCERR, as the plug-ins' ``eset(MCERR)``)."""
        raise PluginFault(code)


def _from_module(name: str, module: ModuleType, origin: str) -> Plugin:
    calls = getattr(module, "MACHINE_CALLS", None)
    if not isinstance(calls, dict) or not all(isinstance(k, int) and callable(v) for k, v in calls.items()):
        raise PluginError(f"tinyc: plug-in {name} ({origin}) has no MACHINE_CALLS table of numbers to functions\n")
    refusal = getattr(module, "REFUSED", None)
    if refusal:
        raise PluginError(f"tinyc: plug-in {name}: {refusal}\n")
    return Plugin(name, dict(calls), origin)


def _installed(name: str) -> str | None:
    from importlib.metadata import entry_points
    for ep in entry_points(group=GROUP):
        if ep.name == name:
            return ep.value
    return None


def find(name: str, app_dir: Path, allow_files: bool = False) -> Plugin:
    """The plug-in ``name`` of a ``#loadMC`` line of a program in ``app_dir``; raises PluginError."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        return _not_found(name)
    target = f"tinyc.plugins.{name}" if name in SHIPPED else _installed(name)
    if target is not None:
        return _from_module(name, importlib.import_module(target), target)
    beside = app_dir / f"{name}.py"
    if beside.is_file():
        if not allow_files:
            raise PluginError(f"tinyc: #loadMC {name}: {beside} is Python code beside the program; "
                              f"run with --allow-plugins to load it\n")
        spec = importlib.util.spec_from_file_location(f"tinyc_plugin_{name}", beside)
        if spec is None or spec.loader is None:
            return _not_found(name)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return _from_module(name, module, str(beside))
    return _not_found(name)


def _not_found(name: str) -> Plugin:
    so = f"./lib{name}.so"
    raise PluginError(f"Could not open {so}\ndlerror: {so}: cannot open shared object file: "
                      f"No such file or directory\n")


def call(plugin: Plugin | None, m: Machine, number: int, args: list[int], end: int) -> int:
    """Run MC ``number`` (300 and up, the plug-ins' range in Gibson's ``machinecall``) of ``plugin``: its
    value.  Raises TinyCError at ``end``: ARGSERR with no plug-in loaded, MCERR for a number the plug-in
    lacks, or the error the plug-in failed with.  A memory fault (MemoryFault) is the caller's to report, as
    for every machine call."""
    if plugin is None:
        raise TinyCError(ErrorCode.ARGSERR, end)
    routine = plugin.calls.get(number)
    try:
        if routine is None:
            raise PluginFault(int(ErrorCode.MCERR))
        value = routine(PluginMachine(m, plugin.state), list(args))
    except PluginFault as e:
        raise TinyCError(ErrorCode(e.code) if e.code in set(ErrorCode) else ErrorCode.MCERR,
                         end) from None
    return m.memory.wrap(int(value)) if value is not None else 0
