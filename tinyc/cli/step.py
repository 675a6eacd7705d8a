"""``tinyc step FILE [--entry E] [--input TEXT] [--limit N] -o run.html``: record a run (tinyc.debug.stepper) and
write it as one self-contained stepper page (tinyc.debug.stepper_page), or as the JSON trace (``--json``)."""

from __future__ import annotations

import argparse
import sys

from .options import memory_ok, session_of
from ..debug.stepper import DEFAULT_LIMIT
from ..debug.stepper_page import MAX_PAGE_STEPS
from .options import chosen_dialect, machine_options


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Options of ``tinyc step``."""
    from .options import dialect_argument
    parser.add_argument("file", metavar="FILE", help="a tiny-c program")
    parser.add_argument("--entry", default=None, help="statement to run (default: main)")
    parser.add_argument("--input", default="", metavar="TEXT", help="the program's standard input (\\n ends a line)")
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, metavar="N",
                        help=f"steps to record before the run stops (default {DEFAULT_LIMIT})")
    parser.add_argument("--statements", action="store_true", help="statement steps only (no expression steps)")
    parser.add_argument("--json", action="store_true", help="write the trace's JSON (docs/stepper.md), not a page")
    parser.add_argument("-o", "--output", required=True, metavar="OUT", help="the file to write (run.html)")
    dialect_argument(parser, "the language (default: gibson for a file that starts with #include, else pc)")
    machine_options(parser)


def command(args: argparse.Namespace) -> int:
    """Record and write; 0 when the page is written (whatever the run did: the page shows its report), 1 for
    a program with a syntax error (nothing recorded: the page shows the reports, and they go to standard
    error too), 2 for bad command-line use or a file that cannot be read or written."""
    from ..machine.shipped import ProgramFileError, program_path
    if not memory_ok(args):
        return 2
    if args.limit < 1:
        print("tinyc: --limit must be at least 1 step", file=sys.stderr)
        return 2
    args.dialect = chosen_dialect(args, program_path(args.file), "recording it")
    session = session_of(args)
    stdin = args.input.encode("latin-1").replace(b"\\n", b"\n")
    try:
        trace = session.record(args.file, args.entry, stdin, args.limit, small=not args.statements)
    except ProgramFileError as e:
        print(f"tinyc: {e}", file=sys.stderr)
        return 2
    if args.json:
        text = trace.json()
    else:
        from ..debug.stepper_page import page
        text = page(trace, MAX_PAGE_STEPS)
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        print(f"tinyc: {args.output}: {e.strerror}", file=sys.stderr)
        return 2
    d = trace.data
    if trace.status == "syntax":  # nothing to step through: the page shows the reports; they go here too
        sys.stderr.write(d["report"])
        print(f"tinyc: {args.file} has a syntax error: nothing recorded; {args.output} shows the report "
              "(`tinyc check` lists every problem)", file=sys.stderr)
        return 1
    print(f"tinyc: {args.output}: {len(d['steps'])} steps ({d['status']}) of {args.file}, {len(text)} bytes"
          + (f"; {d['message']}" if d["message"] else ""), file=sys.stderr)
    return 0
