"""``tinyc debug FILE...`` and ``tinyc run -d FILE...``: the debugger of :mod:`tinyc.views.debugger`."""

from __future__ import annotations

import argparse
import sys

from ..machine.console import Console
from ..driver.session import boot_with_files, file_sandbox
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
    from ..views.debug_runs import GibsonRunner, PcRunner, debug
    from .options import UsageError, chosen_dialect
    if "-" in args.files:
        raise UsageError("debug: the commands are read from standard input: give the program as a FILE")
    console = Console(strip_cr=args.strip_cr, echo=args.echo)
    if chosen_dialect(args, find_program(args.files[-1])) == "gibson":
        if len(args.files) > 1:
            raise UsageError("the Gibson dialect runs one application file (use #include lines)")
        from ..dialects.gibson.machine import StartError
        from ..dialects.gibson.plugins import PluginError
        code = args.code if args.code is not None else (args.entry if args.entry != "main" else None)
        try:
            runner = GibsonRunner(find_program(args.files[0]), console, code, args.memory, args.max_depth,
                                  args.allow_system, args.allow_plugins, file_sandbox(args, []))
        except (StartError, PluginError) as e:
            (sys.stdout if getattr(e, "stdout", False) else sys.stderr).write(e.message)
            return e.status
        return debug(runner, console, args.quiet)
    m, ws = boot_with_files(args, console)
    return debug(PcRunner(m, ws, args.entry), console)
