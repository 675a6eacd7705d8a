"""The kernel's tiny-c: a booted machine, its program buffer and the ``tc>`` shell over it.

Every call into tinyc's driver (a :class:`~tinyc.driver.session.Session`: boot a machine, run a statement,
report an error; the stage views, the trace, the debugger; all through the dialect's hooks) is in this
module, behind :class:`Program`'s few methods, so that a change of the driver is a change here alone.

A dialect whose cells are definitions for the shell (tiny-c/PC's) keeps its program where the shell keeps
it, in ``pr`` of a booted machine (:class:`~tinyc.driver.workspace.Workspace`), and ``.`` cells are the
shell's commands (:data:`tinyc.shell.shell.COMMANDS`).  A dialect whose program is a whole file
(:attr:`~tinyc.driver.dialect.Dialect.whole_program`: Gibson's) keeps it as text and runs it as
``tinyc run --dialect NAME -r STATEMENT`` would.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterator

from ..errors import ErrorCode, Problem
from ..driver.dialect import DEFAULT, Dialect, find
from ..driver.outcome import EXITED, STOPPED, Outcome, statement_outcome
from ..machine.console import align_report
from ..machine.sandbox import Policy
from ..shell.shell import Command, Shell
from . import cells
from .console import KernelConsole

ENGINES = ("reference", "fast")
LINE = 133  # the shell's typed line, ln(133): the longest statement a cell can run


class CellError(Problem):
    """A cell the kernel cannot take (a statement too long, a program too big): one line to show."""


def _file_code(statement: str) -> str | None:
    """A statement cell of a whole-program dialect as ``-r`` code: None for ``main`` or ``main()`` (the
    program's own run)."""
    return None if statement.strip() in ("main", "main()") else statement


def _session(dialect: str | Dialect, engine: str, console: KernelConsole, policy: Policy):
    """The Session of ``dialect`` and ``engine`` over ``console``, with the machine options' defaults and the
    sandbox ``policy`` (the kernel's one: the current directory tree unless ``%allow`` widened it); quiet
    (Gibson's without its banner)."""
    from ..driver.options import MachineOptions
    from ..driver.session import Session
    return Session.from_options(MachineOptions(engine=engine, quiet=True, policy=policy), dialect, console)


def _with_header(program: bytes, cell: bytes) -> bytes:
    """A whole program (Gibson's) with a cell added: the cell's ``#include``/``#loadMC`` lines join the program's header
    (the lines it starts with; an include further down is not read), a line already there is not repeated;
    its other lines go at the end."""
    lines = program.splitlines(keepends=True)
    top = next((k for k, line in enumerate(lines) if not line.lstrip().startswith(b"#")), len(lines))
    header = [line.rstrip(b"\n") for line in lines[:top]]
    rest = []
    for line in cell.rstrip(b"\n").split(b"\n"):
        if line.lstrip().startswith(b"#"):
            if line.strip() not in (h.strip() for h in header):
                header.append(line)
        else:
            rest.append(line)
    body = b"".join(lines[top:])
    return b"".join(h + b"\n" for h in header) + body + b"".join(r + b"\n" for r in rest)


class KernelShell(Shell):
    """The ``tc>`` shell as a notebook's ``.`` cells use it: the terminal's commands, less ``.x`` (the
    kernel stays), ``.e`` and ``.debug`` (``%debug`` is the notebook's); its statements run through
    ``run`` (the kernel's: output streamed, errors shown as Jupyter errors)."""

    def __init__(self, machine, workspace, run: Callable[[bytes], None]):
        super().__init__(machine, workspace)
        self.interactive = True
        self.run_hook = run

    def commands(self) -> list[Command]:
        return [c for c in super().commands() if c.name not in (".x", ".e", ".debug")]

    def statement(self, text: bytes) -> bool:
        self.run_hook(text)
        return False


class Program:
    """The kernel's tiny-c state: dialect, engine, the program of each dialect, the console.

    ``errors`` receives each tiny-c error report (the shell's three lines with the caret) and the error
    number; the kernel turns it into a Jupyter error."""

    def __init__(self, console: KernelConsole, errors: Callable[[int, str], None]):
        self.console = console
        self.errors = errors
        # what the notebook's programs and its .r/.w cells may touch: the default sandbox, widened only by
        # %allow, which the person at the front end confirms (a shared notebook is someone else's code)
        self.policy = Policy()
        from ..driver.options import DEFAULT_ENGINE
        self.dialect = self.shell_dialect = DEFAULT  # in use; the one whose machine holds the shell's buffer
        self.engine = DEFAULT_ENGINE  # as `tinyc` runs: the fast engine
        self._libraries: dict[str, str] = {}  # a whole-program dialect's library text, read once for completion
        self.texts: dict[str, bytes] = {}  # each whole-program dialect's program (kept while another is in use)
        self._boot(b"")

    @property
    def whole(self) -> bool:
        """Whether the dialect in use keeps its program as one file's text (Gibson's), not in the shell."""
        return find(self.dialect).whole_program

    # -- the driver: the few calls a Session would take over
    def _boot(self, text: bytes) -> None:
        """A fresh machine with the engine chosen and ``text`` in its program buffer."""
        self.session = _session(self.shell_dialect, self.engine, self.console, self.policy)
        self.machine, self.ws = self.session.boot()
        self.shell = KernelShell(self.machine, self.ws, self.run)
        if text and not self.ws.append(text):
            raise CellError("the program does not fit the program buffer")

    @property
    def text(self) -> bytes:
        """The program of the dialect in use (the shell's without ``pr(0)``'s newline)."""
        return self.texts.get(self.dialect, b"") if self.whole else self._pc_text()

    def _pc_text(self) -> bytes:
        """The PC program: ``pr(1..pe)``, a NUL a run left (a string's closing quote) shown as ``"``."""
        return self.ws.text[1:].replace(b"\0", b'"')

    def _set_text(self, text: bytes) -> None:
        if self.whole:
            self.texts[self.dialect] = text
        elif not self.shell.buf.replace(1, self.ws.pe + 1, text):
            raise CellError("the program does not fit the program buffer")

    def run(self, statement: bytes) -> None:
        """Run ``statement`` against the program (MC 11) with its output streamed; an error goes to
        ``errors``; Ctrl-C (the kernel's interrupt) stops it with ``stopped``."""
        if self.whole:
            return self._run_file(statement)
        limit = sys.getrecursionlimit()
        try:
            with self.console.streaming():
                outcome = statement_outcome(self.ws, statement, align=align_report)
        finally:
            sys.setrecursionlimit(limit)
        if outcome.kind == EXITED:  # the program ended the interpreter: the kernel goes on, with a new machine
            self._boot(self._pc_text())
        self.shell.buf.lo = self.shell.buf.line_of(outcome.address - self.ws.pr) if outcome.failed else 0
        self._after_run(outcome)

    def _after_run(self, outcome: Outcome) -> None:
        """Show how a run ended: ``stopped`` (with a word on input when the program waited for some), or
        the error's report; nothing when it finished."""
        if (outcome.interrupted or outcome.code == ErrorCode.KILL) and self.console.no_input:
            self.errors(ErrorCode.KILL, "stopped: the program read input, and this front end sends none: give it "
                                        "first with %input LINE...")
        elif outcome.interrupted or outcome.code == ErrorCode.KILL:
            self.errors(ErrorCode.KILL, STOPPED.rstrip())
        elif outcome.report:
            self.errors(outcome.code, outcome.report)

    def _run_file(self, statement: bytes) -> None:
        """``statement`` run as ``tc -r STATEMENT`` runs it, the program as the application file (its
        ``#include`` files found beside the kernel's directory, then in the dialect's library)."""
        session = _session(self.dialect, self.engine, self.console, self.policy)
        code = _file_code(statement.decode("latin-1"))
        limit = sys.getrecursionlimit()
        with self._program_file() as path:
            try:
                with self.console.streaming():
                    outcome = session.execute([path], "main", code)
            finally:
                sys.setrecursionlimit(limit)
        self._after_run(outcome)

    def check(self) -> tuple[int, str] | None:
        """Link the program as a run would; ``(error, report)`` when the linker finds an error."""
        if self.whole:
            return None
        err, cursor = self.ws.run(b"")
        return (err, align_report(self.ws.report(err, cursor))) if err else None

    # -- switching
    def set_engine(self, engine: str) -> None:
        """Boot again with ``engine``; the program buffer is kept."""
        self.engine = engine
        self._boot(self._pc_text())

    def set_dialect(self, dialect: str) -> None:
        """Use ``dialect``'s program (each dialect keeps its own): a whole-program dialect's starts with its
        :attr:`~tinyc.driver.dialect.Dialect.program_start` (Gibson's: the ``#include pps/library.tc`` line
        its programs need for ``printf``, ``pl``, ``gn``...); another shell dialect boots its machine afresh.
        Raises UnknownDialect."""
        found = find(dialect)
        self.dialect = dialect
        if found.whole_program:
            self.texts.setdefault(dialect, found.program_start)
        elif dialect != self.shell_dialect:
            self.shell_dialect = dialect
            self._boot(b"")

    # -- cells
    def add(self, text: bytes) -> list[str]:
        """Add a cell of definitions to the program; a definition of a name already defined replaces the
        old one.  Returns the notes to show (one per replaced definition).  When the program no longer
        links, the cell is taken back and CellError carries the linker's report."""
        old = self.text
        whole = self.whole  # cells.py then reads header lines and // comments (Gibson's)
        new_items = cells.items(text.decode("latin-1"), whole) or []
        names = {n for d in new_items for n in d.names}
        kept, notes, at = [], [], 0
        program = old.decode("latin-1")
        for d in cells.program_items(program, whole):
            if names & set(d.names):
                kept.append(program[at:d.start])
                at = d.end + (1 if program[d.end:d.end + 1] == "\n" else 0)
                notes.append(f"{', '.join(d.names)}: the earlier definition is replaced")
        kept.append(program[at:])
        body = "".join(kept).encode("latin-1")
        if body and not body.endswith(b"\n"):
            body += b"\n"
        self._set_text(_with_header(body, text) if whole else body + text.rstrip(b"\n") + b"\n")
        problem = self.check()
        if problem is not None:
            self._set_text(old)
            raise LinkFailure(*problem)
        return notes

    def names(self) -> dict[str, cells.Definition]:
        """Every name a cell may use: the library's functions, then the program's definitions."""
        found: dict[str, cells.Definition] = {}
        whole = self.whole
        for d in cells.program_items(self._library(), whole) + cells.program_items(self.text.decode("latin-1"), whole):
            found.update((n, d) for n in d.names)
        return found

    def _library(self) -> str:
        """The library's text in the dialect in use (the shell's as booted; Gibson's ``library.tc``)."""
        if not self.whole:
            lib = self.machine.library_text
            return "" if lib is None else lib.text.decode("latin-1")
        if self.dialect not in self._libraries:
            dialect = find(self.dialect)
            with open(dialect.package_path(dialect.library), "rb") as f:
                self._libraries[self.dialect] = f.read().decode("latin-1")
        return self._libraries[self.dialect]

    # -- views
    def view(self, name: str, statement: str | None) -> str:
        """A stage view (tokens, ast, link) of the program, or of ``statement`` typed against it."""
        from ..errors import TinyCError
        if self.whole:
            return self._file_view(name)
        from ..views import stages
        loaded = stages.load(self.text, statement,
                             session=_session(self.shell_dialect, "reference", self.console, self.policy))
        functions: dict[str, Callable[[stages.Loaded], str]] = {
            "tokens": stages.tokens, "ast": stages.ast_dump,
            "link": lambda loaded: stages.link_map(loaded, show_library=False)}
        try:
            return functions[name](loaded)
        except TinyCError as e:
            return align_report(loaded.report(e))

    def _file_view(self, name: str) -> str:
        """The view through the dialect's ``view`` hook, of the program written as a file."""
        session = _session(self.dialect, self.engine, self.console, self.policy)
        with self._program_file() as path:
            return session.view(name, path)

    def trace(self, statement: str) -> str:
        """The traced run of ``statement`` (one line per statement run), the queued input its input;
        in a whole-program dialect through its ``trace`` hook, ``statement`` run as ``-r`` code."""
        from ..debug.tracer import trace
        stdin = b"".join(line + b"\n" for line in self.console.queued)
        self.console.queued.clear()
        if self.whole:
            session = _session(self.dialect, self.engine, self.console, self.policy)
            with self._program_file() as path:
                return session.trace(path, _file_code(statement) or "main", stdin)
        return trace(self.text, statement, stdin=io.BytesIO(stdin), memory=self.session.memory,
                     files=self.session.files)

    def step(self, statement: str):
        """The recorded run of ``statement`` against the program (:mod:`tinyc.debug.stepper`), the queued input
        its input: a :class:`~tinyc.debug.steptrace.Trace`; in a whole-program dialect ``statement`` runs as ``-r`` code."""
        stdin = b"".join(line + b"\n" for line in self.console.queued)
        self.console.queued.clear()
        session = _session(self.dialect, "reference", self.console, self.policy)
        if self.whole:
            with self._program_file() as path:
                return session.record(path, _file_code(statement), stdin)
        session.memory, session.files = self.session.memory, self.session.files
        return session.record(self.text, None if statement.strip() == "main" else statement, stdin)

    def debug(self, statement: bytes) -> None:
        """A debugging session of ``statement`` against the program (:mod:`tinyc.debug.debugger`): its
        commands and the program's input lines are the queued lines, then asked of the front end.  Raises
        CellError when a whole program cannot start (a missing include or plug-in)."""
        if self.whole:
            return self._debug_file(statement.decode("latin-1"))
        from ..debug.runs import shell_debugger
        limit = sys.getrecursionlimit()
        try:
            with self.console.streaming():
                shell_debugger(self.shell)(statement)
        finally:
            sys.setrecursionlimit(limit)
            self._boot(self._pc_text())  # the debugger's breakpoints and engine stay with the old machine

    def _debug_file(self, statement: str) -> None:
        """The whole program under the debugger, through its dialect's ``debugger`` hook, ``statement``
        run as ``-r`` code unless it is ``main``."""
        from ..driver.dialect import CannotStart
        from ..debug.runs import debug
        session = _session(self.dialect, self.engine, self.console, self.policy)
        code = _file_code(statement)
        limit = sys.getrecursionlimit()
        with self._program_file() as path:
            try:
                runner = session.debugger([path], None, code)
                with self.console.streaming():
                    debug(runner, self.console, quiet=True)
            except CannotStart as exc:
                raise CellError(exc.message.strip()) from None
            finally:
                sys.setrecursionlimit(limit)

    @contextlib.contextmanager
    def _program_file(self) -> Iterator[str]:
        """The whole program written to a file (``cell.tc`` in a new temporary folder) for the dialect's
        hooks, which take a program file; removed afterwards."""
        with tempfile.TemporaryDirectory(prefix="tinyc-") as tmp:
            path = Path(tmp) / "cell.tc"
            path.write_bytes(self.text)
            yield str(path)


class LinkFailure(CellError):
    """A definitions cell the linker refused: ``code`` and ``report`` (the tiny-c report)."""

    def __init__(self, code: int, report: str):
        super().__init__(report)
        self.code = code
        self.report = report
