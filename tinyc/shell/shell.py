"""The ``tc>`` shell: the tiny-c/PC Linux line editor (reference section 9), run by ``tinyc``.

Each input line is a command of section 9.3.  Output is written the way the Linux shell writes it with
``pl``/``ps``/``pn``: ``pl`` puts CR LF *before* its text, ``pn`` a space before the number, so messages
appear as ``text`` CR LF and numbers as `` N``.  Lines of the program are printed as they are in the
buffer (MC 13), each ending in its LF.  Where the reference leaves a detail open, the choice made here is
documented in docs/shell.md.

Commands and program input come from the same :class:`~tinyc.machine.console.Console`, in order (section 14
item 10).  On a terminal, :mod:`tinyc.shell.terminal` gives the console a prompt_toolkit input instead.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, NamedTuple

from .. import __version__
from ..machine.console import align_report
from . import extras
from .editor import LineBuffer
from ..driver.outcome import EXITED, INTERRUPT, STOPPED, statement_outcome
from ..driver.interpreter import Machine
from ..driver.workspace import LINE, Workspace

CRLF = b"\r\n"

# the line forms that are not dot commands: ``obey`` and ``dot`` tell them by their first bytes
LINE_FORMS = [
    (".N  +n  -n", "go to line N, n lines down, n lines up; an empty line goes one down"),
    (".name args", "run a statement against the program, e.g. .main or .pn 2+3"),
    ("other lines", "are inserted after the current one"),
]

_FUNC_DEF = re.compile(rb"^([A-Za-z_]\w*)[^\n\[]*\[", re.M)
_NOT_FUNCS = {b"if", b"else", b"while", b"for", b"return", b"break", b"int", b"char", b"endlibrary"}


def banner() -> bytes:
    """The start-up text (section 14 item 13): our own banner, then the shell's three ``pl`` lines."""
    ours = f"tinyc {__version__} - tiny-c in Python, following the tiny-c/PC interpreter (Linux port)"
    return ours.encode() + CRLF + CRLF + f"tiny-c shell - tinyc {__version__}".encode() + CRLF + CRLF


def _number(text: bytes, default: int = 1) -> int:
    """Leading blanks then digits (at most 5, as the library's ``num``); ``default`` if there are none."""
    m = re.match(rb"\s*(\d{1,5})", text)
    return int(m.group(1)) if m else default


def _alnum(c: int) -> bool:
    return chr(c).isascii() and (chr(c).isalnum() or c == ord("_"))


