"""The stepper's recorder (issue 37): a run on the reference evaluator recorded step by step, as JSON.

:func:`record` runs a program in either dialect on that dialect's reference evaluator with hooks (a mixin,
as :mod:`tinyc.debug.engine` adds the debugger's) and returns a :class:`Trace`: for each step the statement
or sub-expression it is at, the value it produced, the call stack, the output it wrote and the bytes of
memory that changed since the step before.  docs/stepper.md is the schema; the page's stepper
(tinyc/debug/stepper.js) and :meth:`Trace.state` read it the same way.

Steps come in two sizes, as Thonny's do: a *statement* step (``k: "s"``) before each statement runs (an
``if``/``while``/``for`` each time its header is tested), and *expression* steps (``k: "e"``) as each
operand, operator, assignment, call and machine call of the program's text gives its value, and a *call*
step (``k: "c"``) with the arguments as a call of one of the program's functions starts.  Code of the
library is not stepped through: a call into it is one call step and one value.

Memory is watched, not copied: the machine's bytearray is swapped for :class:`WatchedBytes`, which notes
the places written; a step keeps only the bytes that differ from a shadow copy, new and old, so the page
can step backward by undoing them.
"""

from __future__ import annotations

import base64
import io
import time
from pathlib import Path
from typing import Any, Callable, TypeVar

from .. import ast
from ..errors import TinyCError
from ..link.symbols import Symbol
from ..engines.observer import Observer
from ..machine.console import Console
from .steptrace import Trace

Result = TypeVar("Result")  # what a call gives (an int; in the Gibson dialect perhaps a reference)
TYPE_CHECKING = False  # typing.TYPE_CHECKING; mypy knows it
if TYPE_CHECKING:
    from ..driver.interpreter import Machine
    from ..driver.session import Session

    # how a dialect runs a program recorded: (status, report, where the error was)
    Ran = tuple[str, str, "dict[str, Any] | None"]

SCHEMA = 1
DEFAULT_LIMIT = 2_000_000  # steps: bc.tc's start alone is about 150,000 (benchmarks/stepper.py)
CONTAINERS = (ast.Block, ast.If, ast.While, ast.For, ast.Reparse, ast.Recheck)  # stepped through their parts


class StepLimit(BaseException):
    """The step limit was reached; a BaseException, so that no ``except Exception`` of a machine call stops it."""


class WatchedBytes(bytearray):
    """A bytearray that notes each place written (an int or a slice) in ``dirty``, for the recorder's diffs.
    Every write to the machine's memory goes through ``data[...] = ...`` (tinyc.machine.memory)."""

    dirty: list[int | slice]

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        self.dirty.append(key)


class RecordingConsole(Console):
    """A Console that also keeps every byte written (``seen``), so each step knows its output."""

    def __init__(self, stdin: bytes):
        super().__init__(io.BytesIO(stdin), io.BytesIO())
        self.seen = bytearray()

    def write(self, data: bytes) -> None:
        self.seen += data.replace(b"\r", b"")  # as `tinyc run` shows it (section 14 item 9)
        super().write(data)

    def put(self, c: int) -> None:
        if c != 13:
            self.seen.append(c)
        super().put(c)


