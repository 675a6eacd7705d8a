"""The Debug Adapter Protocol's conveniences in :mod:`tinyc.debug.dap` (a mixin of its
:class:`~tinyc.debug.dap.Server`): ``setVariable``, ``setExpression``, ``breakpointLocations``,
``loadedSources``, hit-count (``hitCondition``) and log-point (``logMessage``) breakpoints, the
``errors`` exception filter (whether a tiny-c error stops the program) and ``restart``.

A hit condition is a count N (stop at the Nth hit and after), ``>= N``, ``> N``, ``== N`` or ``% N``
(every Nth hit).  A log message's ``{EXPRESSION}`` parts are the values of tiny-c expressions in the frame
that hit it; a log point never stops the program."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import ast
from ..errors import TinyCError
from ..link.symbols import Symbol
from .dap_frames import GLOBALS, LOCALS, shown_text

EXCEPTION_FILTERS = [{"filter": "errors", "label": "tiny-c errors", "default": True,
                      "description": "stop at a tiny-c error (a run-time error report) before the program ends"}]
CAPABILITIES = {"supportsSetVariable": True, "supportsSetExpression": True, "supportsBreakpointLocationsRequest": True,
                "supportsLoadedSourcesRequest": True, "supportsHitConditionalBreakpoints": True,
                "supportsLogPoints": True, "supportsRestartRequest": True,
                "exceptionBreakpointFilters": EXCEPTION_FILTERS}
HIT = re.compile(r"\s*(>=|>|==|%)?\s*(\d+)\s*$")


class DapError(Exception):
    """A request that cannot be done: its message goes back in an error response."""


@dataclass
class Extra:
    """What a breakpoint has beyond the debugger's: its hit condition and log message, and its hit count."""

    hit: str = ""
    log: str | None = None
    count: int = 0

    def due(self) -> bool:
        """Counts one more hit; whether the hit condition holds now."""
        self.count += 1
        m = HIT.match(self.hit)
        if not self.hit or m is None:
            return True
        op, n = m.group(1) or ">=", int(m.group(2))
        return {">=": self.count >= n, ">": self.count > n, "==": self.count == n,
                "%": n > 0 and self.count % n == 0}[op]


