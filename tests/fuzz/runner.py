"""Run fuzz inputs through both engines (and the shell) and classify what happens.

A program runs in-process on the reference evaluator and on the fast engine under a CPU-time limit
(``signal.setitimer(ITIMER_PROF)``: CPU time, not wall time); output bytes, error number and error
address are compared.  A Python exception escaping an engine, ``internal error`` in the shell, a
difference between the engines, or the fast engine running out of time where the reference did not, is a
failure.  A program the reference cannot finish in its budget (an endless loop, usually a counter changed
through memory) is counted apart and not compared.

Piped shell sessions run ``python -m tinyc`` in a subprocess with ``RLIMIT_CPU``.

Every run has a fresh temporary directory as its current directory (:func:`sandbox`), so the files a
program's file calls write stay there, and the second engine starts from the same files as the first.
Programs of the Gibson dialect run through ``tinyc.dialects.gibson.machine.run`` (:func:`gibson_differential`).
"""

from __future__ import annotations

import contextlib
import io
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

from tinyc.engines import analysis  # noqa: E402
from tinyc.dialects.gibson import machine as gibson
from tinyc.machine.console import Console  # noqa: E402
from tinyc.errors import ExitProgram  # noqa: E402
from tinyc import Session  # noqa: E402
from tinyc.shell.shell import Shell  # noqa: E402
from tinyc.driver.workspace import Workspace  # noqa: E402


SHIPPED = ["examples/hello.tc", "programs/bc.tc"]  # what generated shell sessions read with .r


@contextlib.contextmanager
def sandbox():
    """A fresh temporary directory, holding copies of :data:`SHIPPED`, as the current directory."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="tinyc-fuzz-") as d:
        for name in SHIPPED:
            (Path(d) / name).parent.mkdir(exist_ok=True)
            shutil.copy(ROOT / name, Path(d) / name)
        os.chdir(d)
        try:
            yield Path(d)
        finally:
            os.chdir(old)


def _close_units(m: Machine) -> None:
    for unit in list(m.units):
        m.close_unit(unit)


class CPUTimeout(BaseException):
    """The CPU-time budget of one run is spent (a BaseException: tiny-c code cannot catch it)."""


def _alarm(signum, frame):
    raise CPUTimeout()


class cpu_limit:
    """``with cpu_limit(seconds):`` raises CPUTimeout when the process has used that much more CPU time."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __enter__(self):
        self.old = signal.signal(signal.SIGPROF, _alarm)
        signal.setitimer(signal.ITIMER_PROF, self.seconds)

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, self.old)
        return False


@dataclass
class Outcome:
    kind: str            # "ok", "timeout" (the reference ran out of time), or a failure class
    detail: str = ""
    ref: tuple | None = None
    fast: tuple | None = None

    @property
    def failed(self) -> bool:
        return self.kind not in ("ok", "timeout")


def run_program(source: bytes, engine: str, stdin: bytes = b"", int_bits: int = 32, max_depth: int = 200,
                memory: int = 1 << 20, entry: bytes = b"main") -> tuple[bytes, int, int]:
    """(output, error number, cursor) of loading ``source`` into the program buffer and running ``entry``;
    -2 as the error number when the buffer cannot take the text."""
    out = io.BytesIO()
    m, ws = Session(engine=engine, memory=memory, int_bits=int_bits, max_depth=max_depth,
                    console=Console(io.BytesIO(stdin), out)).boot()
    if not ws.append(source):
        return b"", -2, 0
    with sandbox():
        try:
            err, cursor = ws.run(entry)
        except ExitProgram:
            err, cursor = -1, 0
        finally:
            _close_units(m)
    m.console.flush()
    return out.getvalue(), err, cursor


def _guarded(fn, seconds):
    try:
        with cpu_limit(seconds):
            return "ok", fn()
    except CPUTimeout:
        return "timeout", None
    except RecursionError as e:  # a Python recursion the engine let out
        return "exception", f"RecursionError: {e}"
    except Exception as e:
        tb = traceback.extract_tb(e.__traceback__)
        where = tb[-1] if tb else None
        return "exception", f"{type(e).__name__}: {str(e)[:200]} at {where.filename}:{where.lineno}" if where \
            else f"{type(e).__name__}: {e}"


