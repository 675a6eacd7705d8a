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
    from ...driver.outcome import Outcome
    from ...driver.session import Session
    from ...engines.compiler import FastEngine
    from ...engines.options import Optimisations


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


def shell(session: Session, args) -> int:
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


TOOLS = {"tokens": "tinyc.cli.stage_views", "parse": "tinyc.cli.stage_views", "ast": "tinyc.cli.stage_views",
         "link": "tinyc.cli.stage_views", "check": "tinyc.cli.check", "compile": "tinyc.cli.compile",
         "trace": "tinyc.cli.trace"}


def announces(head: bytes) -> bool:
    """tiny-c/PC is the dialect of a file that announces none: it claims no file by itself."""
    return False


DIALECT = Dialect(
    name="pc", title="tiny-c/PC (1984), as its Linux port runs it", detect=announces, significance=8,
    library="lib/system.ipl", search_paths=(), machine_calls="tinyc.machine.machine_calls:PC_CALLS",
    engines={"reference": "tinyc.engines.evaluator:Evaluator", "fast": "tinyc.dialects.pc:fast_engine"},
    run="tinyc.dialects.pc:run", tools=TOOLS, shell="tinyc.dialects.pc:shell", view="tinyc.views.stages:file_view",
    trace="tinyc.debug.tracer:trace_file", debugger="tinyc.debug.runs:pc_runner",
    record="tinyc.debug.stepper:record_pc", lexis="tinyc.views.format:PC_LEXIS")
