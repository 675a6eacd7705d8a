"""The debugger in the Gibson dialect (the dialect's ``debugger`` hook): a fresh program memory laid out and
linked at each ``r``, as ``tc`` does at each start, run by the dialect's evaluator watched by the debugger
(:class:`tinyc.debug.engine.Debugging`)."""

from __future__ import annotations

import re
from pathlib import Path

from ...errors import TinyCError
from .machine import ERROR_STATUS
from ...machine.shipped import ProgramFileError, find_program
from ...debug.engine import Debugging
from ...debug.runs import statement_lines, file_line
from ...debug.debugger import Debugger, Places

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from ...driver.session import Session

COMMENT = re.compile(r"/\*.*|//.*")  # Gibson's comments: /* or // to the end of the line


class GibsonPlaces(Places):
    """Where things are, as Gibson's reports say it: a statement's line counts from the byte after the
    program's first, so a statement that ends its line is numbered with the next one, as ``tc`` does."""

    def line(self, pos: int) -> int:
        return 0 if pos < self.first else 1 + bytes(self.data[self.first + 1:pos + 2]).count(b"\n")

    def source_line(self, pos: int) -> int:
        """The line of the file ``pos`` lies on (a line breakpoint goes by the file)."""
        return 1 + bytes(self.data[self.first:pos]).count(b"\n") if pos >= self.first else self.line(pos)


def runner(session: Session, files: list[str], entry: str | None = None, code: str | None = None) -> GibsonRunner:
    """The dialect's debugger hook: the one application file ``files[0]``, running ``code`` (``-r``), else
    ``entry`` when it is not ``main``.  Raises ProgramFileError for more than one file, StartError or
    PluginError (both :class:`~tinyc.driver.dialect.CannotStart`) when the program cannot start."""
    if len(files) != 1:
        raise ProgramFileError("the Gibson dialect runs one application file (use #include lines)")
    if code is None and entry not in (None, "main"):
        code = entry
    return GibsonRunner(session, find_program(files[0]), code)


class GibsonRunner:
    """The Gibson dialect: the application ``path`` (``code`` instead of main() with ``-r``) in ``session``."""

    done = "done"   # what tc prints when a run ends without an error
    error_status = ERROR_STATUS  # tc's exit status after an error (tinyc run's too): the DAP adapter's exitCode

    def __init__(self, session: Session, path: str | Path, code: str | None = None):
        """Raises StartError or PluginError when the program cannot start."""
        from . import machine as gibson
        from .plugins import find as find_plugin
        self.session, self.files = session, session.files
        self.interrupt = session.interrupt  # the policy the debugger's pause answers (Ctrl-C, a Stop)
        self.files.add_program(path)
        self.loaded = gibson.load(path, code, self.files)
        self.plugin = (find_plugin(self.loaded.plugin, Path(path).parent, session.allow_plugins)
                       if self.loaded.plugin else None)
        self.banner = gibson.BANNER
        layout = self.loaded.layout
        app = self.loaded.memory[layout.app:layout.end].decode("latin-1")
        self.lines = {k + 1: line for k, line in enumerate(app.split("\n"))}
        self.statements = statement_lines(self.lines, COMMENT)
        self.sources = [(str(path), 1, len(self.lines))]
        m = self._machine(session.dialect.engine("reference"))
        try:
            gibson.link_program(m, self.loaded)
        except TinyCError:
            pass
        self.names = {s.name: s.kind == "func" for table in (m.library, m.program) if table is not None for s in table}

    def file_line(self, given: str, line: int) -> int | str:
        """``b FILE:LINE``: the application file's lines are the debugger's (or why not)."""
        return file_line(self.sources, given, line)

    def canonical(self, name: str) -> str:
        return self.session.dialect.canonical(name)

    def parse_typed(self, text: str, base: int, local: dict, levels: list) -> list:
        """An expression typed at the debugger's prompt, parsed as the dialect parses ``-r`` code."""
        from ...syntax.lexer import Level
        from .syntax import parse_typed
        return parse_typed(text, base, [Level({n: s.kind == "func" for n, s in local.items()})] + levels)

    def _machine(self, engine):
        from . import machine as gibson
        size = max(self.session.memory, len(self.loaded.memory) + gibson.SLACK + 4096)
        m = gibson.make_machine(self.session, engine, size, self.plugin)
        m.memory.store(0, self.loaded.memory)
        m.top = len(self.loaded.memory) + gibson.SLACK
        return m

    def start(self, debugger: Debugger):
        from . import machine as gibson
        from .calls import QuietExit, close_units
        from .report import gibson_code, report
        debugging = Debugging(debugger)
        m = self._machine(debugging.watching(self.session.dialect.engine("reference")))
        layout = self.loaded.layout

        def reporter(e: TinyCError) -> str:
            code = gibson_code(int(e.code))
            at = layout.end if code in (1023, 2023, 3023) else e.address
            return report(code, bytes(m.memory.data[:layout.end + 1]), at, layout)
        places = GibsonPlaces(m.memory.data, layout.app, layout.end, 0, reporter, (0, layout.lib))

        def go() -> TinyCError | None:
            try:
                seed = gibson.link_program(m, self.loaded)
                with m.deep_stack():
                    m.engine.run([seed])
            except QuietExit:
                return None
            except TinyCError as e:
                return e
            finally:
                close_units(m)
            return None
        return debugging, places, go