def differential(source: bytes, stdin: bytes = b"", int_bits: int = 32, seconds: float = 3.0,
                 entry: bytes = b"main") -> Outcome:
    """Both engines on one program.  The fast engine runs as shipped; when it differs, it runs again with
    ``analysis.EXACT_DEAD_FRAMES`` and a program that then agrees is the documented trace of pure
    functions' dead frames (kind "ok", detail "dead-frame")."""
    kind, ref = _guarded(lambda: run_program(source, "reference", stdin, int_bits, entry=entry), seconds)
    if kind == "timeout":  # a program that runs long is not a failure; one that cannot even start is
        kind, _ = _guarded(lambda: run_program(source, "reference", stdin, int_bits, entry=b""), seconds)
        return Outcome("hang-before-start" if kind == "timeout" else "timeout")
    if kind == "exception":
        return Outcome("reference-exception", ref)
    kind, fast = _guarded(lambda: run_program(source, "fast", stdin, int_bits, entry=entry), seconds)
    if kind == "timeout":
        return Outcome("fast-timeout", "", ref)
    if kind == "exception":
        return Outcome("fast-exception", fast, ref)
    if fast == ref:
        return Outcome("ok", "", ref, fast)
    analysis.EXACT_DEAD_FRAMES = True
    try:
        kind, exact = _guarded(lambda: run_program(source, "fast", stdin, int_bits, entry=entry), seconds)
    finally:
        analysis.EXACT_DEAD_FRAMES = False
    if kind == "ok" and exact == ref:
        return Outcome("ok", "dead-frame", ref, fast)
    what = "output" if fast[0] != ref[0] else "error"
    return Outcome("mismatch-" + what, "", ref, fast)


def shell_session(data: bytes, engine: str, int_bits: int = 32) -> bytes:
    """The output of the ``tc>`` shell reading ``data`` (commands and program input), in-process, in a
    :func:`sandbox` (``.r``/``.w`` and the program's file calls)."""
    out = io.BytesIO()
    m, ws = Session(engine=engine, memory=1 << 20, int_bits=int_bits, max_depth=200,
                    console=Console(io.BytesIO(data), out)).boot()
    with sandbox():
        try:
            Shell(m, ws).loop()
        finally:
            _close_units(m)
    m.console.flush()
    return out.getvalue()


def shell_differential(data: bytes, seconds: float = 5.0, int_bits: int = 32) -> Outcome:
    """A session in the in-process shell on both engines: no exception, no ``internal error``, same bytes."""
    kind, ref = _guarded(lambda: shell_session(data, "reference", int_bits), seconds)
    if kind == "timeout":
        return Outcome("timeout")
    if kind == "exception":
        return Outcome("shell-exception", ref)
    if b"internal error" in ref:
        return Outcome("shell-internal-error", ref[ref.index(b"internal error"):][:200].decode("latin-1"))
    kind, fast = _guarded(lambda: shell_session(data, "fast", int_bits), seconds)
    if kind == "timeout":
        return Outcome("fast-timeout")
    if kind == "exception":
        return Outcome("shell-exception", fast)
    if b"internal error" in fast:
        return Outcome("shell-internal-error", fast[fast.index(b"internal error"):][:200].decode("latin-1"))
    if fast != ref:
        return Outcome("shell-mismatch", "", (ref,), (fast,))
    return Outcome("ok")


def piped_session(data: bytes, seconds: int = 10) -> Outcome:
    """``printf DATA | python -m tinyc`` in a subprocess limited to ``seconds`` of CPU time."""
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    with sandbox() as d:
        p = subprocess.run([sys.executable, "-P", "-m", "tinyc"], input=data, capture_output=True, cwd=d,
                           preexec_fn=limit)
    if p.returncode < 0:
        sig = -p.returncode
        return Outcome("timeout" if sig in (signal.SIGXCPU, signal.SIGKILL) else f"crash-signal-{sig}")
    if b"Traceback" in p.stderr:
        return Outcome("traceback", p.stderr.decode("latin-1")[-600:])
    if b"internal error" in p.stdout:
        i = p.stdout.index(b"internal error")
        return Outcome("shell-internal-error", p.stdout[i:i + 200].decode("latin-1"))
    if p.returncode not in (0, 1):
        return Outcome(f"exit-{p.returncode}", p.stderr.decode("latin-1")[-300:])
    return Outcome("ok")


