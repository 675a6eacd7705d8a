"""The shell on a terminal: prompt_toolkit line editing for commands and for program input.

Command lines get history (``~/.tinyc_history``), completion of the dot commands and of function names,
and tiny-c highlighting.  Program input (``gs``, ``gn``, ``getchar``) is read through a second prompt
session on the same terminal, so the two never compete for the keyboard.  Whatever the program printed
after its last newline (``ps "guess? "``) becomes that prompt's text, so it stays on the input line.

Ctrl-C while a program runs raises KeyboardInterrupt in the engine, which stops it with error 99; at a
prompt it clears the line; Ctrl-D at the ``tc>`` prompt ends the shell like ``.x``.

A dumb terminal (``TERM=dumb`` or ``unknown``) cannot redraw a line, and prompt_toolkit's fallback for it
echoes only the character before the cursor after each edit, so completion and Ctrl-U left a screen that
no longer showed the line that ran (issue 26 item 11).  There both prompts read plain lines that the
terminal itself edits and echoes (erase, Ctrl-U, Ctrl-W), without completion, suggestions or history.
"""

from __future__ import annotations

import os
import sys
import re
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.styles.pygments import style_from_pygments_cls
from prompt_toolkit.keys import Keys
from prompt_toolkit.completion import Completer, Completion, PathCompleter, WordCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.lexers import PygmentsLexer
from prompt_toolkit.utils import is_dumb_terminal

from ..machine.console import Console
from .highlight import ShellLineLexer, TinyCStyle, colour_listing, colour_wanted
from .shell import COMMANDS, Command, Shell
if TYPE_CHECKING:
    from ..driver.session import Session

def _history_path() -> Path:
    from ..dirs import history_file
    return history_file()


class SafeFileHistory(FileHistory):
    """A :class:`FileHistory` that a file it cannot read or write does not break: prompt_toolkit stores each
    line inside its event loop, where an OSError became "Unhandled exception in event loop" and "Press ENTER
    to continue" at every Enter.  The first failure is kept in ``problem`` (the console reports it once,
    after the line) and the lines are then kept in memory only."""

    def __init__(self, filename: str) -> None:
        super().__init__(filename)
        self.problem: str | None = None
        self.failed = False

    def _fail(self, doing: str, e: OSError) -> None:
        if not self.failed:
            self.failed = True
            reason = e.strerror or type(e).__name__
            self.problem = (f"tinyc: cannot {doing} the history file {os.fsdecode(self.filename)} ({reason}): "
                            "going on without saving history")

    def load_history_strings(self):
        try:
            yield from list(super().load_history_strings())
        except OSError as e:
            self._fail("read", e)

    def store_string(self, string: str) -> None:
        if self.failed:
            return
        try:
            super().store_string(string)
        except OSError as e:
            self._fail("write", e)


def _report_history_problem(session: PromptSession) -> None:
    """Print, once, why the history file of ``session`` is not used (on stderr, on a line of its own)."""
    history = session.history
    problem = getattr(history, "problem", None)
    if problem:
        history.problem = None  # type: ignore[attr-defined]  # said once
        sys.stderr.write(problem + "\n")
        sys.stderr.flush()


class ShellCompleter(Completer):
    """Completes dot commands (``commands()``: the shell's, by default every one of :data:`COMMANDS`), file
    names after ``.r``/``.w``/``.o``, and function names in ``.statements``."""

    def __init__(self, function_names: Callable[[], list[str]],
                 commands: Callable[[], list[Command]] = lambda: COMMANDS):
        self.function_names = function_names
        self.commands = commands
        self.paths = PathCompleter(expanduser=True)

    def get_completions(self, document: Document, complete_event):
        text = document.text_before_cursor
        if not text.startswith("."):
            return
        if re.match(r"\.[rwo] ", text):
            name = text[3:].lstrip()
            for c in self.paths.get_completions(Document(name, len(name)), complete_event):
                completed = name[:len(name) + c.start_position] + c.text
                if os.path.isdir(os.path.expanduser(completed)):  # a folder: go on into it (issue 26 item 13)
                    c = Completion(c.text + "/", c.start_position, display=c.display)
                yield c
            return
        found = re.search(r"\w*$", text)
        assert found is not None  # \w*$ matches every string, if only with an empty word
        word = found.group()
        if len(word) == len(text) - 1:  # the first word after the dot: a command or a function
            for command in self.commands():
                if command.name.startswith(text):
                    yield Completion(command.name, -len(text), display_meta=command.help)
        if not self.name_can_start(text, word):
            return
        for name in self.function_names():
            if name.startswith(word) and name != word:
                yield Completion(name, -len(word), display_meta="function")

    @staticmethod
    def name_can_start(text: str, word: str) -> bool:
        """A name is being typed: at least its first letter, not a number, not inside a string, a
        character constant or a comment; or the statement's first word, right after the dot.  After a
        space, an operator or a comma nothing is offered until a letter is typed."""
        if not word:
            return text == "."
        if word[0].isdigit():
            return False
        before = text[:len(text) - len(word)]
        if "/*" in before:
            return False
        return before.count('"') % 2 == 0 and before.count("'") % 2 == 0


