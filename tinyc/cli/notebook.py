"""tinyc in IPython and Jupyter: ``%load_ext tinyc``.  docs/notebook.md documents every magic.

* ``%%tinyc [--entry NAME] [--input TEXT] [machine options]``: the cell is a tiny-c program; it is loaded as
  ``tinyc run`` loads a file and ``NAME`` (default ``main``) runs.  Its output is printed (CR bytes
  dropped); an error prints the tiny-c report; reading past the input (none without ``--input``) says
  so.  The cell becomes the *current program*.  ``--dialect gibson`` (chosen by itself for a cell that
  starts with ``#include``), ``-q`` and ``-r CODE`` run it in Gibson's dialect, as ``tinyc run`` does.
* ``%%tinyc_tokens``, ``%%tinyc_parse``, ``%%tinyc_ast``, ``%%tinyc_link``: the stage views of the cell's
  program (as ``tinyc tokens FILE`` ...), which also becomes the current program.
* ``%tinyc_tokens STATEMENT`` (and parse, ast): the view of one statement typed against the current
  program, as ``tinyc tokens FILE -e STATEMENT``; ``%tinyc_link`` links the current program.
* ``%%tinyc_trace [--entry NAME] [--calls] [--input TEXT]`` (or ``%tinyc_trace [NAME]`` on the current
  program): the traced run, one line per statement.

Program text is the cell's UTF-8 bytes, and is shown back the same way.  The options are those of the
command line (``--int-bits 16``, ``--memory``, ``--engine`` ...), the file sandbox's included: a cell's
program opens files only in the notebook's current directory tree unless ``--allow-read PATH``,
``--allow-write PATH`` or ``--allow-files-anywhere`` says otherwise, as on the command line
(docs/security.md).  While a magic runs, ``sys.path`` holds neither ``''`` nor the current directory, so
what a program writes there is never imported by tinyc's lazy imports.
"""

from __future__ import annotations

import argparse
import io
import shlex
import sys
from typing import Callable

from IPython.core.magic import Magics, line_cell_magic, magics_class

from ..errors import Problem
from ..machine.console import Console, align_report


class _StartDirOff:
    """A context in which ``sys.path`` holds neither ``''`` nor the current directory, restored after: the
    ``%%tinyc`` magics run in it, since IPython and Jupyter put ``''`` first and a program's files (a
    ``cairocffi.py`` it wrote) must not be what tinyc's lazy imports find (issue 35, docs/security.md)."""

    def __enter__(self):
        import os
        here = os.getcwd()
        self.saved = list(sys.path)
        sys.path[:] = [p for p in sys.path if p and os.path.abspath(p) != here]

    def __exit__(self, *exc):
        sys.path[:] = self.saved + [p for p in sys.path if p not in self.saved]  # keep what was added


class MagicError(Problem):
    """Bad magic arguments: shown as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise MagicError(f"{self.prog}: {message}")

    def exit(self, status=0, message=None):  # --help prints and stays in the notebook
        if message:
            print(message, file=sys.stderr)
        raise MagicError("")


SEPARATOR = "---"  # %%tinyc --debug: the line between the program and the debugger's commands


def _parser(name: str, entry: bool = False, calls: bool = False, dialect: bool = False) -> argparse.ArgumentParser:
    from .options import common_options
    p = _Parser(prog=f"%%{name}", parents=[common_options()], add_help=True)
    if entry:
        p.add_argument("--entry", default="main", help="statement to run (default: main)")
        p.add_argument("--input", default=None, help="the program's standard input (\\n for a line end)")
    if calls:
        from ..debug.tracer import DEFAULT_LIMIT
        p.add_argument("--calls", action="store_true", help="show only calls and returns")
        p.add_argument("--limit", type=int, default=DEFAULT_LIMIT, metavar="N",
                       help=f"trace lines to show before the program runs on untraced (default {DEFAULT_LIMIT})")
    if dialect:
        from .options import dialect_options
        dialect_options(p)
        p.add_argument("--debug", action="store_true",
                       help=f"run under the debugger; its commands after a line {SEPARATOR} in the cell or in --commands")
        p.add_argument("--commands", default=None, metavar="TEXT",
                       help="the debugger's commands and the program's input lines (\\n ends a line)")
    return p


class _Input(io.BytesIO):
    """A program's input (the ``--input`` text) that notes when the program read past its end."""

    ended = False

    def readline(self, size=-1) -> bytes:
        data = super().readline(size)
        self.ended = self.ended or not data
        return data

    def read(self, size=-1) -> bytes:
        data = super().read(size)
        self.ended = self.ended or not data
        return data