class Shell:
    """The shell's state (current line, last ``.l`` pattern, last ``.c`` change) and its commands.

    ``read_command`` reads one command line (bytes, None at end of input); ``listing`` turns program
    lines into the bytes to show (identity, or colour on a terminal).
    """

    def __init__(self, machine: Machine, workspace: Workspace,
                 read_command: Callable[[], bytes | None] | None = None,
                 listing: Callable[[bytes], bytes] | None = None):
        self.machine = machine
        self.exited = False  # the program ended the interpreter (MC 10)
        self.ws = workspace
        self.console = machine.console
        self.buf = LineBuffer(workspace)
        self.read_command = read_command or self.console.read_line
        self.listing = listing or (lambda data: data)
        self.newline_after_interrupt = True  # a terminal's line editor already ends the line itself
        self.pattern: bytes | None = None
        self.change: tuple[bytes, bytes] | None = None
        # terminal-only behaviour (tinyc.shell.terminal.attach turns it on; a pipe keeps the original's bytes)
        self.interactive = False       # .h, .e, unsaved-edits warning
        self.hinted = False            # the note on a line such as `exit` inserted as program text was given
        self.note: Callable[[bytes], None] = self.say  # a hint: a terminal shows it dim
        self.explain: Callable[[int], None] | None = None  # one line on the meaning of an error number
        self.edit_buffer: Callable[[], None] | None = None  # .e
        self.debugger: Callable[[bytes], None] | None = None  # .debug STATEMENT (the command line sets it)
        self.dirty = False             # edits not yet written with .w
        self._warned = False
        self.undo: list[tuple[bytes, int, bool]] = []  # (buffer text, current line, dirty) before each edit
        self.interrupt = INTERRUPT  # the interrupt policy the statements run under (the web page's Stop sets it)

    # -- output, as ps/pl/pn would write it
    def say(self, text: bytes) -> None:
        """``ps text`` then ``pl ""``."""
        self.console.write(text + CRLF)

    def show(self, lines: bytes) -> None:
        """Program lines (MC 13); a NUL left by a run (a string's closing quote) shows as ``"``."""
        self.console.write(self.listing(lines.replace(b"\0", b'"')))

    def status(self) -> None:
        """``./``: `` lo la pe free``."""
        self.say(b" %d %d %d %d" % (self.buf.lo, self.buf.la, self.ws.pe, self.ws.free))

    def goto(self, line: int) -> None:
        """Make ``line`` (clamped to 0..la) current and print it."""
        self.buf.lo = max(0, min(line, self.buf.la))
        self.show(self.buf.lines(self.buf.lo, 1))

    # -- the main loop
    def loop(self) -> int:
        """Banner, then prompt and obey commands until ``.x`` or the end of input; returns exit status 0."""
        self.console.write(banner())
        while True:
            self.console.write(b"tc>")
            try:
                line = self.read_command()
            except KeyboardInterrupt:  # Ctrl-C at the prompt: drop the line
                if self.newline_after_interrupt:
                    self.console.write(CRLF)
                continue
            if line is None:
                if self._may_leave():
                    break
                continue
            try:
                if self.command(line) and (self.exited or self._may_leave()):
                    break
            except KeyboardInterrupt:
                self.say(b"stopped")
        if not self.exited:
            self.console.write(CRLF)  # .x and the end of input leave a blank line, as the DOC shows
        self.console.flush()
        return 0

    def _may_leave(self) -> bool:
        """On a terminal, the first ``.x``/Ctrl-D with unsaved edits warns instead of leaving."""
        if not (self.interactive and self.dirty) or self._warned:
            return True
        self._warned = True
        self.console.write(CRLF + b"unsaved edits: .w FILE writes them; .x (or Ctrl-D) again leaves" + CRLF)
        return False

    def edited(self) -> None:
        self.dirty, self._warned = True, False

    def help(self) -> None:
        """``.h`` on a terminal: every command in one line, then the error numbers and their meaning."""
        from ..errors import ErrorCode
        codes = [b"%4d %s" % (int(c), c.text.encode()) for c in ErrorCode]
        forms = [(c.form, c.help) for c in self.commands()] + LINE_FORMS
        self.console.write(CRLF.join(extras.help_lines(forms, codes)) + CRLF)

    def function_names(self) -> list[str]:
        """Functions of the loaded program (definitions at the start of a line) and of the library."""
        names = {m.group(1).decode("latin-1") for m in _FUNC_DEF.finditer(self.ws.text)
                 if m.group(1) not in _NOT_FUNCS}
        library = self.machine.library
        if library is not None:
            names.update(s.name for s in library if s.kind == "func")
        return sorted(names)

    def command(self, line: bytes) -> bool:
        """Obey one input line; True when the shell is to end.  On a terminal an edit can be undone (``.u``):
        the buffer before each command that changed it is kept (not before a statement, whose run may
        write into the buffer, nor before ``.u`` itself)."""
        if not self.interactive or line[:2] == b".u" or self._is_statement(line):
            return self.obey(line)
        before = (self.ws.text, self.buf.lo, self.dirty)
        done = self.obey(line)
        if self.ws.text != before[0]:
            self.undo = self.undo[1 - extras.UNDO_DEPTH:] + [before]
        return done

    @staticmethod
    def _is_statement(line: bytes) -> bool:
        return len(line) > 2 and line[0] == ord(".") and _alnum(line[2]) and not chr(line[1]).isdigit()

    def obey(self, line: bytes) -> bool:
        """Obey one input line as the original shell does (plus the terminal's commands); True to end."""
        if not line:
            self.goto(self.buf.lo + 1)
        elif line[0] == ord("."):
            return self.dot(line)
        elif line[0] == ord("+"):
            self.goto(self.buf.lo + _number(line[1:]))
        elif line[0] == ord("-"):
            self.goto(self.buf.lo - _number(line[1:]))
        elif not self.buf.insert_after(self.buf.lo, line):
            self.say(b"won't fit")
        else:
            self.edited()
            if self.interactive and not self.hinted and extras.other_shell_word(line):
                # `exit`, `clear`, `ls` typed out of habit are now program text: say so, once a session
                self.hinted = True
                self.note(b"  inserted `%s` as line %d (.u takes it back);" % (line.strip(), self.buf.lo)
                          + extras.LEAVE_HINT[1:])
        return False

    def dot(self, line: bytes) -> bool:
        """A line starting with a dot: ``.N``, a command of :data:`COMMANDS` or ``.statement``."""
        if len(line) < 2:
            return False
        if chr(line[1]).isdigit():
            self.goto(_number(line[1:], 0))
            return False
        command = self.lookup(line)
        if command is None and len(line) > 2 and _alnum(line[2]):
            return self.statement(line[1:])
        if command is None:
            self.say(b"???")
            return False
        return command.handler(self, line[len(command.name):]) is True

    def commands(self) -> list[Command]:
        """The commands of :data:`COMMANDS` this shell obeys now (a pipe: the original's alone)."""
        return [c for c in COMMANDS if c.available(self)]

    def lookup(self, line: bytes) -> Command | None:
        """The command ``line`` starts with: a word (``.debug``) followed by nothing or a blank, else a
        one-character name (``.p``, ``./``); None if it is none of this shell's."""
        commands = self.commands()
        for command in commands:
            name = command.name.encode()
            if len(name) > 2 and line.startswith(name) and line[len(name):len(name) + 1] in (b"", b" "):
                return command
        if len(line) > 2 and _alnum(line[2]):  # .pn 3 is a statement, not .p
            return None
        return next((c for c in commands if c.name.encode() == line[:2]), None)

    # -- the commands: each takes the rest of its line; a true result ends the shell
    def cmd_status(self, rest: bytes) -> None:
        """``./``: the status line."""
        self.status()

    def cmd_help(self, rest: bytes) -> None:
        """``.h``: the commands and the error numbers."""
        self.help()

    def cmd_edit(self, rest: bytes) -> None:
        """``.e``: the program buffer in an editor (the terminal's hook)."""
        assert self.edit_buffer is not None  # Command.available: only where the hook is set
        self.edit_buffer()

    def cmd_value(self, rest: bytes) -> bool:
        """``.= expr``: the statement ``pn expr``."""
        return self.statement(b"pn " + rest.strip())

    def cmd_leave(self, rest: bytes) -> bool:
        """``.x``: end the shell."""
        return True

    def cmd_debug(self, rest: bytes) -> bool:
        """``.debug [stmt]``: the statement (``main``) under the debugger."""
        return self.debug(rest.strip() or b"main")

    def cmd_read(self, rest: bytes) -> None:
        """``.r file``: append the file (:meth:`read`)."""
        self.read(rest)

    def read(self, rest: bytes) -> int:
        """``.r file``: append the file; `` N`` (bytes read), then the status line.  Returns N."""
        empty = self.ws.pe == 0
        n = self.ws.read_file(rest.strip().decode("latin-1"))
        if n == -1:
            self.console.write(CRLF + b"File not found")
        elif n == -2:
            self.console.write(CRLF + b"Too big")
        elif n == -3:  # the sandbox's: the same for every door (docs/security.md)
            self.console.write(CRLF + b"Not allowed: outside the sandbox (--allow-read PATH)")
        self.say(b" %d" % n)
        if n < 0:
            return n
        if self.ws.pe and not self.ws.text.endswith(b"\n"):
            self.ws.append(b"\n")  # keep every line newline-terminated (docs/shell.md)
        if not empty:
            self.edited()  # the buffer is no longer the file just read
        self.status()
        if self.interactive and extras.looks_binary(self.ws.text[-n:] if n else b""):
            self.say(b"warning: that file looks binary, not tiny-c text (.u takes it back)")
        return n

    # -- the terminal's own commands (extras)
    def cmd_numbered(self, rest: bytes) -> None:
        """``.n [n]``: ``.p`` with each line's number in front."""
        n = max(1, _number(rest))
        self.show(extras.numbered(self.buf.lines(self.buf.lo, n).replace(b"\0", b'"'), self.buf.lo))
        self.buf.lo = min(self.buf.lo + n - 1, self.buf.la)

    def cmd_undo(self, rest: bytes) -> None:
        """``.u``: the buffer, the current line and the unsaved-edits mark as before the last edit."""
        if not self.undo:
            self.say(b"nothing to undo")
            return
        text, lo, dirty = self.undo.pop()
        self.buf.replace(1, self.ws.pe + 1, text[1:])
        self.buf.lo, self.dirty = min(lo, self.buf.la), dirty
        self.status()

    def cmd_clear(self, rest: bytes) -> None:
        """``.k``: an empty program buffer (what was there can be brought back with ``.u``)."""
        self.buf.replace(1, self.ws.pe + 1, b"")
        self.ws.files.clear()
        self.buf.lo, self.dirty = 0, False
        self.status()

    def cmd_open(self, rest: bytes) -> None:
        """``.o file``: the file in place of the program buffer; the buffer is kept if it cannot be read."""
        text, lo = self.ws.text, self.buf.lo
        self.buf.replace(1, self.ws.pe + 1, b"")
        self.buf.lo = 0
        if self.read(rest) < 0 and len(text) > 1:  # nothing read: the old buffer stays
            self.buf.replace(1, 1, text[1:])
            self.buf.lo = lo
        else:
            self.ws.files[:] = self.ws.files[-1:]
            self.dirty = False

    def cmd_write(self, rest: bytes) -> None:
        """``.w file``: the status line, then write ``pr(1..pe)`` and print the byte count.

        A NUL in the buffer is a string's closing quote that a run replaced (reference section 2); it is
        written back as ``"`` so that the file stays a valid program."""
        self.status()
        data = self.ws.text[1:].replace(b"\0", b'"')
        from ..machine.sandbox import Outside, Refused
        try:  # through the machine's file sandbox, as a program's own writes (issue 35)
            with self.machine.files.open(rest.strip().decode("latin-1"), "wb", note=False) as f:
                f.write(data)
        except Refused as e:
            why = str(e).split(": ", 1)[-1] if not isinstance(e, Outside) else "outside the sandbox (--allow-write PATH)"
            self.console.write(CRLF + b"Not allowed: " + why.encode("latin-1", "replace"))
            self.say(b" -1")
            return
        except (OSError, ValueError):
            self.console.write(CRLF + b"cannot write file")
            self.say(b" -1")
            return
        self.say(b" %d" % len(data))
        self.dirty = False

    def cmd_print(self, rest: bytes) -> None:
        """``.p [n]``: print n lines from the current one; the last printed becomes current."""
        n = max(1, _number(rest))
        self.show(self.buf.lines(self.buf.lo, n))
        self.buf.lo = min(self.buf.lo + n - 1, self.buf.la)

    def cmd_delete(self, rest: bytes) -> None:
        """``.d [n]``: delete n lines from the current one."""
        if self.buf.lo == 0:
            self.say(b"cannot delete line 0")
        else:
            self.buf.delete(self.buf.lo, max(1, _number(rest)))
            self.edited()

    def cmd_locate(self, rest: bytes) -> None:
        """``.l text``: find text after the current line; bare ``.l`` repeats the last search."""
        pattern = rest[1:] if rest[:1] == b" " else rest
        if pattern:
            self.pattern = pattern
        if self.pattern is None:
            self.console.write(CRLF + b"locate what?" + CRLF)
            return
        if self.buf.lo >= self.buf.la:
            self.say(b"at bottom")
            return
        found = self.buf.locate(self.pattern)
        if found is None:
            self.say(b"?")
        else:
            self.goto(found)

    def cmd_change(self, rest: bytes) -> None:
        """``.c/old/new/`` (any delimiter) in the current line; bare ``.c`` repeats the last change."""
        if rest:
            delim, body = rest[:1], rest[1:]
            old, _, tail = body.partition(delim)
            self.change = (old, tail.partition(delim)[0])
        if self.change is None:
            self.say(b"?")
            return
        done = self.buf.change(*self.change)
        if done is None:
            self.say(b"won't fit")
        elif not done:
            self.say(b"?")
        else:
            self.edited()
            self.goto(self.buf.lo)

    def debug(self, text: bytes) -> bool:
        """``.debug STATEMENT``: run ``text`` (``main`` when none is given) against the program under the
        debugger (:mod:`tinyc.debug.debugger`); the shell goes on when its session ends."""
        assert self.debugger is not None
        self.console.flush()
        try:
            self.debugger(text)
        except KeyboardInterrupt:
            self.say(b"stopped")
        self.buf.lo = 0
        return False

    def statement(self, text: bytes) -> bool:
        """``.anything-else``: run ``text`` against the program (MC 11); True if it ended the interpreter."""
        if self.interactive and len(text) > LINE:
            # the original cuts it to the line buffer ln(133) and then fails on the cut (error 9); a pipe
            # keeps that, a terminal says why and runs nothing
            self.say(b"line too long: the statement after the dot has %d bytes, the line buffer holds %d "
                     b"(a longer one goes in a function of the program)" % (len(text), LINE))
            return False
        self.console.flush()  # the command line shows before a long run
        self.console.read_ended = False
        try:
            outcome = statement_outcome(self.ws, text, interrupt=self.interrupt)
        except Exception as e:  # an interpreter bug must not lose the session
            self.console.write(CRLF)
            self.say(f"internal error: {type(e).__name__}: {e}".encode("latin-1", "replace"))
            return False
        if outcome.kind == EXITED:  # MC 10 ends the interpreter, shell and all, with nothing more written
            self.exited = True
            return True
        stopped = outcome.interrupted or outcome.code == 99
        if not (stopped and self.console.read_ended):  # else the line editor has ended the line
            self.console.write(CRLF)
        self.buf.lo = self.buf.line_of(outcome.address - self.ws.pr) if outcome.address >= 0 else 0
        if stopped:
            self.say(STOPPED.rstrip().encode())
        elif outcome.failed:
            err = outcome.code
            report = outcome.report
            if self.interactive:
                report = align_report(report, terminal=True)
            self.console.write(report.replace("\n", "\r\n").encode("latin-1"))
            if self.explain is not None:
                self.explain(err)
            if self.interactive and err == 26 and extras.leave_word(text):
                self.say(extras.LEAVE_HINT)
        return False


