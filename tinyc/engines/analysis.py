"""What the fast engine's code generator knows about a function before it writes code.

The AST walks the generator and the engine share (:func:`walk`, :func:`assigned_names`), the static locals
of a function (:class:`Analysis`: parameters and top-level declarations), constant array bounds, the nesting
limits of CPython, and :class:`Unsupported`, raised for a function the reference evaluator must run.

Every start of ``tinyc run`` analyses every function of the link (each may assign a program array), so
a function body is walked once: :class:`Scan` keeps what :class:`Analysis`, the link's assigned names,
the constant-global stores and the effects analysis need from it, and :func:`facts` what the link asks
about a function; both are made once per parsed body.
"""

from __future__ import annotations

from .. import ast
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from .caches import LRU, EngineCaches

# True: every function keeps its scalars' cells (the bytes a returned call leaves above the top of the value
# space are the reference's even for pure functions).  False (the default): a function that cannot read or
# write memory outside its checked arrays, nor call one that can, never writes its cells: nothing can see
# them while it runs, and writing them would cost a third of a small call (docs/fast-engine.md).
# Read by the code generator; part of the compiled code's cache key.
EXACT_DEAD_FRAMES = False


# the machine calls a function may make without its locals' cells being written or read back (the
# link asks, to know a function's effects, without a code generator)
DIRECT = {1: 1, 2: 0, 10: 0, 12: 0, 14: 1, 17: 2, 1005: 0}  # MC number -> arity; no memory access


def direct(n: ast.MachineCall, table: dict[int, int] = DIRECT) -> bool:
    """Whether the machine call ``n`` is one of ``table`` (MC number -> arity) with its arity: a call
    that touches no memory, so scalar locals' cells need no flush or reload around it."""
    last = n.args[-1] if n.args else None
    return isinstance(last, ast.Number) and last.value in table and len(n.args) - 1 == table[last.value]


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


class Scan:
    """One walk of a statement list (a function body), with what :class:`Analysis` and the link analyses
    need from it, so that none of them walks the body again.

    ``first_use``: name -> index of the first top-level statement that mentions it (a ``Var``, ``Index``
    or ``Call`` anywhere in it, as :func:`names_used`); ``nested``: index of the first top-level statement
    that is not a declaration but holds one (None); ``decls``: (index, statement) of the top-level
    declarations; ``assigned``: :func:`assigned_names` of the body; ``stores``: (name, value expression)
    of every whole-name assignment in walk order, the value None for ``++``/``--``; ``refs``: the names of
    ``Var`` and ``Call`` nodes (the possible callees); ``accesses``: the ``Index`` and ``MachineCall`` nodes
    in walk order, each with whether it is the target of a store (``a(i)=...``, ``++a(i)``; None for a
    machine call).
    """

    __slots__ = ("first_use", "nested", "decls", "assigned", "stores", "refs", "accesses")

    def __init__(self, body: list) -> None:
        first_use: dict[str, int] = {}
        nested = None
        decls = []
        assigned: set[str] = set()
        stores: list = []
        refs: set[str] = set()
        accesses: list = []
        targets: set[int] = set()
        Var, Index, Call, Assign, Unary = ast.Var, ast.Index, ast.Call, ast.Assign, ast.Unary
        MachineCall, Decl, Node = ast.MachineCall, ast.Decl, ast.Node
        leaves = (ast.Number, ast.CharLit, ast.String)  # no name and no node below them
        for i, s in enumerate(body):
            has_decl = False
            stack = [s]  # the order of walk(): a node, then its fields last to first
            pop, push = stack.pop, stack.append
            while stack:
                n = pop()
                if n is None:
                    continue
                kind = type(n)
                if kind is Var:  # the commonest node (with the constants, 40% of a body): nothing below it
                    if n.name not in first_use:
                        first_use[n.name] = i
                    refs.add(n.name)
                    continue
                if kind in leaves:
                    continue
                if isinstance(n, list):
                    stack.extend(reversed(n))
                    continue
                if isinstance(n, (Var, Index, Call)):
                    if n.name not in first_use:
                        first_use[n.name] = i
                    if isinstance(n, Index):
                        accesses.append((n, id(n) in targets))  # its parent, the store, came first
                    else:
                        refs.add(n.name)
                elif isinstance(n, Assign):
                    t = n.target
                    if isinstance(t, Var):
                        assigned.add(t.name)
                        stores.append((t.name, n.value))
                    elif isinstance(t, Index):
                        targets.add(id(t))
                elif isinstance(n, Unary):
                    if n.op in ("++", "--"):
                        t = n.operand
                        if isinstance(t, Var):
                            assigned.add(t.name)
                            stores.append((t.name, None))
                        elif isinstance(t, Index):
                            targets.add(id(t))
                elif isinstance(n, MachineCall):
                    accesses.append((n, None))
                elif isinstance(n, Decl):
                    has_decl = True
                for f in n.__slots__:
                    v = getattr(n, f, None)
                    if isinstance(v, (Node, list)):
                        push(v)
            if isinstance(s, Decl):
                decls.append((i, s))
            elif has_decl and nested is None:
                nested = i
        self.first_use = first_use
        self.nested = nested
        self.decls = decls
        self.assigned = assigned
        self.stores = stores
        self.refs = refs
        self.accesses = accesses