def plain_terminal(input=None, output=None) -> bool:
    """Whether lines are read plainly: the real terminal (``input``/``output`` None; tests pass their own)
    is dumb by prompt_toolkit's test (``TERM`` is ``dumb`` or ``unknown``)."""
    return input is None and output is None and is_dumb_terminal()


def read_terminal_line(fd: int) -> bytes | None:
    """One line from the terminal ``fd`` in its own line-editing (canonical) mode, its line end kept;
    None at the end of input (Ctrl-D on an empty line).  Reads the file descriptor unbuffered, so no
    typed-ahead line is held back from a later read.  Ctrl-C is SIGINT: KeyboardInterrupt."""
    line = b""
    while not line.endswith(b"\n"):
        chunk = os.read(fd, 4096)
        if not chunk:  # Ctrl-D: ends the input on an empty line, else hands over what was typed
            return line or None
        line += chunk
    return line


class ProgramConsole(Console):
    """A :class:`Console` whose program input (``gs``, ``gn``, ``getchar``) is read with prompt_toolkit's line
    editing: ``tinyc run`` on a terminal.  ``input``/``output`` are prompt_toolkit objects (None: the terminal)."""

    def __init__(self, out=None, strip_cr: bool = False, input=None, output=None):
        super().__init__(out=out, strip_cr=strip_cr)
        self.program: PromptSession[str] = PromptSession(history=InMemoryHistory(), input=input, output=output)
        self._chars = b""  # the rest of a line that getchar is reading
        self.plain = plain_terminal(input, output)  # a dumb terminal: the terminal edits the lines

    def _plain_prompt(self) -> bytes | None:
        """A dumb terminal's line: all output so far shown, then a line that the terminal's own line
        discipline edited and echoed, so what the screen shows is what is read."""
        self.flush()
        line = read_terminal_line(self.inp.fileno())
        if line is None:
            self.at_eof = True
            return None
        if line.endswith(b"\n"):
            self._last = b"\n"  # the terminal echoed the line end
        return line.rstrip(b"\n")

    def _prompt(self, session: PromptSession, **options) -> bytes | None:
        """Flush the output up to its last newline, show the rest as the prompt, read one line."""
        if self.plain:
            return self._plain_prompt()
        pending = bytes(self._buf)
        self._buf.clear()
        head, newline, tail = pending.rpartition(b"\n")
        self._buf += head + newline
        self.flush()
        message = tail.replace(b"\r", b"").decode("utf-8", errors="replace")
        started: list[bool] = []
        try:
            text = session.prompt(ANSI(message), pre_run=lambda: started.append(True), **options)
        except EOFError:
            self.at_eof = True
            return None
        finally:
            self._last = self._line_end(started, tail)
            _report_history_problem(session)
        return text.encode("utf-8", errors="surrogateescape")

    def _line_end(self, started: list[bool], prompt: bytes) -> bytes:
        """The last byte on the terminal after a prompt (``last``): a line end once the line editor ran
        (it ends its line however it stops: Enter, Ctrl-C, Ctrl-D), else the prompt's own last byte
        (Ctrl-C came as SIGINT before the editor started, or a dumb terminal's editor ran: it calls no
        pre_run, and a blank line is better than ``stopped`` after ``^C`` on one line)."""
        if started:
            return b"\n"
        return prompt[-1:] or self._last

    def _program_prompt(self) -> bytes | None:
        """A line for the running program.  Ctrl-C there is a key to the line editor, not SIGINT: it is
        noted (``interrupted``), so that ``tinyc run`` exits 130 as after Ctrl-C while computing; Ctrl-C
        and Ctrl-D are noted in ``read_ended`` (the editor has ended the line: no blank line follows).
        On a dumb terminal Ctrl-C is SIGINT, noted as ever, and the terminal shows ``^C`` mid-line."""
        try:
            line = self._prompt(self.program)
        except KeyboardInterrupt:
            if not self.plain:
                self.interrupted = self.read_ended = True
            raise
        self.read_ended = line is None and not self.plain
        return line

    def read_line(self) -> bytes | None:
        """A line for the running program (MC 15)."""
        if self._chars:
            line, self._chars = self._chars.rstrip(b"\n"), b""
            return line
        return self._program_prompt()

    def read_char(self) -> int | None:
        """A byte for the running program (MC 2): lines are read whole, then handed out byte by byte."""
        if not self._chars:
            line = self._program_prompt()
            if line is None:
                return None
            self._chars = line + b"\n"
        c, self._chars = self._chars[0], self._chars[1:]
        return c


