"""``tinyc dap``: the debugger of :mod:`tinyc.debug.debugger` served over the Debug Adapter Protocol, for
editors (issue 27 item 4).  Messages are framed by :mod:`tinyc.debug.dap_wire` on the adapter's standard
input and output; the program's own input is the ``input`` text given to ``launch``, its output goes to
the client as ``output`` events.

The program runs inside the ``configurationDone`` request, and whenever it stops (a breakpoint, a step,
a pause, an error) the adapter answers requests (``stackTrace``, ``scopes``, ``variables``,
``evaluate``...) until one resumes it (``continue``, ``next``, ``stepIn``, ``stepOut``) or ends the session
(``disconnect``).  A reader thread takes the messages off the input: ``pause`` while the program runs is
answered there at once and stops the program at its next debug-evaluated statement, or compiled code (the
fast engine) where it stands (:meth:`~tinyc.debug.debugger.Debugger.request_pause`, as Ctrl-C does in
``tinyc debug``); the other requests wait for the stop.  Frames are numbered by their place in the engine's call stack (0: the
entry statement), variable references are 1 for the globals and 1000 + the frame's number for its locals.
"""

from __future__ import annotations

import codecs
import io
import os
import queue
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO, Callable

from ..driver.outcome import INTERRUPTED_STATUS, STOPPED
from ..errors import TinyCError
from ..link.symbols import Symbol
from ..machine.console import Console
from .dap_extras import CAPABILITIES as CONVENIENCES, Conveniences, DapError, Extra
from .dap_frames import EXTRA, GLOBALS, LOCALS, CompiledFrames, generated_frames, shown_text
from .dap_running import RunningRequests
from .dap_wire import Malformed, read_message, write_message
from .state import Breakpoint, Quit, Restart
from .debugger import Debugger, Engine

MakeRunner = Callable[[dict[str, Any], Console], Any]  # a launch's arguments and console -> a runner (runs.py)

CAPABILITIES: dict[str, object] = {"supportsConfigurationDoneRequest": True, "supportsConditionalBreakpoints": True,
                "supportsEvaluateForHovers": True, "supportTerminateDebuggee": True,
                "supportsTerminateRequest": True, "supportsDelayedStackTraceLoading": True, **CONVENIENCES}



class _Output(io.RawIOBase):
    """The program's output stream: each write is an ``output`` event."""

    def __init__(self, send: Callable[[str], None]):
        self.send = send
        self.decoder = codecs.getincrementaldecoder("utf-8")("tinyc-latin1")  # a character split over writes

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if data:
            self.send(self.decoder.decode(bytes(data)))
        return len(data)

    def flush(self) -> None:
        """Whatever bytes of a character are held back go out (as Latin-1) at the end of the output."""
        rest = self.decoder.decode(b"", final=True)
        if rest:
            self.send(rest)


class DapDebugger(Debugger):
    """The debugger with the adapter in place of the command line: stops answer requests."""

    def __init__(self, console: Console, runner: Any, server: Server) -> None:
        super().__init__(console, runner, quiet=True)
        self.server = server

    def say(self, text: str) -> None:
        """The command line's messages (where a step stopped...) are the editor's to show: dropped, except
        a breakpoint condition that fails, which is the reason of the stop that follows."""
        if text.startswith("breakpoint ") and " fails " in text:
            self.note = text.strip()

    note = ""

    def pause(self, eng: Engine) -> None:
        self.selected = 0
        reason = "pause" if self.paused else "step" if self.mode in ("step", "next", "finish") else "breakpoint"
        note, self.note = self.note, ""
        self.stopped = True
        try:
            if note:
                self.server.output(note + "\n", "console")
            self.server.stopped(reason, text=note)
        finally:
            self.stopped = self.paused = False
        self.at_entry = None
        self.sync()  # what runs compiled now (stepping: nothing)

    def condition(self, eng: Engine, bp: Breakpoint) -> bool:
        """The breakpoint's condition, then its hit condition and log message (:mod:`.dap_extras`)."""
        return super().condition(eng, bp) and self.server.passes(eng, bp.number)

    def failed(self, eng: Engine, error: TinyCError) -> None:
        self.reported = True
        self.server.output(self.report(error), "stderr")
        if not self.server.stop_on_errors:  # the 'errors' exception filter is off: the report, no stop
            return
        self.stopped = True
        try:
            self.server.stopped("exception", error=True, text=f"tiny-c error {int(error.code)}")
        finally:
            self.stopped = False

    def finished(self, error: TinyCError | None) -> None:
        self.console.flush()
        if error is not None and not self.reported:
            self.server.output(self.report(error), "stderr")
        # the status `tinyc run` ends with after the error (a dialect may choose: Gibson's tc ends 0)
        self.server.event("exited", exitCode=0 if error is None else getattr(self.runner, "error_status", 1))
        self.server.event("terminated")


