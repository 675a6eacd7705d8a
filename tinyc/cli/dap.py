"""``tinyc dap``: the Debug Adapter Protocol server of :mod:`tinyc.debug.dap` on stdin/stdout.

The options given here (machine and dialect options) apply to every program a client launches; a
``launch`` request's ``dialect`` overrides ``--dialect``.  The sandbox policy (``--allow-read`` ...
``--allow-plugins``) is the server's alone: a launch configuration is the project's file, someone else's
code, and a ``launch`` request that asks for an ``allow...`` key is refused (docs/security.md)."""

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
    from ..driver.dialect import CannotStart
    from .options import session_of
    from ..machine.shipped import ProgramFileError, find_program
    from ..debug.dap_extras import DapError
    from .options import chosen_dialect

    def make_runner(arguments: dict, console):
        args = copy.copy(base)
        asked = [k for k in arguments if str(k).lower().replace("-", "").replace("_", "").startswith("allow")]
        if asked:
            raise DapError(f"launch: {asked[0]!r}: a launch request cannot widen the sandbox; start the server "
                           f"with the --allow-... options instead (tinyc dap --help)")
        dialect, entry = arguments.get("dialect"), arguments.get("entry", "main")
        from ..driver.dialect import Choices
        if dialect is not None and dialect not in Choices() or not isinstance(entry, str) or not entry.strip():
            raise DapError(f"launch: 'dialect' is {' or '.join(Choices())}, 'entry' a statement")
        args.dialect = dialect or base.dialect
        path = Path(find_program(str(arguments["program"]))).resolve()
        if not path.is_file():
            raise DapError(f"launch: {arguments['program']}: no such program file")
        args.files = [str(path)]
        session = session_of(args, console, chosen_dialect(args, path))
        try:
            return session.debugger(args.files, entry, args.code)
        except CannotStart as e:
            raise DapError(f"launch: {e.message.strip()}") from None
        except (ProgramFileError, OSError) as e:
            raise DapError(f"launch: {e}") from None
    return make_runner


def command(args: argparse.Namespace) -> int:
    """Serve one adapter session on the standard streams; 0 when the client disconnects."""
    import sys
    from ..debug.dap import serve
    return serve(sys.stdin.buffer, sys.stdout.buffer, runner_factory(args))
