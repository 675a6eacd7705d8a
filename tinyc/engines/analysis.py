"""What the fast engine's code generator knows about a function before it writes code.

The AST walks the generator and the engine share (:func:`walk`, :func:`assigned_names`), the static locals
of a function (:class:`Analysis`: parameters and top-level declarations), constant array bounds, the nesting
limits of CPython, and :class:`Unsupported`, raised for a function the reference evaluator must run.
"""

from __future__ import annotations

from .. import ast

MAX_LOCALS = 4096


class Unsupported(Exception):
    """The function needs the reference evaluator (dynamic locals)."""


class Local:
    """A static local: ``length`` is N+1 for an array; ``frozen``: the array pointer is never reassigned
    in this function; ``allocated``: its space comes from a declaration here (in bounds if checked and
    frozen); ``bound``: the generator has emitted its first declaration."""

    __slots__ = ("name", "type", "array", "length", "frozen", "allocated", "bound")

    def __init__(self, name: str, type: str, array: bool, length: int = 1, frozen: bool = True,
                 allocated: bool = False) -> None:
        self.name = name
        self.type = type
        self.array = array
        self.length = length
        self.frozen = frozen
        self.allocated = allocated
        self.bound = False


def constant(expr, bits: int = 32) -> int | None:
    """The value of a constant array bound (a number, a char, or its negation), else None; wrapped to
    ``bits`` as the reference evaluates it (a number literal wraps, and so does its negation)."""
    half = 1 << (bits - 1)
    if isinstance(expr, ast.Number):
        return ((expr.value + half) & ((half << 1) - 1)) - half
    if isinstance(expr, ast.CharLit):
        return expr.value
    if isinstance(expr, ast.Unary) and expr.op in ("-", "+"):
        v = constant(expr.operand, bits)
        return None if v is None else (((-v + half) & ((half << 1) - 1)) - half if expr.op == "-" else v)
    return None


def walk(node, prune: type | tuple[type, ...] = ()):
    """Every AST node under ``node`` (statements and expressions), depth first; a node of a ``prune``
    type is left out with everything under it."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None or isinstance(n, prune):
            continue
        if isinstance(n, list):
            stack.extend(reversed(n))
            continue
        yield n
        for f in n.__slots__:
            v = getattr(n, f, None)
            if isinstance(v, (ast.Node, list)):
                stack.append(v)


def nesting(body) -> tuple[int, int]:
    """(deepest nesting of loops, of statements) in a statement list."""
    loops = depth = 0
    stack = [(s, 1, 0) for s in body]
    while stack:
        s, d, lp = stack.pop()
        if isinstance(s, (ast.While, ast.For)):
            lp += 1
        depth, loops = max(depth, d), max(loops, lp)
        if isinstance(s, ast.Block):
            stack += [(x, d, lp) for x in s.body]  # a block adds no Python indentation
        elif isinstance(s, ast.If):
            stack += [(x, d + 1, lp) for x in (s.then, s.orelse) if x is not None]
        elif isinstance(s, (ast.While, ast.For)):
            stack.append((s.body, d + 1, lp))
    return loops, depth


# CPython allows 20 nested blocks (loops, try) and 100 levels of indentation; deeper code runs on the
# reference evaluator (the bounds analysis of nested loops also grows fast with their depth)
MAX_LOOPS, MAX_NESTING = 16, 80


def names_used(node) -> set[str]:
    return {n.name for n in walk(node) if isinstance(n, (ast.Var, ast.Index, ast.Call))}


def assigned_names(node) -> set[str]:
    """Names that appear as whole assignment targets (``x=...``, ``++x``): array pointers that may change."""
    out = set()
    for n in walk(node):
        if isinstance(n, ast.Assign) and isinstance(n.target, ast.Var):
            out.add(n.target.name)
        elif isinstance(n, ast.Unary) and n.op in ("++", "--") and isinstance(n.operand, ast.Var):
            out.add(n.operand.name)
    return out


class Analysis:
    """The static locals of a function: params and top-level declarations, each used only after it."""

    def __init__(self, params: list[tuple[str, ast.Declarator]], body: list, bits: int = 32):
        self.bits = bits
        self.locals: dict[str, Local] = {}
        reassigned = assigned_names(body)
        for type_, d in params:
            if d.name in self.locals:
                raise Unsupported("duplicate parameter")
            self.locals[d.name] = self._local(type_, d, reassigned, False, bits)
        count = 0
        for i, s in enumerate(body):
            if isinstance(s, ast.Decl):
                for d in s.names:
                    count += 1
                    if d.name not in self.locals:
                        if any(d.name in names_used(t) for t in body[:i]):
                            raise Unsupported("name used before its declaration")
                        self.locals[d.name] = self._local(s.type, d, reassigned, True, bits)
                    elif d.size is not None and constant(d.size, bits) is None:
                        raise Unsupported("array bound not constant")
            elif any(isinstance(n, ast.Decl) for n in walk(s)):
                raise Unsupported("declaration in a nested statement")
        if count > MAX_LOCALS:
            raise Unsupported("too many declarations")
        self.free = set()
        for s in body:
            self.free |= names_used(s)
        for type_, d in params:
            if d.size is not None:
                self.free |= names_used(d.size)
        self.free -= set(self.locals)
        # scalar locals assigned by name: their Python variable may be ahead of their memory cell
        self.modified = {k for k in reassigned if k in self.locals and not self.locals[k].array}

    @staticmethod
    def _local(type_, d, reassigned, allocated, bits=32) -> Local:
        if d.size is None:
            return Local(d.name, type_, False)
        n = constant(d.size, bits)
        if n is None:
            raise Unsupported("array bound not constant")
        return Local(d.name, type_, True, n + 1, d.name not in reassigned, allocated)