class Server(RunningRequests, CompiledFrames, Conveniences):
    """One adapter session over ``inp``/``out``; ``make_runner(arguments, console)`` makes the runner of
    :mod:`tinyc.debug.runs` for a ``launch`` request's arguments (raises DapError)."""

    def __init__(self, inp: BinaryIO, out: BinaryIO, make_runner: MakeRunner) -> None:
        self.inp, self.out, self.make_runner = inp, out, make_runner
        self.seq = 0
        self.debugger: DapDebugger | None = None
        self.program = ""
        self.pending: dict[str, list[dict[str, Any]]] = {}  # setBreakpoints before launch, by source path
        self.running = False
        self.error_stop = False
        self.lock = threading.Lock()  # the reader thread answers pause requests
        self.inbox: queue.Queue[dict[str, Any] | Malformed | None] | None = None  # the reader thread's messages (None: read here)
        self.ending = ""  # "disconnect" or "terminate" asked while the program ran: done at its next stop
        self.hard_exit = False  # the client went away and this is a real process: exit if the run goes on
        self.compiled: list[tuple[str, dict[str, Any], int]] = []  # at a stop: the generated frames (name, locals, address)
        self.frame_view: list[tuple[int, str, int, dict[str, Any] | None]] = []  # (id, name, address, compiled locals)
        self.extras: dict[int, Extra] = {}  # breakpoint number -> its hit condition and log message (dap_extras.Extra)

    # ---- sending

    def send(self, message: dict[str, Any]) -> None:
        with self.lock:
            self.seq += 1
            write_message(self.out, {"seq": self.seq, **message})

    def event(self, name: str, **body: Any) -> None:
        self.send({"type": "event", "event": name, **({"body": body} if body else {})})

    def respond(self, request: dict[str, Any], success: bool = True, message: str = "", **body: Any) -> None:
        reply = {"type": "response", "request_seq": request.get("seq", 0) if isinstance(request.get("seq"), int)
                 else 0, "command": str(request.get("command", "")), "success": success}
        if message:
            reply["message"] = message
        if body:
            reply["body"] = body
        self.send(reply)

    def output(self, text: str, category: str = "stdout") -> None:
        if text:
            self.event("output", category=category, output=text)

    # ---- reading

    def serve(self) -> int:
        """Answer requests until ``disconnect`` or the end of the input; returns the exit status (0)."""
        self.inbox = queue.Queue()
        try:  # the thread reads a stream of its own: one blocked in stdin's would abort the exit
            self.inp = open(os.dup(self.inp.fileno()), "rb")
            self.hard_exit = True
        except (AttributeError, OSError, ValueError):  # not a file (a test's BytesIO)
            pass
        threading.Thread(target=self.reader, name="dap-reader", daemon=True).start()
        try:
            while self.next_request() != "disconnect":
                pass
        except Quit:
            pass
        return 0

    def next_request(self) -> str:
        """Read and answer one request; returns what it asks of a stopped program ("" for nothing)."""
        try:
            request = self.inbox.get() if self.inbox is not None else read_message(self.inp)
            if isinstance(request, Malformed):
                raise request
        except Malformed as e:
            self.respond({}, False, f"malformed message: {e}")
            return ""
        if request is None:
            return "disconnect"
        command = request.get("command")
        handler = getattr(self, f"do_{command}", None) if isinstance(command, str) and command.isidentifier() else None
        if request.get("type") != "request" or handler is None:
            self.respond(request, False, f"unknown request {command!r}" if request.get("type") == "request"
                         else "not a request")
            return ""
        args = request.get("arguments") or {}
        try:
            if not isinstance(args, dict):
                raise DapError("arguments must be an object")
            return handler(request, args) or ""
        except DapError as e:
            self.respond(request, False, str(e))
        except (Quit, Restart):
            raise
        except (TinyCError, KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            self.respond(request, False, f"{command}: {type(e).__name__}: {e}")
        return ""

    def stopped(self, reason: str, error: bool = False, text: str = "") -> None:
        """The program stopped: tell the client, then answer requests until one resumes or ends it."""
        d = self.debugger
        assert d is not None
        d.console.flush()
        if self.ending:  # disconnect or terminate asked while it ran
            d.leaving = True
            raise Quit()
        self.compiled, self.frame_view = generated_frames(sys._getframe()), []
        body = {"reason": reason, "threadId": 1, "allThreadsStopped": True}
        if text:
            body["text"] = text
            body["description"] = text
        self.event("stopped", **body)
        self.error_stop = error
        while True:
            what = self.next_request()
            if what in ("disconnect", "terminate"):
                self.ending = what
                d.leaving = True
                raise Quit()
            if what == "restart":
                d.leaving = True
                raise Restart()
            if what and self.resume(what, error):
                self.error_stop = False
                return

    def resume(self, what: str, error: bool) -> bool:
        d = self.debugger
        assert d is not None and d.engine is not None
        frames = d.engine.frames
        if error or what == "continue":
            d.mode = "run"
        elif what == "next":
            d.mode, d.depth = "next", len(frames)
        elif what == "stepIn":
            d.mode = "step"
        elif len(frames) > 1:  # stepOut: until this call returns
            d.mode, d.target = "finish", frames[-1]
        else:
            d.mode = "run"
        return True

    # ---- requests before the run

    def do_initialize(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        self.respond(request, True, "", **CAPABILITIES)

    def do_launch(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        if self.debugger is not None:
            raise DapError("launch: a program is already launched")
        program = args.get("program")
        if not isinstance(program, str) or not program:
            raise DapError("launch: give the program file as 'program'")
        text = args.get("input", "")
        if not isinstance(text, str):
            raise DapError("launch: 'input' must be a string")
        console = Console(io.BytesIO(text.encode("utf-8")), _Output(self.output), strip_cr=True)  # type: ignore[arg-type]
        runner = self.make_runner(args, console)
        self.debugger = DapDebugger(console, runner, self)
        self.program = str(Path(program).resolve())
        self.respond(request)
        for path, wanted in self.pending.items():
            self.set_breakpoints(path, wanted)
        self.event("initialized")

    def do_setBreakpoints(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        path = str(Path(args["source"]["path"]).resolve())
        wanted = args.get("breakpoints") or [{"line": n} for n in args.get("lines") or []]
        if self.debugger is None:
            self.pending[path] = wanted
            self.respond(request, breakpoints=[{"verified": False, "line": b.get("line", 0)} for b in wanted])
            return
        self.respond(request, breakpoints=self.set_breakpoints(path, wanted))

    def set_breakpoints(self, path: str, wanted: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Replace the line breakpoints of the file ``path``; each answer says whether it was set."""
        d = self.debugger
        assert d is not None
        d.breaks = [b for b in d.breaks if b.place != path]
        answers = []
        for spec in wanted:
            line, cond = int(spec.get("line", 0)), str(spec.get("condition") or "").strip()
            problem = self.bad_condition(cond)
            if problem:
                answers.append({"verified": False, "line": line, "message": problem})
                continue
            found = d.runner.file_line(path, line)
            if isinstance(found, str) or not d.has_statement(found):
                answers.append({"verified": False, "line": line, "message": found if isinstance(found, str)
                                else f"line {line} has no statement"})
                continue
            d.numbers += 1
            problem = self.breakpoint_extra(d.numbers, spec)
            if problem:
                answers.append({"verified": False, "line": line, "message": problem})
                continue
            d.breaks.append(Breakpoint(d.numbers, line=found, cond=cond, place=path))
            answers.append({"id": d.numbers, "verified": True, "line": line})
        return answers

    def do_configurationDone(self, request: dict[str, Any], args: dict[str, Any]) -> str:
        d = self.debugger
        if d is None:
            raise DapError("configurationDone: launch first")
        if self.running:
            raise DapError("configurationDone: the program has run")
        self.running = d.running = True  # a pause from now on stops it
        self.respond(request)
        try:
            d.run()
        except Quit:
            if self.ending != "terminate":
                raise
            # ended by the client: an interrupted run, as Ctrl-C ends one in every door (run protocol)
            d.console.flush()
            self.output(STOPPED if d.console.last in (b"", b"\n") else "\n" + STOPPED, "stderr")  # a line of its own
            self.event("exited", exitCode=INTERRUPTED_STATUS)
            self.event("terminated")
            return "terminated"
        except (Restart, KeyboardInterrupt):
            raise
        except Exception as e:  # a crash of the run (a bug in tinyc): its report, and the session ends
            self.output(f"tinyc: internal error (a bug in tinyc): {type(e).__name__}: {e}\n", "stderr")
            self.event("exited", exitCode=70)
            self.event("terminated")
            return "terminated"
        finally:
            d.running = False
        if self.ending == "disconnect":
            raise Quit()
        return ""

    def do_disconnect(self, request: dict[str, Any], args: dict[str, Any]) -> str:
        self.respond(request)
        self.ending = "disconnect"
        return "disconnect"

    def do_terminate(self, request: dict[str, Any], args: dict[str, Any]) -> str:
        """End the program (at a stop; while it runs, the reader thread does this) with a ``terminated``
        event; the session goes on until ``disconnect``.  After the end: just the event."""
        self.respond(request)
        if self.debugger is not None and self.debugger.engine is not None and self.debugger.stopped:
            return "terminate"
        self.event("terminated")
        return ""

    def do_threads(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        self.respond(request, threads=[{"id": 1, "name": "main"}])

    # ---- requests while stopped

    def stopped_engine(self) -> tuple[DapDebugger, Engine]:
        d = self.debugger
        if d is None or d.engine is None:
            raise DapError("the program is not stopped")
        return d, d.engine

    def do_continue(self, request: dict[str, Any], args: dict[str, Any]) -> str:
        self.stopped_engine()
        self.respond(request, allThreadsContinued=True)
        return "continue"

    def do_pause(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        """A pause read while the program stands still (one running is paused by the reader thread)."""
        self.stopped_engine()
        self.respond(request, False, "pause: the program is stopped already")

    def _step(self, request: dict[str, Any], what: str) -> str:
        self.stopped_engine()
        self.respond(request)
        return what

    def do_next(self, request: dict[str, Any], args: dict[str, Any]) -> str:
        return self._step(request, "next")

    def do_stepIn(self, request: dict[str, Any], args: dict[str, Any]) -> str:
        return self._step(request, "stepIn")

    def do_stepOut(self, request: dict[str, Any], args: dict[str, Any]) -> str:
        return self._step(request, "stepOut")

    def where(self, pos: int) -> tuple[str | None, int]:
        """The file and the line in it of the address ``pos`` (None: the library or the typed entry)."""
        d = self.debugger
        assert d is not None and d.places is not None
        if not d.places.in_program(pos):
            return None, 0
        line = d.places.source_line(pos)
        for name, first, count in d.runner.sources:
            if first <= line < first + count:
                return str(Path(name).resolve()), line - first + 1
        return None, line

    def do_stackTrace(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        d, eng = self.stopped_engine()
        frames = []
        for index, name, pos, _ in reversed(self.frames_view(eng)):
            path, line = self.where(pos)
            frame = {"id": index, "name": name or "(entry)", "line": line, "column": 1 if line else 0}
            if path is not None:
                frame["source"] = {"name": Path(path).name, "path": path}
            else:
                frame["presentationHint"] = "subtle"
            frames.append(frame)
        start, levels = args.get("startFrame", 0), args.get("levels", 0)
        if not isinstance(start, int) or start < 0 or not isinstance(levels, int) or levels < 0:
            raise DapError("stackTrace: startFrame and levels are counts (0 or more)")
        shown = frames[start:start + levels] if levels else frames[start:]
        self.respond(request, stackFrames=shown, totalFrames=len(frames))

    def do_scopes(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        d, eng = self.stopped_engine()
        frame_id = args.get("frameId", len(eng.frames) - 1)
        entry = self.view_entry(frame_id)
        if entry is None:
            raise DapError(f"no frame {frame_id!r}")
        scopes = [{"name": "Globals", "variablesReference": GLOBALS, "expensive": False}]
        if frame_id > 0:
            scopes.insert(0, {"name": "Locals", "variablesReference": LOCALS + frame_id, "expensive": False})
        self.respond(request, scopes=scopes)

    def frame_index(self, value: object) -> int:
        d, eng = self.stopped_engine()
        if not isinstance(value, int) or not 0 <= value < len(eng.frames):
            raise DapError(f"no frame {value!r}")
        return value

    def do_variables(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        d, eng = self.stopped_engine()
        ref = args.get("variablesReference")
        if ref == GLOBALS:
            symbols = [s for s in (eng.m.program or ()) if s.kind == "var"]
        elif isinstance(ref, int) and ref > LOCALS:
            entry = self.view_entry(ref - LOCALS)
            if entry is None:
                raise DapError(f"no variables {ref!r}")
            if entry[3] is not None:
                self.respond(request, variables=self.compiled_locals(eng, entry[1], entry[3]))
                return
            frame = d.commands.frame_at(eng, self.frame_index(ref - LOCALS))
            symbols = list(frame.locals.values()) if frame is not None else []
        else:
            raise DapError(f"no variables {ref!r}")
        self.respond(request, variables=[self.variable(eng, s) for s in symbols])

    def variable(self, eng: Engine, s: Symbol) -> dict[str, Any]:
        d = self.debugger
        assert d is not None
        dims = f"({s.length - 1})" if s.array else ""
        return {"name": s.name, "value": shown_text(d.commands.symbol_value(eng, s).strip()), "type": f"{s.type}{dims}",
                "variablesReference": 0, "memoryReference": str(s.address)}

    def do_evaluate(self, request: dict[str, Any], args: dict[str, Any]) -> None:
        d, eng = self.stopped_engine()
        text = args.get("expression")
        if not isinstance(text, str) or not text.strip():
            raise DapError("evaluate: give an expression")
        if "frameId" in args:
            entry = self.view_entry(args["frameId"])
            if entry is None:
                raise DapError(f"no frame {args['frameId']!r}")
            if entry[3] is not None and isinstance(entry[3].get("v_" + text.strip()), int):
                self.respond(request, result=str(entry[3]["v_" + text.strip()]), variablesReference=0)
                return
            index = entry[0] if entry[0] < EXTRA else len(eng.frames) - 1
        else:
            index = len(eng.frames) - 1
        try:
            value = d.commands.evaluate(eng, text.strip(), index, symbol=True)
        except TinyCError as e:
            raise DapError("no such symbol" if int(e.code) in (3, 26) else f"tiny-c error {int(e.code)}") from None
        except ValueError as e:
            raise DapError(str(e)) from None
        shown = d.commands.symbol_value(eng, value).strip() if isinstance(value, Symbol) else str(value)
        self.respond(request, result=shown_text(shown), variablesReference=0)


def serve(inp: BinaryIO, out: BinaryIO, make_runner: MakeRunner) -> int:
    """Run one adapter session (see :class:`Server`); returns the exit status (0)."""
    return Server(inp, out, make_runner).serve()