def scan(body: list, keep: bool = False, cache: LRU | None = None) -> Scan:
    """The :class:`Scan` of ``body``: the one ``cache`` (a Session's :attr:`.caches.EngineCaches.scans`,
    ``id(body list) -> (body, Scan)``) holds for this list, else a new one, kept there if ``keep``: function
    bodies are (never mutated once parsed), a top-level statement list typed once is not."""
    if cache is None:
        return Scan(body)
    hit = cache.get(id(body))
    if hit is not None and hit[0] is body:
        return hit[1]
    sc = Scan(body)
    if keep:
        cache[id(body)] = (body, sc)
    return sc


class Analysis:
    """The static locals of a function: params and top-level declarations, each used only after it."""

    def __init__(self, params: list[tuple[str, ast.Declarator]], body: list, bits: int = 32,
                 scans: LRU | None = None):
        self.bits = bits
        self.locals: dict[str, Local] = {}
        # (type, elements) of each declaration of a name already local: it takes fresh value space, but
        # the name keeps its first place (section 3), so the frame is larger than the locals say
        self.again: list[tuple[str, int]] = []
        sc = scan(body, cache=scans)  # (``scans``: the Session's cache of function bodies' scans)
        self.reassigned = reassigned = sc.assigned
        for type_, d in params:
            if d.name in self.locals:
                raise Unsupported("duplicate parameter")
            self.locals[d.name] = self._local(type_, d, reassigned, False, bits)
        count = 0
        # names a nested block declares, by the id of that block's statement list (codegen: their scope)
        self.scoped: dict[int, list[str]] = {}
        for i, s in sc.decls:
            for d in s.names:
                count += 1
                if d.name not in self.locals:
                    if sc.first_use.get(d.name, i) < i:
                        raise Unsupported("name used before its declaration")
                    self.locals[d.name] = self._local(s.type, d, reassigned, True, bits)
                else:
                    n = 0 if d.size is None else constant(d.size, bits)
                    if n is None:
                        raise Unsupported("array bound not constant")
                    self.again.append((s.type, n + 1))
        if sc.nested is not None:
            count += self._scoped(body, bits)
        if count > MAX_LOCALS:
            raise Unsupported("too many declarations")
        self.free = set(sc.first_use)
        for type_, d in params:
            if d.size is not None:
                self.free |= names_used(d.size)
        self.free -= set(self.locals)
        # scalar locals assigned by name: their Python variable may be ahead of their memory cell
        self.modified = {k for k in reassigned if k in self.locals and not self.locals[k].array}

    def _scoped(self, body: list, bits: int) -> int:
        """Make the names declared in nested blocks static locals, when each runs at most once per call
        and every use follows it in its block, where the name is surely local (``syntax.runtime_names``
        marks no such use); else :class:`Unsupported` (the reference evaluator runs the function).
        Returns the number of declarators."""
        found: list = []  # (block's statement list, index, declaration)

        def visit(x, loop: bool) -> None:
            if isinstance(x, ast.Block):
                for j, y in enumerate(x.body):
                    if isinstance(y, ast.Decl):
                        if loop:
                            raise Unsupported("declaration in a loop")
                        found.append((x.body, j, y))
                    else:
                        visit(y, loop)
            elif isinstance(x, ast.If):
                for b in (x.then, x.orelse):
                    visit(b, loop)
            elif isinstance(x, (ast.While, ast.For)):
                visit(x.body, True)
            elif isinstance(x, ast.Decl):
                raise Unsupported("declaration as a branch or loop body")
            elif isinstance(x, (ast.Reparse, ast.Recheck)):
                raise Unsupported("a name the run decides")
        for x in body:
            if not isinstance(x, ast.Decl):
                visit(x, False)
        named: dict[str, list] = {}
        for n in walk(body):
            if isinstance(n, (ast.Reparse, ast.Recheck)):
                raise Unsupported("a name the run decides")
            if isinstance(n, (ast.Var, ast.Index, ast.Call)):
                named.setdefault(n.name, []).append(n)
        count = 0
        for lst, j, decl in found:
            after = {id(n) for n in walk(lst[j + 1:])}
            for d in decl.names:
                count += 1
                if d.name in self.locals:
                    raise Unsupported("a name declared twice")
                if not all(id(n) in after for n in named.get(d.name, ())):
                    raise Unsupported("a use the declaration may not precede")
                self.locals[d.name] = Analysis._local(decl.type, d, self.reassigned, True, bits)
                self.scoped.setdefault(id(lst), []).append(d.name)
        return count

    def frame(self, isz: int) -> int:
        """Bytes of value space one call takes (``isz``: the int size): parameters (an array parameter
        passed 0 included), the top-level declarations, and those that declare a name again."""
        items = [(loc.type, loc.length) for loc in self.locals.values()] + self.again
        return sum(max(n, 0) * (isz if t == "int" else 1) for t, n in items)

    @staticmethod
    def _local(type_, d, reassigned, allocated, bits=32) -> Local:
        if d.size is None:
            return Local(d.name, type_, False)
        n = constant(d.size, bits)
        if n is None:
            raise Unsupported("array bound not constant")
        return Local(d.name, type_, True, n + 1, d.name not in reassigned, allocated)


