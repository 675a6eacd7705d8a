"""The tiny-c abstract syntax tree: typed nodes, one class per construct (reference sections 3-6).

Every node carries ``pos`` and ``end``: byte offsets of its first character and one past its last, in
the text it was parsed from.  The linker adds the text's base address to turn them into the absolute
addresses that error reports use.  Names are stored canonicalised (first 7 characters plus the last).
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a cost of every start); mypy knows it
if TYPE_CHECKING:
    from typing import Any, Callable


class Node:
    """The base of every node: ``pos`` and ``end`` are byte offsets (see the module docstring).

    Each node class lists its fields in ``__slots__``; ``fields(node)`` gives all of them in order, and
    equality and ``repr`` go field by field, as for a dataclass.  Nodes are not hashable (they are
    compared by value); caches key them by ``id``.  Plain classes rather than dataclasses: creating
    dataclasses costs about 10 ms of every start of ``tinyc``."""
    __slots__ = ("pos", "end")
    _fields: tuple[str, ...] = ("pos", "end")
    __hash__ = None  # type: ignore[assignment]  # equal by value, like the dataclasses they were

    _values = attrgetter("pos", "end")  # the fields' values, as a tuple in the order of _fields

    def __init_subclass__(cls) -> None:
        inherited: tuple[str, ...] = getattr(cls.__mro__[1], "_fields")
        cls._fields = inherited + tuple(cls.__dict__.get("__slots__", ()))
        cls._values = attrgetter(*cls._fields)

    def __reduce__(self) -> tuple[type[Node], tuple[object, ...]]:
        """Pickled as the call of its class with its fields' values (every ``__init__`` takes them in
        the order of ``_fields``): the start-up cache (:mod:`tinyc.driver.startcache`) then loads the
        library's AST in half the time and space of pickle's default for slotted objects (a state dict
        per node, set attribute by attribute)."""
        return (self.__class__, self._values(self))

    def __init__(self, pos: int, end: int) -> None:
        self.pos = pos
        self.end = end

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._fields)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields) + ")"


def fields(node: Node) -> tuple[str, ...]:
    """The names of ``node``'s fields, ``pos`` and ``end`` first, in declaration order."""
    return node._fields


def node_classes() -> list[type[Node]]:
    """Every concrete node class (the subclasses of :class:`Node`, at any depth), in definition order:
    what a visitor's dispatch table covers (:func:`visitors`)."""
    found: list[type[Node]] = []
    todo = list(Node.__subclasses__())
    while todo:
        cls = todo.pop(0)
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def visitors(cls: type) -> dict[type[Node], Callable[..., Any]]:
    """The dispatch table of a visitor class (an evaluator, the fast engine's generator): each node class
    to the class's ``visit_<NodeClass>`` function (unbound; called as ``table[type(node)](self, node,
    ...)``).  Node classes the class does not handle on their own have no entry."""
    table: dict[type[Node], Callable[..., Any]] = {}
    for node in node_classes():
        visit = getattr(cls, "visit_" + node.__name__, None)
        if visit is not None:
            table[node] = visit
    return table


# ---- expressions (section 6)

class Number(Node):
    __slots__ = ("value",)

    def __init__(self, pos: int, end: int, value: int) -> None:
        self.pos = pos
        self.end = end
        self.value = value


class CharLit(Node):
    __slots__ = ("value",)

    def __init__(self, pos: int, end: int, value: int) -> None:
        self.pos = pos
        self.end = end
        self.value = value


class String(Node):
    """A string literal; ``pos`` is its opening quote, ``length`` the bytes between the quotes."""
    __slots__ = ("length",)

    def __init__(self, pos: int, end: int, length: int) -> None:
        self.pos = pos
        self.end = end
        self.length = length


class Var(Node):
    """A bare variable name: a scalar's value, or an array's pointer (an lvalue either way)."""
    __slots__ = ("name",)

    def __init__(self, pos: int, end: int, name: str) -> None:
        self.pos = pos
        self.end = end
        self.name = name


