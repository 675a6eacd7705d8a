"""Run-time support of the fast engine: the helpers generated code calls, and the per-link name table.

A :class:`Linkage` is the globals dict shared by the functions compiled for one pair of symbol levels
(the running program and the library view it sees, reference section 3): name resolution happens once
per link, not per access.  Helpers raise :class:`~tinyc.errors.TinyCError` with the cursor the code
generator baked in, so errors carry the same number and address as the reference evaluator's.
"""

from __future__ import annotations

import struct
import sys
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

from .. import ast
from .analysis import Analysis, Unsupported, direct, scan
from .shapes import FuncShape, Place, VarShape, func_shape, var_shape
from .cdiv import c_div, c_mod
from ..errors import ErrorCode, TinyCError, MemoryFault

if TYPE_CHECKING:
    from collections.abc import Set as AbstractSet
    from typing import Any, Callable, Protocol

    from ..machine.port import MachinePort
    from .caches import EngineCaches
    from .options import Optimisations

    class FastEngine(Protocol):
        """What the run-time helpers and a :class:`Linkage` use of the fast engine
        (:class:`tinyc.engines.compiler.FastEngine`, which imports this module)."""

        m: MachinePort
        depth: int             # active tiny-c calls
        frames_known: bool     # a function's frame is its static locals (Linkage.room)
        options: Optimisations  # the optimisations applied (options.py)
        caches: EngineCaches   # the Session's (caches.py)

        @property
        def runtime(self) -> dict: ...

        def assigned(self, fn: ast.Function) -> set[str]: ...

        def function(self, sym: Any, link: Linkage) -> Callable: ...

        def _fallback(self, sym: Any) -> Callable: ...

        def global_constants(self, link: Linkage, effects: Callable) -> dict[str, tuple[int, int]]: ...


