"""Tom Gibson's dialect of tiny-c (gibson-dialect.md), whole: its front end (``syntax.py``, ``grammar.lark``),
library (``lib/``), machine calls (``calls.py``, ``files.py``, ``plugins.py``, ``drawing.py``), engines
(``evaluator.py``, ``compiler.py``), error report (``report.py``), the run (``machine.py``), the debugger's
runner (``debug.py``), its views (``stages.py``, ``tracer.py``, ``compile_view.py``, ``cli.py``), its language
server front end (``lsp_front.py``) and ``tinyc draw`` (``draw_command.py``).

:data:`DIALECT` is all the rest of tinyc knows of it (a :class:`tinyc.driver.dialect.Dialect`); each hook
imports its module when called, so importing this package (every ``tinyc run`` does) costs next to nothing."""

from __future__ import annotations

from ...driver.dialect import Dialect

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    import argparse
    from types import ModuleType
    from typing import Any

    from ...debug.steptrace import Trace
    from ...driver.options import MachineOptions
    from ...driver.outcome import Outcome
    from ...driver.session import Session
    from ...machine.machine_calls import MachineCalls
    from ...machine.port import EngineFactory
    from ...views.format import Lexis
    from .debug import GibsonRunner
    from .lsp_front import GibsonFront

HEADER = (b"#include", b"#loadMC")


def announces(head: bytes) -> bool:
    """A file of this dialect starts with a ``#include`` or ``#loadMC`` header line (section 1.3)."""
    return head.startswith(HEADER)


class GibsonDialect(Dialect):
    """Tom Gibson's tiny-C: every hook is a module of this package."""

    name = "gibson"
    title = "Tom Gibson's tiny-C (2017)"
    significance = 15
    library = "dialects/gibson/lib/library.tc"
    search_paths = ("dialects/gibson/lib",)
    whole_program = True  # a program is a file with its header lines, run whole (section 1.3)
    program_start = b"#include pps/library.tc\n"  # the line its programs need for printf, pl, gn...
    commands = {"draw": "render a draw file of Gibson's graphics library to PNG (what cairopy.py did)"}

    def detect(self, head: bytes) -> bool:
        return announces(head)

    def int_size(self, int_bits: int) -> int:
        return 4  # its memory keeps 4-byte ints whatever the machine's width (gibson-dialect.md section 1.4)

    def read_program(self, path: str, int_bits: int) -> bytes:
        with open(path, "rb") as f:  # its run reads the whole file: the layout says what does not fit
            return f.read()

    def machine_calls(self) -> MachineCalls:
        from .calls import CALLS
        return CALLS

    def reference_engine(self) -> EngineFactory:
        from .evaluator import GibsonEvaluator
        return GibsonEvaluator

    def fast_engine(self) -> EngineFactory:
        from .compiler import GibsonFastEngine
        return GibsonFastEngine

    def run(self, session: Session, files: list[str], entry: str | None, code: str | None) -> Outcome:
        from .machine import run_files
        return run_files(session, files, entry, code)

    def shell(self, session: Session, args: argparse.Namespace) -> int:
        from .shell import shell
        return shell(session, args)

    def view(self, session: Session, name: str, path: str) -> str:
        from .stages import file_view
        return file_view(session, name, path)

    def trace(self, session: Session, path: str, entry: str, stdin: bytes, calls: bool, limit: int) -> str:
        from .tracer import trace_file
        return trace_file(session, path, entry, stdin, calls, limit)

    def debugger(self, session: Session, files: list[str], entry: str | None, code: str | None) -> GibsonRunner:
        from .debug import runner
        return runner(session, files, entry, code)

    def record(self, session: Session, program: str | bytes, entry: str | None, stdin: bytes, limit: int | None,
               small: bool, **options: Any) -> Trace:
        from .stepper import record
        return record(session, program, entry, stdin, limit, small, **options)

    def lexis(self) -> Lexis:
        from .lexis import LEXIS
        return LEXIS

    def lsp_front(self, options: MachineOptions) -> GibsonFront:
        from .lsp_front import GibsonFront
        return GibsonFront(options)

    def tool(self, command: str) -> ModuleType:
        if command not in self.tools:
            raise KeyError(command)
        from . import cli
        return cli

    def command(self, name: str) -> ModuleType:
        if name != "draw":
            raise KeyError(name)
        from . import draw_command
        return draw_command


DIALECT = GibsonDialect()
