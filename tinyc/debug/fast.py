"""The debugger on the fast engine (issue 27, item 5): a function with no breakpoint, watch or step in it runs
compiled, as under ``tinyc run``; the functions that must be watched run on the debugger's reference
evaluator (watched by :class:`~tinyc.debug.engine.Debugging`).

Which functions are watched is the debugger's :meth:`~tinyc.debug.debugger.Debugger.watched` answer,
asked again each time the program resumes (:meth:`DebugFastEngine.refresh`): everything while stepping or
while a watchpoint is set; otherwise the functions holding an enabled breakpoint and every function that
may call one of them (so that stepping out of a breakpoint's function goes on in a debug-evaluated
caller, and ``bt`` shows every frame).  The switch is made in the generated code's globals: the link's
``f_NAME`` is the compiled function or the reference fallback, so compiled code calls compiled code as
fast as under ``tinyc run``.  The entry statement and the calls the debug evaluator makes choose the same
way (:meth:`compiled`).  A change takes effect at the next call: a compiled function already running
(or calling itself through a proven depth) finishes compiled.
"""

from __future__ import annotations

from types import FrameType
from typing import Any, Callable

from .. import ast
from ..engines.analysis import assigned_names, walk
from ..engines.compiler import FastEngine
from ..engines.fastrt import Linkage
from ..link.symbols import Frame, Symbol


class DebugFastEngine(FastEngine):
    """The fast engine whose reference evaluator (``ref``) is the one the debugger watches (``debugging``:
    its :class:`~tinyc.debug.engine.Debugging`); ``watched(name)`` says whether the function ``name`` must
    run there.  ``fallbacks`` counts the calls that went to it."""

    def __init__(self, machine: Any, watched: Callable[[str], bool], disk_cache: Any = None) -> None:
        super().__init__(machine, disk_cache)
        self.watched = watched
        self.link: Linkage | None = None
        self.made: dict[str, Callable[..., Any]] = {}  # name -> its compiled function in ``link``
        self.tried: set[str] = set()
        self.fallbacks = 0
        self.debugging: Any = None  # the Debugging watching ``ref``, set with it
        self.prepare: Callable[[], None] | None = None  # when a run has linked its program (the debugger's sync)

    def run(self, stmts: list[ast.Stmt]) -> None:
        """The entry statement runs on the debug evaluator (it is where a run starts and ends); the calls
        it makes run compiled where :meth:`compiled` allows."""
        m = self.m
        self.link = Linkage(self, m.program, m.library, assigned_names(stmts), stmts)
        self.made, self.tried = {}, set()
        if self.prepare is not None:
            self.prepare()  # the program is linked now: what is watched can be worked out
        self.ref.depth = self.depth
        self.ref.run(stmts)

    def function(self, sym: Symbol, link: Linkage) -> Callable[..., Any]:
        f: Callable[..., Any] = super().function(sym, link)
        if link is self.link and not getattr(f, "fallback", False):
            self.made[sym.name] = f
        return self._fallback(sym) if self.watched(sym.name) else f

    def _fallback(self, sym: Symbol) -> Callable[..., Any]:
        """A call from compiled code that the debug evaluator runs, with its hooks (``debug_call``)."""
        m = self.m

        def call(*a: Any) -> Any:
            self.fallbacks += 1
            m.top = a[-2]
            self.ref.depth = a[-1] - 1
            return self.debugging.debug_call(sym, list(a[:-2]), sym.function)
        call.fallback = True  # type: ignore[attr-defined]
        return call

    def refresh(self) -> None:
        """Point each compiled function's name at its compiled code or at the debug evaluator, as
        ``watched`` says now (called when the program resumes)."""
        link = self.link
        if link is None:
            return
        for name, f in list(self.made.items()):  # (another thread may pause: list() copies at once)
            link.G["f_" + name] = self._fallback(link.lookup(name)) if self.watched(name) else f

    def compiled(self, sym: Symbol) -> Callable[..., Any] | None:
        """The compiled function (``f(*args, top, depth)``) to run a call of ``sym`` from the debug
        evaluator, or None where the debug evaluator runs it (watched, another link's, not compiled)."""
        link, name = self.link, sym.name
        if link is None or sym.function is None or sym.function.error is not None or self.watched(name):
            return None
        if name not in self.made and name not in self.tried:
            self.tried.add(name)
            if link.lookup(name) is sym:
                link.resolve(name)  # its G entries (r_NAME: the prologue's way to the reference)
                link.materialize(name)
        f = self.made.get(name)
        return f if f is not None and link.lookup(name) is sym else None


def callers_of(m: Any, names: set[str], lines: set[int], line_of: Callable[[int], int]) -> set[str]:
    """``names`` and the functions of ``m``'s program and library whose text holds one of ``lines``
    (``line_of(address)`` numbers them), with every function that may call one of those (a call or a
    bare name of it anywhere in its body), directly or not."""
    funcs = {s.name: s.function for table in (m.library, m.program) if table is not None
             for s in table if s.kind == "func" and s.function is not None}
    hot = set(names)
    if lines:
        for name, fn in funcs.items():
            if any(line_of(fn.pos) <= line <= line_of(fn.end) for line in lines):
                hot.add(name)
    callers: dict[str, set[str]] = {}
    unknown = set()  # functions with text parsed only when it runs: they may call anything
    for name, fn in funcs.items():
        for n in walk(fn.body):
            if isinstance(n, (ast.Call, ast.Var, ast.Index)) and n.name in funcs:
                callers.setdefault(n.name, set()).add(name)
            elif isinstance(n, (ast.Reparse, ast.Recheck)):
                unknown.add(name)
    if hot:
        hot |= unknown
    todo = list(hot)
    while todo:
        for c in callers.get(todo.pop(), ()):
            if c not in hot:
                hot.add(c)
                todo.append(c)
    return hot