def _input(text: str | None) -> _Input:
    """The ``--input`` text as bytes: ``\\n`` and the other escapes are decoded, characters are UTF-8."""
    if not text:
        return _Input()
    try:
        return _Input(text.encode().decode("unicode_escape").encode("latin-1"))
    except (UnicodeDecodeError, UnicodeEncodeError) as e:
        raise MagicError(f"--input: {text!r} is not a valid text with escapes ({e.reason}); "
                         f"write a backslash as \\\\ and a line end as \\n") from None


def _input_note(given: str | None, magic: str) -> str:
    """Why a program stopped at an input read in a notebook, and how to give it input."""
    if given is None:
        return (f"stopped: the program read input, and a notebook cell has none: give it with --input, "
                f"e.g. %%{magic} --input '21\\n' (\\n ends a line)\n")
    return "stopped: the program read past the end of its --input text (\\n ends a line)\n"


def _split_cell(cell: str) -> tuple[str, str | None]:
    """A ``--debug`` cell's program and the debugger's commands after its first ``---`` line (None: none)."""
    lines = cell.splitlines(keepends=True)
    for k, line in enumerate(lines):
        if line.strip() == SEPARATOR:
            return "".join(lines[:k]), "".join(lines[k + 1:])
    return cell, None


def _shown(text: str) -> str:
    """A view's text (program bytes as Latin-1 characters) as the notebook shows it: UTF-8."""
    return text.encode("latin-1", "tinyc.bytes").decode("utf-8", "replace")


def _print_output(data: bytes) -> None:
    """A program's output bytes as the cell's output: UTF-8, the newline ``pl`` puts first dropped."""
    text = data.decode("utf-8", "replace")
    if text:
        print(text.removeprefix("\n"), end="" if text.endswith("\n") else "\n")


def _render(outcome) -> None:
    """A run's :class:`~tinyc.driver.outcome.Outcome` under the cell: its report (``stopped`` after an
    interrupt) on stderr, as ``tinyc run`` writes it."""
    if outcome.report:
        print(_shown(outcome.report), end="", file=sys.stderr)


def _whole(dialect: str) -> bool:
    """Whether a cell of ``dialect`` runs as a program file (Gibson's), not in the tc> shell's buffer."""
    from ..driver.dialect import find
    return find(dialect).whole_program


def _with_limit(run):
    limit = sys.getrecursionlimit()  # the machine raises it for deep tiny-c recursion: only for this run
    try:
        return run()
    finally:
        sys.setrecursionlimit(limit)