class Index(Node):
    """``name(index)``: an array element, an lvalue.  ``name_end`` is the address just after the name
    as written (the cursor of error 26), ``paren`` the address just after its ``(`` (the cursor of
    error 7, where the original found that the name is not an array: reference section 10.2)."""
    __slots__ = ("name", "index", "name_end", "paren")

    def __init__(self, pos: int, end: int, name: str, index: Expr, name_end: int = 0, paren: int = 0) -> None:
        self.pos = pos
        self.end = end
        self.name = name
        self.index = index
        self.name_end = name_end
        self.paren = paren or index.pos


class Call(Node):
    """A call of a function by name, ``f(a,b)`` or ``f a,b`` or ``f``; ``name_end`` is the address just
    after the name as written; ``after`` the cursor of error 21: past the blanks, line ends and comments
    after the call."""
    __slots__ = ("name", "args", "name_end", "after")

    def __init__(self, pos: int, end: int, name: str, args: list[Expr], name_end: int = 0, after: int = 0) -> None:
        self.pos = pos
        self.end = end
        self.name = name
        self.args = args
        self.name_end = name_end
        self.after = after


class MachineCall(Node):
    """``MC a,...,n``: the last argument is the MC number (section 8)."""
    __slots__ = ("args",)

    def __init__(self, pos: int, end: int, args: list[Expr]) -> None:
        self.pos = pos
        self.end = end
        self.args = args


class Assign(Node):
    __slots__ = ("target", "value")

    def __init__(self, pos: int, end: int, target: Expr, value: Expr) -> None:
        self.pos = pos
        self.end = end
        self.target = target
        self.value = value


class BinOp(Node):
    """A binary operator: ``* / % + -`` or one relational operator ``< <= > >= == !=``."""
    __slots__ = ("op", "left", "right")

    def __init__(self, pos: int, end: int, op: str, left: Expr, right: Expr) -> None:
        self.pos = pos
        self.end = end
        self.op = op
        self.left = left
        self.right = right


class Unary(Node):
    """A prefix operator: ``-``, ``+``, ``!`` (value) or ``++``, ``--`` (on an lvalue)."""
    __slots__ = ("op", "operand")

    def __init__(self, pos: int, end: int, op: str, operand: Expr) -> None:
        self.pos = pos
        self.end = end
        self.op = op
        self.operand = operand


Expr = Number | CharLit | String | Var | Index | Call | MachineCall | Assign | BinOp | Unary


# ---- statements (section 5)

class Declarator(Node):
    """One declared name; ``size`` is the array bound expression N of ``name(N)``, None for a scalar."""
    __slots__ = ("name", "size")

    def __init__(self, pos: int, end: int, name: str, size: Expr | None) -> None:
        self.pos = pos
        self.end = end
        self.name = name
        self.size = size


class Decl(Node):
    """``int a, b(10)`` or ``char c``: allocates zeroed space when executed (globals: when linked).
    ``type`` is "int" or "char"."""
    __slots__ = ("type", "names")

    def __init__(self, pos: int, end: int, type: str, names: list[Declarator]) -> None:
        self.pos = pos
        self.end = end
        self.type = type
        self.names = names


class Block(Node):
    __slots__ = ("body",)

    def __init__(self, pos: int, end: int, body: list[Stmt]) -> None:
        self.pos = pos
        self.end = end
        self.body = body


class If(Node):
    __slots__ = ("cond", "then", "orelse")

    def __init__(self, pos: int, end: int, cond: Expr, then: Stmt, orelse: Stmt | None) -> None:
        self.pos = pos
        self.end = end
        self.cond = cond
        self.then = then
        self.orelse = orelse


class While(Node):
    __slots__ = ("cond", "body")

    def __init__(self, pos: int, end: int, cond: Expr, body: Stmt) -> None:
        self.pos = pos
        self.end = end
        self.cond = cond
        self.body = body


class For(Node):
    __slots__ = ("init", "cond", "step", "body")

    def __init__(self, pos: int, end: int, init: Expr | None, cond: Expr | None, step: Expr | None, body: Stmt) -> None:
        self.pos = pos
        self.end = end
        self.init = init
        self.cond = cond
        self.step = step
        self.body = body


class Break(Node):
    __slots__ = ()


class Return(Node):
    __slots__ = ("value",)

    def __init__(self, pos: int, end: int, value: Expr | None) -> None:
        self.pos = pos
        self.end = end
        self.value = value


class ExprStmt(Node):
    __slots__ = ("expr",)

    def __init__(self, pos: int, end: int, expr: Expr) -> None:
        self.pos = pos
        self.end = end
        self.expr = expr