class Conveniences:
    """The requests and hooks of the module docstring; the Server's ``debugger``, ``respond``,
    ``stopped_engine``, ``view_entry``, ``frame_index``, ``output`` and ``where`` are used."""

    debugger: Any
    extras: dict[int, Extra]
    stop_on_errors: bool = True

    if TYPE_CHECKING:
        def respond(self, request: dict[str, Any], success: bool = True, message: str = "", **body: Any) -> None: ...

        def stopped_engine(self) -> tuple[Any, Any]: ...

        def view_entry(self, value: Any) -> tuple[int, str, int, dict[str, Any] | None] | None: ...

        def frame_index(self, value: Any) -> int: ...

        def output(self, text: str, category: str = "stdout") -> None: ...

    # ---- breakpoints

    def breakpoint_extra(self, number: int, spec: dict[str, Any]) -> str:
        """Keep the hit condition and log message of the breakpoint ``number`` set from ``spec``; a reason
        why they are refused, or ""."""
        hit, log = str(spec.get("hitCondition") or ""), spec.get("logMessage")
        if hit and not HIT.match(hit):
            return f"the hit condition {hit!r} is not N, >= N, > N, == N or % N"
        if hit or isinstance(log, str):
            self.extras[number] = Extra(hit, log if isinstance(log, str) else None)
        else:
            self.extras.pop(number, None)
        return ""

    def bad_condition(self, cond: str) -> str:
        """Why ``cond`` is no tiny-c expression (the dialect's parser says), or "" when it is one."""
        if not cond:
            return ""
        d = self.debugger
        assert d is not None
        try:
            stmts = d.runner.parse_typed(cond, 0, {}, [])
        except (TinyCError, ValueError, RecursionError) as e:
            return f"the condition {cond!r} is not a tiny-c expression ({e})"
        if len(stmts) != 1 or not isinstance(stmts[0], ast.ExprStmt):
            code = getattr(stmts[0], "code", None) if stmts else None
            return f"the condition {cond!r} is not a tiny-c expression" + (f" (error {code})" if code else "")
        return ""

    def passes(self, eng: Any, number: int) -> bool:
        """A breakpoint whose condition holds is hit: whether it stops (a log point writes its message)."""
        extra = self.extras.get(number)
        if extra is None:
            return True
        if not extra.due():
            return False
        if extra.log is None:
            return True
        d = self.debugger

        def value(m: re.Match[str]) -> str:
            try:
                v = d.commands.evaluate(eng, m.group(1), len(eng.frames) - 1, symbol=True)
            except (TinyCError, ValueError) as e:
                return f"<{m.group(1)}: {e}>"
            return shown_text(d.commands.symbol_value(eng, v).strip()) if isinstance(v, Symbol) else str(v)
        self.output(re.sub(r"\{([^{}]*)\}", value, extra.log) + "\n", "console")
        return False

    def do_breakpointLocations(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        d = self.debugger
        if d is None:
            raise DapError("breakpointLocations: launch first")
        path = str(Path(args["source"]["path"]).resolve())
        first = int(args["line"])
        last = int(args.get("endLine") or first)
        found = []
        for line in range(first, min(last, first + 10000) + 1):
            at = d.runner.file_line(path, line)
            if not isinstance(at, str) and d.has_statement(at):
                found.append({"line": line})
        self.respond(request, breakpoints=found)

    def do_setExceptionBreakpoints(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        filters = args.get("filters") or []
        if not isinstance(filters, list) or any(f != "errors" for f in filters):
            raise DapError("setExceptionBreakpoints: the one filter is 'errors'")
        self.stop_on_errors = "errors" in filters
        self.respond(request, breakpoints=[{"verified": True} for _ in filters])

    def do_loadedSources(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        d = self.debugger
        sources = [] if d is None else [{"name": Path(name).name, "path": str(Path(name).resolve())}
                                        for name, _, _ in d.runner.sources]
        self.respond(request, sources=sources)

    # ---- changing values

    def do_setVariable(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        d, eng = self.stopped_engine()
        ref, name, value = args.get("variablesReference"), str(args["name"]), str(args["value"])
        if ref == GLOBALS:
            index = 0
        elif isinstance(ref, int) and ref > LOCALS:
            entry = self.view_entry(ref - LOCALS)
            if entry is None:
                raise DapError(f"no variables {ref!r}")
            if entry[3] is not None:
                raise DapError("setVariable: a compiled call's variables are Python's: they cannot be set")
            index = self.frame_index(entry[0])
        else:
            raise DapError(f"no variables {ref!r}")
        self.respond(request, value=self.assign(name, value, index))

    def do_setExpression(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        d, eng = self.stopped_engine()
        index = len(eng.frames) - 1
        if "frameId" in args:
            entry = self.view_entry(args["frameId"])
            if entry is None or entry[3] is not None:
                raise DapError("setExpression: not in a frame the debugger evaluates")
            index = self.frame_index(entry[0])
        self.respond(request, value=self.assign(str(args["expression"]), str(args["value"]), index))

    def assign(self, target: str, value: str, index: int) -> str:
        """Run ``target = value`` (a tiny-c assignment) in the frame ``index``; the value now."""
        d, eng = self.stopped_engine()
        if not re.fullmatch(r"\s*[A-Za-z_]\w*\s*(\([^=]*\))?\s*", target):
            raise DapError(f"{target!r} is not a variable or an element")
        try:
            result = d.commands.evaluate(eng, f"{target.strip()}=({value.strip()})", index)
        except TinyCError as e:
            raise DapError(f"tiny-c error {int(e.code)}") from None
        except ValueError as e:
            raise DapError(str(e)) from None
        return str(result)

    # ---- the run

    def do_restart(self, request: dict[str, Any], args: dict[str, Any]) -> str:
        """At a stop: the program starts again from its beginning (breakpoints kept)."""
        self.stopped_engine()
        self.respond(request)
        for extra in self.extras.values():
            extra.count = 0
        return "restart"
