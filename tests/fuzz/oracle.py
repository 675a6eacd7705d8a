"""Two oracles for programs that write into their own text (issue 35 item 1, docs/security.md "Program
bytes never become code"): the code the fast engine generates is the generator's alone, and the process
does nothing a tiny-c program cannot.

* :func:`checked_generation` wraps :meth:`tinyc.engines.compiler.FastEngine.generate` (both dialects: the
  Gibson engine inherits it).  For every function the engine generates it also generates the function
  (a) as it runs, (b) as ``tinyc compile`` shows it (comments of program text), each (c) with the bytes
  of the function's text as the program left them and (d) overwritten with every byte 0-255 and a
  Python payload; it parses each with :mod:`ast` and records a finding unless all four have the same
  statements and expressions (``ast.dump``), the run-time texts are identical (the code depends on the
  AST alone, so the code caches' keys cover it), every text is printable ASCII and the module the
  engine compiles is exactly (a).
* :class:`Guard` is an audit hook (:func:`sys.addaudithook`): while it watches, a child process, a file
  opened for writing outside the run's directory (and the cache directory given), and any audited
  event raised by generated code itself (an ``import``, an ``open``, ``exec``...) are findings; child
  processes and those events are also refused (the hook raises :class:`Forbidden`).

Both give lists of strings (findings); empty means nothing was found.
"""

from __future__ import annotations

import ast
import contextlib
import os
import sys

from tinyc.engines import compiler
from tinyc.engines.analysis import Unsupported

# what the check writes over a function's text: every byte, then lines of Python at each indentation
SCRAMBLE = bytes(range(256)) + b"".join(
    b"%c%s__import__('tinyc_injected_canary') #" % (brk, b" " * ind)
    for brk in b"\r\x0b\x0c\x1c\x1d\x1e\x85\n" for ind in (0, 4, 8, 12))

PRINTABLE = frozenset(map(chr, range(0x20, 0x7F))) | {"\n"}


def _generated(engine, name, params, body, link, toplevel, source: bool) -> str | None:
    try:
        with compiler._python_depth():
            return str(engine.codegen(name, params, body, link, toplevel, source).generate()[0])
    except (Unsupported, RecursionError, MemoryError):
        return None


def _dump(src: str) -> str:
    try:
        return ast.dump(ast.parse(src))
    except SyntaxError as e:
        return f"SyntaxError: {e}"


def check_function(engine, name, params, body, link, toplevel, scramble: bool = True) -> list[str]:
    """The findings of the checks (a)-(d) of the module docstring on one function body (without (d)
    when not ``scramble``: a program that poked its text itself)."""
    findings: list[str] = []
    data = engine.m.memory.data
    run = _generated(engine, name, params, body, link, toplevel, False)
    view = _generated(engine, name, params, body, link, toplevel, True)
    if run is None:
        return findings if view is None else [f"{name}: only the compile view generates"]
    run2, view2 = run, view
    if body and scramble:
        lo, hi = min(n.pos for n in body), max(n.end for n in body)
        saved = bytes(data[lo:hi])
        data[lo:hi] = (SCRAMBLE * ((hi - lo) // len(SCRAMBLE) + 1))[:hi - lo]
        try:
            run2 = _generated(engine, name, params, body, link, toplevel, False)
            view2 = _generated(engine, name, params, body, link, toplevel, True)
        finally:
            data[lo:hi] = saved
    want = _dump(run)
    for what, src in (("run", run), ("compile view", view), ("run, text overwritten", run2),
                      ("compile view, text overwritten", view2)):
        if src is None:
            findings.append(f"{name}: the {what} does not generate")
            continue
        bad = sorted(set(src) - PRINTABLE)
        if bad:
            findings.append(f"{name}: the {what} holds characters {bad[:8]!r}")
        if _dump(src) != want:
            findings.append(f"{name}: the {what} has statements the generator did not make:\n{src}")
    if run2 is not None and run2 != run:
        findings.append(f"{name}: the code depends on the bytes of the program's text")
    return findings


@contextlib.contextmanager
def checked_generation(scramble: bool = True):
    """``with checked_generation() as findings:`` every function the fast engine generates in the block
    is checked (:func:`check_function`), and so is the Python it compiles; ``findings`` fills up."""
    findings: list[str] = []
    original = compiler.FastEngine.generate
    compiled: list[str] = []

    def recording_compile(src, *a, **kw):
        compiled.append(src)
        return compile(src, *a, **kw)

    def generate(self, name, params, body, link, toplevel=False, **kw):
        findings.extend(check_function(self, name, params, body, link, toplevel, scramble))
        expected = _generated(self, name, params, body, link, toplevel, False)
        del compiled[:]
        try:
            return original(self, name, params, body, link, toplevel, **kw)
        finally:
            if compiled and compiled[-1] != expected:
                findings.append(f"{name}: the engine compiled other code than the generator makes "
                                f"with no program text:\n{compiled[-1]}")

    compiler.FastEngine.generate = generate
    compiler.compile = recording_compile  # the module's own name shadows the builtin while this lasts
    try:
        yield findings
    finally:
        compiler.FastEngine.generate = original
        del compiler.compile


class Forbidden(BaseException):
    """Raised by the guard's hook to refuse an operation (a BaseException: tiny-c code cannot catch it)."""


_WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_CHILD = ("os.system", "subprocess.Popen", "os.posix_spawn", "os.spawn", "os.exec", "os.fork", "os.forkpty",
          "pty.spawn")


class Guard:
    """An audit hook, installed once per process (hooks cannot be removed) and active only inside
    :meth:`watch`.  Findings are strings: what happened and its arguments."""

    _installed: Guard | None = None

    def __init__(self) -> None:
        self.active = False
        self.roots: tuple[str, ...] = ()
        self.findings: list[str] = []

    @classmethod
    def get(cls) -> Guard:
        """The process's guard (installed on first use)."""
        if cls._installed is None:
            cls._installed = Guard()
            sys.addaudithook(cls._installed._hook)
        return cls._installed

    @contextlib.contextmanager
    def watch(self, *roots: str):
        """``with guard.watch(tree, cache) as findings:`` what the process does in the block is checked;
        files may be written only where their real path starts with one of ``roots`` (strings: a
        directory with its trailing ``/``, or the prefix of the names of temporary directories)."""
        self.findings, self.roots = [], roots
        self.active = True
        try:
            yield self.findings
        finally:
            self.active = False

    def _hook(self, event: str, args: tuple) -> None:
        if not self.active:
            return
        self.active = False  # what the hook itself does is not watched
        try:
            self._check(event, args)
        finally:
            self.active = True

    def _check(self, event: str, args: tuple) -> None:
        if event.startswith(_CHILD):
            self.findings.append(f"child process: {event} {args[:2]!r}")
            raise Forbidden(event)
        frame = sys._getframe(2)  # the code that raised the event (above _check and _hook; C has no frame)
        while frame is not None and frame.f_code.co_filename.startswith("<frozen importlib"):
            frame = frame.f_back
        if frame is not None and frame.f_code.co_filename.startswith("<tinyc"):
            self.findings.append(f"generated code raised {event} {args[:2]!r}")
            raise Forbidden(event)
        if event == "open" and args and isinstance(args[0], (str, bytes)):
            path, mode, flags = args[0], args[1], args[2] if len(args) > 2 else 0
            writes = any(c in mode for c in "wax+") if isinstance(mode, str) else bool((flags or 0) & _WRITE)
            if writes:
                real = os.path.realpath(os.fsdecode(path))
                if not real.startswith(self.roots) and real not in ("/dev/null",):
                    self.findings.append(f"file written outside the tree: {real}")
