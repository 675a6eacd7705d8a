"""The debugger's engines: the reference evaluators of both dialects with a hook before each statement,
at each call and return, and at each error (issue 27; :mod:`tinyc.views.debugger` drives them).  A dialect's
evaluator gets the hooks the same way (:mod:`tinyc.dialects.gibson.debug`).

Like :mod:`tinyc.views.tracer`, the hooks are added by subclassing the evaluator.  The hooks call the
debugger ``session`` (an object with ``statement``, ``calling``, ``returned``, ``failed`` and ``popped``
methods), which may read commands and run expressions before the program goes on.  The engines keep
their own stack of :class:`CallInfo`, one per active tiny-c call, because the evaluators keep the
caller's frame only in a Python local.
"""

from __future__ import annotations

from typing import Any, cast

from .. import ast
from ..engines.evaluator import Evaluator
from ..errors import TinyCError
from ..link.symbols import Frame, Symbol


class CallInfo:
    """One active call: the function's ``name``, its AST (``function``), the call site's node,
    the callee's ``frame`` once it exists, and ``pos``, the statement it runs now (absolute address)."""

    __slots__ = ("name", "function", "site", "frame", "pos", "entered", "line", "compiled", "args")

    def __init__(self, name: str, function: ast.Function | None, site: ast.Node, frame: Frame | None, pos: int):
        self.name = name
        self.function = function
        self.site = site
        self.frame = frame
        self.pos = pos
        self.entered = False  # its body's [ has been reported to the session
        self.line = -1        # the line of its last statement (a line breakpoint stops once per line)
        self.compiled = False  # it runs on the fast engine: no frame, no statements seen
        self.args: list[int] = []  # the values passed to a compiled call


class DebugMixin:
    """The hooks; mixed in before an evaluator class (see :class:`DebugEvaluator`)."""

    session: object
    frames: list[CallInfo]
    quiet: int

    def setup_debug(self, session) -> None:
        """Attach ``session``; the bottom of the stack is the entry statement (``main``, the seed)."""
        self.session = session
        self.frames = [CallInfo("", None, ast.Null(0, 0), None, 0)]
        self.quiet = 0  # > 0 while the debugger evaluates an expression: no stops
        self.fast: Any = None  # the DebugFastEngine this evaluator is the reference of (debug_fast.py), if any

    def execute(self, node: ast.Stmt) -> None:
        top = self.frames[-1]
        top.frame, top.pos = self.frame, node.pos  # type: ignore[attr-defined]
        if not self.quiet:
            self.session.statement(self, node)  # type: ignore[attr-defined]
        try:
            super().execute(node)  # type: ignore[misc]
        except TinyCError as e:
            if not self.quiet and not getattr(e, "debugged", False):
                e.debugged = True  # type: ignore[attr-defined]  # the innermost statement reports it once
                self.session.failed(self, e)  # type: ignore[attr-defined]
            raise

    def visit_Block(self, node: ast.Block) -> None:
        top = self.frames[-1]
        if top.function is not None and node is top.function.body and not top.entered:
            top.entered = True  # a function's body is run without execute(): its [ is a statement too
            top.frame, top.pos = self.frame, node.pos  # type: ignore[attr-defined]
            if not self.quiet:
                self.session.statement(self, node)  # type: ignore[attr-defined]
        super().visit_Block(node)  # type: ignore[misc]

    def call(self, sym: Symbol, args: list, node: ast.Node):
        """A call: compiled where the fast engine may run it (:mod:`.debug_fast`), else with the hooks."""
        fast, ev = self.fast, cast(Any, self)
        if fast is not None and ev.depth + 1 < ev.m.max_depth:
            f = fast.compiled(sym)
            if f is not None and sym.function is not None and len(args) == len(sym.function.parameters()):
                return self.call_compiled(f, sym, args, node)
        return self.debug_call(sym, args, node)

    def call_compiled(self, f, sym: Symbol, args: list, node: ast.Node):
        """Run ``f``, the compiled ``sym``, from here: a frame without locals on the stack for ``bt``."""
        info = CallInfo(sym.name, sym.function, node, None, node.pos)
        info.compiled, info.args = True, args
        self.frames.append(info)
        ev = cast(Any, self)
        m, depth = ev.m, ev.depth
        mark = m.top
        try:
            result = f(*args, mark, depth + 1)
        except TinyCError as e:
            fn = sym.function
            if not self.quiet and not getattr(e, "debugged", False) and fn is not None and fn.pos <= e.address < fn.end:
                self.failed_compiled(info, e, mark)
            raise
        finally:
            self.frames.pop()
            m.top, ev.depth = mark, depth  # a call the debug evaluator ran from in there moved them
            if not self.quiet:
                self.session.popped(self, info)  # type: ignore[attr-defined]
        if not self.quiet:
            self.session.returned(self, info, result)  # type: ignore[attr-defined]
        return result

    def failed_compiled(self, info: CallInfo, error: TinyCError, mark: int) -> None:
        """An error in the compiled call ``info`` (in its own text): the debugger stops at it with the
        call's locals where their layout is known (:func:`~tinyc.views.debug_fast.rebuilt_frame`)."""
        from .debug_fast import rebuilt_frame
        assert info.function is not None
        ev = cast(Any, self)
        frame = rebuilt_frame(info.function, mark, ev.mem, error)
        if frame is None:
            return
        saved, m, mem = ev.frame, ev.m, ev.mem
        info.compiled, info.frame, info.pos = False, frame, error.address
        ev.frame = frame
        # what the debugger puts in value space (a typed expression's text) goes above these locals
        m.top = max([s.address + mem.sizeof(s.type) * s.length for s in frame.locals.values()] + [mark])
        try:
            error.debugged = True  # type: ignore[attr-defined]
            self.session.failed(self, error)  # type: ignore[attr-defined]
        finally:
            ev.frame, m.top = saved, mark

    def debug_call(self, sym: Symbol, args: list, node: ast.Node):
        """A call run here, with the session's hooks at its start and end."""
        if not self.quiet:
            self.session.calling(self, sym, node)  # type: ignore[attr-defined]
        info = CallInfo(sym.name, sym.function, node, None, node.pos)
        self.frames.append(info)
        try:
            result = super().call(sym, args, node)  # type: ignore[misc]
        finally:
            self.frames.pop()
            if not self.quiet:
                self.session.popped(self, info)  # type: ignore[attr-defined]
        if not self.quiet:
            self.session.returned(self, info, result)  # type: ignore[attr-defined]
        return result

    def value(self, raw) -> int:
        """A call's result as an int (the Gibson dialect may hand back a reference, read late)."""
        return raw if isinstance(raw, int) else self.rd(raw)  # type: ignore[attr-defined]


class DebugEvaluator(DebugMixin, Evaluator):
    """The tiny-c/PC reference evaluator with the debugger's hooks."""

    def __init__(self, machine, session):
        Evaluator.__init__(self, machine)
        self.setup_debug(session)

