"""Symbol tables and call frames (reference section 3, "Globals vs locals; scoping").

Lookup searches three levels in order: the running function's locals (a :class:`Frame`), the
program's globals, then the library.  Within one level the first declaration of a name wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import ast


@dataclass(slots=True)
class Symbol:
    """A variable or a function.

    For a scalar, ``address`` is where its value lives in the flat memory.  For an array, ``address`` is
    the pointer the name denotes: kept here, not in memory, and assignable (an array name is an
    lvalue); ``length`` is its declared element count N+1, used by the range check (section 3).
    For a function, ``function`` is its AST and ``address`` the byte after its name.
    """

    name: str
    kind: str                 # "var" or "func"
    type: str = "int"         # "int" or "char"
    array: bool = False
    address: int = 0
    length: int = 1
    function: ast.Function | None = None


@dataclass
class SymbolTable:
    """One global level: canonical name -> Symbol, first declaration wins."""

    name: str
    symbols: dict[str, Symbol] = field(default_factory=dict)

    def define(self, sym: Symbol) -> Symbol:
        return self.symbols.setdefault(sym.name, sym)

    def get(self, name: str) -> Symbol | None:
        return self.symbols.get(name)

    def __iter__(self):
        return iter(self.symbols.values())


@dataclass
class Frame:
    """One active function call: its locals and the value-space mark to free on return."""

    function: ast.Function | None
    locals: dict[str, Symbol] = field(default_factory=dict)
    mark: int = 0
    declared: int = 0  # declarations executed, counting repeats (a redeclared local leaks)

    def declare(self, sym: Symbol) -> Symbol:
        return self.locals.setdefault(sym.name, sym)