class Null(Node):
    __slots__ = ()


class NameCheck(Node):
    """A name the original had looked up when its statement stopped parsing, before its ``(``: error 26
    if no level declares it, 7 (just after ``paren``, the address of the ``(``) if it is a scalar."""
    __slots__ = ("name", "paren")

    def __init__(self, pos: int, end: int, name: str, paren: int) -> None:
        self.pos = pos
        self.end = end
        self.name = name
        self.paren = paren


class ErrorStmt(Node):
    """A statement that did not parse (or a function header that did not): running it raises error
    ``code`` at the absolute address ``address``, as the original found the error only when the
    statement ran (reference section 14 item 16).  ``pos``/``end`` span the text the parser skipped.
    ``prefix`` holds what the statement had parsed before the error, evaluated first, left to right:
    expressions and :class:`NameCheck` nodes."""
    __slots__ = ("code", "address", "prefix")

    def __init__(self, pos: int, end: int, code: int, address: int,
                 prefix: list[Expr | NameCheck] | None = None) -> None:
        self.pos = pos
        self.end = end
        self.code = code
        self.address = address
        self.prefix = [] if prefix is None else prefix


class Reparse(Node):
    """The statements ``body`` from the first whose parse depends on which names are locals when it
    runs, to the end of their statement list (the text ``pos``..``end``).  The original parsed a
    statement as it ran, so a name declared in a nested block is a local only once that declaration
    has run (section 3, "Globals vs locals"; section 14 item 8).  ``names``: the names declared in
    nested blocks of the function that are also functions of an outer level, as they appear in the
    first statement; ``assumed``: for each, whether ``body`` was parsed with it a local; ``dynamic``:
    every such name of the function (for a parse of the text again at run time)."""
    __slots__ = ("names", "assumed", "dynamic", "body")

    def __init__(self, pos: int, end: int, names: tuple[str, ...], assumed: tuple[bool, ...],
                 dynamic: frozenset[str], body: list[Stmt]) -> None:
        self.pos = pos
        self.end = end
        self.names = names
        self.assumed = assumed
        self.dynamic = dynamic
        self.body = body


class Recheck(Node):
    """The last statement of the body of a ``while`` that opens a :class:`Reparse` (``pos``: that
    Reparse's): the loop's condition runs again after the body, which may have declared one of ``names``;
    if their kinds are no longer ``assumed``, the Reparse parses the text again from the ``while`` (to
    enter a ``while`` again is to go on with it)."""
    __slots__ = ("names", "assumed")

    def __init__(self, pos: int, end: int, names: tuple[str, ...], assumed: tuple[bool, ...]) -> None:
        self.pos = pos
        self.end = end
        self.names = names
        self.assumed = assumed


Stmt = Decl | Block | If | While | For | Break | Return | ExprStmt | Null | ErrorStmt | Reparse | Recheck


# ---- top level (section 4)

class Function(Node):
    """``name params [ body ]``: parameters are ordinary declarations between the name and ``[``.
    ``error``: a header that did not parse, or no body; raised when the function is called."""
    __slots__ = ("name", "params", "body", "error")

    def __init__(self, pos: int, end: int, name: str, params: list[Decl], body: Block,
                 error: ErrorStmt | None = None) -> None:
        self.pos = pos
        self.end = end
        self.name = name
        self.params = params
        self.body = body
        self.error = error

    @property
    def param_names(self) -> list[Declarator]:
        """The parameters' declarators, in order (a declaration may declare several)."""
        return [d for decl in self.params for d in decl.names]

    def parameters(self) -> list[tuple[str, Declarator]]:
        """``(type, declarator)`` of each parameter in order, its declarations flattened: the one
        flattening both engines bind arguments with (``f int a, b(0) char c`` gives three)."""
        return [(decl.type, d) for decl in self.params for d in decl.names]


class EndLibrary(Node):
    __slots__ = ()


class Program(Node):
    """A parsed text: top-level declarations, blocks, functions and ``endlibrary`` markers, in order."""
    __slots__ = ("items",)

    def __init__(self, pos: int, end: int, items: list[Decl | Block | Function | EndLibrary] | None = None) -> None:
        self.pos = pos
        self.end = end
        self.items = [] if items is None else items
