"""``tinyc debug``: Tom Gibson's ``tc -d`` debugger in both dialects, with the commands of a modern one.

The session reads its commands from the program's own input (as ``tc -d`` does: a piped session
interleaves commands and the program's input lines) and writes to the program's output.  Gibson's
forms (his documented session, debugExample.txt, and debug.c): the prompt ``(tc-db) ``; a function
breakpoint prints ``break at line L cursor pr[ADDR]: NAME`` and the line of the call; a step prints
``line L cursor(pr[ADDR])->`` and the next ten bytes of the text; ``p k`` prints ``k:  11``.  In the
Gibson dialect ``L`` and ``ADDR`` are those of its error reports (the line counted from the application,
the index in the program memory); in the PC dialect those of tinyc's reports (the line in the program
buffer, the offset from ``pr``).  The program runs on the reference engine of its dialect
(:mod:`tinyc.debug.engine`), tiny-c/PC's calls with nothing to watch on the fast engine (:mod:`.fast`);
Ctrl-C, the DAP ``pause`` and the process's interrupt policy pause it (:class:`interrupts`); the
commands are in :mod:`tinyc.debug.commands`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Callable

from .. import ast
from ..driver.outcome import INTERRUPT, STOPPED
from ..errors import TinyCError
from ..link.symbols import Symbol
from ..machine.console import Console, align_report
from .engine import CallInfo
from .state import UNSET, Breakpoint, Quit, Restart, Watch


Engine = Any  # the run's :class:`~tinyc.debug.engine.Debugging`, watching its reference evaluator


@dataclass
class Places:
    """Where things are, as one dialect's error reports say it (see the module docstring)."""

    data: bytearray
    first: int            # the program's first byte
    end: int              # one past its last byte
    base: int             # pr: ADDR = address - base
    reporter: object = field(default=None)  # (TinyCError) -> the dialect's report text
    entry: tuple[int, int] = (0, 0)         # where the entry statement (PC) or the seed (Gibson) lies

    def in_program(self, pos: int) -> bool:
        return self.first <= pos < self.end

    def line(self, pos: int) -> int:
        """The line number of ``pos`` as the dialect's error reports give it (tiny-c/PC: lines of ``pr``)."""
        return 0 if pos < self.base else bytes(self.data[self.base:pos]).count(b"\n")

    def source_line(self, pos: int) -> int:
        """The line of the file ``pos`` lies on, which a line breakpoint goes by (a dialect whose reports
        number lines otherwise overrides it)."""
        return self.line(pos)

    def addr(self, pos: int) -> int:
        return pos - self.base

    def line_text(self, pos: int) -> str:
        """The whole line that holds ``pos`` (a string's closing quote shown, not its NUL)."""
        data = self.data
        if self.entry[0] <= pos < self.entry[1]:  # main's call: the statement typed or the seed
            return bytes(data[self.entry[0]:self.entry[1]]).split(b"\n")[0].rstrip(b" \0").decode("latin-1")
        begin = pos
        while begin > 0 and data[begin - 1] not in (10, 13):
            begin -= 1
        finish = pos
        while finish < len(data) and data[finish] not in (10, 13, 0):
            finish += 1
        if finish < len(data) and data[finish] == 0 and finish < self.end:  # a string's NUL: keep going
            finish = self.data.find(b"\n", finish)
            finish = len(data) if finish < 0 else finish
        return bytes(data[begin:finish]).replace(b"\0", b'"').decode("latin-1")

    def ahead(self, pos: int) -> str:
        """The next ten bytes of the text, as Gibson's ``%.10s`` shows them (a NUL ends them)."""
        chunk = bytes(self.data[pos:pos + 10])
        return chunk.split(b"\0")[0].decode("latin-1")


