"""The debugger's watch on a run: :class:`Debugging`, an observer (:mod:`tinyc.engines.observer`) of
whatever reference evaluator the dialect makes, with a hook before each statement, at each call and return,
and at each error (issue 27; :mod:`tinyc.debug.debugger` drives it).

The hooks call the debugger ``session`` (an object with ``statement``, ``calling``, ``returned``, ``failed``
and ``popped`` methods), which may read commands and run expressions before the program goes on; they are
handed the :class:`Debugging`, which reads the evaluator's machine, memory and frame.  It keeps its own
stack of :class:`CallInfo`, one per active tiny-c call, because the evaluators keep the caller's frame only
in a Python local.
"""

from __future__ import annotations

from typing import Any, Callable

from .. import ast
from ..engines.observer import Observer
from ..errors import TinyCError
from ..link.symbols import Frame, Symbol


class CallInfo:
    """One active call: the function's ``name``, its AST (``function``), the call site's node,
    the callee's ``frame`` once it exists, and ``pos``, the statement it runs now (absolute address)."""

    __slots__ = ("name", "function", "site", "frame", "pos", "entered", "line", "compiled", "args", "running",
                 "mark")

    def __init__(self, name: str, function: ast.Function | None, site: ast.Node, frame: Frame | None, pos: int):
        self.name = name
        self.function = function
        self.site = site
        self.frame = frame
        self.pos = pos
        self.entered = False  # its body's [ has been reported to the session
        self.line = -1        # the line of its last statement (a line breakpoint stops once per line)
        self.compiled = False  # it runs on the fast engine: no frame, no statements seen
        self.args: list[Any] = []  # the values passed to a compiled call
        self.running = False  # a compiled call's ``pos`` is where it runs (from an error), not its call site
        self.mark = 0         # a compiled call: the top of the value space when it began (its frame's first cell)


