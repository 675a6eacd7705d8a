"""The commands of ``tinyc debug`` (:mod:`tinyc.debug.debugger`): Gibson's one-letter ones and the long
ones of a modern debugger, and the evaluation of tiny-c expressions in a selected frame."""

from __future__ import annotations

import re

from .. import ast
from ..errors import TinyCError
from ..link.symbols import Frame, Symbol
from ..syntax.lexer import Level
from .state import USAGE, Breakpoint, Quit, Restart, Watch
TYPE_CHECKING = False  # typing.TYPE_CHECKING; mypy knows it
if TYPE_CHECKING:
    from typing import Any

    Engine = Any  # the run's tinyc.debug.engine.Debugging, which watches the evaluator of the program's dialect

HELP = """\
commands (Gibson's letters, then the long names; an unknown command prints the short usage):
  b, break NAME|LINE [if EXPR]   breakpoint on a function (at its call) or a line (FILE:LINE: a line of
                                 one of the program files); EXPR a tiny-c condition
  tbreak NAME|LINE [if EXPR]     a breakpoint that is deleted when it stops the program once
  i, info [breakpoints|frames|watch|display]   list breakpoints; frames: the value space
  delete [N...], disable N..., enable N...     breakpoints and watches by number (delete: all)
  r, c, continue                 start the program, or continue it to the next stop
  run                            start the program again from its start
  n, next                        finish the statement and show the next one in this function
  s, step                        the same, into calls
  finish                         run until the selected function returns; show its value
  bt, where, backtrace           the calls: each frame's function, line and arguments
  up [N], down [N]               select a caller's frame (for p), or back
  p, print EXPR                  a variable (a char array as its text) or any tiny-c expression
  display EXPR                   print EXPR at every stop (undisplay N drops it)
  watch EXPR                     stop when EXPR's value changes, showing the old and the new value
  x ADDR [N]                     N bytes (16) of memory from ADDR (a number, a variable or an expression):
                                 hex, text, ints and the symbol that owns them
  list [LINE]                    ten lines of the program around the stop or LINE
  ?, help                        the short usage, this list
  x, q, quit                     exit (x with an address dumps memory)
"""

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


