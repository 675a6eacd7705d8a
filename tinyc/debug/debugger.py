"""``tinyc debug``: Tom Gibson's ``tc -d`` debugger in both dialects, with the commands of a modern one.

The session reads its commands from the program's own input (as ``tc -d`` does: a piped session
interleaves commands and the program's input lines) and writes to the program's output.  Gibson's
forms (his documented session, debugExample.txt, and debug.c): the prompt ``(tc-db) ``; a function
breakpoint prints ``break at line L cursor pr[ADDR]: NAME`` and the line of the call; a step prints
``line L cursor(pr[ADDR])->`` and the next ten bytes of the text; ``p k`` prints ``k:  11``.  In the
Gibson dialect ``L`` and ``ADDR`` are those of its error reports (the line counted from the application,
the index in the program memory); in the PC dialect those of tinyc's reports (the line in the program
buffer, the offset from ``pr``).  The program runs on the reference engine of its dialect
(:mod:`tinyc.debug.engine`); the commands are in :mod:`tinyc.debug.commands`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import ast
from ..errors import TinyCError
from ..machine.console import Console, align_report
from .engine import CallInfo
from .state import UNSET, Breakpoint, Quit, Restart, Watch


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

    def __init__(self, console: Console, runner, quiet: bool = False):
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
        from .commands import Commands
        self.commands = Commands(self)

    def names(self) -> dict[str, bool]:
        return self.runner.names

    def canonical(self, name: str) -> str:
        return self.runner.canonical(name)

    def lines(self) -> dict[int, str]:
        return self.runner.lines

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
        assert self.places is not None and callable(self.places.reporter)
        return self.places.reporter(error)

    # ---- the engine's hooks

    def statement(self, eng, node: ast.Stmt) -> None:
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

    def function_break(self, eng, top: CallInfo) -> bool:
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

    def condition(self, eng, bp: Breakpoint) -> bool:
        if not bp.cond:
            return True
        try:
            return self.commands.evaluate(eng, bp.cond, len(eng.frames) - 1) != 0
        except (TinyCError, ValueError) as e:
            self.say(f"breakpoint {bp.number}: the condition {bp.cond} fails ({e}): stopping\n")
            return True

    def where(self, pos: int) -> str:
        places = self.places
        assert places is not None
        return f"line {places.line(pos)} cursor(pr[{places.addr(pos)}])->{places.ahead(pos)}\n"

    def check_watches(self, eng) -> bool:
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

    def pause(self, eng) -> None:
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
        """Stop the running program at its next statement the debug evaluator runs: every call from now
        on is debug-evaluated, so compiled code stops at its next call (a compiled loop that calls
        nothing runs on).  Safe from a signal handler or another thread; False when it is not running."""
        if not self.running or self.stopped:
            return False
        self.pausing = self.everything = True
        if self.fast is not None:
            self.fast.refresh()
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

    def calling(self, eng, sym, node: ast.Node) -> None:
        """A call begins (its breakpoints are checked at its body's [, its parameters bound)."""

    def popped(self, eng, info: CallInfo) -> None:
        if self.leaving:  # q or run unwinds the program: its watches go without a word
            return
        for w in [w for w in self.watches if w.scope is info]:
            self.watches.remove(w)
            self.say(f"watch {w.number}: {w.expr} is out of scope now: deleted\n")

    def returned(self, eng, info: CallInfo, result) -> None:
        if self.mode != "run" and eng.frames[-1].compiled and not info.compiled:
            # back in a caller the fast engine runs: it cannot stop there; the next call it makes does
            self.say(f"{info.name} returns {eng.value(result)} to {eng.frames[-1].name}, which runs compiled: "
                     "stepping stops at its next call\n")
            self.mode = "step"
            self.sync()
        elif self.mode == "finish" and info is self.target:
            self.say(f"{info.name} returns {eng.value(result)}\n{self.where(eng.frames[-1].pos)}")
            self.pause(eng)

    def failed(self, eng, error: TinyCError) -> None:
        """An error: its report, then the debugger at the statement that failed, frames intact."""
        self.reported = True
        self.say(self.report(error))
        self.stopped = True
        try:
            self.commands.loop(stopped=True, error=True)
        finally:
            self.stopped = False


def pc_reporter(ws):
    """The PC dialect's report of an error (``stopped`` for error 99), as ``tinyc run`` prints it."""
    def report(e: TinyCError) -> str:
        if int(e.code) == 99:
            return "stopped\n"
        return align_report(ws.report(int(e.code), e.address - ws.pr))
    return report


class interrupts:
    """``with interrupts(debugger):`` while a run goes: Ctrl-C pauses it in the debugger (a second one
    before the pause took effect stops the program: error 99); at a stop it is ignored.  Outside the
    main thread (no signals there) it does nothing."""

    def __init__(self, debugger: Debugger):
        self.d = debugger
        self.saved: Any = None  # the handler before (None: none was set)

    def on_interrupt(self, signum, frame) -> None:
        d = self.d
        if d.stopped:
            d.say("\n(Ctrl-C at a stop: q quits)\n(tc-db) ")
            d.console.flush()
        elif d.pausing:
            d.say("\n")  # the report (stopped) on a line of its own, not after the terminal's ^C
            raise KeyboardInterrupt
        elif d.request_pause():
            # compiled code pauses only at its next call: say so, or a loop that calls nothing looks deaf
            d.say("\n(Ctrl-C: pausing at the next statement the debugger sees; Ctrl-C again stops the program)\n")
            d.console.flush()

    def __enter__(self) -> None:
        import signal
        import threading
        if threading.current_thread() is threading.main_thread():
            self.saved = signal.signal(signal.SIGINT, self.on_interrupt)

    def __exit__(self, *exc) -> None:
        import signal
        if self.saved is not None:
            signal.signal(signal.SIGINT, self.saved)
            self.saved = None
