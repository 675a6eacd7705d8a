"""``tinyc dap``: the Debug Adapter Protocol server of :mod:`tinyc.views.dap` on stdin/stdout.

The options given here (machine and dialect options) apply to every program a client launches; a
``launch`` request's ``dialect`` overrides ``--dialect``."""

from __future__ import annotations

import argparse
import copy
from pathlib import Path

from .options import machine_options


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Options of ``tinyc dap``: the dialect's options and the machine options."""
    from .options import dialect_options
    dialect_options(parser)
    machine_options(parser)


def runner_factory(base: argparse.Namespace):
    """``make_runner(arguments, console)`` for a ``launch`` request's arguments: ``program`` (a file),
    ``entry`` (PC: the statement to run; Gibson: run instead of main()), ``dialect`` (pc or gibson).
    Raises DapError for a program that cannot be read or started."""
    from ..driver.session import boot_with_files, file_sandbox
    from ..machine.shipped import ProgramFileError, find_program
    from ..views.dap import DapError
    from ..views.debug_runs import GibsonRunner, PcRunner
    from .options import chosen_dialect

    def make_runner(arguments: dict, console):
        args = copy.copy(base)
        dialect, entry = arguments.get("dialect"), arguments.get("entry", "main")
        if dialect not in (None, "pc", "gibson") or not isinstance(entry, str) or not entry.strip():
            raise DapError("launch: 'dialect' is pc or gibson, 'entry' a statement")
        args.dialect = dialect or base.dialect
        path = Path(find_program(str(arguments["program"]))).resolve()
        if not path.is_file():
            raise DapError(f"launch: {arguments['program']}: no such program file")
        if chosen_dialect(args, path) == "gibson":
            from ..dialects.gibson.machine import StartError
            from ..dialects.gibson.plugins import PluginError
            code = args.code if args.code is not None else (entry if entry != "main" else None)
            try:
                return GibsonRunner(path, console, code, args.memory, args.max_depth, args.allow_system,
                                    args.allow_plugins, file_sandbox(args, []))
            except (StartError, PluginError) as e:
                raise DapError(f"launch: {e.message.strip()}") from None
        args.files = [str(path)]
        try:
            m, ws = boot_with_files(args, console)
        except (ProgramFileError, OSError) as e:
            raise DapError(f"launch: {e}") from None
        return PcRunner(m, ws, entry)
    return make_runner


def command(args: argparse.Namespace) -> int:
    """Serve one adapter session on the standard streams; 0 when the client disconnects."""
    import sys
    from ..views.dap import serve
    return serve(sys.stdin.buffer, sys.stdout.buffer, runner_factory(args))
