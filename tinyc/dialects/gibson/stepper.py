"""The stepper's recorder in the Gibson dialect (its ``record`` hook, docs/stepper.md): the dialect's reference
evaluator watched by the recorder (:class:`tinyc.debug.stepper.Recording`), the program laid out and linked as ``tinyc run`` does
(:mod:`tinyc.dialects.gibson.machine`)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from ...debug import stepper
from ...debug.stepper import Recorder, RecordingConsole, Recording, StepLimit
from ...errors import TinyCError
from . import machine as gibson
from .calls import QuietExit
from .files import close_units


def record(session, program, entry=None, stdin: bytes = b"", limit: int | None = None, small: bool = True,
           snapshots=frozenset()):
    """The dialect's ``record`` hook: :func:`tinyc.debug.stepper.record` with this dialect's run."""
    return stepper.record(session, program, entry, stdin, limit, small, snapshots, _run)


def _run(session, rec: Recorder, console: RecordingConsole, path, text: bytes, entry: str | None):
    """Lay out, link and run the application ``path`` (or ``text`` written to a file) recorded."""
    if isinstance(path, (bytes, bytearray)):  # text given: the loader reads a file
        folder = tempfile.mkdtemp(prefix="tinyc-step-")
        path = str(Path(folder) / "program.tc")
        Path(path).write_bytes(text)
    code = None if entry in (None, "main") else entry
    files = session.files
    files.add_program(path)
    try:
        loaded = gibson.load(path, code, files, session.memory)
    except gibson.StartError as e:
        return "error", e.message or f"{path}: cannot start\n", None
    syntax = _syntax_errors(session, path)
    if syntax is not None:
        return syntax
    recording = Recording(rec)
    m = gibson.make_machine(session, recording.watching(session.dialect.engine("reference")), console=console)
    lay = loaded.layout
    m.memory.store(0, loaded.memory)
    m.top = len(loaded.memory) + gibson.SLACK
    rec.attach(recording.evaluator, console, loaded.memory[lay.app:lay.end], lay.app, lambda: stepper.program_vars(m))
    rec.regions = stepper.regions([("seed", 0, lay.lib), ("library text", lay.lib, lay.marker),
                            ("program text", lay.app, lay.end)])
    rec.initial = rec.initial_memory()
    status, rep, at = "done", "", None
    try:
        seed = gibson.link_program(m, loaded)
        rec.global_sig = None
        with m.deep_stack():
            m.engine.run([seed])
    except QuietExit:
        pass
    except StepLimit:
        status = "limit"
    except TinyCError as e:
        if int(e.code) == 99:
            status, rep = "stopped", "stopped\n"
        else:
            status, rep = "error", gibson._report(e, m, loaded)
            at = stepper.error_at(rec, int(e.code), e.address)
    finally:
        close_units(m)
    stepper.add_regions(rec)
    return status, rep, at


def _syntax_errors(session, path: str):
    """``("syntax", reports, where)`` when the application has syntax errors (each statement or header that
    does not parse, or the link error), found up front as ``tinyc check`` finds them; else None."""
    from . import stages
    g = stages.load(session, path)
    found = stages.problems(g, names=False)
    if not found:
        return None
    lines = stages.check_lines(g, found)
    line, _, column = g.place(found[0][1]).partition(":")
    where = {"code": found[0][0], "step": None, "line": int(line) if line.isdigit() else None,
             "column": int(column) if column.isdigit() else None}
    return "syntax", "".join(report for _, report in lines), where
