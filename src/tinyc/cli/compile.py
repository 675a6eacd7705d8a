"""``tinyc compile FILE...``: the Python the fast engine generates (:mod:`tinyc.views.compile`)."""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import TinyCError
from ..machine.session import boot_with_files
from ..views.compile import generated_python


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of ``tinyc compile``: the files, and whether to show the library functions used too."""
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--library", action="store_true",
                        help="also print the library functions the program calls")
    parser.add_argument("--entry", default="main",
                        help="the statement `tinyc run` would run (default: main): its code is shown too, and "
                             "the functions are generated for that run")


def command(args: argparse.Namespace) -> int:
    """Print the Python the fast engine generates for each function of the program (``tinyc compile``)."""
    args.engine = "fast"
    m, ws = boot_with_files(args)
    try:
        ws.type_statement(os.fsencode(args.entry))
        _, linked = m.link_application(ws.pr + ws.pe, ws.pr)
        entry = m.parse_entry(ws.ln, linked)
    except TinyCError as e:
        sys.stderr.write(ws.report(int(e.code), e.address - ws.pr, len(args.files) > 1))
        return 1
    sys.stdout.write(generated_python(m, linked, args.files, args.library, entry))
    return 0
