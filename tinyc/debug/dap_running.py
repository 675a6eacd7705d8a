"""The requests :mod:`tinyc.debug.dap` answers while the program runs, in the adapter's reader thread (a
mixin of its :class:`~tinyc.debug.dap.Server`).

A ``pause`` (and a ``disconnect`` or ``terminate``, which end the program at its pause) is the debugger's
one pause, the one Ctrl-C makes in ``tinyc debug`` (:meth:`~tinyc.debug.debugger.Debugger.request_pause`,
:class:`~tinyc.debug.debugger.interrupts`): the next debug-evaluated statement, or compiled code where it
stands, stops; resumed, it goes on."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .dap_wire import Malformed, read_message

GONE = 3.0    # seconds a run may go on after the client went away before the adapter exits anyway


class RunningRequests:
    """The reader thread and the pause of compiled code; the Server's ``debugger``, ``inbox``, ``inp``,
    ``ending``, ``hard_exit``, ``respond`` and ``set_breakpoints`` are used."""

    debugger: Any
    inbox: Any
    inp: Any
    ending: str
    hard_exit: bool

    if TYPE_CHECKING:
        def respond(self, request: dict[str, Any], success: bool = True, message: str = "", **body: Any) -> None: ...

        def set_breakpoints(self, path: str, wanted: list[dict[str, Any]]) -> list[dict[str, Any]]: ...

    def reader(self) -> None:
        """The reader thread: each message (or Malformed) into ``inbox``, None at the end of the input.

        While the program runs (it is not stopped) the requests that cannot wait for a stop are done here:
        ``pause`` stops it; ``disconnect`` and ``terminate`` are answered and end it at once (its next
        statement, or the compiled code interrupted); ``threads`` and ``setBreakpoints`` are answered; any
        other request gets an error response ("the program is running").  The end of the input while it
        runs ends it too, and if it does not end within ``GONE`` seconds the adapter process exits: an
        adapter whose client went away must not run on."""
        assert self.inbox is not None
        while True:
            try:
                message = read_message(self.inp)
            except Malformed as e:
                self.inbox.put(e)
                continue
            except (OSError, ValueError):  # the input closed under us
                message = None
            if self.while_running(message):
                continue
            self.inbox.put(message)
            if message is None:
                return

    def running_now(self) -> bool:
        d = self.debugger
        return d is not None and d.running and not d.stopped

    def while_running(self, message: dict[str, Any] | Malformed | None) -> bool:
        """Do ``message`` in the reader thread if the program is running (see :meth:`reader`); False
        when it is for the main loop."""
        if not self.running_now():
            return False
        d = self.debugger
        assert d is not None
        if message is None:
            self.ending = self.ending or "disconnect"
            self.interrupt()
            if self.hard_exit:
                threading.Thread(target=self._exit_if_still_running, daemon=True).start()
            return False
        if not isinstance(message, dict) or message.get("type") != "request":
            return False
        command = message.get("command")
        if command == "pause":
            if d.request_pause():
                self.respond(message)
                self.interrupt()
                return True
            return False
        if command in ("disconnect", "terminate"):
            self.respond(message)  # first: the main loop may end as soon as it sees ``ending``
            self.ending = str(command)
            self.interrupt()
            return True
        if command == "threads":
            self.respond(message, threads=[{"id": 1, "name": "main"}])
            return True
        if command == "setBreakpoints" and isinstance(message.get("arguments"), dict):
            try:
                args = message["arguments"]
                path = str(Path(args["source"]["path"]).resolve())
                wanted = args.get("breakpoints") or [{"line": n} for n in args.get("lines") or []]
                self.respond(message, breakpoints=self.set_breakpoints(path, wanted))
                d.sync()
            except (KeyError, TypeError, ValueError, AttributeError) as e:
                self.respond(message, False, f"setBreakpoints: {type(e).__name__}: {e}")
            return True
        self.respond(message, False, f"{command}: the program is running (pause it first)")
        return True

    def interrupt(self) -> None:
        """Stop the running program soon: the debugger's one pause
        (:meth:`~tinyc.debug.debugger.Debugger.request_pause`), which reaches compiled code too."""
        if self.debugger is not None:
            self.debugger.request_pause()

    def _exit_if_still_running(self) -> None:
        time.sleep(GONE)
        if self.debugger is not None and self.debugger.running:
            os._exit(0)
