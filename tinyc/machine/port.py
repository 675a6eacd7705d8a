"""What the engines see of a machine, and what the machine sees of an engine: two small protocols.

The engines run below the driver: they import nothing of :mod:`tinyc.driver`, and are handed a machine that
has at least :class:`MachinePort`'s attributes (the driver's :class:`~tinyc.driver.interpreter.Machine` has them).
A machine is built with its engine: the driver passes an :data:`EngineFactory` (``factory(machine) ->
engine``) and a :class:`~tinyc.machine.machine_calls.MachineCalls` table to the machine's constructor; nothing is set after construction.

Only type checkers read this module (it imports :mod:`typing`, which costs every start of ``tinyc run`` 4 ms).
"""

from __future__ import annotations

from typing import IO, Any, Callable, Protocol

from .console import Console
from .memory import Memory
from .sandbox import FileSandbox


class Engine(Protocol):
    """An execution engine: the reference evaluator, the fast engine, a dialect's, a tracer or a debugger's.

    Errors are raised as :class:`~tinyc.errors.TinyCError` with the absolute byte address of the cursor."""

    name: str

    def run(self, stmts: list[Any]) -> None:
        """Execute top-level statements (an IPL's start-up block, a typed statement, a seed) in a new frame."""

    def evaluate_constant(self, expr: Any) -> int:
        """The value of an array bound while globals are linked."""


class MachinePort(Protocol):
    """The machine as an engine and a machine call use it: memory, console, value space, symbol levels."""

    memory: Memory
    console: Console
    files: FileSandbox
    top: int                    # the first free byte of value space (globals, then frames)
    max_depth: int              # tiny-c calls deeper than this are error 26
    program: Any                # the program's SymbolTable (None before one is linked)
    library: Any                # the library's SymbolTable
    units: dict[int, IO[bytes]]  # MC 3's open files by unit number
    state: Any                  # the dialect's per-machine state of its machine calls (None: none)
    routines: dict[int, Callable[..., int]]

    def machine_call(self, m: Any, values: list[int], node: Any) -> int:
        """``MC values...`` (``values[-1]`` is the number) run on ``m`` (this machine)."""

    def allocate(self, type_: str, count: int, at: int) -> int:
        """Zeroed space for ``count`` elements of ``type_`` at the top of value space; error 19 if full."""

    def close_unit(self, unit: int) -> bool:
        """Close the file on ``unit``; False when closing it failed."""

    def deep_stack(self) -> Any:
        """A context: Python's recursion limit raised for ``max_depth`` tiny-c calls."""

    def run_application(self, start: int, end: int, progstart: int) -> tuple[int, int]:
        """MC 11: link ``progstart..end`` as the program level and run the statement at ``start``."""


EngineFactory = Callable[[Any], Engine]  # factory(machine) -> the engine that runs that machine's programs
