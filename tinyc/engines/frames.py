"""Frames in value space, for the fast engine's code generator: allocations grow from ``_t``.

:class:`FrameGen` writes the allocation of a function's parameters and declarations (reference section 3,
"Memory layout"): each scalar gets its cell at ``_t + offset``, each array its zeroed bytes, and every
allocation that may not fit is tested (error 19 at its declarator) unless the link showed that every
frame fits (``room``) or the entry test covered it.  The entry steps of ``_t``/``_d`` are held back
until code uses them (``settle``): an early return then skips them.
"""

from __future__ import annotations

from .. import ast
from .analysis import Local
from .cells import CellsGen


class FrameGen(CellsGen):
    """Allocations of parameters and declarations in value space (see the module docstring)."""

    room = False  # the link showed that no allocation can fail (Linkage.room): no test

    def alloc_check(self, ind: int, items: list[tuple[int, int]]) -> None:
        """Check that ``items`` (bytes, error cursor) fit above ``_t``; error 19 at the first that does not."""
        total = sum(n for n, _ in items)
        if not items or self.room:
            return
        self.emit(ind, f"if _t > {self.limit(total)}: _oom(_t, {tuple(items)!r})")

    def bind_array(self, ind: int, loc: Local) -> None:
        """Derived names of a frozen array: a view of exactly its elements when they are range checked,
        else (int arrays) the aligned view, base index and view length."""
        if loc.frozen and loc.allocated and loc.length > 1:
            p, n = f"p_{loc.name}", loc.length
            whole = (f"_IV[{p} & {self.amask}][{p} >> {self.shift}:({p} >> {self.shift}) + {n}]"
                     if loc.type == "int" else f"_B[{p}:{p} + {n}]")
            self.emit(ind, f"e_{loc.name} = {whole}")
        elif loc.frozen and loc.type == "int":
            self.emit(ind, f"w_{loc.name} = _IV[p_{loc.name} & {self.amask}]; "
                           f"b_{loc.name} = p_{loc.name} >> {self.shift}; n_{loc.name} = len(w_{loc.name})")

    def lead_size(self) -> int:
        """Bytes allocated unconditionally on entry: the scalar parameters and, when every parameter is a
        scalar, the declarations at the start of the body (these then need no test of their own)."""
        total = 0
        for type_, d in self.params:
            if self.an.locals[d.name].array:
                return total
            total += self.isz if type_ == "int" else 1
        for s in self.body:
            if not isinstance(s, ast.Decl):
                break
            size = self.isz if s.type == "int" else 1
            total += sum(size * (1 if d.size is None else max(self.bound_of(d) + 1, 0)) for d in s.names)
            self.prechecked.add(id(s))
        return total

    def array_param(self, d: ast.Declarator, n: int) -> None:
        """An array parameter passed 0 gets ``n`` fresh zeroed bytes, as a local (section 4, the 8080)."""
        self.emit(1, f"if p_{d.name} == 0:")
        self.alloc_check(2, [(n, d.end)])
        self.emit(2, f"p_{d.name} = _t; _D[_t:_t + {n}] = bytes({n}); _t += {n}")

    def settle(self) -> None:
        """Emit the entry steps of ``_t``/``_d`` held back until code uses them (an early return skips them)."""
        for line in self.deferred:
            self.emit(1, line)
        self.deferred.clear()

    def place(self, name: str, off: int, value: str) -> list:
        """The scalar ``name`` gets its cell at ``_t + off``, holding ``value``: its address line, and the
        cell for :meth:`fill`."""
        self.bound.append(name)
        if not self.cells:
            return []
        cell = [(off, self.an.locals[name].type, value)]
        return ([f"a_{name} = _t + {off}" if off else f"a_{name} = _t"] if self.addrs else []) + cell

    def fill(self, writes: list) -> list[str]:
        """The lines of ``writes``: address lines, then one store of all the cells (consecutive bytes)."""
        lines = [w for w in writes if isinstance(w, str)]
        cells = sorted(w for w in writes if not isinstance(w, str))
        if not cells:
            return lines
        lo = cells[0][0]
        at = f"_t + {lo}" if lo else "_t"
        if all(v == "0" for _, _, v in cells):
            n = cells[-1][0] + (1 if cells[-1][1] == "char" else self.isz) - lo
            return lines + [f"_D[{at}:_t + {lo + n}] = {bytes(n)!r}"]
        fmt = "<" + "".join(("i" if self.isz == 4 else "h") if t == "int" else "b" for _, t, _ in cells)
        name = "_Pk" + fmt[1:]
        self.views[name] = f"{name} = _struct({fmt!r}).pack_into"
        return lines + [f"{name}(_D, {at}, {', '.join(v for _, _, v in cells)})"]

    def flush_alloc(self, ind: int, pending: list, checked: int = 0, writes=None) -> None:
        """Advance ``_t`` past ``pending`` allocations (tested unless ``checked`` bytes were tested on entry);
        ``writes`` fill their cells once the space is known to fit."""
        if pending:
            if not checked:
                self.alloc_check(ind, pending)
            for w in self.fill(writes or []):
                self.emit(ind, w)
            if not self.unchecked:
                self.emit(ind, f"_t += {sum(n for n, _ in pending)}")
            pending.clear()
        if writes:
            writes.clear()

    def decl(self, s: ast.Decl, ind: int) -> None:
        pre = id(s) in self.prechecked  # its space was tested on entry
        pending: list[tuple[int, int]] = []
        writes: list = []  # factory lines, or (offset, type, value) cells of a repeated declaration
        size = self.isz if s.type == "int" else 1
        for d in s.names:
            loc = self.an.locals[d.name]
            first = not loc.bound
            loc.bound = True
            if d.size is None:
                off = sum(n for n, _ in pending)
                pending.append((size, d.end))
                if first and not any(p[1].name == d.name for p in self.params):
                    self.emit(ind, f"v_{d.name} = 0")
                    self.set_bounds(d.name, 0, 0)
                    cell = self.place(d.name, off, "0")
                    if d.name in self.an.modified:  # its variable (0) is flushed before anything can read it
                        cell = [c for c in cell if isinstance(c, str)]
                    writes += cell
                else:  # a second declaration: fresh zeroed space, the name keeps its first place
                    writes.append((off, s.type, "0"))
                continue
            self.flush_alloc(ind, pending, pre, writes)
            n = max(self.bound_of(d) + 1, 0) * size
            if not pre:
                self.alloc_check(ind, [(n, d.end)])
            if first and not any(p[1].name == d.name for p in self.params):
                self.emit(ind, f"p_{d.name} = _t; _D[_t:_t + {n}] = bytes({n}); _t += {n}", s.pos)
                self.bind_array(ind, loc)
            else:
                self.emit(ind, f"_D[_t:_t + {n}] = bytes({n}); _t += {n}", s.pos)
        self.flush_alloc(ind, pending, pre, writes)