class DebugConsole(ProgramConsole):
    """``tinyc debug`` on a terminal: the program's input lines read as ``tinyc run`` reads them, the
    debugger's commands with their own history (``debug-history`` beside the ``tc>`` history), suggestions
    from it and completion of ``words()`` (the commands, the program's names).  ``input``/``output``: as
    for :class:`ProgramConsole`."""

    def __init__(self, words: Callable[[], list[str]], strip_cr: bool = False, history: History | None = None,
                 input=None, output=None):
        super().__init__(strip_cr=strip_cr, input=input, output=output)
        if history is None:
            history = SafeFileHistory(str(_history_path().with_name("debug-history")))
        self.commands: PromptSession[str] = PromptSession(history=history, auto_suggest=AutoSuggestFromHistory(),
                                                          input=input, output=output)
        self.completer = WordCompleter(words)

    def read_command(self) -> bytes | None:
        """A debugger command (what was written after the last newline, the prompt, shown before it);
        None at the end of input; KeyboardInterrupt on Ctrl-C."""
        self._chars = b""
        return self._prompt(self.commands, completer=self.completer)


def _edit_buffer_keys() -> KeyBindings:
    """Ctrl-X Ctrl-E at ``tc>``: the ``.e`` command, the program buffer in ``$EDITOR``."""
    keys = KeyBindings()

    @keys.add("c-x", "c-e")
    def _(event):
        event.current_buffer.text = ".e"
        event.current_buffer.validate_and_handle()
    return keys


class TerminalConsole(ProgramConsole):
    """A :class:`Console` whose input lines come from prompt_toolkit.

    ``input``/``output`` are prompt_toolkit objects (None: the real terminal); tests pass a pipe input
    and a DummyOutput.  ``out`` receives the interpreter's output bytes as in :class:`Console`."""

    def __init__(self, out=None, strip_cr: bool = False, history: History | None = None,
                 input=None, output=None):
        super().__init__(out=out, strip_cr=strip_cr, input=input, output=output)
        colour = colour_wanted()
        self.commands: PromptSession[str] = PromptSession(
            history=history if history is not None else SafeFileHistory(str(_history_path())),
            lexer=PygmentsLexer(ShellLineLexer) if colour else None,
            style=style_from_pygments_cls(TinyCStyle) if colour else None,
            auto_suggest=AutoSuggestFromHistory(), key_bindings=self._paste_keys(_edit_buffer_keys()),
            input=input, output=output)
        self._pasted: list[bytes] = []  # the other lines of a multi-line paste, each a command of its own
        self._rest = ""  # a paste's last line when it had no line end: the next prompt starts with it

    def _paste_keys(self, keys: KeyBindings) -> KeyBindings:
        """A bracketed paste of several lines enters its lines at once, one command each, as if each were
        typed and entered (issue 26 item 12); a last line without a line end waits at the next prompt."""
        @keys.add(Keys.BracketedPaste)
        def _(event):
            data = event.data.replace("\r\n", "\n").replace("\r", "\n")
            if "\n" not in data:
                event.current_buffer.insert_text(data)
                return
            first, *rest = data.split("\n")
            self._rest = rest.pop()  # "" when the paste ended with a line end
            self._pasted += [line.encode("utf-8", errors="surrogateescape") for line in rest]
            event.current_buffer.insert_text(first)
            event.current_buffer.validate_and_handle()
        return keys

    def read_command(self, completer: Completer | None = None) -> bytes | None:
        """A ``tc>`` line with history, highlighting and completion; KeyboardInterrupt on Ctrl-C.

        A paste of several lines (bracketed paste) gives them one at a time, as if each were typed, so
        ``.r``/``.p`` lines in it are commands and program lines are inserted in order."""
        self._chars = b""
        if self._pasted:
            line = self._pasted.pop(0)
            self.write(line + b"\r\n")  # shown after its prompt, as a typed line is
            return line
        rest, self._rest = self._rest, ""
        return self._prompt(self.commands, completer=completer, default=rest)


