"""What the fast engine's code generator asks about names and code, without writing any.

:class:`ScopeGen` is the generator's layer of queries: how a name resolves (a static local, the link's
shape of a global), how an array's elements are reached (:class:`~.shapes.Access`), the bounds a type or a
constant operand has, and what a piece of code may do to memory outside checked arrays (then scalar
locals' memory cells matter: see :mod:`.cells`).  Nothing here writes a line of output; the analyses of
:mod:`.loopplans` and the layers above read these answers.
"""

from __future__ import annotations

from .. import ast
from .analysis import DIRECT, constant, direct, walk
from .genbase import GenBase
from .shapes import Access, Place


class ScopeGen(GenBase):
    """Queries about names, array accesses and the effects of code (see the module docstring)."""

    DIRECT = DIRECT  # the machine calls that touch no memory (a dialect replaces it)

    def direct(self, n: ast.MachineCall) -> bool:
        return direct(n, self.DIRECT)

    def effects_of(self, name: str) -> tuple[bool, bool]:
        """(may read, may write) memory outside checked arrays: a call of the global function ``name``."""
        shape = self.resolve(name)
        if shape is None or shape.kind != "func":
            return False, False
        return shape.reads, shape.writes

    def targets(self, node) -> set[int]:
        out = set()
        for n in walk(node):
            if isinstance(n, ast.Assign) and isinstance(n.target, ast.Index):
                out.add(id(n.target))
            elif isinstance(n, ast.Unary) and n.op in ("++", "--") and isinstance(n.operand, ast.Index):
                out.add(id(n.operand))
        return out

    def unsafe(self, n: ast.Index) -> bool:
        """Whether an element access may land outside its array's own checked space."""
        if n.name in self.an.locals and not self.an.locals[n.name].array:
            return False  # error 7 before any access
        acc = self.array(n, plain=True)
        return acc is not None and not acc.safe

    def has_nonsafe(self, node) -> bool:
        return any(isinstance(n, ast.Index) and self.unsafe(n) for n in walk(node))

    def may_sync(self, node) -> bool:
        """Whether ``node`` has a machine call or a call that reads or writes memory outside checked arrays."""
        for n in walk(node):
            if isinstance(n, ast.MachineCall) and not self.direct(n):
                return True
            if isinstance(n, (ast.Var, ast.Call)) and n.name not in self.an.locals and any(self.effects_of(n.name)):
                return True
        return False

    def changes_locals(self, node) -> bool:
        """Whether evaluating ``node`` may change a scalar local (an assignment, ++/--, or a reload)."""
        for n in walk(node):
            if isinstance(n, ast.Assign) or (isinstance(n, ast.Unary) and n.op in ("++", "--")):
                return True
        return self.may_reload(node)

    def may_reload(self, node) -> bool:
        """Whether running ``node`` may change scalar locals through memory (their variables reloaded)."""
        if not self.bound and not self.an.locals:
            return False
        tg = self.targets(node)
        for n in walk(node):
            if isinstance(n, ast.MachineCall) and not self.direct(n):
                return True
            if isinstance(n, (ast.Var, ast.Call)) and n.name not in self.an.locals and self.effects_of(n.name)[1]:
                return True
            if isinstance(n, ast.Index) and id(n) in tg and self.unsafe(n):
                return True
        return False

    def read_key(self, n: ast.Index):
        """What identifies the place an element read reads (array name, index built of constants,
        allocated scalar locals and ``+ - *``), or None."""
        def key(x):
            if isinstance(x, (ast.Number, ast.CharLit)):
                return x.value
            if isinstance(x, ast.Var):
                loc = self.an.locals.get(x.name)
                ok = loc is not None and not loc.array and x.name in self.bound
                return ("v", x.name) if ok else None
            if isinstance(x, ast.BinOp) and x.op in ("+", "-", "*"):
                a, b = key(x.left), key(x.right)
                return None if a is None or b is None else (x.op, a, b)
            if isinstance(x, ast.Unary) and x.op == "-":
                a = key(x.operand)
                return None if a is None else ("neg", a)
            return None
        i = key(n.index)
        return None if i is None else (n.name, i)

    def repeated_reads(self, n) -> list:
        """Keys of the element reads that occur more than once in expression ``n``."""
        seen: set = set()
        out = []
        for x in walk(n):
            if isinstance(x, ast.Index) and (key := self.read_key(x)) is not None:
                if key in seen and key not in out:
                    out.append(key)
                seen.add(key)
        return out

    def has_effect(self, n) -> bool:
        """Whether evaluating node ``n`` itself may change a local or memory: an assignment, ++/--, a call,
        a machine call, or a string (its closing quote becomes a NUL)."""
        if isinstance(n, (ast.Assign, ast.Call, ast.MachineCall, ast.String)):
            return True
        if isinstance(n, ast.Unary):
            return n.op in ("++", "--")
        if isinstance(n, ast.Var) and n.name not in self.an.locals:
            shape = self.resolve(n.name)
            return shape is not None and shape.kind == "func"
        return False

    def array(self, node: ast.Index, plain: bool = False) -> Access | None:
        """How to reach the elements of ``node.name``, or None when the name is not an array.  In a function
        whose frame is tested (``self.frame``), an unchecked int array is reached by byte address."""
        acc = self._array(node)
        if acc is not None and not plain and self.frame and not acc.safe and acc.ptr is None and acc.type == "int":
            acc.by_address()
        return acc

    def _array(self, node: ast.Index) -> Access | None:
        name = node.name
        loc = self.an.locals.get(name)
        if loc is not None:
            if not loc.array:
                return None
            checked = loc.length > 1
            acc = Access(loc.type, checked, loc.length)
            if loc.frozen:
                acc.safe = loc.allocated and checked
                acc.words, acc.base, acc.count, acc.address = f"w_{name}", f"b_{name}", f"n_{name}", f"p_{name}"
                if acc.safe:
                    acc.view = f"e_{name}"
            else:
                acc.ptr = f"p_{name}"
            return acc
        shape = self.resolve(name)
        if shape is None or shape.kind != "var" or not shape.array:
            return None
        place = shape.place
        if place is None:  # a pointer that may move
            acc = Access(shape.type, shape.checked, f"gl_{name}")
            acc.ptr = f"gs_{name}.address"
            return acc
        acc = Access(shape.type, shape.checked, place.length, shape.checked)
        acc.words, acc.base, acc.count = f"_IV{place.align}", str(place.word), f"gn_{name}"
        acc.address = str(place.address)
        if shape.checked:  # its elements as a view of their own, made once by the factory
            acc.view = f"e_{name}"
            whole, start = (f"_IV{place.align}", place.word) if shape.type == "int" else ("_B", place.address)
            self.views[name] = f"e_{name} = {whole}[{start}:{start + place.length}]  # the elements of {name}"
        return acc

    def gcell(self, typ: str, fixed: Place) -> str:
        """The memory cell of a global scalar at a constant address."""
        if typ == "int":
            return f"_IV{fixed.align}[{fixed.word}]"
        return f"_B[{fixed.address}]"

    def calls(self) -> bool:
        """Whether the body calls a tiny-c function (then the depth limit matters)."""
        for n in walk(self.body):
            if isinstance(n, (ast.Var, ast.Call)) and n.name not in self.an.locals:
                shape = self.resolve(n.name)
                if shape is not None and shape.kind == "func":
                    return True
        return False

    def uses_frame(self, s) -> bool:
        """Whether a statement reads ``_t`` or ``_d``: declarations, calls and machine calls."""
        for n in walk(s):
            if isinstance(n, (ast.Decl, ast.MachineCall)):
                return True
            if isinstance(n, (ast.Var, ast.Call)) and n.name not in self.an.locals:
                shape = self.resolve(n.name)
                if shape is not None and shape.kind == "func":
                    return True
        return False

    def limit(self, n: int) -> str:
        """The highest ``_t`` that leaves room for ``n`` bytes."""
        return f"_SIZE - {n}" if self.size == "_SIZE" else str(int(self.size) - n)

    def bound_of(self, d: ast.Declarator) -> int:
        """The constant N of a local array ``d(N)`` (the analysis sent every other bound to the reference)."""
        assert d.size is not None
        n = constant(d.size, self.bits)
        assert n is not None
        return n

    def int_local(self, name: str) -> bool:
        loc = self.an.locals.get(name)
        return loc is not None and not loc.array and loc.type == "int" and name in self.bound

    def byte_value(self, v, changed: set[str]) -> bool:
        """Whether ``v`` (compared with a byte) is absent, a constant, or a scalar local the scan leaves
        alone."""
        if v is None:
            return True
        if isinstance(v, (ast.Number, ast.CharLit, ast.Unary)):
            return self.static_bounds(self.known, v) is not None
        return (isinstance(v, ast.Var) and v.name in self.an.locals and not self.an.locals[v.name].array
                and v.name in self.bound and v.name not in changed)

    def static_bounds(self, state, e) -> tuple[int, int] | None:
        """Bounds of a side-effect-free operand of a condition (a constant or a scalar local)."""
        if isinstance(e, (ast.Number, ast.CharLit, ast.Unary)):
            v = constant(e)
            if v is None:
                return None
            v = ((v - self.imin) & ((1 << self.bits) - 1)) + self.imin
            return v, v
        if isinstance(e, ast.Var):
            loc = self.an.locals.get(e.name)
            if loc is not None and not loc.array:
                return state.get(e.name, self.bounds(loc.type)) if self.opts.bounds else self.bounds(loc.type)
        return None

    def bounds(self, typ: str) -> tuple[int, int]:
        return (self.imin, self.imax) if typ == "int" else (-128, 127)

    def hoistable(self, s) -> dict[str, str]:
        """Global scalars read by a loop that nothing in it can change: read once before it."""
        if self.dry_depth:
            return {}
        reads, assigned = {}, set()
        for n in walk(s):
            if isinstance(n, ast.MachineCall):
                return {}
            if isinstance(n, (ast.Var, ast.Call, ast.Index)) and n.name not in self.an.locals:
                shape = self.resolve(n.name)
                if shape is None or shape.kind == "func":
                    return {}
                if isinstance(n, ast.Var) and not shape.array:
                    reads[n.name] = shape
            target = n.target if isinstance(n, ast.Assign) else (
                n.operand if isinstance(n, ast.Unary) and n.op in ("++", "--") else None)
            if isinstance(target, ast.Var) and target.name not in self.an.locals:
                assigned.add(target.name)
            elif isinstance(target, ast.Index):
                acc = self.array(target)
                if acc is None or not acc.safe:
                    return {}  # a store that may land anywhere
            elif target is not None and not isinstance(target, ast.Var):
                return {}
        return {k: self.gcell(v.type, v.place) for k, v in reads.items()
                if k not in assigned and k not in self.hoisted and v.type == "int"}
