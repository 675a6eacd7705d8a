"""``tinyc trace FILE``: the statement tracer of :mod:`tinyc.debug.tracer` on the command line."""

from __future__ import annotations

import argparse
import sys

from .options import file_sandbox, memory_ok
from ..driver.workspace import LINE
from ..debug.tracer import DEFAULT_LIMIT, run_traced, same_destination
from .options import machine_options
from .stage_views import read_program


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Options of ``tinyc trace FILE [--entry NAME] [--calls] [--limit N] [--library]``."""
    parser.add_argument("file", metavar="FILE", help="a tiny-c program")
    parser.add_argument("--entry", default="main", help="statement to run (default: main)")
    parser.add_argument("--calls", action="store_true", help="show only calls (with arguments) and returns")
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, metavar="N",
                        help=f"trace lines to show before the program runs on untraced (default {DEFAULT_LIMIT})")
    parser.add_argument("--library", action="store_true", help="trace inside library functions too")
    machine_options(parser)  # the shared options, when the parser does not have them from its parent


def command(args: argparse.Namespace) -> int:
    """Run the traced program; 1 with the tiny-c report on an error, 130 after Ctrl-C (``stopped``), 2 for bad
    command-line use."""
    program = read_program(args.file)
    if program is None:
        return 2
    if not memory_ok(args):
        return 2
    if len(args.entry) > LINE:
        print(f"tinyc: --entry is longer than {LINE} characters", file=sys.stderr)
        return 2
    try:
        _, outcome = run_traced(
            program, args.entry, sys.stdin.buffer, sys.stdout.buffer, sys.stderr, args.calls, args.limit,
            args.library, same_destination(sys.stdout, sys.stderr), args.strip_cr, args.echo,
            args.int_bits, args.memory, args.max_depth, args.random_divisor, files=file_sandbox(args),
            dialect=getattr(args, "dialect", None))
    except ValueError as e:
        print(f"tinyc: {args.file}: {e}", file=sys.stderr)
        return 2
    sys.stdout.flush()
    return outcome.render()