class Debugging(Observer):
    """The debugger's hooks on one evaluator (:meth:`attach` it, or :meth:`watching` a dialect's factory).

    ``session`` is the Debugger (or the DAP adapter's); the bottom of the stack is the entry statement
    (``main``, the seed).  ``m``, ``mem``, ``frame``, ``eval`` and ``lookup`` are the evaluator's, for the
    debugger's commands."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.frames = [CallInfo("", None, ast.Null(0, 0), None, 0)]
        self.quiet = 0  # > 0 while the debugger evaluates an expression: no stops
        self.fast: Any = None  # the DebugFastEngine the evaluator is the reference of (fast.py), if any

    @property
    def m(self) -> Any:
        """The evaluator's machine."""
        return self.evaluator.m

    @property
    def mem(self) -> Any:
        """The evaluator's memory."""
        return self.evaluator.mem

    @property
    def frame(self) -> Frame | None:
        """The frame the evaluator runs in now."""
        return self.evaluator.frame

    @frame.setter
    def frame(self, frame: Frame | None) -> None:
        self.evaluator.frame = frame  # the debugger's ``p`` runs in the frame it looks at

    def eval(self, node: ast.Expr) -> int:
        """An expression's value, by the evaluator (the debugger's ``p``)."""
        return self.evaluator.eval(node)

    def lookup(self, name: str, node: ast.Node, at: int | None = None) -> Symbol:
        """A name as the evaluator finds it now (section 3)."""
        return self.evaluator.lookup(name, node, at)

    def statement(self, node: ast.Stmt, run: Callable[[], None]) -> None:
        """Tell the session before each statement; the innermost statement reports an error once."""
        top = self.frames[-1]
        top.frame, top.pos = self.evaluator.frame, node.pos
        if not self.quiet:
            self.session.statement(self, node)
        try:
            run()
        except TinyCError as e:
            if not self.quiet and not getattr(e, "debugged", False):
                e.debugged = True  # type: ignore[attr-defined]  # the innermost statement reports it once
                self.session.failed(self, e)
            raise

    def entered(self, function: ast.Function) -> None:
        """A function's body is run without a statement hook: its ``[`` is a statement too."""
        top = self.frames[-1]
        if top.function is function and not top.entered:
            top.entered = True
            top.frame, top.pos = self.evaluator.frame, function.body.pos
            if not self.quiet:
                self.session.statement(self, function.body)

    def call(self, sym: Symbol, args: list[Any], node: ast.Node, run: Callable[[], Any]) -> Any:
        """A call: compiled where the fast engine may run it (:mod:`.fast`, instead of ``run``), else
        with the hooks."""
        fast, ev = self.fast, self.evaluator
        if fast is not None and ev.depth + 1 < ev.m.max_depth:
            f = fast.compiled(sym)
            if f is not None and sym.function is not None and len(args) == len(sym.function.parameters()):
                return self.call_compiled(f, sym, args, node)
        return self.debug_call(sym, args, node, run)

    def call_compiled(self, f: Callable[..., Any], sym: Symbol, args: list[Any], node: ast.Node) -> Any:
        """Run ``f``, the compiled ``sym``, from here: a frame without locals on the stack for ``bt``."""
        info = CallInfo(sym.name, sym.function, node, None, node.pos)
        info.compiled, info.args = True, args
        self.frames.append(info)
        ev = self.evaluator
        m, depth = ev.m, ev.depth
        mark = info.mark = m.top
        try:
            result = f(*args, mark, depth + 1)
        except TinyCError as e:
            if not self.quiet and not getattr(e, "debugged", False):
                self.failed_compiled(info, e, mark)
            raise
        finally:
            self.frames.pop()
            m.top, ev.depth = mark, depth  # a call the debug evaluator ran from in there moved them
            if not self.quiet:
                self.session.popped(self, info)
        if not self.quiet:
            self.session.returned(self, info, result)
        return result

    def failed_compiled(self, info: CallInfo, error: TinyCError, mark: int) -> None:
        """An error in the compiled call ``info`` (or in compiled calls it made): the debugger stops at it,
        the compiled calls on the stack, the failing one with its locals where they can be found
        (:func:`~tinyc.debug.fast.rebuilt_frame`, :func:`~tinyc.debug.fast.copied_frame`)."""
        from .fast import compiled_calls

        def stop() -> None:
            error.debugged = True  # type: ignore[attr-defined]
            self.session.failed(self, error)
        self.stop_in_compiled(info, compiled_calls(error), mark, error.address, stop)

    def paused_compiled(self, calls: list[tuple[str, dict[str, Any], int]], stop: Callable[[], None]) -> bool:
        """A pause that came while compiled code runs (:class:`~tinyc.debug.debugger.interrupts`): ``calls``
        are its generated frames on the Python stack, outermost first
        (:func:`~tinyc.debug.fast.generated_frames`); ``stop()`` reads commands with the innermost
        compiled call's locals in place, then the code goes on where it stood.  False (no stop) where the
        calls do not start at the innermost compiled call the engine made."""
        info = self.frames[-1]
        k = next((k for k in range(len(calls) - 1, -1, -1) if calls[k][0] == info.name), None)
        if not info.compiled or k is None or not calls[-1][2]:
            return False
        return self.stop_in_compiled(info, calls[k:], info.mark, calls[-1][2], stop, live=True)

    def stop_in_compiled(self, info: CallInfo, calls: list[tuple[str, dict[str, Any], int]], mark: int,
                         address: int, stop: Callable[[], None], live: bool = False) -> bool:
        """Call ``stop()`` with the compiled calls ``calls`` (``(name, Python variables, address)``,
        outermost first; the first is ``info``'s, which began at ``mark``) on the stack as frames the
        debugger reads, the innermost running at ``address``; then the stack as it was.  False where they
        cannot be shown (not ``info``'s calls, or ``address`` outside the innermost's function).  ``live``:
        the calls go on afterwards (a pause), past their declarations."""
        from .fast import copied_frame, frame_start, rebuilt_frame
        ev = self.evaluator
        link = self.fast.link if self.fast is not None else None
        if not calls or calls[0][0] != info.name or info.function is None or link is None:
            return False
        extra = []
        for name, values, at in calls[1:]:
            sym = link.lookup(name)
            fn = sym.function if sym is not None and sym.kind == "func" else None
            callee = CallInfo(name, fn, ast.Null(at, at), None, at)
            callee.compiled = callee.running = True
            callee.args = [values.get("v_" + d.name, "?") for _, d in (fn.parameters() if fn else [])]
            extra.append(callee)
        target = extra[-1] if extra else info
        saved_pos = info.pos
        fn = target.function
        if fn is None or not fn.pos <= address < fn.end:
            return False
        info.pos, info.running = calls[0][2], True
        m, saved, saved_top = ev.m, ev.frame, ev.m.top
        # the debugger's own cells (copies, a typed expression's text) go above every compiled frame
        m.top = max([mark, m.top] + [v.get("_t", 0) for _, v, _ in calls if isinstance(v.get("_t"), int)])
        frame = rebuilt_frame(fn, mark, ev.mem, calls[-1][1]) if target is info else None
        if frame is None and live:  # a callee compiled code called: its frame ends at its _t now
            frame = rebuilt_frame(fn, frame_start(fn, ev.mem, calls[-1][1].get("_t")), ev.mem, calls[-1][1])
        if frame is None:
            frame = copied_frame(fn, calls[-1][1], m)
        target.compiled, target.frame, target.pos = False, frame, address
        m.top = max([m.top] + [s.address + ev.mem.sizeof(s.type) * s.length for s in frame.locals.values()])
        self.frames.extend(extra)
        ev.frame = frame
        try:
            stop()
        finally:
            del self.frames[len(self.frames) - len(extra):]
            ev.frame, m.top = saved, saved_top
            info.pos, info.running = saved_pos, False
            info.compiled, info.frame = True, None
        return True

    def debug_call(self, sym: Symbol, args: list[Any], node: ast.Node,
                   run: Callable[[], Any] | None = None) -> Any:
        """A call run by the evaluator (``run``, by default its class's ``call``), with the session's hooks
        at its start and end."""
        if not self.quiet:
            self.session.calling(self, sym, node)
        info = CallInfo(sym.name, sym.function, node, None, node.pos)
        self.frames.append(info)
        try:
            result = run() if run is not None else type(self.evaluator).call(self.evaluator, sym, args, node)
        finally:
            self.frames.pop()
            if not self.quiet:
                self.session.popped(self, info)
        if not self.quiet:
            self.session.returned(self, info, result)
        return result

    def value(self, raw: Any) -> int:
        """A call's result as an int (the Gibson dialect may hand back a reference, read late)."""
        return self.evaluator.shown(raw)

