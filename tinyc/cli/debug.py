"""``tinyc debug FILE...`` and ``tinyc run -d FILE...``: the debugger of :mod:`tinyc.debug.debugger`."""

from __future__ import annotations

import argparse
import sys

from ..machine.console import Console
from ..machine.shipped import find_program
from .options import machine_options


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Options of ``tinyc debug FILE... [--entry NAME]`` and the dialect's options."""
    from .options import dialect_options
    parser.add_argument("files", nargs="+", metavar="FILE", help="program files, loaded in order")
    parser.add_argument("--entry", default="main", help="statement to run (default: main)")
    dialect_options(parser)
    machine_options(parser)


def command(args: argparse.Namespace) -> int:
    """The debugging session on stdin/stdout (commands and the program's input share stdin, as with
    Gibson's ``tc -d``); 0 when it ends, 2 for bad command-line use or a program that cannot start."""
    from ..driver.dialect import CannotStart
    from .options import session_of
    from ..debug.runs import debug
    from .options import UsageError, chosen_dialect
    if "-" in args.files:
        raise UsageError("debug: the commands are read from standard input: give the program as a FILE")
    made: list = []  # the runner, for the terminal's completion of the program's names
    console = terminal_console(args, lambda: sorted(WORDS) + sorted(made[0].names if made else ()))
    session = session_of(args, console, chosen_dialect(args, find_program(args.files[-1])))
    try:
        runner = session.debugger(args.files, args.entry, args.code)
        made.append(runner)
    except CannotStart as e:
        (sys.stdout if e.stdout else sys.stderr).write(e.message)
        return e.status
    return debug(runner, console, args.quiet)


WORDS = ("r", "run", "c", "continue", "n", "next", "s", "step", "finish", "q", "quit")


def terminal_console(args: argparse.Namespace, words) -> Console:
    """The console of a session: on a terminal (stdin and stdout), prompt_toolkit's line editing with a
    history and completion of ``words()`` and the debugger's commands; piped, plain lines."""
    if not args.echo and sys.stdin.isatty() and sys.stdout.isatty():
        from ..shell.terminal import DebugConsole
        from ..debug.commands import COMMANDS
        return DebugConsole(lambda: sorted(set(COMMANDS) | set(words())), strip_cr=args.strip_cr)
    return Console(strip_cr=args.strip_cr, echo=args.echo)