class Facts:
    """What the link needs to know about one function, worked out once per function (:func:`facts`).

    ``scan``: the :class:`Scan` of its body; ``locals``: the names of its static locals, None when it
    has dynamic ones (:class:`Analysis` raised :class:`Unsupported`: the reference evaluator runs it);
    ``free``: the names it uses that are not its static locals, sorted (None likewise); ``assigned``: the
    names it assigns as a whole that may be globals (all such names when it has dynamic locals)."""

    __slots__ = ("scan", "locals", "free", "assigned")

    def __init__(self, fn: ast.Function, scans: LRU | None = None) -> None:
        self.scan = sc = scan(fn.body.body, keep=True, cache=scans)
        params = [(decl.type, d) for decl in fn.params for d in decl.names]
        try:
            an = Analysis(params, fn.body.body, 32, scans)  # which names are locals does not depend on the width
        except Unsupported:
            self.locals = self.free = None
            self.assigned = set(sc.assigned)
        else:
            self.locals = frozenset(an.locals)
            self.free = sorted(an.free)
            self.assigned = sc.assigned - self.locals


def facts(fn: ast.Function, caches: EngineCaches | None = None) -> Facts:
    """The :class:`Facts` of ``fn``, made on first use and kept in ``caches`` (a Session's
    :class:`~.caches.EngineCaches`; the same parsed text gives the same nodes); None: made afresh."""
    if caches is None:
        return Facts(fn)
    hit = caches.facts.get(id(fn))
    if hit is None or hit[0] is not fn:
        hit = (fn, Facts(fn, caches.scans))
        caches.facts[id(fn)] = hit
    return hit[1]  # type: ignore[return-value]  # the table holds (fn, Facts)