class Debugger:
    """One debugging session over ``console`` of the program of ``runner`` (:mod:`tinyc.debug.runs`).

    ``runner.start(debugger)`` makes a fresh engine for a run and returns ``(engine, places, go)``:
    ``go()`` runs the program and returns the tiny-c error it ended with (or None).  ``runner.names`` maps
    the program's and library's names to True for a function; ``runner.lines`` its lines by number;
    ``runner.statements`` the numbers of those that hold code; ``runner.done`` the line a run that ends
    without an error prints after a blank line (Gibson's ``done``), None for none."""

    def __init__(self, console: Console, runner: Any, quiet: bool = False) -> None:
        self.console = console
        self.runner = runner
        self.start = runner.start
        self.quiet = quiet
        self.breaks: list[Breakpoint] = []
        self.watches: list[Watch] = []
        self.displays: list[str] = []
        self.numbers = 0
        self.engine = None
        self.places: Places | None = None
        self.mode = "run"   # run | step | next | finish
        self.depth = 0      # next: stop at a depth up to this; finish: when this call returns
        self.target: CallInfo | None = None
        self.selected = 0   # frames up from the innermost (up/down)
        self.at_entry: CallInfo | None = None  # stopped at a function breakpoint, at its [
        self.reported = False
        self.leaving = False  # Quit or Restart is unwinding the run
        self.hot: set[str] = set()   # the functions that run on the debug evaluator (see watched)
        self.everything = True       # all of them do (stepping, a watchpoint set)
        self.fast = None             # the run's DebugFastEngine, if it runs on the fast engine
        self.pausing = False         # a pause was asked for (Ctrl-C, DAP pause): stop at the next statement
        self.paused = False          # the last stop was such a pause
        self.stopped = False         # reading commands at a stop (not running the program)
        self.running = False         # a run is under way (or about to start)
        self.nudge: Callable[[], None] | None = None  # interrupts' way to pause compiled code (signals)
        from .commands import Commands
        self.commands = Commands(self)

    def names(self) -> dict[str, bool]:
        names: dict[str, bool] = self.runner.names
        return names

    def canonical(self, name: str) -> str:
        return str(self.runner.canonical(name))

    def lines(self) -> dict[int, str]:
        lines: dict[int, str] = self.runner.lines
        return lines

    def has_statement(self, line: int) -> bool:
        return line in self.runner.statements

    # ---- output and input

    def say(self, text: str) -> None:
        self.console.write(text.encode("latin-1", "replace"))

    def read(self) -> str:
        """A command line; Quit at the end of input.  A terminal's console (``read_command``: history,
        completion) reads it where there is one; Ctrl-C there clears the line."""
        reader = getattr(self.console, "read_command", None)
        while True:
            self.say("(tc-db) ")
            try:
                line = self.console.read_line() if reader is None else reader()
                break
            except KeyboardInterrupt:
                continue
        if line is None:
            if self.console.last != b"\n":
                self.say("\n")
            self.console.flush()
            self.leaving = True
            raise Quit()
        return line.decode("latin-1").strip()

    # ---- the session

    def loop(self) -> int:
        """Read commands until ``q``, ``x`` or the end of input; returns the exit status (0)."""
        try:
            while True:
                if self.commands.loop(stopped=False) == "run":
                    self.run()
        except Quit:
            pass
        self.console.flush()
        return 0

    def run(self) -> None:
        """Run the program from its start (again after ``run``), to its end or an error."""
        self.running = True
        try:
            self.run_once()
        finally:
            self.running = self.pausing = False

    def run_once(self) -> None:
        while True:
            self.engine, self.places, go = self.start(self)
            self.mode, self.selected, self.reported, self.at_entry = "run", 0, False, None
            self.fast = getattr(self.engine, "fast", None)
            self.sync()
            self.leaving = False
            for w in self.watches:
                w.scope, w.value = None, UNSET
            try:
                with interrupts(self):
                    error = go()
            except Restart:
                continue
            finally:
                self.watches = [w for w in self.watches if w.scope is None]  # locals: gone with their run
            self.finished(error)
            self.engine = None
            return

    def finished(self, error: TinyCError | None) -> None:
        if error is not None and not self.reported:
            self.say(self.report(error))
        elif error is None and self.runner.done is not None:  # as the dialect ends a run (tc: done)
            self.say("\n" if self.quiet else f"\n{self.runner.done}\n")
        elif error is None and self.console.last != b"\n":
            self.say("\n")

    def report(self, error: TinyCError) -> str:
        """The dialect's report of ``error``; an interrupt is ``stopped`` in every dialect and door
        (:data:`tinyc.driver.outcome.STOPPED`)."""
        assert self.places is not None and callable(self.places.reporter)
        if int(error.code) == 99:
            return STOPPED
        return str(self.places.reporter(error))

    # ---- the engine's hooks

    def statement(self, eng: Engine, node: ast.Stmt) -> None:
        places = self.places
        assert places is not None
        top = eng.frames[-1]
        if not places.in_program(node.pos):  # the library: only a breakpoint on its function stops there
            if top.function is not None and node is top.function.body and places.in_program(top.site.pos):
                if self.function_break(eng, top):
                    self.pause(eng)
            return
        line = places.source_line(node.pos)
        new_line, top.line = line != top.line, line
        depth = len(eng.frames)
        stop = self.check_watches(eng)
        if self.pausing:
            self.pausing, self.paused, stop = False, True, True
            self.say(f"\npaused\n{self.where(node.pos)}")
        elif self.mode == "step" or (self.mode == "next" and depth <= self.depth):
            stop = True
            self.say(self.where(node.pos))
        elif isinstance(node, ast.Block) and top.function is not None and node is top.function.body:
            stop = self.function_break(eng, top) or stop
        if not stop and new_line:
            for bp in self.breaks:
                if bp.enabled and bp.line == line and self.condition(eng, bp):
                    self.hit(bp)
                    self.say(f"\nbreak at line {places.line(node.pos)} cursor pr[{places.addr(node.pos)}]: "
                             f"{top.name or 'entry'}\n{places.line_text(node.pos)}\n")
                    stop = True
                    break
        if stop:
            self.pause(eng)

    def function_break(self, eng: Engine, top: CallInfo) -> bool:
        places, fn = self.places, top.function
        assert places is not None and fn is not None  # asked at a function's body
        for bp in self.breaks:
            if bp.enabled and bp.name and bp.name == top.name and self.condition(eng, bp):
                self.hit(bp)
                site = top.site.name_end if isinstance(top.site, (ast.Call, ast.Index)) else top.site.end
                site = site or top.site.end
                shown = top.site.pos
                if isinstance(top.site, ast.Function) or not places.in_program(site):
                    # called from compiled code (its call site is not known) or by the entry statement typed
                    # before the program (line 0, a negative address): show the function's own [
                    site = shown = fn.body.pos
                self.say(f"\nbreak at line {places.line(site)} cursor pr[{places.addr(site)}]: {top.name}\n"
                         f"{places.line_text(shown)}\n")
                self.at_entry = top if places.in_program(fn.body.pos) else None
                return True
        return False

    def hit(self, bp: Breakpoint) -> None:
        bp.hits += 1
        if bp.temporary:
            self.breaks.remove(bp)

    def condition(self, eng: Engine, bp: Breakpoint) -> bool:
        if not bp.cond:
            return True
        try:
            return bool(self.commands.evaluate(eng, bp.cond, len(eng.frames) - 1) != 0)
        except (TinyCError, ValueError) as e:
            self.say(f"breakpoint {bp.number}: the condition {bp.cond} fails ({e}): stopping\n")
            return True

    def where(self, pos: int) -> str:
        places = self.places
        assert places is not None
        return f"line {places.line(pos)} cursor(pr[{places.addr(pos)}])->{places.ahead(pos)}\n"

    def check_watches(self, eng: Engine) -> bool:
        changed = False
        for w in self.watches:
            value = self.commands.watch_value(eng, w)
            if w.value is UNSET:  # a new run: the first value is where it starts
                w.value = value
            elif value != w.value:
                self.say(f"\nwatch {w.number}: {w.expr}\nOld value = {w.value}\nNew value = {value}\n")
                w.value, changed = value, True
        if changed:
            pos = eng.frames[-1].pos
            self.say(self.where(pos))
        return changed

    def pause(self, eng: Engine) -> None:
        """Stopped: show the displays, then read commands until one resumes the program."""
        self.selected = 0
        self.commands.show_displays(eng)
        self.stopped = True
        try:
            self.commands.loop(stopped=True)
        finally:
            self.stopped = self.paused = False
        self.at_entry = None
        self.sync()

    def request_pause(self) -> bool:
        """Stop the running program at its next statement the debug evaluator runs (every call from now on
        is debug-evaluated), or, where compiled code runs, where it stands (:class:`interrupts` nudges it
        after ``GRACE`` seconds: a loop that calls nothing pauses too).  Safe from a signal handler or
        another thread (the DAP adapter's reader); False when the program is not running."""
        if not self.running or self.stopped:
            return False
        self.pausing = self.everything = True
        if self.fast is not None:
            self.fast.refresh()
        if self.nudge is not None:
            self.nudge()
        return True

    def pause_compiled(self, frame: FrameType) -> bool:
        """A pause that came while the generated code of ``frame`` (the innermost Python frame) runs: stop
        right there, between two of its bytecodes, with its locals shown as the innermost call's; the code
        goes on where it stood when the program is resumed.  False where it cannot stop there."""
        from .fast import generated_frames
        eng = self.engine
        calls = generated_frames(frame)
        if eng is None or not calls or not hasattr(eng, "paused_compiled"):
            return False

        def stop() -> None:
            self.pausing, self.paused = False, True
            self.say(f"\npaused\n{self.where(calls[-1][2])}")
            self.pause(eng)
        if not eng.paused_compiled(calls, stop):
            return False
        if self.mode in ("step", "next", "finish") and eng.frames[-1].compiled:
            # compiled code cannot step: it stops where it stands a moment later, or at its next call
            self.say(f"{eng.frames[-1].name} runs compiled: stepping stops where it stands in a moment\n")
            self.mode = "run"
            self.request_pause()
        return True

    def watched(self, name: str) -> bool:
        """Whether a call of the function ``name`` must run on the debug evaluator (:mod:`.fast`)."""
        return self.everything or name in self.hot

    def sync(self) -> None:
        """Work out :meth:`watched` for the program resuming now and tell the fast engine."""
        if self.fast is None or self.engine is None:
            return
        from .fast import callers_of
        self.everything = self.pausing or self.mode == "step" or bool(self.watches)
        places = self.places
        assert places is not None
        lines = {bp.line for bp in self.breaks if bp.enabled and bp.line}
        names = {bp.name for bp in self.breaks if bp.enabled and bp.name}
        self.hot = callers_of(self.engine.m, names, lines, places.line)
        self.fast.refresh()

    def calling(self, eng: Engine, sym: Symbol, node: ast.Node) -> None:
        """A call begins (its breakpoints are checked at its body's [, its parameters bound)."""

    def popped(self, eng: Engine, info: CallInfo) -> None:
        if self.leaving:  # q or run unwinds the program: its watches go without a word
            return
        for w in [w for w in self.watches if w.scope is info]:
            self.watches.remove(w)
            self.say(f"watch {w.number}: {w.expr} is out of scope now: deleted\n")

    def returned(self, eng: Engine, info: CallInfo, result: Any) -> None:
        if self.mode != "run" and eng.frames[-1].compiled and not info.compiled:
            # back in a caller the fast engine runs: it cannot stop there; the next call it makes does
            self.say(f"{info.name} returns {eng.value(result)} to {eng.frames[-1].name}, which runs compiled: "
                     "stepping stops at its next call\n")
            self.mode = "step"
            self.sync()
        elif self.mode == "finish" and info is self.target:
            self.say(f"{info.name} returns {eng.value(result)}\n{self.where(eng.frames[-1].pos)}")
            self.pause(eng)

    def failed(self, eng: Engine, error: TinyCError) -> None:
        """An error: its report, then the debugger at the statement that failed, frames intact."""
        self.reported = True
        self.say(self.report(error))
        self.stopped = True
        try:
            self.commands.loop(stopped=True, error=True)
        finally:
            self.stopped = False