class Recorder:
    """Collects the steps of one run.  ``text`` is the stepped source (``base`` is the address of its first
    byte), ``limit`` the steps before :class:`StepLimit`, ``small`` whether expression steps are kept."""

    def __init__(self, limit: int = DEFAULT_LIMIT, small: bool = True):
        self.limit, self.small = limit, small
        self.steps: list[dict[str, Any]] = []
        self.spans: list[list[int]] = []
        self.span_ids: dict[tuple[int, int], int] = {}
        self.frames: list[dict[str, Any]] = []
        self.stacks: list[list[Any]] = []
        self.globals: list[list[dict[str, Any]]] = []
        self.calls: list[list[Any]] = []   # active calls: [site span, Frame, frame id, signature, stack id]
        self.lo = self.hi = 0              # the stepped text's addresses
        self.snap_at: set[int] = set()     # steps whose whole memory is kept (tests compare with it)
        self.snapshots: dict[int, bytes] = {}
        self.symbols_moved = False         # an array name was assigned: its pointer (a symbol's) changed
        self.regions: list[dict[str, Any]] = []  # the memory map's regions (docs/stepper.md)
        self.initial: list[list[Any]] = []       # the memory before the first step
        self.global_sig: list[dict[str, Any]] | None = None

    # ---- set-up, once the machine exists and the program is in memory

    def attach(self, evaluator: Any, console: RecordingConsole, text: bytes, base: int,
               globals_table: Callable[[], list[Symbol]]) -> None:
        self.ev, self.console, self.mem = evaluator, console, evaluator.mem
        self.text, self.lo, self.hi = text, base, base + len(text)
        self.line_starts = [0] + [i + 1 for i, c in enumerate(text) if c == 10]
        self.global_table = globals_table
        data = self.mem.data
        if not isinstance(data, WatchedBytes):
            data = self.mem.data = WatchedBytes(data)
        data.dirty = []
        self.shadow = bytearray(data)
        self.out_mark = len(console.seen)
        self.mc_args: list[int] | None = None  # the arguments of the machine call that just ran
        self.calls = [[None, None, -1, None, -1]]  # the entry statement's frame

    def initial_memory(self) -> list[list[Any]]:
        """The memory before the first step as ``[address, base64 bytes]`` runs (zero stretches left out)."""
        data, runs, i, n = bytes(self.shadow), [], 0, len(self.shadow)
        while i < n:
            if data[i] == 0:
                j = i
                while j < n and data[j] == 0 and j - i < 64:
                    j += 1
                if j - i >= 64 or j == n:
                    while j < n and data[j] == 0:
                        j += 1
                    i = j
                    continue
            start, zeros, j = i, 0, i
            while j < n and zeros < 64:
                zeros = zeros + 1 if data[j] == 0 else 0
                j += 1
            end = j - zeros
            runs.append([start, base64.b64encode(data[start:end]).decode()])
            i = j
        return runs

    # ---- where: spans

    def stepped(self, pos: int) -> bool:
        return self.lo <= pos < self.hi

    def span(self, pos: int, end: int) -> int:
        key = (pos, end)
        sid = self.span_ids.get(key)
        if sid is None:
            sid = self.span_ids[key] = len(self.spans)
            self.spans.append(self.line_col(pos) + self.line_col(max(pos, min(end, self.hi))))
        return sid

    def line_col(self, pos: int) -> list[int]:
        """[line, column] of the address ``pos``: the file's lines and columns from 1."""
        import bisect
        offset = pos - self.lo
        line = bisect.bisect_right(self.line_starts, offset)
        return [line, offset - self.line_starts[line - 1] + 1]

    # ---- steps

    def step(self, kind: str, pos: int, end: int, value: Any = None, args: list[int] | None = None) -> None:
        n = len(self.steps)
        if n >= self.limit:
            raise StepLimit()
        s: dict[str, Any] = {"k": kind, "n": self.span(pos, end), "t": self.stack_id()}
        if value is not None:
            s["v"] = value
        if args is not None:
            s["a"] = args
        self.changes(s)
        self.steps.append(s)
        if n in self.snap_at:
            self.snapshots[n] = bytes(self.mem.data)

    def changes(self, s: dict[str, Any]) -> None:
        """Put into step ``s`` what changed since the step before: memory bytes, output, globals."""
        data = self.mem.data
        if data.dirty:
            changed = self.diff(data)
            if changed:  # (a write of the bytes already there changes nothing)
                s["m"] = changed
        seen = self.console.seen
        if len(seen) > self.out_mark:
            s["o"] = seen[self.out_mark:].decode("latin-1")
            self.out_mark = len(seen)
        if self.symbols_moved or self.global_sig is None:
            self.symbols_moved = False
            sig = [self.symbol(sym) for sym in self.global_table()]
            if sig != self.global_sig:
                self.global_sig = sig
                s["g"] = len(self.globals)
                self.globals.append(sig)

    def diff(self, data: WatchedBytes) -> list[list[Any]]:
        places: list[tuple[int, int]] = []
        for key in data.dirty:
            if isinstance(key, slice):
                places.append((key.start or 0, key.stop if key.stop is not None else len(data)))
            else:
                places.append((key, key + 1))
        data.dirty = []
        places.sort()
        out: list[list[Any]] = []
        shadow = self.shadow
        last = -1
        for lo, hi in places:
            lo = max(lo, last)
            if lo >= hi:
                continue
            last = hi
            new, old = bytes(data[lo:hi]), bytes(shadow[lo:hi])
            if new != old:
                shadow[lo:hi] = new
                if out and out[-1][0] + len(out[-1][1]) // 2 == lo:  # runs that touch: one change
                    out[-1][1] += new.hex()
                    out[-1][2] += old.hex()
                else:
                    out.append([lo, new.hex(), old.hex()])
        return out

    def symbol(self, sym: Symbol) -> dict[str, Any]:
        """A variable as the trace gives it: name, address, type, element count (0 for a scalar), bytes."""
        size = self.mem.sizeof(sym.type)
        count = sym.length if sym.array else 0
        return {"name": sym.name, "address": sym.address, "type": sym.type, "length": count,
                "size": size * max(count, 1)}

    def stack_id(self) -> int:
        """The stack table's entry for the calls active now, made when the innermost frame is new, has
        declared a local or has had an array name assigned since the last step."""
        top = self.calls[-1]
        frame = self.ev.frame
        moved = self.symbols_moved  # (changes() clears it, after the globals)
        if top[1] is frame and top[3] == len(frame.locals) and not moved:
            kept: int = top[4]
            return kept
        locals_ = [self.symbol(s) for s in frame.locals.values() if s.kind == "var"] if frame else []
        fn = frame.function if frame is not None else None
        name = self.function_name(fn)
        self.frames.append({"function": name, "locals": locals_})
        parent = self.calls[-2][4] if len(self.calls) > 1 else -1
        self.stacks.append([parent, len(self.frames) - 1, top[0]])
        top[1], top[3], top[4] = frame, len(frame.locals) if frame else 0, len(self.stacks) - 1
        return len(self.stacks) - 1

    def function_name(self, fn: object) -> str:
        if fn is None:
            return "(entry)"
        name = getattr(fn, "name", None)
        return name if isinstance(name, str) else "?"

    def enter(self, node: ast.Node) -> None:
        site = self.span(node.pos, node.end) if self.stepped(node.pos) else None
        self.calls.append([site, None, -1, None, -1])

    def leave(self) -> None:
        self.calls.pop()