# ---- the Gibson dialect

def gibson_run(source: bytes, engine: str, stdin: bytes = b"") -> tuple[bytes, int, str]:
    """(stdout bytes, exit status, stderr text) of ``tinyc run --dialect gibson -q`` on ``source``, in-process
    in a :func:`sandbox`.  The error reports are on stdout: they hold the error number and address."""
    out, err = io.BytesIO(), io.StringIO()
    saved = sys.stderr
    with sandbox() as d:
        (d / "p.tc").write_bytes(source)
        sys.stderr = err
        try:
            status = Session("gibson", engine, max_depth=200, quiet=True,
                             console=Console(io.BytesIO(stdin), out)).run_files(["p.tc"])
        finally:
            sys.stderr = saved
    return out.getvalue(), status, err.getvalue()


def gibson_differential(source: bytes, stdin: bytes = b"", seconds: float = 3.0) -> Outcome:
    """Both engines on one Gibson-dialect program: no exception, the same bytes and status."""
    kind, ref = _guarded(lambda: gibson_run(source, "reference", stdin), seconds)
    if kind == "timeout":
        return Outcome("timeout")
    if kind == "exception":
        return Outcome("reference-exception", ref)
    kind, fast = _guarded(lambda: gibson_run(source, "fast", stdin), seconds)
    if kind == "timeout":
        return Outcome("fast-timeout", "", ref)
    if kind == "exception":
        return Outcome("fast-exception", fast, ref)
    if fast != ref:
        return Outcome("mismatch-" + ("output" if fast[0] != ref[0] else "status"), "", ref, fast)
    return Outcome("ok", "", ref, fast)


# ---- programs that write into their own text (issue 35 item 1)

def poke_differential(source: bytes, gibson: bool = False, stdin: bytes = b"", seconds: float = 3.0,
                      check_code: bool = True, scramble: bool = True) -> Outcome:
    """Both engines on a program that pokes its own text (:mod:`fuzz.gen_pokes`), under the oracles of
    :mod:`fuzz.oracle`: every generated function is checked (kind "generated-code" when the generator's
    output depends on the program's bytes), and the process may not start a process, write a file outside
    the run's directory or the cache, or let generated code raise an audited event ("escape").  Then as
    :func:`differential` (or :func:`gibson_differential`).  ``check_code=False``: the process oracle
    alone (what finds an injection by its effects); ``scramble=False``: the code check on the bytes the
    program poked only (:func:`fuzz.oracle.check_function`)."""
    import builtins
    import tempfile
    from tinyc import dirs
    from .oracle import Forbidden, Guard, checked_generation
    roots = (os.path.join(os.path.realpath(tempfile.gettempdir()), "tinyc-fuzz-"),  # sandbox()'s directories
             os.path.realpath(dirs.cache_dir()) + os.sep)
    guard = Guard.get()
    run = gibson_differential if gibson else differential
    try:
        with (checked_generation(scramble) if check_code else contextlib.nullcontext([])) as made, \
                guard.watch(*roots) as escapes:
            outcome = run(source, stdin, seconds=seconds)
    except Forbidden as e:
        outcome = Outcome("escape", f"refused: {e}")
    if getattr(builtins, "TINYC_INJECTED", None) is not None:
        del builtins.TINYC_INJECTED
        escapes.append("a payload set builtins.TINYC_INJECTED")
    if escapes:
        return Outcome("escape", "; ".join(escapes)[:2000], outcome.ref, outcome.fast)
    if made:
        return Outcome("generated-code", "\n".join(made)[:4000], outcome.ref, outcome.fast)
    return outcome
