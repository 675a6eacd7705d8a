"""How ``tinyc debug`` starts a program in each dialect (:mod:`tinyc.views.debugger`).

A runner knows the program's names and lines before it runs (for ``b`` and ``list``) and makes a
fresh run on the debugger's engine each time ``r`` starts one: the PC dialect runs the entry statement
against the program buffer again (as the shell does); the Gibson dialect lays out and links a new
program memory each run, as ``tc`` does at each start.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import ExitProgram, TinyCError
from ..machine.console import Console
from .debug_engine import DebugEvaluator, GibsonDebugEvaluator
from .debugger import Debugger, Places, pc_reporter

COMMENT = re.compile(r"/\*.*|//.*")


def same_file(given: str, name: str) -> bool:
    """Whether ``given`` (as typed after ``b``) names the file ``name``: the same path, or its last parts."""
    g, n = Path(given).as_posix(), Path(name).as_posix()
    return g == n or n.endswith("/" + g) or Path(g).name == g and Path(n).name == g


def file_line(files: list[tuple[str, int, int]], given: str, line: int) -> int | str:
    """The program's line number of ``line`` of the file ``given`` among ``files`` (name, first line in
    the program, line count), or the reason there is none (a message)."""
    found = [f for f in files if same_file(given, f[0])]
    if not found:
        return f"no program file {given}" + (f" (the files: {', '.join(f[0] for f in files)})" if files else "")
    name, first, count = found[0]
    if not 1 <= line <= count:
        return f"{name} has no line {line} (it has {count})"
    return first + line - 1


def _statements(lines: dict[int, str], gibson: bool) -> set[int]:
    """The lines that hold something other than blanks and comments."""
    out = set()
    for number, text in lines.items():
        text = COMMENT.sub("", text) if gibson else re.sub(r"/\*.*", "", text)
        if text.strip():
            out.add(number)
    return out


class PcRunner:
    """The tiny-c/PC dialect: ``ws`` holds the program, ``entry`` is the statement a run types."""

    gibson = False

    def __init__(self, machine, workspace, entry: str = "main"):
        self.m, self.ws, self.entry = machine, workspace, entry
        text = workspace.text.decode("latin-1")
        self.lines = {k: line for k, line in enumerate(text.split("\n")) if k > 0}
        self.statements = _statements(self.lines, False)
        self.names = self._names()
        raw = workspace.text
        self.sources = [(name, raw[:first].count(b"\n"), len(raw[first:end].rstrip(b"\n").split(b"\n")))
                      for name, first, end in workspace.files]

    def file_line(self, given: str, line: int) -> int | str:
        """``b FILE:LINE``: the buffer's line number of a line of a file read into it (or why not)."""
        return file_line(self.sources, given, line)

    def _names(self) -> dict[str, bool]:
        """Function (True) and variable (False) names of the program and the library, from one link."""
        m, ws = self.m, self.ws
        saved = (m.program, m.library, m.top)
        try:
            m.link_application(ws.pr + ws.pe, ws.pr)
        except TinyCError:
            pass
        names = {s.name: s.kind == "func" for table in (m.library, m.program) if table is not None for s in table}
        m.program, m.library, m.top = saved
        return names

    def canonical(self, name: str) -> str:
        return name

    def start(self, debugger: Debugger):
        m, ws = self.m, self.ws
        engine = DebugEvaluator(m, debugger)
        m.engine = engine
        places = Places(m.memory.data, ws.pr + 1, ws.pr + ws.pe + 1, ws.pr, False, pc_reporter(ws), (ws.ln, ws.pr))

        def go() -> TinyCError | None:
            try:
                err, cu = ws.run(self.entry.encode("latin-1"))
            except ExitProgram:
                return None
            return TinyCError(err, ws.pr + cu) if err else None
        return engine, places, go


class GibsonRunner:
    """The Gibson dialect: the application ``path`` (``code`` instead of main() with ``-r``)."""

    gibson = True

    def __init__(self, path: str | Path, console: Console, code: str | None = None, memory: int = 1 << 20,
                 max_depth: int = 1000, allow_system: bool = False, allow_plugins: bool = False, files=None):
        """Raises gibson.StartError or plugins.PluginError when the program cannot start."""
        from ..dialects.gibson import machine as gibson
        from ..dialects.gibson.plugins import find as find_plugin
        from ..machine.sandbox import FileSandbox
        self.files = files if files is not None else FileSandbox()
        self.files.add_program(path)
        self.loaded = gibson.load(path, code, self.files)
        self.plugin = find_plugin(self.loaded.plugin, Path(path).parent, allow_plugins) if self.loaded.plugin else None
        self.console, self.memory, self.max_depth, self.allow_system = console, memory, max_depth, allow_system
        layout = self.loaded.layout
        app = self.loaded.memory[layout.app:layout.end].decode("latin-1")
        self.lines = {k + 1: line for k, line in enumerate(app.split("\n"))}
        self.statements = _statements(self.lines, True)
        self.sources = [(str(path), 1, len(self.lines))]
        m, _ = self._machine()
        try:
            gibson.link_program(m, self.loaded)
        except TinyCError:
            pass
        self.names = {s.name: s.kind == "func" for table in (m.library, m.program) if table is not None for s in table}

    def file_line(self, given: str, line: int) -> int | str:
        """``b FILE:LINE``: the application file's lines are the debugger's (or why not)."""
        return file_line(self.sources, given, line)

    def canonical(self, name: str) -> str:
        from ..dialects.gibson.syntax import canonical
        return canonical(name)

    def _machine(self):
        from ..dialects.gibson import machine as gibson
        size = max(self.memory, len(self.loaded.memory) + gibson.SLACK + 4096)
        m = gibson.make_machine(self.console, "reference", size, self.max_depth, self.allow_system,
                                self.plugin, self.files)
        m.memory.store(0, self.loaded.memory)
        m.top = len(self.loaded.memory) + gibson.SLACK
        return m, gibson

    def start(self, debugger: Debugger):
        from ..dialects.gibson.calls import QuietExit, close_units
        from ..dialects.gibson.report import gibson_code, report
        m, gibson = self._machine()
        engine = GibsonDebugEvaluator(m, debugger)
        m.engine = engine
        layout = self.loaded.layout

        def reporter(e: TinyCError) -> str:
            code = gibson_code(int(e.code))
            at = layout.end if code in (1023, 2023, 3023) else e.address
            return report(code, bytes(m.memory.data[:layout.end + 1]), at, layout)
        places = Places(m.memory.data, layout.app, layout.end, 0, True, reporter, (0, layout.lib))

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
        return engine, places, go


def debug(runner, console: Console, quiet: bool = False) -> int:
    """Run a debugging session of ``runner``'s program over ``console``; returns the exit status (0)."""
    from ..dialects.gibson.machine import BANNER
    if runner.gibson and not quiet:
        console.write(BANNER)
    return Debugger(console, runner, quiet).loop()


def shell_debugger(shell):
    """The ``tc>`` shell's ``.debug STATEMENT`` hook for ``shell``: a debugging session of the statement
    against the program buffer, over the shell's console (the session's ``q`` or end of input returns)."""
    def run(statement: bytes) -> None:
        runner = PcRunner(shell.machine, shell.ws, statement.decode("latin-1"))
        debug(runner, shell.console)
    return run
