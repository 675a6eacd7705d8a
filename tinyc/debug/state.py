"""The debugger's state that its commands and its session share (:mod:`tinyc.debug.debugger`): breakpoints,
watches, the two ways a session leaves a run, and Gibson's usage text."""

from __future__ import annotations

from dataclasses import dataclass

from .engine import CallInfo

UNSET = "\0unset"  # a watch's value before a run has reached it


class Quit(Exception):
    """``q``/``x`` or the end of the command input: the session ends."""


class Restart(Exception):
    """``run`` while the program runs (or at an error): unwind it and start it again."""


@dataclass
class Breakpoint:
    """A breakpoint on a function (``name``) or a line (``line``); ``cond`` a tiny-c expression."""

    number: int
    name: str = ""
    line: int = 0
    cond: str = ""
    temporary: bool = False
    enabled: bool = True
    hits: int = 0
    place: str = ""  # FILE:LINE as given, for a line breakpoint set so

    @property
    def label(self) -> str:
        return self.name or self.place or f"line {self.line}"


@dataclass
class Watch:
    """``watch EXPR``: its last shown value; ``scope`` the call it belongs to (None: globals)."""

    number: int
    expr: str
    value: str
    scope: CallInfo | None = None


USAGE = ("\tb <symbol>    set breakpoint\n"
         "\tr,c           start or continue run to next breakpoint\n"
         "\ti             display breakpoints\n"
         "\tn             finish current and display next statement\n"
         "\tp <symbol>    print the value of symbol\n"
         "\t?             print this usage (default)\n"
         "\tx,q           exit tiny C\n")