def runtime_globals(engine: FastEngine) -> dict:
    """The helpers and memory views every generated function of ``engine`` uses (names start with ``_``)."""
    m = engine.m
    mem = m.memory
    data, size, isz = mem.data, mem.size, mem.int_size
    code = "i" if isz == 4 else "h"
    if sys.byteorder != "little" or struct.calcsize(code) != isz:
        raise RuntimeError("the fast engine needs a little-endian host with 4-byte C ints")
    whole = memoryview(data)
    views = tuple(whole[k:k + (size - k) // isz * isz].cast(code)  # type: ignore[call-overload]  # "i" or "h"
                  for k in range(isz))
    signed_bytes = whole.cast("b")
    mask, shift = isz - 1, 2 if isz == 4 else 1
    wrap, address = mem.wrap, mem.address

    def _err(code_, at):
        raise TinyCError(code_, at)

    def _oom(t, items):
        for n, at in items:
            if t + n > size:
                raise TinyCError(ErrorCode.TMVLERR, at)
            t += n
        raise AssertionError("no allocation failed")

    def _div(a, b, at):
        return wrap(c_div(a, b, at))

    def _mod(a, b, at):
        return wrap(c_mod(a, b, at))

    def _cdiv(y, d, n, at):  # a subscript y/d (d > 0) outside the fast case: C division, range test
        q = -(-y // d) if y < 0 else y // d
        if not 0 <= q < n:
            raise TinyCError(ErrorCode.RANGERR, at)
        return q

    def _cmod(y, d, n, at):  # a subscript y%d (0 < d <= n) with y < 0: C remainder, range test
        r = -(-y % d)
        if r < 0:
            raise TinyCError(ErrorCode.RANGERR, at)
        return r

    def _S(q, a):  # a string literal: its closing quote becomes the NUL (section 2)
        data[q] = 0
        return a

    def _mc(values, node, t, d):
        m.top = t
        engine.depth = d
        try:
            return m.machine_call(m, values, node)
        except MemoryFault:
            raise TinyCError(ErrorCode.RANGERR, node.end) from None

    def _sts(view, j, v):
        view[j] = v
        return v

    def _stb(a, v, at):
        if not 0 <= a < size:
            raise TinyCError(ErrorCode.RANGERR, at)
        signed_bytes[a] = v
        return v

    def _sti(a, v, at):
        if not 0 <= a <= size - isz:
            raise TinyCError(ErrorCode.RANGERR, at)
        views[a & mask][a >> shift] = v
        return v

    def _fl(r, ints, chars):  # write scalar locals' variables to their cells; returns r
        for k in range(0, len(ints), 2):
            a = ints[k]
            views[a & mask][a >> shift] = ints[k + 1]
        for k in range(0, len(chars), 2):
            signed_bytes[chars[k]] = chars[k + 1]
        return r

    def _fl1i(r, a, v):
        views[a & mask][a >> shift] = v
        return r

    def _fl1c(r, a, v):
        signed_bytes[a] = v
        return r

    def _rdx(a, n, at, ints, chars):  # a read at or above the frame (or outside memory): flush, then read
        _fl(0, ints, chars)
        if not 0 <= a <= size - n:
            raise TinyCError(ErrorCode.RANGERR, at)
        return signed_bytes[a] if n == 1 else views[a & mask][a >> shift]

    def _wsl(a, n, at, ints, chars):  # before a store at or above the frame (or outside memory)
        if not 0 <= a <= size - n:
            raise TinyCError(ErrorCode.RANGERR, at)
        _fl(0, ints, chars)

    def _xf(lc, names):  # an error leaves the function: its modified scalars reach their cells
        for v, a, isint in names:
            if v in lc and a in lc:
                if isint:
                    views[lc[a] & mask][lc[a] >> shift] = lc[v]
                else:
                    signed_bytes[lc[a]] = lc[v]

    def _setp(sym, v):
        sym.address = v
        return v

    def _incp(sym, delta):  # ++ of a global array's pointer: an address (section 14 item 21)
        sym.address = address(wrap(sym.address + delta))
        return sym.address

    def _inci(a, delta, at):
        if not 0 <= a <= size - isz:
            raise TinyCError(ErrorCode.RANGERR, at)
        view, j = views[a & mask], a >> shift
        v = view[j] = wrap(view[j] + delta)
        return v

    def _incc(a, delta, at):
        if not 0 <= a < size:
            raise TinyCError(ErrorCode.RANGERR, at)
        v = signed_bytes[a] = ((signed_bytes[a] + delta + 128) & 255) - 128
        return v

    g = {k: v for k, v in locals().items() if k.startswith("_") and callable(v)}
    g.update(_struct=struct.Struct, _w=wrap, _D=data, _B=signed_bytes, _IV=views, _SIZE=size, _MAXD=m.max_depth, _M=m,
             __builtins__=__builtins__)
    for k, view in enumerate(views):
        g[f"_IV{k}"] = view
    for n, routine in m.routines.items():
        g[f"_R{n}"] = routine
    return g


class Linkage:
    """Name resolution for one (program level, library level) pair, and the generated functions' globals.

    ``G["f_NAME"]`` starts as a stub that compiles the function on its first call.  A program-level array
    that no code of the link ever reassigns is "frozen": its element view and base index are constants.
    """

    def __init__(self, engine: FastEngine, program, library, extra: AbstractSet[str] = frozenset(), entry=None):
        self.engine = engine
        self.entry = entry  # the statements this link runs (None: unknown, no global gets constant bounds)
        self._consts: dict[str, tuple[int, int]] | None = None
        self.program, self.library = program, library
        self.G = dict(engine.runtime)
        self._extra = extra
        self._assigned: set[str] | None = None
        self.shapes: dict[str, FuncShape | VarShape | None] = {}
        self._effects: dict[str, tuple[bool, bool]] = {}
        self._calls: dict[str, tuple[list[str], int | None]] = {}  # function -> (callees, frame bytes)
        self.top = engine.m.top  # where the entry's frame starts
        self._room: bool | None = None

    @property
    def assigned(self) -> set[str]:
        """The names some code of the link assigns as a whole; worked out on first use (a program array
        asks, to know whether it is frozen), since walking every library function costs each start."""
        if self._assigned is None:
            names = set(self._extra)
            for table in (self.program, self.library):
                if table is not None:
                    for sym in table:
                        if sym.kind == "func" and sym.function is not None:
                            names |= self.engine.assigned(sym.function)
            self._assigned = names
        return self._assigned

    def lookup(self, name: str):
        sym = self.program.get(name) if self.program is not None else None
        return sym if sym is not None else self.library.get(name)

    def resolve_var(self, name: str):
        """The shape of a global name for the effects analysis (functions: no effects of their own)."""
        sym = self.lookup(name)
        if sym is not None and sym.kind == "func":
            return func_shape(len(sym.function.param_names), False, False)
        return self._shape(name)

    def resolve(self, name: str):
        """The shape of a global name (:mod:`.shapes`: a FuncShape, a VarShape, None when no level
        defines it); fills its G entries.  A global scalar that only ever holds constants has their
        bounds in its place (``place.bounds``)."""
        shape = self._shape(name)
        if shape is not None and shape.kind == "var" and not shape.array:
            if self._consts is None:
                self._consts = {}  # while they are computed (the effects analysis resolves names)
                self._consts = self.engine.global_constants(self, own_effects)
            b = self._consts.get(name)
            if b is not None:
                shape = shape._replace(place=shape.place._replace(bounds=b))
        return shape

    def _shape(self, name: str):
        if name in self.shapes:
            return self.shapes[name]
        sym = self.lookup(name)
        G = self.G
        shape: FuncShape | VarShape | None
        if sym is None:
            shape = None
        elif sym.kind == "func":
            fn = sym.function
            shape = func_shape(None if fn.error is not None else len(fn.param_names), *self.effects(name))
            G["f_" + name] = self._stub(name)
            G["r_" + name] = self.engine._fallback(sym)
        else:
            mem = self.engine.m.memory
            isz = mem.int_size
            shift = 2 if isz == 4 else 1
            own = self.program is not None and self.program.get(name) is sym
            frozen = sym.array and own and name not in self.assigned
            checked = sym.array and sym.length > 1
            a = sym.address
            # constant places (scalars, frozen arrays) are baked into the code
            place = Place(a & (isz - 1), a >> shift, sym.length, a) if frozen or not sym.array else None
            shape = var_shape(sym.type, sym.array, frozen, checked, place)
            G["gs_" + name] = sym
            G["ga_" + name] = a
            G["gl_" + name] = sym.length
            if sym.type == "int" and (not sym.array or frozen):
                view = self.engine.runtime["_IV"][a & (isz - 1)]
                G["gw_" + name] = view
                G["gi_" + name] = G["gb_" + name] = a >> shift
                G["gn_" + name] = len(view)
        self.shapes[name] = shape
        return shape

    def effects(self, name: str) -> tuple[bool, bool]:
        """(may read, may write) memory outside checked arrays, for a call of the function ``name`` and
        everything it calls (a fixed point over the call graph of this link)."""
        eff = self._effects
        if name in eff:
            return eff[name]
        graph, todo = {}, [name]
        while todo:
            n = todo.pop()
            if n in graph or n in eff:
                continue
            sym = self.lookup(n)
            if sym is None or sym.kind != "func":
                eff[n] = (False, False)
                continue
            graph[n] = own_effects(sym.function, self)
            todo += graph[n][2]
            self._calls[n] = graph[n][2], graph[n][3]
        cur = {n: (g[0], g[1]) for n, g in graph.items()}
        changed = True
        while changed:
            changed = False
            for n, (r, w, callees, _) in graph.items():
                nr, nw = cur[n]
                for c in callees:
                    cr, cw = cur[c] if c in cur else eff[c]
                    nr, nw = nr or cr, nw or cw
                if (nr, nw) != cur[n]:
                    cur[n] = (nr, nw)
                    changed = True
        eff.update(cur)
        return eff[name]

    @property
    def room(self) -> bool:
        """Whether no allocation of value space can fail while ``entry`` runs: the entry's own
        declarations and, at the depth limit plus one, calls of the function with the largest frame
        among those it may reach, fit above ``top`` in memory.  Then the generated functions take their
        frames without a test (error 19 cannot happen).  False when the entry is unknown, or a reachable
        function has dynamic locals (its frame is not known here; the reference evaluator runs it and
        all it calls, testing every allocation, so this is only caution)."""
        if self._room is None:
            self._room = False  # while it is worked out (resolving names asks for effects)
            self._room = self._fits()
        return self._room

    def _fits(self) -> bool:
        engine = self.engine
        if self.entry is None or not engine.frames_known or not engine.options.room:
            return False
        entry = ast.Function(0, 0, "_run", [], ast.Block(0, 0, list(self.entry)))
        _, _, todo, own = own_effects(entry, self, False)
        if own is None:
            return False
        largest, seen = 0, set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            self.effects(name)  # fills _calls for name and all it calls
            callees, frame = self._calls.get(name, ([], 0))
            if frame is None:
                return False
            largest = max(largest, frame)
            todo += callees
        m = engine.m
        return self.top + own + (m.max_depth + 2) * largest <= m.memory.size

    def _stub(self, name: str):
        def stub(*args):
            return self.materialize(name)(*args)
        return stub

    def materialize(self, name: str):
        """Compile (or take from the cache) the function ``name`` resolves to, for this link."""
        sym = self.lookup(name)
        f = self.engine.function(sym, self)
        self.G["f_" + name] = f
        return f


def own_effects(fn, link: Linkage, keep: bool = True) -> tuple[bool, bool, list[str], int | None]:
    """(reads, writes, names of the functions called, frame) of one function on its own: reads and writes
    of memory outside its checked arrays (an unchecked or parameter array, a moved pointer, a machine call
    other than the pure ones); the bytes of value space one call of it may take (its parameters and
    static locals, an array parameter passed 0 included).  A function the generator cannot analyse
    counts as reading and writing, with an unknown frame (None).

    The same answer as the generator's own tests (``ScopeGen.direct`` and ``ScopeGen.unsafe`` on a
    ``Codegen`` of ``fn`` resolving names with ``link.resolve_var``), from the function's
    :class:`~tinyc.engines.analysis.Scan` (kept for later if ``keep``) and its static locals, without building a generator; the global names
    it subscripts are resolved in the same order."""
    body = fn.body.body
    scans = link.engine.caches.scans
    sc = scan(body, keep, scans)
    lookup = link.lookup
    callees = sorted(c for c in sc.refs if (s := lookup(c)) is not None and s.kind == "func")
    params = fn.parameters()
    try:
        an = Analysis(params, body, link.engine.m.memory.int_bits, scans)
    except Unsupported:
        return True, True, callees, None
    local = an.locals
    callees = [c for c in callees if c not in local]
    frame = an.frame(link.engine.m.memory.int_size)
    reads = writes = False
    for n, target in sc.accesses:
        if target is None:  # a machine call
            if not direct(n):
                return True, True, callees, frame
            continue
        loc = local.get(n.name)
        if loc is not None:  # a scalar: error 7 before any access; an array of its own, checked, in bounds
            unsafe = loc.array and not (loc.frozen and loc.allocated and loc.length > 1)
        else:  # a global array is in bounds when checked and its pointer never moves
            shape = link.resolve_var(n.name)
            unsafe = shape is not None and shape.kind == "var" and shape.array and not (shape.frozen and shape.checked)
        if unsafe:
            reads = True  # a store counts as a read too: callers flush before every call that may write
            writes = writes or target
    return reads, writes, callees, frame
