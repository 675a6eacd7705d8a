"""``tinyc trace`` for the Gibson dialect: its reference evaluator watched by the tracer
(:class:`tinyc.debug.tracer.Tracer`, an observer: :mod:`tinyc.engines.observer`), the program laid out and
linked as ``tinyc run`` does (:mod:`tinyc.dialects.gibson.machine`).

The dialect's own ``if`` and ``while`` rules (gibson-dialect.md 3.3) stay those of
:class:`tinyc.dialects.gibson.evaluator.GibsonEvaluator`: the tracer does not re-implement them, it shows a
statement's header when the evaluator tests it (the observer's ``condition`` hook).  Lines are file lines of the application,
``lib N`` in the libraries (with ``--library``), ``entry`` for the seed ``[main();]``.
"""

from __future__ import annotations

import io

from pathlib import Path
from typing import Callable

from ...errors import TinyCError
from . import machine as gibson
from ...driver.session import Session
from .calls import QuietExit
from .files import close_units
from .plugins import PluginError, find as find_plugin
from ...debug.tracer import Tracer, traced_console


def run_traced(session: Session, path: str, code: str | None, inp, out, trace_out, calls: bool = False,
               limit: int = 1000, library: bool = False, shared: bool = False):
    """Run the application ``path`` traced in ``session`` (its memory, depth and file sandbox): its ``main``, or
    the statement ``code`` (as ``tc -r CODE``).  Returns its :class:`~tinyc.driver.outcome.Outcome`: status 0,
    also after a tiny-c error, as ``tinyc run`` (the report in the dialect's form), 130 after Ctrl-C
    (``stopped``), 2 when the program cannot start (the report then is the message)."""
    from ...driver.outcome import Outcome, outcome_of
    console, emit, holder = traced_console(inp, out, trace_out, shared)
    files = session.files
    files.add_program(path)
    try:
        loaded = gibson.load(path, code, files, session.memory)
        plugin = find_plugin(loaded.plugin, Path(path).parent, False) if loaded.plugin else None
    except gibson.StartError as e:
        return Outcome("error", 2, report=e.message or f"tinyc: {path}: cannot start\n")
    except PluginError as e:
        return Outcome("error", 2, report=e.message)

    tracer = Tracer(emit, calls, limit, library)
    holder.append(tracer)
    m = gibson.make_machine(session, tracer.watching(session.dialect.engine("reference")), plugin=plugin,
                            console=console)
    lay = loaded.layout
    tracer.texts = [(0, lay.lib, b"", "entry"), (lay.app - 1, lay.end, b"\n" + loaded.memory[lay.app:], ""),
                     (lay.lib, lay.marker, b"\n" + loaded.memory[lay.lib:lay.marker], "lib ")]
    m.memory.store(0, loaded.memory)
    m.top = len(loaded.memory) + gibson.SLACK

    def program() -> None:
        seed = gibson.link_program(m, loaded)
        try:
            with m.deep_stack():
                m.engine.run([seed])
        except QuietExit:
            pass
    try:
        return outcome_of(program, lambda code, at: gibson._report(TinyCError(code, at), m, loaded),
                          status=gibson.ERROR_STATUS, interrupt=session.interrupt)
    finally:
        close_units(m)
        if console.last != b"\n":
            console.write(b"\n")
        console.flush()


class _TextInto(io.TextIOBase):
    """A text stream whose characters go, one byte each, into the binary stream ``out``."""

    def __init__(self, out: io.BytesIO):
        self.out = out

    def write(self, s: str) -> int:
        self.out.write(s.encode("latin-1", "replace"))
        return len(s)


def trace_file(session: Session, path: str, entry: str = "main", stdin: bytes = b"", calls: bool = False,
               limit: int = 1000) -> str:
    """The dialect's ``trace`` hook: the transcript of the application ``path`` run traced in ``session`` (its
    ``main``, or ``entry`` as ``-r`` code): program output and trace lines interleaved, then the dialect's
    report if it stopped with an error (or the message when it cannot start)."""
    out = io.BytesIO()
    outcome = run_traced(session, path, None if entry == "main" else entry, io.BytesIO(stdin), out,
                         _TextInto(out), calls, limit, shared=True)
    return out.getvalue().decode("latin-1") + outcome.report
