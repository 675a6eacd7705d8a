"""``tinyc-kernel``: a Jupyter kernel whose cells are tiny-c (issue 28 part 2; docs/kernel.md).

An ipykernel wrapper kernel.  A cell is, after its leading ``%`` magic lines (:mod:`tinyc.kernel.magics`):

* definitions (functions, globals; :mod:`tinyc.kernel.cells`): added to the program, a redefinition replacing the
  old one (and saying so); a statement after them, on a later line, then runs;
* a ``.`` line or lines: the ``tc>`` shell's commands (``.main``, ``.p 5``, ``.r bc.tc``, ``.h``);
* anything else: a statement run against the program, as the shell runs ``.statement``.

The program's output is sent while it runs, its input is asked with Jupyter's input request (or taken
from ``%input`` lines), a tiny-c error is shown as the shell reports it (three lines, the caret under
the point) in a Jupyter error, and an interrupt stops the program with ``stopped``, the program kept.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from pathlib import Path
from typing import Any, Iterator

from ipykernel.kernelbase import Kernel

from .. import __version__
from ..errors import ErrorCode
from . import cells, magics
from .console import KernelConsole, NoInput
from .program import LINE, CellError, LinkFailure, Program

KEYWORDS = ("if", "else", "while", "for", "return", "break", "int", "char")


def shown(text: str) -> str:
    """Program bytes carried as Latin-1 characters (tinyc's views and reports), as UTF-8 text."""
    return text.encode("latin-1", "tinyc.bytes").decode("utf-8", "replace")


def _word_at(code: str, cursor: int, right: bool = False) -> tuple[int, int]:
    """The span of the name at ``cursor`` (the part before it; with ``right`` the part after it too)."""
    start = cursor
    while start > 0 and (code[start - 1].isalnum() or code[start - 1] == "_"):
        start -= 1
    end = cursor
    while right and end < len(code) and (code[end].isalnum() or code[end] == "_"):
        end += 1
    return start, end


@contextlib.contextmanager
def _default_sigint() -> Iterator[None]:
    """Python's own SIGINT handler (KeyboardInterrupt) for the block, the one before restored after; in a
    thread other than the main one (no signals there) nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


class TinyCKernel(Kernel):
    """The tiny-c kernel: one :class:`~tinyc.kernel.program.Program` for the kernel's life."""

    implementation = "tinyc"
    implementation_version = __version__
    language = "tiny-c"
    language_version = "tiny-c/PC (Linux port)"
    language_info = {
        "name": "tinyc",
        "version": "1.0",
        "mimetype": "text/x-tinyc",
        "file_extension": ".tc",
        "pygments_lexer": "tinyc",
        "codemirror_mode": {"name": "clike", "mime": "text/x-csrc"},
    }
    banner = f"tinyc {__version__}: tiny-c cells (definitions, statements, .shell commands, %magics)"

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._parent: dict = {}
        self._errors: list[tuple[int, str]] = []
        self.console = KernelConsole(self._out_text, self._ask)
        self.console.pictures = self._picture  # Gibson's graphics: each picture drawn is shown in the cell
        self.program = Program(self.console, lambda code, report: self._errors.append((code, report)))

    # -- messages
    def _send(self, kind: str, content: dict) -> None:
        """An IOPub message for the cell being run (safe from the output thread: the parent is passed)."""
        if self.session is not None:
            self.session.send(self.iopub_socket, kind, content, parent=self._parent, ident=self._topic(kind))

    def _out_text(self, text: str) -> None:
        """A stream message (the console's send: its coalesced output)."""
        if text:
            self._send("stream", {"name": "stdout", "text": text})

    def _say(self, text: str) -> None:
        """The kernel's own text (a magic's, a redefinition's note; program bytes carried as Latin-1
        characters) into the console's buffer, so that it goes in one stream message with the program's."""
        self.console.write(text.encode("latin-1", "tinyc.bytes"))

    def _picture(self, path: Path) -> None:
        """A picture the program drew (a PNG file), shown after the output written before it."""
        import base64
        self.console.flush()
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        self._send("display_data", {"data": {"image/png": data, "text/plain": str(path.name)}, "metadata": {}})

    def _html(self, html: str) -> None:
        """HTML shown in the cell (the stepper of ``%step``), after the output written before it."""
        self.console.flush()
        self._send("display_data", {"data": {"text/html": html, "text/plain": "the stepper"}, "metadata": {}})

    def _ask(self, prompt: str) -> str:
        """A line of input from the front end; NoInput when it sends none, KeyboardInterrupt at the stop
        button (SIGINT) while it waits, whatever SIGINT handler the program set: the debugger's, which at a
        stop only says that ``q`` quits, would leave the cell waiting for ever."""
        try:
            with _default_sigint():
                return self.raw_input(prompt)
        except EOFError:
            raise
        except KeyboardInterrupt:
            raise
        except Exception:  # StdinNotImplementedError: the front end takes no input
            raise NoInput from None

    # -- execution
    async def do_execute(self, code: str, silent: bool, store_history: bool = True,
                         user_expressions: dict | None = None, allow_stdin: bool = False,
                         *, cell_meta: Any = None, cell_id: Any = None) -> dict:
        """Run one cell (see the module's docstring); every tiny-c error is a Jupyter error reply."""
        self._allow_stdin = allow_stdin
        # a front end that takes no input runs the notebook as a batch: its cells' outputs stay one message
        # each whatever the time, so a rerun saves the same .ipynb (console.py)
        self.console.progress = allow_stdin
        self._parent = self.get_parent("shell")
        self._errors = []
        self.console.reset()
        try:
            self._cell(code)
        except LinkFailure as e:
            self._errors.append((e.code, e.report))
        except CellError as e:
            self._errors.append((0, str(e)))
        except KeyboardInterrupt:
            self._errors.append((int(ErrorCode.KILL), "stopped"))
        except Exception as e:  # an interpreter bug must not end the kernel: one line, as the shell says it
            self.log.exception("internal error")  # the traceback goes to the kernel's log
            self._errors.append((-1, f"internal error: {type(e).__name__}: {e}"))
        if self.console.interrupted and not self._errors:  # a debugger stopped at the stop button quits
            self._errors.append((int(ErrorCode.KILL), "stopped"))
        self.console.flush()
        if not self._errors:
            return {"status": "ok", "execution_count": self.execution_count, "payload": [],
                    "user_expressions": {}}
        return self._error(*self._errors[-1])

    def _error(self, code: int, report: str) -> dict:
        """The error reply and its IOPub message: the tiny-c report as the traceback."""
        name = f"tiny-c error {code}" if code > 0 else "tinyc"
        if code > 0 and code != ErrorCode.KILL:
            try:
                value = ErrorCode(code).text
            except ValueError:
                value = ""
        else:
            value = report.strip().splitlines()[0] if report.strip() else ""
        content = {"ename": name, "evalue": value, "traceback": shown(report).rstrip("\n").split("\n")}
        self._send("error", content)
        return {"status": "error", "execution_count": self.execution_count, **content}

    def _cell(self, code: str) -> None:
        lines = code.strip("\n").split("\n")
        while lines and lines[0].lstrip().startswith("%"):
            magics.obey(lines.pop(0).strip(), self.program, self._say, self._html)
        rest = "\n".join(lines).strip()
        if not rest:
            return
        data = rest.encode()
        split = cells.split_cell(data.decode("latin-1"), self.program.whole)  # one character a byte
        if split is not None:
            statement = split[1]
            for note in self.program.add(data[:len(data) - len(statement)]):
                self._say(note + "\n")
            rest = statement.encode("latin-1").decode("utf-8", "replace").strip()
        if rest:
            self._run(rest)

    def _run(self, rest: str) -> None:
        """What follows a cell's definitions: ``.`` lines for the shell, else one statement."""
        if rest.startswith(".") and self.program.whole:
            if "\n" in rest or not rest[1:2].isalpha():
                raise CellError(f"the {self.program.dialect} dialect has no tc> shell: a . cell is one statement (.main)")
            rest = rest[1:]
        elif rest.startswith("."):
            self._shell_lines(rest)
            return
        self._statement(rest)

    def _shell_lines(self, text: str) -> None:
        """Each line as typed at ``tc>`` (a ``.`` line is a command of the shell's one table)."""
        for line in text.split("\n"):
            if self._errors:
                return
            self.program.shell.command(line.rstrip("\r").encode())

    def _statement(self, statement: str) -> None:
        line = cells.one_line(statement).encode()
        if len(line) > LINE:
            raise CellError(f"a statement cell is one line of at most {LINE} bytes, as the shell's line: "
                            f"this one is {len(line)}; put the code in a function and call it")
        self.program.run(line)

    # -- completion and inspection
    async def do_complete(self, code: str, cursor_pos: int) -> dict:
        """Tab: magics after ``%``, the shell's commands after a line's ``.``, then the program's and the
        library's names and the keywords."""
        line_start = code.rfind("\n", 0, cursor_pos) + 1
        start, _ = _word_at(code, cursor_pos)
        word = code[start:cursor_pos]
        before = code[line_start:start]
        if before == "%":
            options, start = magics.names(), start - 1
            word = "%" + word
        elif before == "." and not self.program.whole:
            options = [c.name for c in self.program.shell.commands()] + ["." + n for n in self._names()]
            start, word = start - 1, "." + word
        else:
            options = self._names() + list(KEYWORDS)
        matches = sorted({o for o in options if o.startswith(word) and o != word})
        return {"status": "ok", "matches": matches, "cursor_start": start, "cursor_end": cursor_pos,
                "metadata": {}}

    def _names(self) -> list[str]:
        try:
            return sorted(self.program.names())
        except Exception:  # a program the scan cannot read offers no names, and no error
            return []

    async def do_inspect(self, code: str, cursor_pos: int, detail_level: int = 0,
                         omit_sections: Any = ()) -> dict:
        """Shift-Tab: a function's parameters and its leading comment; a global's declaration."""
        start, end = _word_at(code, cursor_pos, right=True)
        name = code[start:end]
        found = self.program.names().get(name) if name else None
        if found is None:
            return {"status": "ok", "found": False, "data": {}, "metadata": {}}
        if found.kind == "func":
            text = f"{name} {found.head}".rstrip()
        else:
            text = f"global: {name}"
        if found.comment:
            text += "\n\n" + found.comment
        return {"status": "ok", "found": True, "data": {"text/plain": shown(text)}, "metadata": {}}

    async def do_is_complete(self, code: str) -> dict:
        """A console's Enter: a cell with a ``[`` still open goes on to another line."""
        from ..syntax.lexer import tokenize
        depth = 0
        for t in tokenize(code, 0, tolerant=True):
            depth += {"LSQB": 1, "RSQB": -1}.get(t.type, 0)
        if depth > 0:
            return {"status": "incomplete", "indent": "  " * depth}
        if depth < 0:  # a ] with no [ (a lone ]): the console reports it rather than running it
            return {"status": "invalid"}
        return {"status": "complete"}

    async def do_shutdown(self, restart: bool) -> dict:
        return {"status": "ok", "restart": restart}
