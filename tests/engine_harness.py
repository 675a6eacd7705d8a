"""Run a tiny-c program on a chosen engine and collect what can be compared: output bytes, error, cursor."""

from __future__ import annotations

import io

from tinyc.machine.console import Console
from tinyc.errors import ExitProgram
from tinyc import Session


def run_program(source: bytes | str, engine: str, entry: str = "main", stdin: bytes = b"",
                int_bits: int = 32, max_depth: int = 200, memory: int = 1 << 20,
                options=None) -> tuple[bytes, int, int]:
    """(output bytes, error number, cursor in the program buffer) of ``tinyc run`` on ``source``; ``options``:
    the fast engine's optimisations (:class:`tinyc.engines.options.Optimisations`; None: all)."""
    if isinstance(source, str):
        source = source.encode("latin-1")
    out = io.BytesIO()
    session = Session(engine=engine, memory=memory, int_bits=int_bits, max_depth=max_depth,
                      console=Console(io.BytesIO(stdin), out), optimisations=options)
    m, ws = session.boot()
    assert ws.append(source.replace(b"\r", b""))
    try:
        err, cursor = ws.run(entry.encode("latin-1"))
    except ExitProgram:
        err, cursor = -1, 0
    m.console.flush()
    return out.getvalue(), err, cursor


def both(source, **kw) -> tuple[tuple, tuple]:
    return run_program(source, "reference", **kw), run_program(source, "fast", **kw)