def attach(shell: Shell, console: TerminalConsole) -> None:
    """Let ``shell`` read its commands through ``console``'s command session, with colour listings,
    ``.h``, ``.e``, a line on the meaning of each error and a warning before unsaved edits are lost."""
    completer = ShellCompleter(shell.function_names, shell.commands)
    shell.read_command = lambda: console.read_command(completer)
    shell.listing = colour_listing
    shell.newline_after_interrupt = console.plain  # a dumb terminal leaves ^C mid-line
    shell.interactive = True
    shell.explain = lambda code: console.write(meaning(code) + b"\r\n")
    shell.note = lambda text: console.write(dim(text) + b"\r\n")
    shell.edit_buffer = lambda: edit_in_editor(shell)


def meaning(code: int) -> bytes:
    """One dim line (plain without colour) saying what error ``code`` means."""
    from ..errors import ErrorCode
    try:
        text = f"  err {code}: {ErrorCode(code).text}  (.h lists them all)"
    except ValueError:
        text = f"  err {code}"
    return dim(text.encode())


def dim(text: bytes) -> bytes:
    """``text`` dim (faint) where colour is wanted, else as it is: a hint, not output."""
    return b"\x1b[2m" + text + b"\x1b[22m" if colour_wanted() else text


def edit_in_editor(shell: Shell) -> None:
    """``.e``: the program buffer in ``$VISUAL``/``$EDITOR`` (else vi); the edited text replaces it."""
    import os
    import shlex
    import subprocess
    import tempfile
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    data = shell.ws.text[1:].replace(b"\0", b'"')
    with tempfile.TemporaryDirectory(prefix="tinyc-") as tmp:
        path = Path(tmp) / "program.tc"
        path.write_bytes(data)
        shell.console.flush()
        try:
            status = subprocess.call([*shlex.split(editor), str(path)])
        except OSError as e:
            shell.say(f"cannot start {editor}: {e.strerror}".encode())
            return
        new = path.read_bytes().replace(b"\r", b"")
    if status != 0:
        shell.say(b"editor failed: buffer unchanged")
        return
    if new and not new.endswith(b"\n"):
        new += b"\n"
    if new == data:
        shell.status()
        return
    if len(new) > shell.ws.capacity:
        shell.say(b"Too big")
        return
    if not shell.buf.replace(1, shell.ws.pe + 1, new):
        shell.say(b"won't fit")
        return
    shell.buf.lo = min(shell.buf.lo, shell.buf.la)
    shell.edited()
    shell.status()


def run_terminal(session: Session, debugger=None) -> int:
    """The shell of ``session`` (its options; the console's ``strip_cr``) on the user's terminal;
    ``debugger(shell)`` (from the command line, which may use the debugger's layer) gives the hook that runs
    ``.debug STATEMENT``.  Returns the exit status: the shell's, 130 after Ctrl-C while the library boots, 1
    after the report of an error in the system file."""
    console = TerminalConsole(strip_cr=session.console.strip_cr)
    try:
        outcome = session.start(console)
    except KeyboardInterrupt:  # Ctrl-C while the library boots
        return 130
    if outcome.failed or session.current is None or session.workspace is None:
        return outcome.render()
    shell = Shell(session.current, session.workspace)
    attach(shell, console)
    if debugger is not None:
        shell.debugger = debugger(shell)
    return shell.loop()
