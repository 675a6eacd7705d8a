"""``tinyc trace``: run a program on the reference engine, printing each statement as it runs.

A trace line is ``LINE | source  changes``: the file line, the statement's source text indented by call
depth, and the variables the statement changed (visible scalars, array contents and array pointers,
compared before and after; ``(true)``/``(false)`` for a condition).  An ``if``, ``while`` or ``for`` shows
its header each time its condition is tested; a ``for`` header also shows what its init or step changed.
Calls of the program's functions show as ``call f(args)`` and ``f(args) returns v`` (a ``char`` array
argument with the string it points to); with ``--calls`` only those calls and returns are shown.  The statement given with
``--entry`` shows as line ``entry``; the library's own statements are not traced unless ``--library``.

Where the trace goes: the trace is written to stderr and the program's output to stdout unchanged, so
``2>trace.txt`` separates them.  When both reach the same place (a terminal, or ``2>&1``) the program
output is flushed before each trace line, and a trace line starts on a fresh line even when the
program left its output mid-line (``pl`` puts its newline first); a line end the program writes
right after a trace line is then absorbed, so that ``pl`` does not add an empty line after each one.
"""

from __future__ import annotations

import io
import os
from typing import Any, BinaryIO, Callable, TextIO, TypeVar

from .. import ast
from ..machine.console import align_report
from ..machine.console import Console
from ..driver.options import DEFAULT_MAX_DEPTH, DEFAULT_RANDOM_DIVISOR
from ..driver.outcome import Outcome, statement_outcome
from ..engines.observer import Observer
from ..driver.dialect import DEFAULT, Dialect
from ..driver.session import Session
from ..machine.memory import DEFAULT_MEMORY, Memory
from ..link.symbols import Symbol
from ..machine.sandbox import FileSandbox
from ..views.stages import Loaded, load

DEFAULT_LIMIT = 1000
Result = TypeVar("Result")  # what a call gives (an int; in the Gibson dialect perhaps a reference)


class TracingConsole(Console):
    """A Console that tells the tracer before the program writes or reads, so lines appear in order."""

    def __init__(self, *args: Any, before: Callable[[], None] = lambda: None, **kw: Any):
        super().__init__(*args, **kw)
        self.before = before
        self.mid_line = False  # program output since the last trace line does not end in a newline
        self.fresh = False     # a trace line was just written: absorb the line end the program writes next

    def write(self, data: bytes) -> None:
        if data:
            self.before()
        if self.fresh:
            data = data.lstrip(b"\r")
            if data:
                self.fresh = False
                data = data[1:] if data[:1] == b"\n" else data
        if data:
            self.mid_line = not data.endswith(b"\n")
        super().write(data)

    def put(self, c: int) -> None:
        self.write(bytes([c]))

    def read_line(self) -> bytes | None:
        self.before()
        return super().read_line()

    def read_char(self) -> int | None:
        self.before()
        return super().read_char()