def _anywhere(shell: Shell) -> bool:
    return True


def _terminal(shell: Shell) -> bool:
    return shell.interactive


class Command(NamedTuple):
    """One dot command of the shell: the one table (:data:`COMMANDS`) from which ``.h``, completion and
    dispatch (:meth:`Shell.dot`) are derived.

    ``name`` is what is typed, dot included (``.r``, ``./``, ``.debug``); ``args`` what follows it in
    ``.h`` (``file``, ``[n]``, ``/old/new/``); ``help`` the ``.h`` line; ``handler(shell, rest)`` obeys it
    with the rest of the line (the bytes after the name) and returns true to end the shell; ``available``
    says whether a shell obeys it: through a pipe only the original's commands are (the others print
    ``???`` there, as the original did for any unknown letter)."""
    name: str
    args: str
    help: str
    handler: Callable[[Shell, bytes], bool | None]
    available: Callable[[Shell], bool] = _anywhere

    @property
    def form(self) -> str:
        """The command as ``.h`` shows it: ``.r file``, ``.c/old/new/``."""
        if not self.args:
            return self.name
        return self.name + ("" if self.args.startswith("/") else " ") + self.args


COMMANDS = [
    Command(".r", "file", "read (append) a file to the program buffer", Shell.cmd_read),
    Command(".w", "file", "write the program buffer to a file", Shell.cmd_write),
    Command(".p", "[n]", "print n lines from the current one", Shell.cmd_print),
    Command(".d", "[n]", "delete n lines from the current one", Shell.cmd_delete),
    Command(".l", "text", "locate text after the current line (^ = line end; .l alone repeats)",
            Shell.cmd_locate),
    Command(".c", "/old/new/", "change old to new in the current line (.c alone repeats)", Shell.cmd_change),
    Command("./", "", "status: current line, lines, bytes, bytes free", Shell.cmd_status),
    Command(".e", "", "edit the program buffer in $EDITOR (also Ctrl-X Ctrl-E)", Shell.cmd_edit,
            lambda shell: shell.interactive and shell.edit_buffer is not None),
    Command(".n", "[n]", "print n lines with their line numbers", Shell.cmd_numbered, _terminal),
    Command(".u", "", "undo the last edit (insert, .d, .c, .r, .e, .k, .o), again and again", Shell.cmd_undo,
            _terminal),
    Command(".k", "", "clear the program buffer (.u brings it back)", Shell.cmd_clear, _terminal),
    Command(".o", "file", "open a file in place of the program buffer (.u brings the old one back)",
            Shell.cmd_open, _terminal),
    Command(".=", "expr", "print the value of an expression, as .pn expr does", Shell.cmd_value, _terminal),
    Command(".debug", "[stmt]", "run a statement (main) against the program under the debugger: b NAME, r, n, "
            "s, p, bt, x ADDR...; q comes back here (help lists its commands)", Shell.cmd_debug,
            lambda shell: shell.interactive and shell.debugger is not None),
    Command(".h", "", "this help", Shell.cmd_help, _terminal),
    Command(".x", "", "leave the shell (Ctrl-D too)", Shell.cmd_leave),
]
