"""The run protocol (issue 36): how a run ends, told as a value, and the one interrupt policy.

A run returns an :class:`Outcome`; every door (``tinyc run``, ``trace``, ``debug``, the shell, the kernel, the
magics, the web glue) renders it with :meth:`Outcome.render` or reads its fields, and none catches the
engines' exceptions: :func:`outcome_of` is the one place that turns them (ExitProgram, TinyCError,
KeyboardInterrupt) into an Outcome.  Modelled on Crafting Interpreters' one context object per run.

Ctrl-C, the DAP ``pause``, the kernel's interrupt and the web page's Stop all go through one
:class:`Interrupt`: a flag any thread may set (:meth:`Interrupt.request`) and any engine may poll
(:attr:`Interrupt.requested`, :meth:`Interrupt.check`).  In the main thread a request also raises
KeyboardInterrupt there (as SIGINT does), which already reaches the fast engine's compiled loops.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from typing import Callable, TextIO

    from .workspace import Workspace

# The kinds of end, in words (Outcome.kind)
FINISHED = "finished"        # ran to its end: status 0
ERROR = "error"              # stopped by a tiny-c error: its report
INTERRUPTED = "interrupted"  # Ctrl-C, pause, Stop: "stopped", status 130
EXITED = "exited"            # the program ended the interpreter (MC 10, Gibson's exit): status 0

STOPPED = "stopped\n"        # the one line every door shows for an interrupted run
INTERRUPTED_STATUS = 130     # 128 + SIGINT, what a shell shows for a process Ctrl-C ended


class Outcome:
    """How a run ended (a small immutable value).

    ``kind``: :data:`FINISHED`, :data:`ERROR`, :data:`INTERRUPTED` or :data:`EXITED`; ``status``: the exit
    status the command line ends with (0, 1 after a tiny-c error in tiny-c/PC, 130 after an interrupt; a
    dialect may choose its own for an error: Gibson's interpreter ends 0); ``code``: the tiny-c error number
    (0: none; 99 for an interrupt); ``report``: the text a door writes to its error stream (the tiny-c report,
    ``stopped``; "" when there is none or the dialect already wrote it to the program's output, as Gibson's
    does); ``address``: the error cursor, an absolute byte address (-1: none)."""

    __slots__ = ("kind", "status", "code", "report", "address")

    kind: str
    status: int
    code: int
    report: str
    address: int

    def __init__(self, kind: str, status: int = 0, code: int = 0, report: str = "", address: int = -1):
        for name, value in (("kind", kind), ("status", status), ("code", int(code)), ("report", report),
                            ("address", address)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("an Outcome is fixed once made")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Outcome) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[str, int, int, str, int]:
        return self.kind, self.status, self.code, self.report, self.address

    def __repr__(self) -> str:
        return (f"Outcome({self.kind!r}, status={self.status}, code={self.code}, report={self.report!r}, "
                f"address={self.address})")

    @property
    def interrupted(self) -> bool:
        return self.kind == INTERRUPTED

    @property
    def failed(self) -> bool:
        """A tiny-c error stopped the run."""
        return self.kind == ERROR

    def render(self, err: TextIO | None = None) -> int:
        """Write :attr:`report` to ``err`` (default: sys.stderr), flushed; returns :attr:`status`."""
        if self.report:
            if err is None:
                import sys
                err = sys.stderr
            if self.kind == INTERRUPTED and _isatty(err):
                err.write("\r")  # over the terminal's ^C echo: "stopped" on a line of its own
            err.write(self.report)
            err.flush()
        return self.status


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]  # (AttributeError: not a stream)
    except (AttributeError, ValueError, OSError):
        return False


def finished() -> Outcome:
    return Outcome(FINISHED)


def exited() -> Outcome:
    return Outcome(EXITED)


def interrupted(address: int = -1) -> Outcome:
    """The Outcome of a run that Ctrl-C (or a pause or Stop) ended: ``stopped``, status 130."""
    return Outcome(INTERRUPTED, INTERRUPTED_STATUS, 99, STOPPED, address)


def failed(code: int, report: str, address: int = -1, status: int = 1) -> Outcome:
    """The Outcome of a run a tiny-c error ``code`` stopped, with its ``report`` (three or four lines)."""
    return Outcome(ERROR, status, code, report, address)


def outcome_of(run: Callable[[], object], report: Callable[[int, int], str], status: int = 1,
               interrupt: Interrupt | None = None) -> Outcome:
    """Call ``run()`` and tell how it ended: the one place the engines' exceptions become an Outcome.

    ``report(code, address)`` makes the report of a tiny-c error (the dialect's); ``status`` is the exit
    status after one.  Whatever the run did, it was interrupted when Ctrl-C came during it (``interrupt``, or
    the default policy, saw it) or error 99 came from a KeyboardInterrupt; error 99 at the end of the input
    stays an error."""
    from ..errors import ExitProgram, TinyCError
    policy = interrupt or INTERRUPT
    try:
        with policy.noting():
            run()
    except ExitProgram:
        return interrupted() if policy.seen else exited()
    except KeyboardInterrupt:
        return interrupted()
    except TinyCError as e:
        # Ctrl-C anywhere is "stopped": also when it surfaced as another error (an interrupt that Python
        # swallowed inside a C-level lookup can leave a name unfound: error 26)
        if policy.seen or (e.code == 99 and isinstance(e.__context__, KeyboardInterrupt)):
            return interrupted(e.address)
        return failed(e.code, report(e.code, e.address), e.address, status)
    return interrupted() if policy.seen else finished()


def statement_outcome(ws: Workspace, statement: bytes, by_file: bool = False, interrupt: Interrupt | None = None,
                      align: Callable[[str], str] | None = None) -> Outcome:
    """Run ``statement`` against the program buffer of the workspace ``ws`` (MC 11, as the shell and ``tinyc
    run`` do) and tell how it ended.  The report is the shell's
    (:meth:`tinyc.driver.workspace.Workspace.report`; ``by_file``: naming the file read into the buffer),
    passed through ``align`` (e.g. :func:`~tinyc.machine.console.align_report` for a terminal); error 99
    without Ctrl-C (the end of the input) is ``stopped``, status 1, as the shell says it.  The address of
    an error is absolute."""
    from ..errors import TinyCError
    console = ws.machine.console

    def run() -> None:  # MC 11 tells its end as (error, cursor): back into the protocol's exceptions
        err, cu = ws.run(statement)
        if err == 99 and console.interrupted:  # Ctrl-C read as a key by a terminal's line editor
            raise KeyboardInterrupt
        if err:
            raise TinyCError(err, ws.pr + cu)

    def report(code: int, address: int) -> str:
        if code == 99:
            return STOPPED
        text = ws.report(code, address - ws.pr, by_file)
        return align(text) if align is not None else text
    return outcome_of(run, report, interrupt=interrupt)


class Interrupt:
    """The one interrupt policy: Ctrl-C, the DAP ``pause``, the kernel's interrupt and the web Stop.

    * :meth:`request` (any thread, a signal handler): ask the running program to stop; in the main thread's
      run it raises KeyboardInterrupt there at once (``_thread.interrupt_main``), so compiled loops stop too;
    * :attr:`requested`: whether a stop was asked for and not yet taken; engines may poll it between
      statements, :meth:`check` raises KeyboardInterrupt when it is set (and takes it);
    * :attr:`seen`: an interrupt came during the current :meth:`noting` block (how a door tells Ctrl-C from
      error 99 at the end of the input);
    * :meth:`noting`: a context manager around one run that installs the SIGINT handler (main thread only,
      over Python's own: a front end with its own policy, the debugger's Ctrl-C that pauses, keeps it) and
      clears :attr:`seen` on entry.
    """

    def __init__(self) -> None:
        import _thread
        self.requested = False
        self.seen = False
        self.main_thread_run = False  # a noting() block runs in the main thread: request() interrupts it
        self._lock = _thread.allocate_lock()  # request() against the end of a noting() block

    def request(self) -> None:
        """Ask the running program to stop (thread-safe: one flag, one optional signal to the main thread)."""
        with self._lock:
            self.requested = self.seen = True
            if self.main_thread_run:
                import _thread
                _thread.interrupt_main()

    def check(self) -> None:
        """Raise KeyboardInterrupt if a stop was requested (and clear the request)."""
        if self.requested:
            self.requested = False
            raise KeyboardInterrupt

    def clear(self) -> None:
        self.requested = self.seen = False

    def noting(self) -> _Noting:
        return _Noting(self)

    def delivering(self) -> _Delivering:
        """A context manager around a run in the main thread under a front end's own SIGINT handler (the
        debugger's, whose Ctrl-C pauses): :meth:`request` sends that handler SIGINT, as Ctrl-C would."""
        return _Delivering(self)

    def _on_sigint(self, signum: int, frame: object) -> None:
        self.seen = True
        if self.main_thread_run:  # else a request that came as the run ended: noted, not raised
            self.requested = False  # taken now: the KeyboardInterrupt is the request
            raise KeyboardInterrupt


class _Noting:
    """:meth:`Interrupt.noting`'s block (a class, not contextlib's decorator: contextlib costs a start 1 ms)."""

    def __init__(self, policy: Interrupt):
        self.policy = policy
        self.old: object = None
        self.installed = False

    def __enter__(self) -> Interrupt:
        import threading
        p = self.policy
        p.requested = p.seen = False
        if threading.current_thread() is threading.main_thread():
            try:
                import _signal  # type: ignore[import-not-found]  # the C module: signal costs a start 1 ms
                current = _signal.getsignal(_signal.SIGINT)
                if current == _signal.default_int_handler or current == p._on_sigint:
                    self.old = _signal.signal(_signal.SIGINT, p._on_sigint)
                    self.installed = p.main_thread_run = True
            except (ValueError, ImportError, OSError):  # no signals here (Pyodide, an embedded interpreter)
                pass
        return p

    def __exit__(self, *exc: object) -> None:
        p = self.policy
        with p._lock:
            p.main_thread_run = False
        if self.installed:
            _pending_signals()  # a request's signal on its way runs our handler, which now only notes it
            import _signal
            _signal.signal(_signal.SIGINT, self.old if self.old is not None else _signal.default_int_handler)


class _Delivering:
    """:meth:`Interrupt.delivering`'s block."""

    def __init__(self, policy: Interrupt):
        self.policy = policy
        self.was = False

    def __enter__(self) -> Interrupt:
        import threading
        p = self.policy
        if threading.current_thread() is threading.main_thread():
            with p._lock:
                self.was, p.main_thread_run = p.main_thread_run, True
        return p

    def __exit__(self, *exc: object) -> None:
        p = self.policy
        with p._lock:
            p.main_thread_run = self.was
        _pending_signals()  # a request's signal on its way reaches the front end's handler, still in place


def _pending_signals() -> None:
    """Give Python's signal handlers a chance to run (they run between bytecodes, at a call or a loop)."""
    for _ in range(3):
        pass


INTERRUPT = Interrupt()  # the process's policy: the doors' default
