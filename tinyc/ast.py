"""The tiny-c abstract syntax tree: typed nodes, one dataclass per construct (reference sections 3-6).

Every node carries ``pos`` and ``end``: byte offsets of its first character and one past its last, in
the text it was parsed from.  The linker adds the text's base address to turn them into the absolute
addresses that error reports use.  Names are stored canonicalised (first 7 characters plus the last).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Node:
    pos: int
    end: int


# ---- expressions (section 6)

@dataclass(slots=True)
class Number(Node):
    value: int


@dataclass(slots=True)
class CharLit(Node):
    value: int


@dataclass(slots=True)
class String(Node):
    """A string literal; ``pos`` is its opening quote, ``length`` the bytes between the quotes."""
    length: int


@dataclass(slots=True)
class Var(Node):
    """A bare variable name: a scalar's value, or an array's pointer (an lvalue either way)."""
    name: str


@dataclass(slots=True)
class Index(Node):
    """``name(index)``: an array element, an lvalue.  ``name_end`` is the address just after the name
    as written (the cursor of error 26)."""
    name: str
    index: Expr
    name_end: int = 0


@dataclass(slots=True)
class Call(Node):
    """A call of a function by name, ``f(a,b)`` or ``f a,b`` or ``f``; ``name_end`` is the address just
    after the name as written."""
    name: str
    args: list[Expr]
    name_end: int = 0
    after: int = 0  # the cursor of error 21: past the blanks, line ends and comments after the call


@dataclass(slots=True)
class MachineCall(Node):
    """``MC a,...,n``: the last argument is the MC number (section 8)."""
    args: list[Expr]


@dataclass(slots=True)
class Assign(Node):
    target: Expr
    value: Expr


@dataclass(slots=True)
class BinOp(Node):
    """A binary operator: ``* / % + -`` or one relational operator ``< <= > >= == !=``."""
    op: str
    left: Expr
    right: Expr


@dataclass(slots=True)
class Unary(Node):
    """A prefix operator: ``-``, ``+``, ``!`` (value) or ``++``, ``--`` (on an lvalue)."""
    op: str
    operand: Expr


Expr = Number | CharLit | String | Var | Index | Call | MachineCall | Assign | BinOp | Unary


# ---- statements (section 5)

@dataclass(slots=True)
class Declarator(Node):
    """One declared name; ``size`` is the array bound expression N of ``name(N)``, None for a scalar."""
    name: str
    size: Expr | None


@dataclass(slots=True)
class Decl(Node):
    """``int a, b(10)`` or ``char c``: allocates zeroed space when executed (globals: when linked)."""
    type: str  # "int" or "char"
    names: list[Declarator]


@dataclass(slots=True)
class Block(Node):
    body: list[Stmt]


@dataclass(slots=True)
class If(Node):
    cond: Expr
    then: Stmt
    orelse: Stmt | None


@dataclass(slots=True)
class While(Node):
    cond: Expr
    body: Stmt


@dataclass(slots=True)
class For(Node):
    init: Expr | None
    cond: Expr | None
    step: Expr | None
    body: Stmt


@dataclass(slots=True)
class Break(Node):
    pass


@dataclass(slots=True)
class Return(Node):
    value: Expr | None


@dataclass(slots=True)
class ExprStmt(Node):
    expr: Expr


@dataclass(slots=True)
class Null(Node):
    pass


@dataclass(slots=True)
class NameCheck(Node):
    """A name the original had looked up when its statement stopped parsing, before its ``(``: error 26
    if no level declares it, 7 (at ``paren``) if it is a scalar."""
    name: str
    paren: int


@dataclass(slots=True)
class ErrorStmt(Node):
    """A statement that did not parse (or a function header that did not): running it raises error
    ``code`` at the absolute address ``address``, as the original found the error only when the
    statement ran (reference section 14 item 16).  ``pos``/``end`` span the text the parser skipped.
    ``prefix`` holds what the statement had parsed before the error, evaluated first, left to right:
    expressions and :class:`NameCheck` nodes."""
    code: int
    address: int
    prefix: list = field(default_factory=list)


Stmt = Decl | Block | If | While | For | Break | Return | ExprStmt | Null | ErrorStmt


# ---- top level (section 4)

@dataclass(slots=True)
class Function(Node):
    """``name params [ body ]``: parameters are ordinary declarations between the name and ``[``."""
    name: str
    params: list[Decl]
    body: Block
    error: ErrorStmt | None = None  # a header that did not parse, or no body: raised when called

    @property
    def param_names(self) -> list[Declarator]:
        return [d for decl in self.params for d in decl.names]


@dataclass(slots=True)
class EndLibrary(Node):
    pass


@dataclass(slots=True)
class Program(Node):
    """A parsed text: top-level declarations, blocks, functions and ``endlibrary`` markers, in order."""
    items: list[Decl | Block | Function | EndLibrary] = field(default_factory=list)
