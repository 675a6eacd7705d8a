"""tiny-c/PC, the dialect tinyc follows by default (the reference, tinyc-reference.md): its hooks are the core's
own modules -- the grammar in :mod:`tinyc.syntax`, the system file ``lib/system.ipl``, the machine calls of
:mod:`tinyc.machine.machine_calls`, the engines of :mod:`tinyc.engines` -- and, here, ``tinyc run`` (:func:`run`:
the library is booted, the files are read into the shell's program buffer in order, and the entry statement
runs against it as a statement typed at the shell runs, MC 11), the shell and the fast engine's factory.
(One module: every ``tinyc run`` imports it, and each module costs a start about 0.1 ms.)"""

from __future__ import annotations

import gc
import os
import sys

from ...driver.dialect import Dialect

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    import argparse
    from types import ModuleType
    from typing import Any

    from ...debug.runs import PcRunner
    from ...debug.steptrace import Trace
    from ...driver.options import MachineOptions
    from ...driver.outcome import Outcome
    from ...driver.session import Session
    from ...engines.compiler import FastEngine
    from ...engines.options import Optimisations
    from ...lsp.analysis import PcFront
    from ...machine.machine_calls import MachineCalls
    from ...machine.port import EngineFactory
    from ...views.format import Lexis


def fast_engine(machine, options: Optimisations | None = None) -> FastEngine:
    """The fast engine on ``machine``, its generated code kept in the start-up cache between runs;
    ``options``: the optimisations it applies (None: all)."""
    from ...driver import startcache
    from ...engines.compiler import FastEngine
    if options is None:
        return FastEngine(machine, startcache.code)
    return FastEngine(machine, startcache.code, options)


def run(session: Session, files: list[str], entry: str | None = None, code: str | None = None) -> Outcome:
    """Load the library and ``files`` (``-`` is stdin), run the statement ``entry`` (default ``main``; ``code``
    is Gibson's ``-r`` and not used here): the :class:`~tinyc.driver.outcome.Outcome`, status 0, 1 after a
    tiny-c error (its report, aligned for stderr), 130 after Ctrl-C.  The output is flushed, ending with a
    newline.  Raises ProgramFileError for a file that cannot be read or does not fit."""
    from ...driver.outcome import statement_outcome
    from ...machine.console import align_report
    from ...machine.shipped import program_capacity, read_source
    console = None
    if "-" not in files and sys.stdin.isatty() and sys.stdout.isatty():
        from ...shell.terminal import ProgramConsole
        console = ProgramConsole(strip_cr=session.console.strip_cr)
    texts = [read_source(f, program_capacity(session.int_bits)) for f in files]  # all read before the boot
    with NoCollections():
        m, ws = session.boot(console=console)
        for name, text in zip(files, texts):
            session.load_text(text, name)

    align = lambda text: align_report(text, sys.stderr.isatty())  # noqa: E731
    outcome = statement_outcome(ws, os.fsencode(entry or "main"), len(files) > 1, session.interrupt, align)
    if m.console.last != b"\n":  # pl puts its newline first, so output usually ends mid-line
        m.console.write(b"\n")
    m.console.flush()
    return outcome


def shell(session: Session, args: argparse.Namespace) -> int:
    """The ``tc>`` shell (the dialect's ``shell`` hook): prompt_toolkit's line editor when stdin and stdout are
    terminals, else the plain shell on ``session``'s console; ``args`` the command line's options."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        from ...shell.terminal import run_terminal
        from ...debug.runs import shell_debugger
        return run_terminal(session, shell_debugger)
    from ...shell.shell import Shell
    try:
        machine, workspace = session.boot()
    except KeyboardInterrupt:  # Ctrl-C while the library boots
        return 130
    return Shell(machine, workspace).loop()


class NoCollections:
    """No cyclic garbage collection in the block (as when it was entered after it).  Importing tinyc and
    booting the library (unpickling its AST, loading the programs' code) make thousands of objects that
    live for the whole run and no garbage: the collections their allocations set off only scan them,
    a tenth of ``tinyc run hello.tc``."""

    def __enter__(self) -> None:
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc) -> None:
        if self.was:
            gc.enable()


class PcDialect(Dialect):
    """tiny-c/PC: the core's own front end, library, machine calls and engines."""

    name = "pc"
    title = "tiny-c/PC (1984), as its Linux port runs it"
    significance = 8
    library = "lib/system.ipl"

    def machine_calls(self) -> MachineCalls:
        from ...machine.machine_calls import PC_CALLS
        return PC_CALLS

    def fast_engine(self) -> EngineFactory:
        return fast_engine

    def run(self, session: Session, files: list[str], entry: str | None, code: str | None) -> Outcome:
        return run(session, files, entry, code)

    def shell(self, session: Session, args: argparse.Namespace) -> int:
        return shell(session, args)

    def view(self, session: Session, name: str, path: str) -> str:
        from ...views.stages import file_view
        return file_view(session, name, path)

    def trace(self, session: Session, path: str, entry: str, stdin: bytes, calls: bool, limit: int) -> str:
        from ...debug.tracer import trace_file
        return trace_file(session, path, entry, stdin, calls, limit)

    def debugger(self, session: Session, files: list[str], entry: str | None, code: str | None) -> PcRunner:
        from ...debug.runs import pc_runner
        return pc_runner(session, files, entry, code)

    def record(self, session: Session, program: str | bytes, entry: str | None, stdin: bytes, limit: int | None,
               small: bool, **options: Any) -> Trace:
        from ...debug.stepper import record_pc
        return record_pc(session, program, entry, stdin, limit, small, **options)

    def lexis(self) -> Lexis:
        from ...views.format import PC_LEXIS
        return PC_LEXIS

    def lsp_front(self, options: MachineOptions) -> PcFront:
        from ...lsp.analysis import PcFront
        return PcFront(options, self)

    def tool(self, command: str) -> ModuleType:
        if command in ("tokens", "parse", "ast", "link"):
            from ...cli import stage_views
            return stage_views
        if command == "check":
            from ...cli import check
            return check
        if command == "compile":
            from ...cli import compile
            return compile
        if command == "trace":
            from ...cli import trace
            return trace
        raise KeyError(command)


DIALECT = PcDialect()
