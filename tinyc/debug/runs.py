"""How ``tinyc debug`` starts a program in each dialect (:mod:`tinyc.debug.debugger`).

A runner knows the program's names and lines before it runs (for ``b`` and ``list``) and makes a
fresh run on the debugger's engine each time ``r`` starts one: the PC dialect runs the entry statement
against the program buffer again (as the shell does); the Gibson dialect lays out and links a new
program memory each run, as ``tc`` does at each start.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .. import ast
from ..driver.dialect import DEFAULT, find
from ..driver.outcome import statement_outcome
from ..errors import TinyCError
from ..machine.console import Console
from .engine import Debugging
from .debugger import Debugger, Places, pc_reporter

if TYPE_CHECKING:
    from ..driver.outcome import Interrupt
    from ..driver.session import Session
    from ..driver.workspace import Workspace
    from ..syntax.lexer import Level

COMMENT = re.compile(r"/\*.*")  # tiny-c/PC: a comment runs from /* to the end of its line


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


def statement_lines(lines: dict[int, str], comment: re.Pattern[str] = COMMENT) -> set[int]:
    """The lines that hold something other than blanks and comments (``comment``: the dialect's)."""
    return {number for number, text in lines.items() if comment.sub("", text).strip()}


def pc_runner(session: Session, files: list[str], entry: str | None = None, code: str | None = None) -> PcRunner:
    """The tiny-c/PC dialect's debugger hook: ``session`` booted with ``files`` in its program buffer, the
    statement ``entry`` (default main) run by each ``r``.  Raises ProgramFileError for a file that cannot be
    read or does not fit."""
    for path in files:
        session.load_file(path)
    assert session.current is not None and session.workspace is not None
    runner = PcRunner(session.current, session.workspace, entry or "main", session.engine == "fast")
    runner.interrupt = session.interrupt
    return runner


class PcRunner:
    """The tiny-c/PC dialect: ``ws`` holds the program, ``entry`` is the statement a run types."""

    banner = b""
    done = None   # tiny-c/PC prints nothing when a run ends
    interrupt: Interrupt | None = None  # the session's interrupt policy (None: the process's)

    def __init__(self, machine: Any, workspace: Workspace, entry: str = "main", fast: bool = False) -> None:
        self.m, self.ws, self.entry, self.fast = machine, workspace, entry, fast
        text = workspace.text.decode("latin-1")
        self.lines = {k: line for k, line in enumerate(text.split("\n")) if k > 0}
        self.statements = statement_lines(self.lines)
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

    def parse_typed(self, text: str, base: int, local: dict[str, Any], levels: list[Level]) -> list[ast.Stmt]:
        """An expression typed at the debugger's prompt, parsed with the frame's ``local`` names first."""
        from ..syntax.pipeline import reparse
        return reparse(text, levels, base, set(local))

    def start(self, debugger: Debugger) -> tuple[Debugging, Places, Callable[[], TinyCError | None]]:
        m, ws = self.m, self.ws
        engine = Debugging(debugger)
        evaluator = engine.watching(find(DEFAULT).engine("reference"))(m)
        machine_engine: object = evaluator
        if self.fast:  # functions with nothing to watch run compiled (fast.py)
            from ..driver import startcache
            from .fast import DebugFastEngine
            fast = engine.fast = DebugFastEngine(m, debugger.watched, startcache.code)
            fast.ref, fast.debugging = evaluator, engine
            fast.prepare = debugger.sync
            machine_engine = fast
        places = Places(m.memory.data, ws.pr + 1, ws.pr + ws.pe + 1, ws.pr, pc_reporter(ws), (ws.ln, ws.pr))

        def go() -> TinyCError | None:
            with m.using(lambda _: machine_engine):  # the shell's machine runs on the debugger's engine, then its own
                outcome = statement_outcome(ws, self.entry.encode("latin-1"), interrupt=self.interrupt)
            stopped = outcome.failed or outcome.interrupted  # MC 10 (exited) ends the session as its end does
            return TinyCError(outcome.code, outcome.address) if stopped else None
        return engine, places, go


def debug(runner: Any, console: Console, quiet: bool = False) -> int:
    """Run a debugging session of ``runner``'s program over ``console``; returns the exit status (0)."""
    if runner.banner and not quiet:
        console.write(runner.banner)
    return Debugger(console, runner, quiet).loop()


def shell_debugger(shell: Any) -> Callable[[bytes], None]:
    """The ``tc>`` shell's ``.debug STATEMENT`` hook for ``shell``: a debugging session of the statement
    against the program buffer, over the shell's console (the session's ``q`` or end of input returns)."""
    def run(statement: bytes) -> None:
        fast = getattr(shell.machine.engine, "name", "") == "fast"
        runner = PcRunner(shell.machine, shell.ws, statement.decode("latin-1"), fast)
        runner.interrupt = shell.interrupt
        debug(runner, shell.console)
    return run