class Recording(Observer):
    """The recorder's hooks on one evaluator, either dialect's (:mod:`tinyc.engines.observer`): statements
    and headers before they run, each expression after it gives its value, calls, machine calls'
    arguments, an array pointer moved.  ``rec`` is the :class:`Recorder`."""

    expressions = True

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec

    def statement(self, node: ast.Stmt, run: Callable[[], None]) -> None:
        if not isinstance(node, CONTAINERS) and self.rec.stepped(node.pos):
            self.rec.step("s", node.pos, node.end)
        run()

    def condition(self, node: ast.If | ast.While | ast.For, run: Callable[[], int]) -> int:
        if self.rec.stepped(node.pos):
            end = node.then.pos if isinstance(node, ast.If) else node.body.pos
            data = self.evaluator.mem.data
            while end > node.pos + 1 and data[end - 1] in b" \t\r\n":  # the header without the blanks after it
                end -= 1
            self.rec.step("s", node.pos, end)
        return run()

    def call(self, sym: Symbol, args: list[Any], node: ast.Node, run: Callable[[], Result]) -> Result:
        rec = self.rec
        if rec.small and rec.stepped(node.pos) and sym.function is not None \
                and rec.stepped(sym.function.body.pos):
            rec.step("c", node.pos, node.end, None, [self.evaluator.shown(a) for a in args])
        rec.enter(node)
        try:
            return run()
        finally:
            rec.leave()

    def machine_call(self, values: list[int]) -> None:
        self.rec.mc_args = list(values)  # the step after the call shows them

    def moved(self, sym: Symbol) -> None:
        self.rec.symbols_moved = True

    def expression(self, node: ast.Expr, value: Any) -> None:
        """An expression step with the value it gives (not an array bound at link time: no frame)."""
        rec = self.rec
        if rec.small and rec.lo <= node.pos < rec.hi and self.evaluator.frame is not None:
            args, rec.mc_args = (rec.mc_args, None) if type(node) is ast.MachineCall else (None, rec.mc_args)
            rec.step("e", node.pos, node.end, self.evaluator.shown(value), args)


