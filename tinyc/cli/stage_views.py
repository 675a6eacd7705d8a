"""``tinyc tokens|parse|ast|link``: the stage views of :mod:`tinyc.views.stages` on the command line."""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import TinyCError
from ..machine.console import align_report
from .options import memory_ok
from ..machine.shipped import ProgramFileError, read_source
from ..views.stages import VIEWS, load, parse_tree, token_listing, link_map
from .options import machine_options


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Options of ``tinyc tokens|parse|ast|link``: a FILE, a statement (``-e``), or both."""
    parser.add_argument("file", nargs="?", metavar="FILE", help="a tiny-c program")
    if name != "link":
        parser.add_argument("-e", dest="statement", metavar="STATEMENT",
                            help="show a statement as the shell would run it (against FILE, if given)")
    if name == "link":
        parser.add_argument("--library", action="store_true", help="also list the library's functions")
    if name == "tokens":
        parser.add_argument("--layout", action="store_true", help="also show blanks, comments and newlines")
    machine_options(parser)  # the shared options, when the parser does not have them from its parent


def read_program(path: str | None) -> bytes | None:
    """The bytes of ``path`` ("" if None; ``-`` is standard input; a shipped program's name finds it), or
    None after printing why it cannot be read (one message, naming the path, for every reason)."""
    if path is None:
        return b""
    try:
        return read_source(path)
    except ProgramFileError as e:
        print(f"tinyc: {e}", file=sys.stderr)
        return None


def command(args: argparse.Namespace) -> int:
    """Print one stage view; 1 with the tiny-c report on a syntax error, 2 for bad command-line use.

    ``tinyc tokens`` prints the tokens of a program the parser rejects, then the report."""
    statement = getattr(args, "statement", None)
    if statement is not None:  # typed text is bytes too: the bytes the terminal sent, one char per byte
        statement = os.fsencode(statement).decode("latin-1")
    if args.file is None and statement is None:
        print(f"tinyc {args.command}: give a FILE" + ("" if args.command == "link" else " or -e STATEMENT"),
              file=sys.stderr)
        return 2
    program = read_program(args.file)
    if program is None:
        return 2
    if not memory_ok(args):
        return 2
    try:
        loaded = load(program, statement, args.int_bits, args.memory)
    except ValueError as e:
        print(f"tinyc: {args.file}: {e}", file=sys.stderr)
        return 2
    try:
        if args.command == "tokens":
            text, error = token_listing(loaded, layout=args.layout)
            sys.stdout.write(text)  # the tokens before a bad character, too
            text = ""
            if error is not None:
                raise error
            parse_tree(loaded)  # the tokens are shown; a syntax error the parser finds is reported too
        elif args.command == "link":
            text = link_map(loaded, show_library=args.library)
        else:
            text = VIEWS[args.command](loaded)
    except TinyCError as e:
        sys.stdout.flush()  # the tokens first, then the report, also when both go to one pipe
        sys.stderr.write(align_report(loaded.report(e), sys.stderr.isatty()))
        return 1
    sys.stdout.write(text)
    return 0
