"""The shell on a terminal: prompt_toolkit line editing for commands and for program input.

Command lines get history (``~/.tinyc_history``), completion of the dot commands and of function names,
and tiny-c highlighting.  Program input (``gs``, ``gn``, ``getchar``) is read through a second prompt
session on the same terminal, so the two never compete for the keyboard.  Whatever the program printed
after its last newline (``ps "guess? "``) becomes that prompt's text, so it stays on the input line.

Ctrl-C while a program runs raises KeyboardInterrupt in the engine, which stops it with error 99; at a
prompt it clears the line; Ctrl-D at the ``tc>`` prompt ends the shell like ``.x``.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Callable

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion, PathCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.lexers import PygmentsLexer

from .console import Console
from .highlight import ShellLineLexer, colour_listing
from .shell import COMMANDS, Shell

HISTORY = Path.home() / ".tinyc_history"


class ShellCompleter(Completer):
    """Completes dot commands, file names after ``.r``/``.w``, and function names in ``.statements``."""

    def __init__(self, function_names: Callable[[], list[str]]):
        self.function_names = function_names
        self.paths = PathCompleter(expanduser=True)

    def get_completions(self, document: Document, complete_event):
        text = document.text_before_cursor
        if not text.startswith("."):
            return
        if re.match(r"\.[rw] ", text):
            name = text[3:].lstrip()
            yield from self.paths.get_completions(Document(name, len(name)), complete_event)
            return
        word = re.search(r"\w*$", text).group()
        if len(word) == len(text) - 1:  # the first word after the dot: a command or a function
            for cmd, meta in COMMANDS.items():
                if cmd.startswith(text):
                    yield Completion(cmd, -len(text), display_meta=meta)
        for name in self.function_names():
            if name.startswith(word) and name != word:
                yield Completion(name, -len(word), display_meta="function")


class ProgramConsole(Console):
    """A :class:`Console` whose program input (``gs``, ``gn``, ``getchar``) is read with prompt_toolkit's line
    editing: ``tinyc run`` on a terminal.  ``input``/``output`` are prompt_toolkit objects (None: the terminal)."""

    def __init__(self, out=None, strip_cr: bool = False, input=None, output=None):
        super().__init__(out=out, strip_cr=strip_cr)
        self.program = PromptSession(history=InMemoryHistory(), input=input, output=output)
        self._chars = b""  # the rest of a line that getchar is reading

    def _prompt(self, session: PromptSession, **options) -> bytes | None:
        """Flush the output up to its last newline, show the rest as the prompt, read one line."""
        pending = bytes(self._buf)
        self._buf.clear()
        head, newline, tail = pending.rpartition(b"\n")
        self._buf += head + newline
        self.flush()
        message = tail.replace(b"\r", b"").decode("utf-8", errors="replace")
        try:
            text = session.prompt(ANSI(message), **options)
        except EOFError:
            self.at_eof = True
            return None
        return text.encode("utf-8", errors="surrogateescape")

    def read_line(self) -> bytes | None:
        """A line for the running program (MC 15)."""
        if self._chars:
            line, self._chars = self._chars.rstrip(b"\n"), b""
            return line
        return self._prompt(self.program)

    def read_char(self) -> int | None:
        """A byte for the running program (MC 2): lines are read whole, then handed out byte by byte."""
        if not self._chars:
            line = self._prompt(self.program)
            if line is None:
                return None
            self._chars = line + b"\n"
        c, self._chars = self._chars[0], self._chars[1:]
        return c


class TerminalConsole(ProgramConsole):
    """A :class:`Console` whose input lines come from prompt_toolkit.

    ``input``/``output`` are prompt_toolkit objects (None: the real terminal); tests pass a pipe input
    and a DummyOutput.  ``out`` receives the interpreter's output bytes as in :class:`Console`."""

    def __init__(self, out=None, strip_cr: bool = False, history: History | None = None,
                 input=None, output=None):
        super().__init__(out=out, strip_cr=strip_cr, input=input, output=output)
        self.commands = PromptSession(history=history if history is not None else FileHistory(str(HISTORY)),
                                      lexer=PygmentsLexer(ShellLineLexer), input=input, output=output)

    def read_command(self, completer: Completer | None = None) -> bytes | None:
        """A ``tc>`` line with history, highlighting and completion; KeyboardInterrupt on Ctrl-C."""
        self._chars = b""
        return self._prompt(self.commands, completer=completer)


def attach(shell: Shell, console: TerminalConsole) -> None:
    """Let ``shell`` read its commands through ``console``'s command session, with colour listings."""
    completer = ShellCompleter(shell.function_names)
    shell.read_command = lambda: console.read_command(completer)
    shell.listing = colour_listing
    shell.newline_after_interrupt = False


def run_terminal(args: argparse.Namespace) -> int:
    """The shell on the user's terminal."""
    from .cli import boot
    console = TerminalConsole(strip_cr=args.strip_cr)
    try:
        machine, workspace = boot(args, console)
    except KeyboardInterrupt:  # Ctrl-C while the library boots
        return 130
    shell = Shell(machine, workspace)
    attach(shell, console)
    return shell.loop()
