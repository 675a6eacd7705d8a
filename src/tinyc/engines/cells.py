"""Scalar locals in memory, for the fast engine's code generator.

A scalar local is a Python variable, but it also has a cell in the flat memory (reference section 3).
:class:`CellsGen` writes modified variables back to their cells ("flush") before memory may be read
outside a checked array, reads them back ("reload") after anything that may store there, and decides from
the code (machine calls, calls, unchecked subscripts) where either is needed.  It also tells which
element reads an expression repeats and what, between two of them, could change what they read.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

from .. import ast
from .analysis import DIRECT, direct, walk
from .bounds import BoundsGen
from .shapes import Access


class CellsGen(BoundsGen):
    """Flush and reload of the scalar locals' memory cells, and where they are needed."""

    if TYPE_CHECKING:  # a later layer's method this one calls
        def array(self, node: ast.Index, plain: bool = False) -> Access | None: ...  # ExpressionGen

    # ---- flush (variables -> cells) and reload (cells -> variables)

    def cell(self, name: str) -> str:
        if self.an.locals[name].type == "int":
            return f"_IV[a_{name} & {self.amask}][a_{name} >> {self.shift}]"
        return f"_B[a_{name}]"

    def flush_set(self) -> list[str]:
        """Allocated scalars whose variable may be ahead of their cell."""
        return [k for k in self.bound if k in self.an.modified] if self.cells else []

    def flush_stmts(self, ind: int) -> None:
        for k in self.flush_set():
            self.emit(ind, f"{self.cell(k)} = v_{k}")

    def flush_args(self) -> str:
        """The (ints, chars) tuples of (address, value) pairs of the helpers that flush."""
        parts: dict[str, list[str]] = {"int": [], "char": []}
        for k in self.flush_set():
            parts[self.an.locals[k].type] += [f"a_{k}", f"v_{k}"]
        return ", ".join("(" + "".join(x + ", " for x in parts[t]) + ")" for t in ("int", "char"))

    def flush_expr(self, ret: str) -> str:
        """``ret``, after the modified variables are written to their cells (an expression)."""
        fs = self.flush_set()
        if not fs:
            return ret
        if len(fs) == 1:  # one variable: a helper without loops
            k = fs[0]
            return f"_fl1{self.an.locals[k].type[0]}({ret}, a_{k}, v_{k})"
        return f"_fl({ret}, {self.flush_args()})"

    def reload_expr(self) -> str | None:
        """An expression that reads every allocated scalar back from its cell (None: there is none)."""
        if not self.bound:
            return None
        out = "(" + "".join(f"(v_{k} := {self.cell(k)}), " for k in self.bound) + ")"
        self.reset_bounds()
        return out

    # ---- what code may touch memory outside checked arrays (then cells matter)

    DIRECT = DIRECT  # a dialect replaces it

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

    # ---- element reads one expression repeats (loopopt reuses the first value)

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
