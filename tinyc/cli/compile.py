"""``tinyc compile FILE...``: the Python the fast engine generates (:mod:`tinyc.views.compile`)."""

from __future__ import annotations

import argparse
import sys

from ..errors import TinyCError
from ..machine.session import boot_with_files
from ..views.compile import generated_python


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of ``tinyc compile``: the files, and whether to show the library functions used too."""
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--library", action="store_true",
                        help="also print the library functions the program calls")


def command(args: argparse.Namespace) -> int:
    """Print the Python the fast engine generates for each function of the program (``tinyc compile``)."""
    args.engine = "fast"
    m, ws = boot_with_files(args)
    try:
        _, linked = m.link_application(ws.pr + ws.pe, ws.pr)
    except TinyCError as e:
        sys.stderr.write(ws.report(int(e.code), e.address - ws.pr, len(args.files) > 1))
        return 1
    sys.stdout.write(generated_python(m, linked, args.files, args.library))
    return 0
