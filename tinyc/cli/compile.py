"""``tinyc compile FILE...``: the Python the fast engine generates (:mod:`tinyc.views.compile`)."""

from __future__ import annotations

import argparse
import os
import re
import sys

from .. import ast
from ..errors import TinyCError
from .options import boot_with_files
from ..views.compile import generated_python
from .options import optimisation_options


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of ``tinyc compile``: the files, and whether to show the library functions used too."""
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="program files, loaded in order as `tinyc run` loads them (- is stdin)")
    parser.add_argument("--library", action="store_true",
                        help="also print the library functions the program calls")
    parser.add_argument("--entry", default="main",
                        help="the statement `tinyc run` would run (default: main): its code is shown too, and "
                             "the functions are generated for that run")
    optimisation_options(parser)


def _missing_entry(entry: str, program, linked, m) -> str:
    """Why ``--entry`` names nothing to run (a bare name that no level defines), with the program's
    functions to choose from; "" when it is defined or is a statement rather than a name."""
    if not re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", entry):
        return ""
    if linked.tables[0].get(entry) is not None or m.library.get(entry) is not None:
        return ""
    functions = [item.name for item in program.items if isinstance(item, ast.Function)]
    which = ", ".join(functions) if functions else "none"
    return (f"the program defines no {entry}; its functions: {which} "
            f"(--entry NAME compiles for the run of another)")


def command(args: argparse.Namespace) -> int:
    """Print the Python the fast engine generates for each function of the program (``tinyc compile``)."""
    m, ws = boot_with_files(argparse.Namespace(**{**vars(args), "engine": "fast"}))  # the fast engine's code
    try:
        ws.type_statement(os.fsencode(args.entry))
        program, linked = m.link_application(ws.pr + ws.pe, ws.pr)
        entry = m.parse_entry(ws.ln, linked)
        missing = _missing_entry(args.entry, program, linked, m)
        if missing:
            print(f"tinyc compile: {missing}", file=sys.stderr)
            return 2
    except TinyCError as e:
        sys.stderr.write(ws.report(int(e.code), e.address - ws.pr, len(args.files) > 1))
        return 1
    sys.stdout.write(generated_python(m, linked, args.files, args.library, entry))
    return 0