class Commands:
    """Reads and runs commands for ``debugger`` until one resumes the program."""

    def __init__(self, debugger: Any) -> None:
        # a tinyc.debug.debugger.Debugger (not imported: it imports this module); its engine and places are
        # None until a run starts, and each command runs with them set
        self.d: Any = debugger
        self._parsed: dict[tuple[str, tuple[str, ...]], list[ast.Stmt]] = {}

    def say(self, text: str) -> None:
        self.d.say(text)

    # ---- the command loop

    def loop(self, stopped: bool, error: bool = False) -> str:
        """Commands until one resumes: returns "run" when the program is not running and is to start."""
        d = self.d
        while True:
            line = d.read()
            word, _, rest = line.partition(" ")
            rest = rest.strip()
            if word in ("q", "quit", "exit") or (word == "x" and not rest):  # x ADDR: the memory dump
                d.leaving = True
                raise Quit()
            if word in ("r", "c", "continue", "run"):
                if not stopped:
                    return "run"
                if word == "run" or (error and word == "r"):
                    d.leaving = True
                    raise Restart()
                d.mode = "run"
                return "go"
            if word in ("n", "next", "s", "step", "finish"):
                if not stopped:
                    self.say("the program is not running: r starts it\n")
                    continue
                if error:
                    self.say("the program stopped at an error: r runs it again, q quits\n")
                    continue
                if word != "finish" and d.at_entry is not None:  # stopped at the call: its [ comes next
                    self.say(d.where(d.at_entry.function.body.pos))
                    d.at_entry = None
                    continue
                if not self.resume(word):
                    continue
                return "go"
            handler = COMMANDS.get(word)
            if handler is None:
                self.say(USAGE)
                continue
            if handler.__name__ in RUNNING and (not stopped or d.engine is None):
                self.say("the program is not running: r starts it\n")
                continue
            handler(self, rest)

    def resume(self, word: str) -> bool:
        d = self.d
        eng = d.engine
        frames = eng.frames
        if word in ("n", "next"):
            d.mode, d.depth = "next", len(frames)
        elif word in ("s", "step"):
            d.mode = "step"
        else:
            index = len(frames) - 1 - d.selected
            if index <= 0:
                self.say("finish: the outermost frame has no caller\n")
                return False
            d.mode, d.target = "finish", frames[index]
        return True

    # ---- evaluation in a frame

    def frame_at(self, eng: Engine, index: int) -> Frame | None:
        info = eng.frames[index]
        frame: Frame | None = eng.frame if index == len(eng.frames) - 1 else info.frame
        return frame

    def parse(self, eng: Engine, text: str, frame: Frame | None) -> ast.Expr:
        """``text`` as one tiny-c expression with the names of ``frame`` (ValueError if it is not one)."""
        local = dict(frame.locals) if frame is not None else {}
        key = (text, tuple(local))
        stmts = self._parsed.get(key)
        if stmts is None:
            m = eng.m
            top = m.top
            try:
                base = m.allocate("char", len(text) + 3, 0)
                m.memory.store(base + 1, text.encode("latin-1", "replace") + b"\n")
            finally:
                m.top = top
            levels = [Level({n: s.kind == "func" for n, s in table.symbols.items()})
                      for table in (m.program, m.library) if table is not None]
            stmts = self.d.runner.parse_typed(text, base + 1, local, levels)  # the dialect's parser
            self._parsed[key] = stmts
        if len(stmts) != 1 or not isinstance(stmts[0], ast.ExprStmt):
            raise ValueError(f"{text!r} is not a tiny-c expression")
        return stmts[0].expr

    def evaluate(self, eng: Engine, text: str, index: int, symbol: bool = False) -> int | Symbol:
        """The value of ``text`` in the frame ``eng.frames[index]``; with ``symbol``, a bare variable's Symbol."""
        frame = self.frame_at(eng, index)
        expr = self.parse(eng, text, frame)
        saved, top = eng.frame, eng.m.top
        eng.frame, eng.quiet = frame, eng.quiet + 1
        try:
            value: int | Symbol = eng.lookup(expr.name, expr) if symbol and isinstance(expr, ast.Var) else eng.eval(expr)
            return value
        finally:
            eng.frame, eng.quiet = saved, eng.quiet - 1
            eng.m.top = top

    def shown(self, eng: Engine, text: str, index: int) -> str:
        """What ``p`` shows after ``NAME:``, in Gibson's forms."""
        value = self.evaluate(eng, text, index, symbol=True)
        if isinstance(value, Symbol):
            return self.symbol_value(eng, value)
        return f" {value}"

    def symbol_value(self, eng: Engine, s: Symbol) -> str:
        mem = eng.mem
        if s.kind == "func":
            return f"{s.name} is a function"
        if not s.array:
            v = mem.read(s.address, s.type)
            return f" {v}" if s.type == "int" else f" ({v & 0xFF:x}){chr(v & 0xFF)}"
        if s.type == "int":
            size = mem.sizeof("int")
            count = min(max(s.length, 1), 64)
            items = "".join(f" {mem.read(s.address + k * size, 'int')}" for k in range(count))
            return items + (" ..." if s.length > count else "")
        text = bytes(mem.data[s.address:s.address + 256]).split(b"\0")[0] if 0 < s.address < mem.size else b""
        if text[:1] and text[0] < 32:
            shown = re.split(rb"[\r\n]", text)[0][:30]
            return "".join(f" 0x{c:x}" for c in shown)
        return " " + text.decode("latin-1")

    def watch_value(self, eng: Engine, w: Watch) -> str:
        index = 0 if w.scope is None else eng.frames.index(w.scope) if w.scope in eng.frames else 0
        try:
            return self.shown(eng, w.expr, index).strip()
        except (TinyCError, ValueError):
            return "?"

    def show_displays(self, eng: Engine) -> None:
        for k, text in enumerate(self.d.displays, 1):
            self.print_(text, prefix=f"{k}: ")

    # ---- commands

    def print_(self, rest: str, prefix: str = "") -> None:
        d = self.d
        if d.engine is None:
            self.say("the program is not running: r starts it\n")
            return
        if not rest:
            self.say(d.places.line_text(d.engine.frames[-1 - d.selected].pos) + "\n")
            return
        eng = d.engine
        try:
            self.say(f"{prefix}{rest}: {self.shown(eng, rest, len(eng.frames) - 1 - d.selected)}\n")
        except TinyCError as e:
            if int(e.code) in (3, 26):
                self.say("no such symbol\n")
            else:
                self.say(f"{rest}: tiny-c error {int(e.code)}\n")
        except ValueError as e:
            self.say(f"{e}\n")

    def break_(self, rest: str, temporary: bool = False) -> None:
        d = self.d
        spec, _, cond = rest.partition(" if ")
        spec = spec.strip()
        if not spec:
            self.say("b needs a function name or a line number\n")
            return
        names = d.names()
        where, colon, number = spec.rpartition(":")
        place = spec if colon else ""
        if colon and where and number.isdigit():  # b FILE:LINE
            found = d.runner.file_line(where, int(number))
            if isinstance(found, str):
                self.say(f"{found}: no breakpoint set\n")
                return
            spec = str(found)
        if spec.isdigit():
            line = int(spec)
            last = max((k for k, text in d.lines().items() if text.strip()), default=0)
            if line > last:
                self.say(f"line {line} is past the end: the program has {last} lines\n")
                return
            if not d.has_statement(line):
                self.say(f"line {line} has no statement\n")
                return
            new = dict(line=line, place=place)
            shown = f"line {place or line}"
        elif NAME.match(spec):
            name = d.canonical(spec)
            if not names.get(name):
                self.say(f"{spec} is not a function: no breakpoint set\n")
                return
            same = [b for b in d.breaks if b.name == name and not cond]
            if same and not cond and not temporary:
                self.say(f"is already {same[0].number}\n")
                return
            new = dict(name=name)
            defined = function_line(d.lines(), spec)
            shown = f"{name}, line {defined}" if defined else name
        else:
            self.say(f"b {spec}: give a function name or a line number\n")
            return
        d.numbers += 1
        d.breaks.append(Breakpoint(d.numbers, cond=cond.strip(), temporary=temporary, **new))  # type: ignore[arg-type]
        self.say(f"{'temporary ' if temporary else ''}breakpoint {d.numbers} at {shown}"
                 f"{' if ' + cond.strip() if cond.strip() else ''}\n")  # said, as gdb does: set, and where

    def tbreak(self, rest: str) -> None:
        self.break_(rest, temporary=True)

    def info(self, rest: str) -> None:
        d = self.d
        what = rest or "b"
        if "frames".startswith(what) and what != "f" or what == "f":
            return self.frames(rest)
        if "watch".startswith(what):
            for w in d.watches:
                self.say(f"{w.number:2d} watch {w.expr} = {w.value}\n")
            if not d.watches:
                self.say("no watches set\n")
            return
        if "display".startswith(what):
            for k, text in enumerate(d.displays, 1):
                self.say(f"{k}: {text}\n")
            return
        if not d.breaks:
            self.say("no breakpoints set\n")
            return
        self.say("num sym enabled hits\n")
        for b in d.breaks:
            extra = (" if " + b.cond if b.cond else "") + (" (once)" if b.temporary else "")
            self.say(f"{b.number:2d} {b.label:>8s}  {'y' if b.enabled else 'n'}  {b.hits} {extra}\n")

    def delete(self, rest: str, enable: bool | None = None) -> None:
        d = self.d
        wanted = rest.split()
        if not wanted and enable is None:
            d.breaks, d.watches = [], []
            return
        for word in wanted:
            found = [b for b in d.breaks + d.watches if str(b.number) == word]
            if not found:
                self.say(f"no breakpoint number {word}\n")
            for b in found:
                if enable is not None and hasattr(b, "enabled"):
                    b.enabled = enable
                elif enable is None:
                    (d.breaks if b in d.breaks else d.watches).remove(b)

    def disable(self, rest: str) -> None:
        self.delete(rest, enable=False)

    def enable(self, rest: str) -> None:
        self.delete(rest, enable=True)

    def backtrace(self, rest: str) -> None:
        d = self.d
        eng = d.engine
        calls = eng.frames[1:]
        for k, info in enumerate(reversed(calls)):
            frame = self.frame_at(eng, eng.frames.index(info))
            args = []
            for decl in info.function.params if info.function else []:
                for dcl in decl.names:
                    s = frame.locals.get(dcl.name) if frame else None
                    args.append(f"{dcl.name}={self.symbol_value(eng, s).strip() if s else '?'}")
            if info.compiled:  # the fast engine runs it: the values it was passed, where it was called
                args = [f"{a.split('=')[0]}={v}" for a, v in zip(args, info.args)]
            mark = "*" if k == d.selected else " "
            at = f"at line {d.places.line(info.pos)}" if d.places.in_program(info.pos) else "in the library"
            if info.compiled:
                at = (f"at line {d.places.line(info.pos)} (compiled)" if info.running
                      else f"compiled, called at line {d.places.line(info.pos)}")
            self.say(f"{mark}#{k}  {info.name}({', '.join(args)}) {at}\n")
        if not calls:
            self.say("#0  the entry statement\n")

    def up(self, rest: str, step: int = 1) -> None:
        d = self.d
        count = int(rest) if rest.isdigit() else 1
        d.selected = max(0, min(len(d.engine.frames) - 2, d.selected + step * count))
        info = d.engine.frames[-1 - d.selected]
        self.say(f"#{d.selected}  {info.name or 'entry'} at line {d.places.line(info.pos)}\n"
                 f"{d.places.line_text(info.pos)}\n")

    def down(self, rest: str) -> None:
        self.up(rest, step=-1)

    def frames(self, rest: str) -> None:
        """The value space: the globals, then each call's locals, with their addresses."""
        d = self.d
        eng = d.engine
        if eng is None:
            self.say("the program is not running: r starts it\n")
            return
        self.say("globals:\n")
        for s in (eng.m.program or ()):
            if s.kind == "var":
                self.say(f"  {self.describe(eng, s)}\n")
        for index, info in enumerate(eng.frames[1:], 1):
            frame = self.frame_at(eng, index)
            self.say(f"frame {index}: {info.name} (line {d.places.line(info.pos)})\n")
            for s in (frame.locals.values() if frame else ()):
                self.say(f"  {self.describe(eng, s)}\n")

    def describe(self, eng: Engine, s: Symbol) -> str:
        dims = f"({s.length - 1})" if s.array else ""
        return f"{s.type} {s.name}{dims} at {s.address}:{self.symbol_value(eng, s)}"

    def watch(self, rest: str) -> None:
        d = self.d
        eng = d.engine
        if not rest:
            self.say("watch needs a variable or an expression\n")
            return
        index = len(eng.frames) - 1 - d.selected
        try:
            value = self.shown(eng, rest, index).strip()
        except (TinyCError, ValueError):
            self.say("no such symbol\n")
            return
        frame = self.frame_at(eng, index)
        names = re.findall(r"[A-Za-z_]\w*", rest)
        local = index > 0 and frame is not None and any(d.canonical(n) in frame.locals for n in names)
        d.numbers += 1
        d.watches.append(Watch(d.numbers, rest, value, eng.frames[index] if local else None))
        self.say(f"watch {d.numbers}: {rest} = {value}\n")

    def display(self, rest: str) -> None:
        if rest:
            self.d.displays.append(rest)
            if self.d.engine is not None:
                self.print_(rest, prefix=f"{len(self.d.displays)}: ")

    def undisplay(self, rest: str) -> None:
        if rest.isdigit() and 0 < int(rest) <= len(self.d.displays):
            del self.d.displays[int(rest) - 1]
        else:
            self.d.displays.clear()

    def list_(self, rest: str) -> None:
        d = self.d
        lines = d.lines()
        here = d.places.line(d.engine.frames[-1 - d.selected].pos) if d.engine is not None else 0
        centre = int(rest) if rest.isdigit() else here or 1
        first = max(1, centre - 4)
        for number in range(first, first + 10):
            if number in lines:
                self.say(f"{'->' if number == here else '  '}{number:4d}  {lines[number]}\n")

    def examine(self, rest: str) -> None:
        """``x ADDR [N]``: N bytes (16) of the memory from ADDR, a number, a variable (its storage) or any
        tiny-c expression (its value taken as an address), in the selected frame."""
        from .memory import DEFAULT, dump
        d = self.d
        eng = d.engine
        expr, count = rest, DEFAULT
        head, _, tail = rest.rpartition(" ")
        if head.strip() and tail.isdigit():
            expr, count = head.strip(), int(tail)
        if not expr:
            self.say("x needs an address: x ADDR [N]\n")
            return
        index = len(eng.frames) - 1 - d.selected
        function = [s for t in (eng.m.program, eng.m.library) for s in (t or ()) if s.kind == "func"
                    and s.name == d.canonical(expr)] if NAME.match(expr) else []
        try:
            value = function[0] if function else self.evaluate(eng, expr, index, symbol=True)
        except (TinyCError, ValueError):
            self.say("no such symbol\n" if NAME.match(expr) else f"x: {expr} is not an address\n")
            return
        start = value.address if isinstance(value, Symbol) else eng.mem.address(value)
        frames = [(info, self.frame_at(eng, k)) for k, info in enumerate(eng.frames) if k > 0]
        self.say(dump(eng, frames, start, count, (d.places.first, d.places.end)))

    def help(self, rest: str) -> None:
        self.say(HELP)


COMMANDS = {
    "b": Commands.break_, "break": Commands.break_, "tbreak": Commands.tbreak,
    "i": Commands.info, "info": Commands.info,
    "p": Commands.print_, "print": Commands.print_,
    "delete": Commands.delete, "d": Commands.delete, "disable": Commands.disable, "enable": Commands.enable,
    "bt": Commands.backtrace, "where": Commands.backtrace, "backtrace": Commands.backtrace,
    "up": Commands.up, "down": Commands.down, "watch": Commands.watch,
    "display": Commands.display, "undisplay": Commands.undisplay,
    "list": Commands.list_, "l": Commands.list_, "help": Commands.help, "x": Commands.examine,
}
RUNNING = {"backtrace", "up", "down", "watch", "frames", "examine"}


def function_line(lines: dict[int, str], name: str) -> int | None:
    """The line where the function ``name`` is defined (its name first on the line, then its parameters'
    declaration, ``(`` or ``[``), or None where no line looks so."""
    pattern = re.compile(rf"\s*(?:int\s+|char\s+)?{re.escape(name)}\s*(?:$|[\[(]|int\b|char\b)", re.IGNORECASE)
    return next((k for k, text in sorted(lines.items()) if pattern.match(text)), None)
