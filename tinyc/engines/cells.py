"""Scalar locals in memory, for the fast engine's code generator.

A scalar local is a Python variable, but it also has a cell in the flat memory (reference section 3).
:class:`CellsGen` writes modified variables back to their cells ("flush") before memory may be read
outside a checked array, reads them back ("reload") after anything that may store there, and decides from
the code (machine calls, calls, unchecked subscripts) where either is needed.  It also tells which
element reads an expression repeats and what, between two of them, could change what they read.
"""

from __future__ import annotations

from .bounds import BoundsGen


class CellsGen(BoundsGen):
    """Flush and reload of the scalar locals' memory cells, and where they are needed."""

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


    # ---- element reads one expression repeats (loopopt reuses the first value)