# ---- running a program recorded


def record(session: Session, program: str | bytes, entry: str | None = None, stdin: bytes = b"",
           limit: int | None = None, small: bool = True, snapshots: set[int] | frozenset[int] = frozenset(),
           run: Callable[..., Ran] | None = None) -> Trace:
    """Run ``program`` (a file's path, or its text as bytes) recorded in ``session``'s dialect and machine
    options, from ``entry`` (None: main), with ``stdin`` as its input; at most ``limit`` steps (None:
    DEFAULT_LIMIT; then the status is ``limit`` and the trace holds the steps so far); ``small`` False keeps
    statement steps only.  ``snapshots``: steps whose whole memory the trace keeps as ``trace.snapshots`` (for
    tests).  ``run(session, recorder, console, path or text, text, entry) -> (status, report, error)`` is the
    dialect's way of running it (:func:`record_pc`'s, tinyc.dialects.gibson.stepper's).  A Ctrl-C stops the
    run with status ``stopped`` and what was recorded.  Raises ProgramFileError for a file that cannot be read."""
    limit = DEFAULT_LIMIT if limit is None else limit
    name: str | None = None
    if isinstance(program, (bytes, bytearray)):
        text, name = bytes(program), name or "program.tc"
    else:
        from ..machine.shipped import program_path
        path = program_path(program)
        name = name or str(program)
        text = session.dialect.read_program(path, session.int_bits)
        program = path
    rec = Recorder(limit, small)
    rec.snap_at = set(snapshots)
    console = RecordingConsole(stdin)
    started = time.perf_counter()
    status, report, where = (run or _run_pc)(session, rec, console, program, text, entry)
    console.flush()
    seconds = time.perf_counter() - started
    messages = {"limit": f"stopped at the step limit: {limit} steps recorded (the limit option)",
                "stopped": "stopped: the program asked for more input than was given; the steps so far are kept"
                if console.at_eof else "stopped (Ctrl-C): the steps so far are kept",
                "syntax": "the program has a syntax error: nothing was recorded (a run reports it only when it "
                          "reaches it, reference section 14 item 16; the stepper needs the whole text to parse)"}
    data = {
        "schema": SCHEMA, "dialect": session.dialect.name, "file": name, "entry": entry or "main",
        "source": getattr(rec, "text", text).decode("latin-1"), "status": status,
        "message": messages.get(status, ""), "report": report, "error": where,
        "output": console.seen.decode("latin-1"), "limit": limit,
        "steps": rec.steps, "spans": rec.spans, "frames": rec.frames, "stacks": rec.stacks,
        "globals": rec.globals, "regions": getattr(rec, "regions", []),
        "memory": {"size": len(rec.shadow) if hasattr(rec, "shadow") else 0,
                   "int_size": session.dialect.int_size(session.int_bits),
                   "initial": getattr(rec, "initial", [])},
        "seconds": round(seconds, 3),
    }
    trace = Trace(data)
    trace.snapshots = rec.snapshots  # type: ignore[attr-defined]
    return trace