@magics_class
class TinyCMagics(Magics):
    """The magics; ``program`` is the current program's bytes (the last cell run or shown)."""

    def __init__(self, shell=None):
        super().__init__(shell)
        self.program = b""

    def _args(self, parser, line: str):
        from .options import settle_memory
        try:
            args = parser.parse_args(shlex.split(line))
        except ValueError as e:
            raise MagicError(f"{parser.prog}: {e}") from None
        problem = settle_memory(args)  # --memory's default and cap depend on --int-bits (14 item 21)
        if problem:
            raise MagicError(f"{parser.prog}: {problem}")
        return args

    # -- running
    @line_cell_magic
    def tinyc(self, line: str, cell: str | None = None):
        """``%%tinyc [--entry NAME] [--input TEXT] [options]``: run the cell as a tiny-c program."""
        return self._guard(lambda: self._run(line, cell))

    def _run(self, line, cell):
        if cell is None and line.strip() and not line.strip().startswith("-"):
            line = "--entry " + shlex.quote(line.strip())  # %tinyc NAME runs NAME, as %tinyc_trace NAME
        args = self._args(_parser("tinyc", entry=True, dialect=True), line)
        commands = None
        if cell is not None and args.debug:
            cell, commands = _split_cell(cell)
        if cell is not None:
            self.program = cell.encode()
        if args.debug:
            return self._debug(args, commands)
        if args.commands is not None:
            raise MagicError("--commands: give it with --debug")
        dialect = self._dialect(args)
        if _whole(dialect):
            return self._run_file(args, dialect)
        args.dialect = dialect
        from ..driver.outcome import statement_outcome
        from .options import boot
        from ..errors import ErrorCode
        out = io.BytesIO()
        stdin = _input(args.input)

        def run():
            m, ws = boot(args, Console(stdin, out, strip_cr=True))
            if not ws.append(self.program.replace(b"\r", b"")):
                raise MagicError("the program does not fit the program buffer")
            outcome = statement_outcome(ws, args.entry.encode(), align=align_report)
            m.console.flush()
            return outcome
        outcome = _with_limit(run)
        _print_output(out.getvalue())
        if outcome.code == ErrorCode.KILL and not outcome.interrupted and stdin.ended:
            print(_input_note(args.input, "tinyc"), end="", file=sys.stderr)
        else:
            _render(outcome)

    def _debug(self, args, commands: str | None) -> None:
        """``%%tinyc --debug``: a debugging session of the cell's program (:mod:`tinyc.debug.debugger`)
        reading ``commands`` (the cell's, after its ``---`` line) or ``--commands``, as ``tinyc debug``
        reads its standard input: the program's input lines go among the commands."""
        from ..debug.runs import PcRunner, debug
        if args.input is not None:
            raise MagicError("--input: with --debug, the program's input lines go among the debugger's commands")
        if commands is not None and args.commands is not None:
            raise MagicError(f"the debugger's commands: give them after a {SEPARATOR} line or with --commands, not both")
        if commands is None and args.commands is None:
            raise MagicError(f"%%tinyc --debug: give the debugger's commands after a line {SEPARATOR} in the cell, "
                             "or with --commands 'b NAME\\nr\\nbt\\nq'")
        stdin = _input(args.commands) if commands is None else _Input(commands.encode())
        out = io.BytesIO()
        console = Console(stdin, out, strip_cr=True)
        dialect = self._dialect(args)
        if _whole(dialect):
            return self._debug_file(args, dialect, console, out)
        args.dialect = dialect
        from .options import boot

        def run():
            m, ws = boot(args, console)
            if not ws.append(self.program.replace(b"\r", b"")):
                raise MagicError("the program does not fit the program buffer")
            debug(PcRunner(m, ws, args.entry), console)
        _with_limit(run)
        _print_output(out.getvalue())

    def _cell_file(self, tmp: str) -> str:
        """The cell's program written as ``cell.tc`` in the folder ``tmp``: a dialect whose programs include
        files (Gibson's) finds them as ``tinyc run`` finds them, the notebook's directory standing for the
        file's own."""
        import os
        path = os.path.join(tmp, "cell.tc")
        with open(path, "wb") as f:
            f.write(self.program)
        return path

    def _debug_file(self, args, dialect: str, console: Console, out: io.BytesIO) -> None:
        """``%%tinyc --debug`` of a cell in another dialect than PC, through that dialect's debugger hook."""
        import tempfile
        from ..driver.dialect import CannotStart
        from .options import session_of
        from ..debug.runs import debug
        with tempfile.TemporaryDirectory(prefix="tinyc-") as tmp:
            path = self._cell_file(tmp)
            session = session_of(args, console, dialect, [])
            try:
                runner = session.debugger([path], args.entry, args.code)
            except CannotStart as e:
                raise MagicError(e.message.strip()) from None
            _with_limit(lambda: debug(runner, console, args.quiet))
        _print_output(out.getvalue())

    def _dialect(self, args) -> str:
        """--dialect, else the dialect the cell announces (Gibson's: a #include/#loadMC line), as ``tinyc run``."""
        from ..driver.dialect import DEFAULT, detect
        if args.dialect:
            return args.dialect
        found = detect(self.program[:16])
        if found is None:
            return DEFAULT
        print(f"tinyc: the cell starts with a #include/#loadMC header line: running it in the "
              f"{found.name.capitalize()} dialect (--dialect {found.name}; --dialect {DEFAULT} to override)",
              file=sys.stderr)
        return found.name

    def _run_file(self, args, dialect: str) -> None:
        """The cell as a program file of ``dialect`` (Gibson's: an application file), run by that dialect's
        ``run`` hook; the pictures its graphics draw are shown inline after its output."""
        import tempfile
        from pathlib import Path
        from .options import session_of
        out, stdin = io.BytesIO(), _input(args.input)
        pictures: list[Path] = []
        console = Console(stdin, out, strip_cr=True)
        console.pictures = pictures.append
        with tempfile.TemporaryDirectory(prefix="tinyc-") as tmp:
            path = self._cell_file(tmp)
            session = session_of(args, console, dialect, [])
            outcome = _with_limit(lambda: session.execute([path], args.entry, args.code))
        _print_output(out.getvalue())
        if pictures:
            from IPython.display import Image, display
            for png in pictures:
                display(Image(filename=str(png)))
        if stdin.ended and not outcome.interrupted:
            print(_input_note(args.input, "tinyc"), end="", file=sys.stderr)
        else:
            _render(outcome)

    # -- the stage views
    def _view(self, name: str, line: str, cell: str | None):
        from ..views import stages as views
        args = self._args(_parser(f"tinyc_{name}"), "" if cell is None else line)
        machine = {"int_bits": args.int_bits, "memory": args.memory}
        statement = None
        if cell is not None:
            self.program = cell.encode()
        elif line.strip() and name != "link":
            statement = line.strip().encode().decode("latin-1")
        functions: dict[str, Callable[[views.Loaded], str]] = {
            "tokens": views.tokens, "parse": views.parse_tree, "ast": views.ast_dump,
            "link": lambda loaded: views.link_map(loaded, show_library=False)}
        function = functions[name]
        from ..driver.dialect import detect
        announced = detect(self.program[:16]) if statement is None else None
        if announced is not None:  # a program of another dialect (Gibson's), as `run` tells
            print(_shown(_with_limit(lambda: self._file_view(name, args, announced.name))), end="")
            return

        def show():
            from ..errors import TinyCError
            loaded = views.load(self.program, statement, **machine)
            try:
                return function(loaded)
            except TinyCError as e:
                return align_report(loaded.report(e))
        print(_shown(_with_limit(show)), end="")

    def _file_view(self, name: str, args, dialect: str) -> str:
        """A stage view of the current program in ``dialect``, through its ``view`` hook; its #include files
        are found beside the notebook, as ``tinyc run`` finds them beside the file."""
        import tempfile
        from .options import session_of
        with tempfile.TemporaryDirectory(prefix="tinyc-") as tmp:
            path = self._cell_file(tmp)
            session = session_of(args, Console(), dialect, [])
            return session.view(name, path)

    @line_cell_magic
    def tinyc_tokens(self, line: str, cell: str | None = None):
        """Tokens of the cell's program, or of a statement typed against the current program."""
        return self._guard(lambda: self._view("tokens", line, cell))

    @line_cell_magic
    def tinyc_parse(self, line: str, cell: str | None = None):
        """The Lark parse tree of the cell's program, or of a statement."""
        return self._guard(lambda: self._view("parse", line, cell))

    @line_cell_magic
    def tinyc_ast(self, line: str, cell: str | None = None):
        """The AST of the cell's program, or of a statement."""
        return self._guard(lambda: self._view("ast", line, cell))

    @line_cell_magic
    def tinyc_link(self, line: str, cell: str | None = None):
        """Symbol levels and the memory map of the cell's (or the current) program."""
        return self._guard(lambda: self._view("link", line, cell))

    @line_cell_magic
    def tinyc_trace(self, line: str, cell: str | None = None):
        """``%%tinyc_trace [--entry NAME] [--calls] [--input TEXT]``, or ``%tinyc_trace [NAME]``."""
        return self._guard(lambda: self._trace(line, cell))

    def _trace(self, line, cell):
        from .options import file_sandbox
        from ..debug.tracer import trace
        if cell is None and line.strip() and not line.strip().startswith("-"):
            line = "--entry " + shlex.quote(line.strip())
        args = self._args(_parser("tinyc_trace", entry=True, calls=True), line)
        if cell is not None:
            self.program = cell.encode()
        stdin = _input(args.input)
        text = _with_limit(lambda: trace(self.program, args.entry, calls=args.calls, limit=args.limit, stdin=stdin,
                                         int_bits=args.int_bits, memory=args.memory,
                                         max_depth=args.max_depth, random_divisor=args.random_divisor,
                                         files=file_sandbox(args)))
        ran_out = stdin.ended and text.endswith("stopped\n")
        print(_shown(text.removesuffix("stopped\n") if ran_out else text), end="")
        if ran_out:
            print(_input_note(args.input, "tinyc_trace"), end="", file=sys.stderr)

    @line_cell_magic
    def tinyc_step(self, line: str, cell: str | None = None):
        """``%%tinyc_step [--entry NAME] [--input TEXT] [--limit N] [--dialect D]``: record the cell's run and show
        the stepper inline (docs/stepper.md); ``%tinyc_step`` steps the current program."""
        return self._guard(lambda: self._step(line, cell))

    def _step(self, line, cell):
        import tempfile
        from IPython.display import HTML, display
        from .options import session_of
        from ..debug.stepper import DEFAULT_LIMIT
        from ..debug.stepper_page import inline
        if cell is None and line.strip() and not line.strip().startswith("-"):
            line = "--entry " + shlex.quote(line.strip())
        parser = _parser("tinyc_step", entry=True)
        parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, metavar="N", help="steps to record at most")
        from .options import dialect_argument
        dialect_argument(parser, "the language (default: as the cell says)")
        args = self._args(parser, line)
        if cell is not None:
            self.program = cell.encode()
        dialect = self._dialect(args)
        stdin = (args.input or "").encode("latin-1").replace(b"\\n", b"\n")
        with tempfile.TemporaryDirectory(prefix="tinyc-") as tmp:
            path = self._cell_file(tmp)
            session = session_of(args, None, dialect, [path])
            trace = session.record(path, None if args.entry == "main" else args.entry, stdin, args.limit)
        trace.data["file"] = "cell"
        display(HTML(inline(trace)))
        if trace.data["message"]:
            print(trace.data["message"], file=sys.stderr)

    def _guard(self, action):
        try:
            with _StartDirOff():  # a program's cairocffi.py or lark.py is not what a lazy import finds
                action()
        except MagicError as e:
            if str(e):
                print(str(e), file=sys.stderr)
        except ValueError as e:  # e.g. a program too big for the buffer (views.load)
            print(f"tinyc: {e}", file=sys.stderr)


def load_ipython_extension(ipython) -> None:
    """``%load_ext tinyc``."""
    ipython.register_magics(TinyCMagics)
