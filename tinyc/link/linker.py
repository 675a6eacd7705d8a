"""Linker: a parsed text to its global symbol levels, with globals allocated in the flat memory.

As the original linker scans a program (reference section 4, "Linking"): top-level ``[...]`` blocks
are skipped (the first one is remembered: an IPL's start-up statement), declarations allocate zeroed
globals in declaration order with no padding (section 14 item 14), any other top-level name is a
function, and ``endlibrary`` starts a new level.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it
if TYPE_CHECKING:
    from typing import Callable

from .. import ast
from ..syntax.lexer import Level
from .symbols import Symbol, SymbolTable


class LinkedText:
    """A text after linking: one SymbolTable per level (before and after ``endlibrary``).

    ``lex_levels`` are the same levels as the lexer classifies names with (function or variable);
    ``startup`` is the first top-level block, the statement an IPL runs when booted.
    """

    def __init__(self, base: int, text: bytes, tables: list[SymbolTable], lex_levels: list[Level],
                 startup: ast.Block | None = None, functions: list[ast.Function] | None = None) -> None:
        self.base = base
        self.text = text
        self.tables = tables
        self.lex_levels = lex_levels
        self.startup = startup
        self.functions: list[ast.Function] = [] if functions is None else functions


if TYPE_CHECKING:
    Allocator = Callable[[str, int, int], int]      # (type, element count, error cursor) -> address
    Evaluate = Callable[[ast.Expr], int]            # constant expression -> value


def link(program: ast.Program, base: int, text: bytes, allocate: Allocator, evaluate: Evaluate,
         names: tuple[str, ...] = ("library", "program"), function_cells: bool = False) -> LinkedText:
    """Build the symbol tables of ``program`` and allocate its globals with ``allocate``.

    Array bounds are evaluated with ``evaluate`` when the declaration is linked.  With ``function_cells``
    every function definition also takes one int (4 bytes, unused) of the value space where it stands
    among the globals, as Gibson's linker gives each symbol its allocation (gibson-dialect.md 1.4).
    Raises TinyCError (through ``allocate`` or ``evaluate``) when memory runs out or a bound is not a
    valid expression.
    """
    tables = [SymbolTable(names[0])]
    linked = LinkedText(base, text, tables, [Level()])
    for item in program.items:
        if isinstance(item, ast.EndLibrary):
            tables.append(SymbolTable(names[min(len(tables), len(names) - 1)]))
            linked.lex_levels.append(Level())
        elif isinstance(item, ast.Block):
            if linked.startup is None:
                linked.startup = item
        elif isinstance(item, ast.Function):
            if function_cells:
                allocate("int", 1, item.pos)
            tables[-1].define(Symbol(item.name, "func", address=item.pos, function=item))
            linked.lex_levels[-1].add(item.name, True)
            linked.functions.append(item)
        elif isinstance(item, ast.Decl):
            for d in item.names:
                tables[-1].define(declare(item.type, d, allocate, evaluate))
                linked.lex_levels[-1].add(d.name, False)
    return linked


def declare(type_: str, d: ast.Declarator, allocate: Allocator, evaluate: Evaluate) -> Symbol:
    """Allocate zeroed space for one declarator: a scalar, or an array of N+1 elements (section 3)."""
    if d.size is None:
        return Symbol(d.name, "var", type_, False, allocate(type_, 1, d.end))
    length = evaluate(d.size) + 1
    return Symbol(d.name, "var", type_, True, allocate(type_, max(length, 0), d.end), length)