def error_at(rec: Recorder, err: int, address: int) -> dict[str, Any] | None:
    """Where an error happened: the last step and the error's line and column in the stepped text."""
    where = rec.line_col(address) if rec.stepped(address) else None
    return {"code": err, "step": len(rec.steps) - 1, "line": where and where[0], "column": where and where[1]}


def record_pc(session: Session, program: str | bytes, entry: str | None = None, stdin: bytes = b"", limit: int | None = None,
              small: bool = True, snapshots: set[int] | frozenset[int] = frozenset()) -> Trace:
    """The tiny-c/PC dialect's ``record`` hook (:meth:`tinyc.driver.session.Session.record`): :func:`record`."""
    return record(session, program, entry, stdin, limit, small, snapshots, _run_pc)


def _run_pc(session: Session, rec: Recorder, console: RecordingConsole, path: str | bytes, text: bytes,
            entry: str | None) -> Ran:
    """Boot the library, load ``text`` into the program buffer and run ``entry`` against it, recorded."""
    from ..driver.session import Session
    from ..driver.outcome import statement_outcome
    from ..machine.console import align_report
    from ..views.stages import load

    sub = Session(session.dialect, "reference", memory=session.memory, int_bits=session.int_bits,
                  max_depth=session.max_depth, random_divisor=session.random_divisor, console=console,
                  files=session.files)
    recording = Recording(rec)
    loaded = load(text, session=sub, engine=recording.watching(session.dialect.engine("reference")))
    m, ws = loaded.machine, loaded.workspace
    from ..views.check import syntax_errors
    found = syntax_errors(m, ws)
    if found:  # no stepper for a text that does not parse: its reports, as `tinyc check --format report`
        file, line, column = ws.locate(found[0][1])
        return "syntax", "".join(ws.report(code, cursor) for code, cursor in found), \
            {"code": found[0][0], "step": None, "line": line, "column": column}
    lib = m.library_text
    base = ws.pr + 1
    rec.attach(recording.evaluator, console, text.replace(b"\r", b""), base, lambda: program_vars(m))
    rec.regions = regions([("library text", lib.base, lib.base + len(lib.text)) if lib else None,
                            ("shell line ln", ws.ln, ws.pr), ("program text pr", ws.pr, ws.pr + ws.pe + 1)])
    rec.initial = rec.initial_memory()
    status, rep, at = "done", "", None
    try:
        outcome = statement_outcome(ws, (entry or "main").encode("latin-1"), align=align_report)
    except StepLimit:
        outcome = None
    if outcome is None:
        status = "limit"
    elif outcome.interrupted or outcome.code == 99:
        status, rep = "stopped", "stopped\n"
    elif outcome.failed:
        status, rep = "error", outcome.report
        at = error_at(rec, outcome.code, outcome.address)
    add_regions(rec)
    return status, rep, at


def program_vars(m: Machine) -> list[Symbol]:
    return [s for s in (m.program or ()) if s.kind == "var"]


def regions(parts: list[tuple[str, int, int] | None]) -> list[dict[str, Any]]:
    return [{"name": p[0], "start": p[1], "end": p[2]} for p in parts if p is not None and p[2] > p[1]]


def add_regions(rec: Recorder) -> None:
    """The globals' region (from the last globals the run had) and the stack's: from there to the highest
    byte a frame's own local used (an array parameter pointing elsewhere is not the stack's)."""
    floor = max((r["end"] for r in rec.regions), default=0)
    if rec.globals and rec.globals[-1]:
        table = rec.globals[-1]
        lo, hi = min(v["address"] for v in table), max(v["address"] + v["size"] for v in table)
        rec.regions.append({"name": "globals", "start": lo, "end": hi})
        floor = max(floor, hi)
    own = [v for f in rec.frames for v in f["locals"] if v["address"] >= floor]
    if own:
        rec.regions.append({"name": "frames (the stack)", "start": min(v["address"] for v in own),
                            "end": max(v["address"] + v["size"] for v in own)})