def pc_reporter(ws: Any) -> Callable[[TinyCError], str]:
    """The PC dialect's report of an error (``stopped`` for error 99), as ``tinyc run`` prints it."""
    def report(e: TinyCError) -> str:
        if int(e.code) == 99:
            return "stopped\n"
        return align_report(ws.report(int(e.code), e.address - ws.pr))
    return report


GRACE = 0.25  # seconds a pause waits for the next debug-evaluated statement before it stops compiled code
NUDGE = 0.05  # seconds between two nudges of compiled code (a nudge may land outside it: in a library call)
WAITING = 10  # nudges without a pause before the session says the program is blocked


class interrupts:
    """``with interrupts(debugger):`` while a run goes, in the main thread: the one way a pause reaches
    the program, whoever asks for it (Ctrl-C here; the DAP ``pause`` through
    :meth:`Debugger.request_pause`).  A pause stops the program at its next debug-evaluated statement;
    compiled code (the fast engine) is nudged with SIGUSR1 after ``GRACE`` seconds and stops where it
    stands (:meth:`Debugger.pause_compiled`), so a compiled loop that calls nothing pauses and resumes too.
    The process's interrupt policy (:data:`~tinyc.driver.outcome.INTERRUPT`, or the runner's ``interrupt``:
    the kernel's interrupt, the web page's Stop) reaches the same handler.
    A second Ctrl-C before the pause took effect (the program is blocked in a read or a long library call)
    stops the program (error 99: ``stopped``, on a line of its own); at a stop Ctrl-C is ignored.  Outside
    the main thread (no signals there) only the debug evaluator's statements pause."""

    def __init__(self, debugger: Debugger):
        self.d = debugger
        self.saved: Any = None  # the handlers before (None: none were set)
        self.nudging = False    # a nudger thread is running
        self.policy = getattr(debugger.runner, "interrupt", None) or INTERRUPT  # its session's, or the process's
        self.delivering = self.policy.delivering()

    def on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        d = self.d
        self.policy.clear()  # taken here, as a pause: a run that goes on to its end is not "interrupted"
        if d.stopped:
            d.say("\n(Ctrl-C at a stop: q quits)\n(tc-db) ")
            d.console.flush()
        elif d.pausing:
            d.say("\n")  # the report (stopped) on a line of its own, not after the terminal's ^C
            raise KeyboardInterrupt
        else:  # compiled code that calls nothing stops when the nudger finds it (after GRACE, as DAP's pause)
            d.request_pause()

    def on_nudge(self, signum: int, frame: FrameType | None) -> None:
        """SIGUSR1 from the nudger: stop here if compiled code runs here."""
        if self.d.pausing and not self.d.stopped:
            self.here(frame)

    def here(self, frame: FrameType | None) -> bool:
        """Stop in compiled code if ``frame`` (where the signal landed) is generated code's."""
        if frame is None or not frame.f_code.co_filename.startswith("<tinyc "):
            return False
        return self.d.pause_compiled(frame)

    def nudge(self) -> None:
        """Start the thread that nudges compiled code until the pause took effect (one at a time)."""
        if not self.nudging:
            import threading
            self.nudging = True
            threading.Thread(target=self._nudger, name="tinyc-pause", daemon=True).start()

    def _nudger(self) -> None:
        import _thread
        import itertools
        import signal
        import time
        d = self.d
        try:
            time.sleep(GRACE)
            for count in itertools.count():
                if self.saved is None or not d.running or not d.pausing or d.stopped:
                    return
                if count == WAITING:  # blocked (a read, a long library call): say why nothing happens
                    d.say("\n(pausing at the next statement; Ctrl-C again stops the program)\n")
                    d.console.flush()
                _thread.interrupt_main(signal.SIGUSR1)
                time.sleep(NUDGE)
        finally:
            self.nudging = False

    def __enter__(self) -> None:
        import signal
        import threading
        if threading.current_thread() is threading.main_thread():
            self.delivering.__enter__()  # the process's policy (the kernel's interrupt, a Stop) pauses too
            usr1 = getattr(signal, "SIGUSR1", None)  # none on Windows: only the debug evaluator pauses
            self.saved = (signal.signal(signal.SIGINT, self.on_interrupt),
                          signal.signal(usr1, self.on_nudge) if usr1 is not None else None)
            if usr1 is not None:
                self.d.nudge = self.nudge

    def __exit__(self, *exc: object) -> None:
        import signal
        if self.saved is not None:
            self.delivering.__exit__()
            self.d.nudge = None
            signal.signal(signal.SIGINT, self.saved[0])
            if self.saved[1] is not None:
                signal.signal(signal.SIGUSR1, self.saved[1])
            self.saved = None