class Tracer(Observer):
    """An observer of a reference evaluator (either dialect's) that reports statements, conditions and calls
    to ``emit`` as they run (:mod:`tinyc.engines.observer`).

    ``emit`` receives one trace line (no newline).  ``calls`` shows calls and returns only; ``limit``
    is the number of trace lines after which tracing stops and the program runs on untraced;
    ``library`` traces inside library functions too.  :meth:`attach` it to the evaluator; set ``texts``
    (or call :meth:`locate`) once the program is loaded.
    """

    def __init__(self, emit: Callable[[str], None], calls: bool = False,
                 limit: int = DEFAULT_LIMIT, library: bool = False):
        self.emit_line = emit
        self.calls_only = calls
        self.limit = limit
        self.library_too = library
        self.active = limit > 0
        self.count = 0
        self.open: list[list[Any]] = []  # statements and calls begun but not finished: [label, printed]
        self.spans: list[tuple[int, int, str]] = []

    def locate(self, text: bytes, base: int, ln: int, library: bytes, library_base: int) -> None:
        """Where the program (at ``base``, ``text[0]`` = the sentinel), the entry statement and the
        library live, to number lines and decide what is traced."""
        self.texts: list[tuple[int, int, bytes, str]] = [
            (base, base + len(text), text, ""), (ln, base, b"", "entry"),  # the entry's lines are not counted
                       (library_base, library_base + len(library), b"\n" + library, "lib ")]

    @property
    def mem(self) -> Memory:
        """The watched evaluator's memory."""
        return self.evaluator.mem

    # ---- output

    def _where(self, pos: int) -> str | None:
        """The line label of ``pos`` if code there is traced: a file line, "entry" or "lib N"."""
        for lo, hi, text, kind in self.texts:
            if lo <= pos < hi:
                if kind == "entry":
                    return "entry"
                if kind == "lib ":
                    return kind + str(text.count(b"\n", 0, pos - lo + 1)) if self.library_too else None
                return str(text.count(b"\n", 0, pos - lo))
        return None

    def _source(self, start: int, end: int) -> str:
        text = bytes(self.mem.data[start:end]).split(b"\n")[0].rstrip()
        more = " ..." if bytes(self.mem.data[start:end]).rstrip().count(b"\n") else ""
        return text.replace(b"\0", b'"').decode("latin-1") + more

    def _print(self, label: str) -> None:
        if not self.active:
            return
        self.count += 1
        if self.count > self.limit:
            self.active = False
            self.emit_line(f"trace: {self.limit} lines shown (--limit); the program runs on untraced")
            return
        self.emit_line(label)

    def _flush_open(self) -> None:
        """Print the statements and calls begun but not yet shown (something nested is about to print)."""
        for entry in self.open:
            if not entry[3]:
                entry[3] = True
                self._print(f"{entry[0]:>5} | {entry[1]}{entry[2]}")

    def _begin(self, line: str, text: str) -> None:
        self._flush_open()
        self.open.append([line, "  " * self.evaluator.depth, text, False])

    def _end(self, note: str, again: str = "...") -> None:
        """Finish the innermost open line: print it with ``note``, or if it was printed already (something
        nested came first), print ``again`` and ``note`` on a line of its own."""
        line, indent, text, printed = self.open.pop()
        if not printed:
            self._print(f"{f'{line:>5} | {indent}{text}':<44} {note}".rstrip())
        elif note:
            self._print(f"{line:>5} | {indent}{again} {note}")

    # ---- variables: snapshots of the visible ones, and what changed

    def _visible(self) -> dict[str, Symbol]:
        seen: dict[str, Symbol] = {}
        ev = self.evaluator
        levels = [ev.frame.locals.values() if ev.frame else (), ev.m.program or (), ev.m.library]
        for level in levels:
            for s in level:
                if s.kind == "var" and s.name not in seen:
                    seen[s.name] = s
        return seen

    def _content(self, s: Symbol) -> bytes:
        size = self.mem.sizeof(s.type)
        if s.length > 1:
            n = s.length * size
        elif s.type == "char":  # a pointer parameter: show the string it points to
            n = 64
        else:
            n = size
        lo = max(0, min(s.address, self.mem.size))
        return bytes(self.mem.data[lo:min(lo + n, self.mem.size)])

    def _snapshot(self) -> dict[str, tuple[int, int, bytes | None, Symbol]]:
        snap: dict[str, tuple[int, int, bytes | None, Symbol]] = {}
        for name, s in self._visible().items():
            if s.array:
                snap[name] = (id(s), s.address, self._content(s), s)
            else:
                snap[name] = (id(s), self.mem.read(s.address, s.type), None, s)
        return snap

    def _changes(self, before: dict[str, tuple[Any, ...]]) -> str:
        out = []
        for name, (ident, value, content, s) in self._snapshot().items():
            old = before.get(name)
            if old is not None and old[0] != ident:
                old = None
            if not s.array:
                if old is None or old[1] != value:
                    out.append(f"{name}={value}")
                continue
            if old is None:
                out.append(f"{name}({s.length - 1}) new")
                continue
            if old[1] != value:
                out.append(f"{name}={value}")
            if old[2] != content:
                assert content is not None  # an array's snapshot holds its content
                out.append(self._array_change(s, old[2], content))
        return ", ".join(out)

    def _array_change(self, s: Symbol, old: bytes, new: bytes) -> str:
        if s.type == "char":
            shown = new.split(b"\0")[0]
            cut = "..." if len(shown) > 40 else ""
            return f'{s.name}="{shown[:40].decode("latin-1")}{cut}"'.replace("\n", "\\n").replace("\r", "\\r")
        size = self.mem.sizeof("int")
        changed = [i for i in range(len(new) // size) if old[i * size:(i + 1) * size] != new[i * size:(i + 1) * size]]
        items = [f"{s.name}({i})={self.mem.read(s.address + i * size, 'int')}" for i in changed[:4]]
        return ", ".join(items) + (f", ... {len(changed) - 4} more" if len(changed) > 4 else "")

    # ---- statements

    def _traced(self, node: ast.Node) -> str | None:
        return self._where(node.pos) if self.active and not self.calls_only else None

    def statement(self, node: ast.Stmt, run: Callable[[], None]) -> None:
        """A statement's line, with what it changed (its parts' lines first for a block or loop)."""
        containers = (ast.Block, ast.If, ast.While, ast.For, ast.Reparse, ast.Recheck)  # their parts are traced
        where = self._traced(node) if not isinstance(node, containers) else None
        if where is None:
            return run()
        self._begin(where, self._source(node.pos, node.end))
        before = self._snapshot()
        try:
            run()
        finally:
            self._end(self._changes(before) if self.active else "")

    def condition(self, node: ast.If | ast.While | ast.For, run: Callable[[], int]) -> int:
        """The evaluator's header test (a for's init or step, then the condition), traced as the
        statement's header line with what it changed and ``(true)``/``(false)``."""
        where = self._traced(node)
        if where is None:
            return run()
        self.evaluator.cursor = node.pos
        header_end = node.then.pos if isinstance(node, ast.If) else node.body.pos
        self._begin(where, self._source(node.pos, header_end))
        snapshot = self._snapshot()
        value, done = 0, False
        try:
            value = run()
            done = True
        finally:
            if self.active:
                note = self._changes(snapshot)
                outcome = ("(true)" if value else "(false)") if done else ""  # an error: no outcome
                self._end((note + "  " if note and outcome else note) + outcome)
            else:
                self._end("")
        return value

    # ---- calls

    def call(self, sym: Symbol, args: list[Any], node: ast.Node, run: Callable[[], Result]) -> Result:
        """``call f(args)`` as it begins, ``f(args) returns v`` as it ends (where ``f`` is traced)."""
        fn = sym.function
        assert fn is not None  # the engine calls function symbols only
        if not (self.active and self._where(fn.body.pos) is not None):
            return run()
        site = self._where(node.pos)
        params = fn.parameters()
        shown = ", ".join(self._argument(t, d, self.evaluator.shown(v)) for (t, d), v in zip(params, args))
        label = f"{sym.name}({shown})"
        self._begin(site or "", "call " + label)
        result = None
        try:
            result = run()
            return result
        finally:
            self._end("" if result is None else f"returns {self.evaluator.shown(result)}", label)

    def _argument(self, type_: str, d: ast.Declarator, value: int) -> str:
        """An argument as passed: a number; for a ``char`` array parameter also the string it points to."""
        if type_ != "char" or d.size is None or value <= 0:
            return str(value)
        text = self.mem.cstring(value) if value < self.mem.size else b""
        cut = "..." if len(text) > 24 else ""
        return f'{value} "{text[:24].decode("latin-1")}{cut}"'.replace("\n", "\\n").replace("\r", "\\r")


def same_destination(a: Any, b: Any) -> bool:
    """Whether the streams ``a`` and ``b`` write to the same file (the same device and inode); False for a
    stream with no file descriptor."""
    try:
        sa, sb = os.fstat(a.fileno()), os.fstat(b.fileno())
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def traced_console(inp: BinaryIO, out: BinaryIO, trace_out: TextIO | io.TextIOBase, shared: bool,
                   **options: Any) -> tuple[TracingConsole, Callable[[str], None], list[Tracer]]:
    """The program's console and ``emit``, the writer of one trace line, for a traced run of either dialect:
    the program's output is flushed before each trace line, and, when both go to one place (``shared``), a
    trace line starts on a line of its own.  The tracer, once made, goes into the returned ``holder`` list,
    so that program output ends the trace line it interrupts.  ``options`` go to the console."""
    holder: list[Tracer] = []

    def before() -> None:
        if holder:
            holder[0]._flush_open()
    console = TracingConsole(inp, out, before=before, **options)

    def emit(line: str) -> None:
        console.flush()
        if shared and console.mid_line:
            trace_out.write("\n")
        console.mid_line = False
        console.fresh = shared
        trace_out.write(line + "\n")
        trace_out.flush()
    return console, emit, holder


def run_traced(program: bytes, entry: str, inp: BinaryIO, out: BinaryIO, trace_out: TextIO | io.TextIOBase,
               calls: bool = False,
               limit: int = DEFAULT_LIMIT, library: bool = False, shared: bool = False,
               strip_cr: bool = False, echo: bool = False, int_bits: int = 32,
               memory: int = DEFAULT_MEMORY, max_depth: int = DEFAULT_MAX_DEPTH,
               random_divisor: int = DEFAULT_RANDOM_DIVISOR,
               system: bytes | None = None, files: FileSandbox | None = None,
               dialect: str | Dialect | None = None) -> tuple[Loaded, Outcome]:
    """Load ``program`` as ``tinyc run`` does and run ``entry`` traced.

    ``inp``/``out`` are the program's binary input and output, ``trace_out`` a text stream for the trace;
    ``shared`` says the two outputs end up in one place (then a trace line never starts mid-line);
    ``system`` is a system file's text to take the library from (default tinyc/lib/system.ipl);
    ``files`` the file sandbox (:class:`tinyc.machine.sandbox.FileSandbox`; None: the default one);
    ``dialect`` one that runs tiny-c/PC's programs with its own machine calls (None: the default).
    Returns ``(loaded, outcome)``: the :class:`~tinyc.driver.outcome.Outcome` of the run (its report the
    shell's, ``stopped`` for error 99; status 130 after Ctrl-C).
    """
    console, emit, holder = traced_console(inp, out, trace_out, shared, strip_cr=strip_cr, echo=echo)

    session = Session(dialect or DEFAULT, engine="reference", memory=memory, int_bits=int_bits, max_depth=max_depth,
                      random_divisor=random_divisor, console=console, files=files)

    tracer = Tracer(emit, calls, limit, library)
    holder.append(tracer)
    engine = tracer.watching(session.dialect.engine("reference"))
    loaded = load(program, system=system, session=session, engine=engine)
    m = loaded.machine
    ws, lib = loaded.workspace, m.library_text
    assert lib is not None  # load() booted the library
    tracer.locate(ws.text, ws.pr, ws.ln, lib.text, lib.base)
    outcome = statement_outcome(ws, entry.encode("latin-1"), align=align_report)
    if console.last != b"\n":
        console.write(b"\n")
    console.flush()
    return loaded, outcome


def trace(text: str | bytes, entry: str = "main", calls: bool = False, limit: int = DEFAULT_LIMIT,
          stdin: bytes | BinaryIO = b"", library: bool = False, **machine: Any) -> str:
    """The transcript of a traced run: program output (CR bytes dropped) and trace lines interleaved,
    then the tiny-c error report if the program stopped with an error (``stopped`` for error 99).  ``machine`` takes the keyword
    options of :func:`run_traced` (int_bits, memory, max_depth, random_divisor, system, files); ``stdin`` is
    the program's input, bytes or a binary stream."""
    program = text.encode("latin-1") if isinstance(text, str) else text
    out = io.BytesIO()

    class _Text(io.TextIOBase):
        def write(self, s: str) -> int:
            out.write(s.encode("latin-1"))
            return len(s)

    inp = io.BytesIO(stdin) if isinstance(stdin, bytes) else stdin
    _, outcome = run_traced(program, entry, inp, out, _Text(), calls, limit, library,
                            shared=True, strip_cr=True, **machine)
    return out.getvalue().decode("latin-1") + outcome.report


def trace_file(session: Session, path: str, entry: str = "main", stdin: bytes = b"", calls: bool = False,
               limit: int = DEFAULT_LIMIT) -> str:
    """The tiny-c/PC dialect's ``trace`` hook: :func:`trace` of the program file ``path`` with ``session``'s
    machine options (int width, memory, depth, random divisor, file sandbox)."""
    with open(path, "rb") as f:
        text = f.read()
    return trace(text, entry, calls, limit, stdin, int_bits=session.int_bits, memory=session.memory,
                 max_depth=session.max_depth, random_divisor=session.random_divisor, files=session.files,
                 dialect=session.dialect)
