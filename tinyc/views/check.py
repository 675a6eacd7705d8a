"""``tinyc check FILE...``: every syntax error and undeclared name of a program, found up front.

The interpreter finds these only when the statement runs, as the original did (reference section 14
item 16).  This linter parses every function eagerly and reports, in text order, each statement that
does not parse and each name that no level declares (the function's parameters and locals, the
program, the library), each the way ``tinyc run`` would report it.  Exit status 1 if it found any.
"""

from __future__ import annotations

import argparse
import sys

from .. import ast
from ..engines.codegen import walk
from ..errors import ErrorCode, TinyCError


def add_arguments(parser: argparse.ArgumentParser, name: str) -> None:
    """Arguments of ``tinyc check``: the files, loaded one after another as ``tinyc run`` loads them."""
    parser.add_argument("files", nargs="+", metavar="FILE")


def problems(program: ast.Program, declared) -> list[tuple[int, int]]:
    """``(error number, address)`` of every ErrorStmt and undeclared name in ``program``'s functions.

    ``declared(name)`` tells whether a global level (program or library) declares a name."""
    found = []
    for item in program.items:
        if not isinstance(item, ast.Function):
            continue
        if item.error is not None:
            found.append((item.error.code, item.error.address))
            continue
        local = {d.name for decl in item.params for d in decl.names}
        local |= {d.name for n in walk(item.body) if isinstance(n, ast.Decl) for d in n.names}
        for n in walk([item.params, item.body]):
            if isinstance(n, ast.ErrorStmt):
                found.append((n.code, n.address))
            elif isinstance(n, (ast.Var, ast.Index, ast.Call)) and n.name not in local and not declared(n.name):
                found.append((int(ErrorCode.SYMERRA), n.end if isinstance(n, ast.Var) else n.name_end))
    return sorted(set(found), key=lambda p: p[1])


def command(args: argparse.Namespace) -> int:
    """Report every problem of the program made of ``args.files``; 0 if none, 1 if any."""
    from ..machine.session import boot_with_files
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
