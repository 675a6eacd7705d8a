"""``tinyc check FILE...``: every syntax error and undeclared name of a program, found up front
(:mod:`tinyc.views.check`)."""

from __future__ import annotations

import argparse
import sys

from ..errors import TinyCError
from ..machine.session import boot_with_files
from ..views.check import problems


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of ``tinyc check``: the files, loaded one after another as ``tinyc run`` loads them."""
    parser.add_argument("files", nargs="+", metavar="FILE")


def command(args: argparse.Namespace) -> int:
    """Report every problem of the program made of ``args.files``; 0 if none, 1 if any."""
    m, ws = boot_with_files(args)
    by_file = len(args.files) > 1
    try:
        program, linked = m.link_application(ws.pr + ws.pe, ws.pr)
    except TinyCError as e:
        sys.stderr.write(ws.report(int(e.code), e.address - ws.pr, by_file))
        return 1
    table, library = linked.tables[0], m.library
    found = problems(program, lambda name: table.get(name) is not None or library.get(name) is not None)
    for code, address in found:
        sys.stderr.write(ws.report(code, address - ws.pr, by_file))
    names = ", ".join(args.files)
    print(f"{names}: {len(found)} problem{'s' if len(found) != 1 else ''}" if found else f"{names}: no problems",
          file=sys.stderr)
    return 1 if found else 0
