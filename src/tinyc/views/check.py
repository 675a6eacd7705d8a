"""``tinyc check FILE...``: every syntax error and undeclared name of a program, found up front.

The interpreter finds these only when the statement runs, as the original did (reference section 14
item 16).  This linter parses every function eagerly and reports, in text order, each statement that
does not parse and each name that no level declares (the function's parameters and locals, the
program, the library), each the way ``tinyc run`` would report it.  Exit status 1 if it found any.
"""

from __future__ import annotations


from .. import ast
from ..errors import ErrorCode
from ..engines.codegen import walk


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