def rebuilt_frame(fn: ast.Function, mark: int, mem: Any, values: dict[str, Any]) -> Frame | None:
    """The locals of a compiled call of ``fn`` whose frame began at ``mark`` (after an error left it, or
    where a pause stopped it), laid out as both engines lay a frame out: the scalar parameters, then the
    declarations of the body in order, each element after the last.  The scalars the generated code kept
    in Python variables (``values``: its frame's, ``v_NAME``) are written to their cells.  None where the
    layout is not known before the call runs: an array parameter, a declaration not at the body's top
    level, an array bound that is not a number, a ``mark`` of -1 (not known)."""
    if mark < 0:
        return None
    frame, addr = Frame(fn, mark=mark), mark
    decls = [(t, d) for t, d in fn.parameters()]
    if any(d.size is not None for _, d in decls):
        return None
    for stmt in fn.body.body:
        if isinstance(stmt, ast.Decl):
            decls += [(stmt.type, d) for d in stmt.names]
    if any(isinstance(n, ast.Decl) for stmt in fn.body.body if not isinstance(stmt, ast.Decl) for n in walk(stmt)):
        return None
    for type_, d in decls:
        if d.size is not None and not isinstance(d.size, ast.Number):
            return None
        length = 1 if d.size is None else max(mem.wrap(d.size.value) + 1, 0)
        frame.declare(Symbol(d.name, "var", type_, d.size is not None, addr, length) if d.size is not None
                      else Symbol(d.name, "var", type_, False, addr))
        addr += mem.sizeof(type_) * length
    for sym in frame.locals.values():
        value = values.get("v_" + sym.name)
        if not sym.array and isinstance(value, int):
            mem.write(sym.address, sym.type, value)
    return frame


def compiled_calls(error: BaseException) -> list[tuple[str, dict[str, Any], int]]:
    """(function name, Python variables, the tiny-c address it was running) of each generated frame in
    ``error``'s traceback, outermost first (the generated code's file is ``<tinyc NAME SERIAL>``)."""
    from ..engines import compiler
    out = []
    tb = error.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.startswith("<tinyc ") and filename.endswith(">"):
            linemap = compiler.line_map(tb.tb_frame) or {}
            at = [a for line, a in sorted(linemap.items()) if line <= (tb.tb_lineno or 0)]  # None: between lines
            out.append((filename[7:-1].rsplit(" ", 1)[0], dict(tb.tb_frame.f_locals), at[-1] if at else 0))
        tb = tb.tb_next
    return out


def frame_start(fn: ast.Function, mem: Any, top: object) -> int:
    """Where the frame of a running compiled call of ``fn`` began, its generated code's ``_t`` being ``top``
    (past its declarations: :func:`rebuilt_frame`'s layout); -1 where that is not known."""
    layout = rebuilt_frame(fn, 0, mem, {}) if isinstance(top, int) else None
    if layout is None or not isinstance(top, int):
        return -1
    size = max([0] + [s.address + int(mem.sizeof(s.type)) * s.length for s in layout.locals.values()])
    return top - size


def generated_frames(frame: FrameType | None) -> list[tuple[str, dict[str, Any], int]]:
    """``(function name, Python variables, tiny-c address it runs)`` of each frame of generated code on the
    Python stack from ``frame`` outwards, outermost first (file names ``<tinyc NAME SERIAL>``, Gibson's
    ``<tinyc gibson NAME SERIAL>``; the compiler's line maps give the address)."""
    from ..engines import compiler
    out = []
    while frame is not None:
        filename = frame.f_code.co_filename
        linemap = compiler.line_map(frame) if filename.startswith("<tinyc ") else None
        if linemap is not None:
            at = [a for line, a in sorted(linemap.items()) if line <= frame.f_lineno]
            out.append((filename[1:-1].split(" ")[-2], dict(frame.f_locals), at[-1] if at else 0))
        frame = frame.f_back
    return out[::-1]


def copied_frame(fn: ast.Function, values: dict[str, Any], m: Any) -> Frame:
    """A frame of ``fn`` for the debugger to show after an error in a compiled call of it: its scalar
    parameters and top-level locals, copied from the call's Python variables ``values`` into new cells
    at ``m.top`` (the program is over; its arrays are not shown)."""
    frame = Frame(fn, mark=m.top)
    decls = fn.parameters() + [(st.type, d) for st in fn.body.body if isinstance(st, ast.Decl) for d in st.names]
    for type_, d in decls:
        value = values.get("v_" + d.name)
        if d.size is None and isinstance(value, int) and d.name not in frame.locals:
            addr = m.allocate(type_, 1, 0)
            m.memory.write(addr, type_, value)
            frame.declare(Symbol(d.name, "var", type_, False, addr))
    return frame
