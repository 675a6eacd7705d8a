"""``tinyc check FILE...``: every syntax error and undeclared name of a program, found up front.

The interpreter finds these only when the statement runs, as the original did (reference section 14
item 16).  This linter parses every function eagerly and reports, in text order, each statement that
does not parse and each name that no level declares (the function's parameters and locals, the
program, the library), each the way ``tinyc run`` would report it, and each name defined twice at the
program level (``int x, x``, two functions ``f``, a ``main`` in two files), where the linker silently keeps
the first.  Exit status 1 if it found any.
"""

from __future__ import annotations

import re

from .. import ast
from ..errors import ErrorCode, TinyCError
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


def duplicates(program: ast.Program) -> list[tuple[str, int, int]]:
    """``(name, address, first address)`` of every program-level name defined again after its first
    definition (a global, a function), and of a name a function declares twice as a parameter: each
    address is the end of the name, where a report's ``<`` points.  The linker keeps the first one."""
    found: list[tuple[str, int, int]] = []
    first: dict[str, int] = {}

    def define(name: str, end: int, seen: dict[str, int]) -> None:
        if name in seen:
            found.append((name, end, seen[name]))
        else:
            seen[name] = end
    for item in program.items:
        if isinstance(item, ast.Decl):
            for d in item.names:
                define(d.name, d.end, first)
        elif isinstance(item, ast.Function):
            define(item.name, item.pos + len(item.name), first)
            params: dict[str, int] = {}
            for decl in item.params:
                for d in decl.names:
                    define(d.name, d.end, params)
    return sorted(found, key=lambda f: f[1])


def message(code: int) -> str:
    """``error N: TEXT``: the error number and its meaning (reference section 10.1)."""
    text = ErrorCode(code).text if code in ErrorCode._members else "error"
    return f"error {code}: {text}"


def _name_before(m, address: int, code: int) -> str:
    """``: NAME`` for an undefined symbol (error 26), the name that ends at ``address``; else ``""``."""
    if code != ErrorCode.SYMERRA:
        return ""
    text = m.memory.block(max(0, address - 64), address - 1)
    name = re.search(rb"[A-Za-z_][A-Za-z_0-9]*$", text)
    return f": {name.group().decode('ascii')}" if name else ""


def syntax_errors(m, ws) -> list[tuple[int, int]]:
    """``(error number, cursor relative to ``ws.pr``)`` of every syntax error of the program in the workspace
    ``ws`` of machine ``m`` (tiny-c/PC), in text order: the link error alone (an unbalanced ``[``), else each
    statement or function header that does not parse.  Undeclared names are left out: they are not errors
    of the text.  What the stepper refuses to record (issue 37); reference section 14 item 16."""
    try:
        program, _ = m.link_application(ws.pr + ws.pe, ws.pr)
    except TinyCError as e:
        return [(int(e.code), e.address - ws.pr)]
    return [(code, address - ws.pr) for code, address in problems(program, lambda name: True)]


def collect(m, ws, by_file: bool = False) -> list[tuple[int | None, int, str]]:
    """:func:`linked_problems`' problems only."""
    return linked_problems(m, ws, by_file)[1]


def linked_problems(m, ws, by_file: bool = False) -> tuple[ast.Program | None, list[tuple[int | None, int, str]]]:
    """The program's AST as the linker parsed it (None when the link fails) and every problem ``tinyc check`` reports for the program in the workspace ``ws`` of machine ``m``
    (tiny-c/PC), in text order: ``(error number or None for a duplicate definition, cursor relative to
    ``ws.pr``, message)``.  The message is ``error N: MEANING`` (``: NAME`` added for error 26), or says
    where the first definition of a name defined again is (``FILE:LINE:COL`` with ``by_file``)."""
    found: list[tuple[int | None, int, str]] = []
    try:
        program, linked = m.link_application(ws.pr + ws.pe, ws.pr)
    except TinyCError as e:
        found.append((int(e.code), e.address - ws.pr, message(int(e.code))))
        return None, found
    table, library = linked.tables[0], m.library
    declared = problems(program, lambda name: table.get(name) is not None or library.get(name) is not None)
    found += [(code, address - ws.pr, message(code) + _name_before(m, address, code)) for code, address in declared]
    for name, address, first in duplicates(program):
        file, line, column = ws.locate(first - ws.pr)
        where = f"{file}:{line}:{column}" if by_file else f"line {line}"
        found.append((None, address - ws.pr, f"{name} is defined again: the first definition, at {where}, "
                                             "is the one used"))
    found.sort(key=lambda f: f[1])
    return program, found
