"""The reference evaluator in the Gibson dialect: late reads, its conversions, calls and machine calls.

:class:`GibsonEvaluator` is the reference :class:`~tinyc.engines.evaluator.Evaluator` with the dialect's
differences (gibson-dialect.md sections 3.5-3.10):

* **late reads** (section 3.9): a variable, an element or a call that returned one evaluates to a
  :class:`Ref` (its address and type); an operator, a condition, a subscript, an assignment, parameter
  binding at function entry and a machine call read it only when they consume it.  ``return x`` of a
  local hands back a reference to storage that the return frees, so the next call made before it is
  read overwrites it (``fib`` returning ``n`` prints 0 1 0 1 1 2 3 5, as the original);
* every parameter allocates its declared size at entry, array parameters included, zero-filled, and
  takes its argument (read at that moment) in declaration order; a 0 passed to an array parameter is
  a null pointer;
* ``...`` parameters: no argument count check; the first machine call of the body receives every
  argument of the call before its own;
* ``int = char variable`` zero-extends (0..255); everything else reads chars sign-extended;
* relational operators look at the sign of the wrapped difference;
* undeclared names are error 3 at the name, machine calls are those of ``machine_calls_gibson``;
* a ``break`` with no ``while`` running in its function ends the function and breaks the caller's loop.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

from ... import ast
from ...errors import ErrorCode, TinyCError, MemoryFault
from ...engines.evaluator import BreakSignal, Evaluator, ReturnSignal, binary
from .files import state
from .syntax import VARIADIC, is_variadic
from ...link.symbols import Frame, Symbol

if TYPE_CHECKING:
    from typing import Any, Callable

    from ...machine.port import MachinePort as Machine


class Ref:
    """A variable on the expression stack: read when an operator consumes it."""

    __slots__ = ("addr", "type")

    def __init__(self, addr: int, type_: str):
        self.addr = addr
        self.type = type_


def _wrap32(v: int) -> int:
    return ((v + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


class GibsonEvaluator(Evaluator):
    """The reference engine with the Gibson dialect's evaluation rules."""

    name = "reference"

    # ---- raw values and reading them: visit_Var, visit_Index and visit_Call give a Ref

    def ev(self, node: ast.Expr):
        """The value of ``node`` as it lies on the stack: an int or a :class:`Ref`."""
        return self._visit[type(node)](self, node)

    def eval(self, node: ast.Expr) -> int:
        v = self._visit[type(node)](self, node)
        return v if type(v) is int else self.rd(v, node)

    def rd(self, v, node: ast.Node | None = None) -> int:
        if type(v) is int:
            return v
        try:
            return self.mem.read(v.addr, v.type)
        except MemoryFault:
            raise TinyCError(ErrorCode.RANGERR, node.end if node is not None else self.cursor) from None

    def run(self, stmts: list[ast.Stmt]) -> None:
        """The seed statement: it runs with the application's globals as its locals, so declarations
        in ``-r '[int i; ...]'`` are application globals (gibson-dialect.md 1.5)."""
        if self.m.program is None:
            return super().run(stmts)
        self.run_in(Frame(None, locals=self.m.program.symbols, mark=self.m.top), stmts, free=False)

    # ---- positions as that interpreter reports them

    def skip(self, at: int, lines: bool = False) -> int:
        """``at`` moved past blanks (and with ``lines`` past line ends and comments too)."""
        data, size = self.mem.data, self.mem.size
        while at < size:
            c = data[at]
            if c in (32, 9):
                at += 1
            elif lines and c in (10, 13):
                at += 1
            elif lines and c == 47 and at + 1 < size and data[at + 1] in (42, 47):
                while at < size and data[at] not in (10, 13):
                    at += 1
            else:
                break
        return at

    def name_end(self, node: ast.Node) -> int:
        """One past the name that starts at ``node.pos`` (where an undeclared name is reported)."""
        return self.name_end_at(node.pos)

    def lookup(self, name: str, node: ast.Node, at: int | None = None) -> Symbol:
        """As the PC dialect's, but once a gs has read at the end of the input every name
        lookup fails, error 3 at the name: the original's tables are overrun by then (G 4.3)."""
        sym = self.frame.locals.get(name) if self.frame else None  # the PC dialect's lookup, inline
        if sym is None and self.m.program is not None:
            sym = self.m.program.get(name)
        if sym is None:
            sym = self.m.library.get(name)
        if sym is None or self.gs_state.overrun:
            raise self.undeclared(node, at)
        return sym

    @property
    def gs_state(self):
        """The machine's GibsonState (its calls' state: file units, input, the overrun)."""
        return state(self.m)

    def undeclared(self, node: ast.Node, at: int | None) -> TinyCError:
        """This dialect's error for an undeclared name: 3, at the end of the name as written."""
        return TinyCError(ErrorCode.SYMERR, at or getattr(node, "name_end", 0) or self.name_end(node))

    # ---- statements

    def visit_While(self, node: ast.While) -> None:
        """A while runs its body once and is run again by the statement list around it (section 3.3).
        For a while whose body is a while without brackets, that means the outer condition is tested
        again after each turn of the inner one, and a break ends only the inner one's turn."""
        if not isinstance(node.body, ast.While):
            return super().visit_While(node)
        while True:
            try:
                if not self._turn(node):
                    return
            except BreakSignal:
                continue

    def _turn(self, node: ast.While) -> bool:
        """One turn: the condition, then the body once (an inner while takes one turn); False if the
        condition was false."""
        if not self.condition(node):
            return False
        if isinstance(node.body, ast.While):
            self._turn(node.body)
        else:
            self.execute(node.body)
        return True

    def visit_If(self, node: ast.If) -> None:
        """An if whose branch is a while: the while is re-run by the statement list around the if, so
        the text after it, an else, comes next: an else there is error 3 (section 3.3)."""
        if node.orelse is not None and isinstance(node.then, ast.While) and self.condition(node):
            self.execute(node.then)
            raise TinyCError(ErrorCode.SYMERR, self._else_end(node))
        return super().visit_If(node)

    def _else_end(self, node: ast.If) -> int:
        data = self.mem.data
        assert node.orelse is not None  # asked only for an if with an else
        at = data.find(b"else", node.then.end, node.orelse.pos)
        return node.then.end if at < 0 else at + 4

    def visit_Return(self, node: ast.Return) -> None:
        raise ReturnSignal(0 if node.value is None else self.ev(node.value))

    # ---- expressions

    def visit_Var(self, node: ast.Var):
        sym = self.lookup(node.name, node)
        if sym.kind == "func":
            return self.call(sym, [], node)
        if sym.array:
            return sym.address
        return Ref(sym.address, sym.type)

    def visit_Index(self, node: ast.Index):
        sym = self.lookup(node.name, node)
        if sym.kind == "func":
            return self.call(sym, [self.ev(node.index)], node)
        place = self.lvalue(node)
        assert isinstance(place, tuple)  # an element: (address, type), never a symbol
        return Ref(*place)

    def visit_Call(self, node: ast.Call):
        sym = self.lookup(node.name, node)
        if sym.kind != "func":
            if not node.args:  # a name used before the text declared it (classified as a call)
                return sym.address if sym.array else Ref(sym.address, sym.type)
            raise TinyCError(ErrorCode.SYMERR, self.name_end(node))
        return self.call(sym, [self.ev(a) for a in node.args], node)

    def visit_MachineCall(self, node: ast.MachineCall) -> int:
        raw = [self.ev(a) for a in node.args]
        frame = self.frame
        pending = getattr(frame, "varargs", None) if frame is not None else None
        if pending is not None:  # a variadic function's arguments go to its first machine call
            frame.varargs = None  # type: ignore[union-attr]  # a frame with varargs is a call's frame
            raw = pending + raw
        return self.machine_call([v if type(v) is int else self.rd(v, node) for v in raw], node)

    def machine_call(self, values: list[int], node: ast.MachineCall) -> int:
        """MC ``node`` with its argument ``values`` (ints); an error the call reports at the end of ``node``, or
        a memory fault (RANGERR), is placed after the blanks that follow, where the original's cursor stops
        (the fast engine's calls come here too)."""
        if self.observer is not None:
            self.observer.machine_call(values)
        try:
            return self.m.machine_call(self.m, values, node)
        except TinyCError as e:
            if e.address == node.end:
                e.address = self.skip(node.end)
            raise
        except MemoryFault:
            raise TinyCError(ErrorCode.RANGERR, self.skip(node.end)) from None

    def visit_Assign(self, node: ast.Assign) -> int:
        try:
            ref = self.lvalue(node.target)
        except TinyCError as e:
            if e.code != ErrorCode.LVALERR:
                raise
            # the original finds that the target is no place only when it stores: after the value,
            # evaluated, and the blanks after it (G 6.2)
            self.ev(node.value)
            last = node.value
            while isinstance(last, (ast.BinOp, ast.Assign)):
                last = last.right if isinstance(last, ast.BinOp) else last.value
            calls = isinstance(last, (ast.Call, ast.MachineCall))  # a call skips line ends and comments
            raise TinyCError(ErrorCode.LVALERR, self.skip(node.value.end, calls)) from None
        v = self.ev(node.value)
        if isinstance(ref, Symbol):
            value = self.rd(v, node)
        elif ref[1] == "int" and type(v) is Ref and v.type == "char":
            value = self.mem.byte(v.addr)  # int = char variable: zero-extended (section 3.8)
        elif ref[1] == "int" and type(node.value) is ast.CharLit:
            value = node.value.value & 0xFF
        else:
            value = self.rd(v, node)
        return self.store(ref, value, node)

    def visit_BinOp(self, node: ast.BinOp) -> int:
        a = self.ev(node.left)
        b = self.ev(node.right)
        if type(a) is not int:
            a = self.rd(a, node)
        if type(b) is not int:
            b = self.rd(b, node)
        op = node.op
        if op in ("<", "<=", ">", ">="):
            d = _wrap32(a - b)
            return int(d < 0 if op == "<" else d <= 0 if op == "<=" else d > 0 if op == ">" else d >= 0)
        return binary(self.mem.wrap, op, a, b, node.end)

    def visit_Unary(self, node: ast.Unary) -> int:
        value = self.eval(node.operand)
        return self.mem.wrap(-value) if node.op == "-" else value

    # ---- calls

    def call(self, sym: Symbol, args: list, node: ast.Node):
        """Call a function: allocate each parameter in turn and read its argument then (section 3.9)."""
        fn = sym.function
        assert fn is not None  # only "func" symbols are called, and each holds its AST
        if fn.error is not None:  # a header that did not parse: found as the call enters
            raise TinyCError(fn.error.code, fn.error.address)
        params = [(t, d) for t, d in fn.parameters() if t != VARIADIC]
        variadic = is_variadic(fn)
        if not variadic and len(args) != len(params):
            raise TinyCError(ErrorCode.ARGSERR, node.after if isinstance(node, ast.Call) else
                             self.skip(node.end, lines=True))
        if self.depth >= self.m.max_depth:
            raise TinyCError(ErrorCode.TMFUERR, node.end)
        frame = Frame(fn, mark=self.m.top)
        saved = self.frame
        frame.caller = saved  # type: ignore[attr-defined]  # the frames below, as MC 0 counts entries
        self.frame = frame
        try:
            for (type_, d), value in zip(params, args):
                frame.declare(self.bind(type_, d, value, frame))
            if variadic:
                frame.varargs = list(args)  # type: ignore[attr-defined]  # only this dialect's frames have them
            self.depth += 1
            try:
                if self.observer is not None:
                    self.observer.entered(fn)
                self.visit_Block(fn.body)
                return 0
            except ReturnSignal as r:
                return r.value
            # a break with no while running here ends this function and goes on to the caller's
            # innermost while, or ends the caller too (gibson-dialect.md 3.3): BreakSignal propagates
            finally:
                self.depth -= 1
        finally:
            self.frame = saved
            self.m.top = frame.mark

    def shown(self, value) -> int:
        """An argument or result as a tool shows it: a reference's value (0 where it cannot be read)."""
        try:
            return self.rd(value)
        except TinyCError:
            return 0

    def visit_Decl(self, node: ast.Decl) -> None:
        """A declaration, its names also listed in the frame's ``entries`` (the original's variable
        table: every declaration executed takes an entry, repeats included; MC 0 numbers them)."""
        frame = self.frame
        super().visit_Decl(node)
        if frame is not None:
            frame.__dict__.setdefault("entries", []).extend(d.name for d in node.names)

    # ---- MC 0: a symbol's entry of the variable table (Gibson's machineCall.c _mzero, var.c dumpVar)

    def symbol_entry(self, name: str) -> str | None:
        """The line ``dumpVar`` writes for the symbol ``name`` as the running statement looks it up
        (its function's locals, the application's globals, the libraries), or None when none has it.

        ``\\n var INDEX: NAME CLASS TYPE LEN pr[ADDRESS]`` and, for a scalar, ``->VALUE<-`` (a char as
        itself, ``NULL`` for 0), for a char array ``->TEXT<-`` (at most 30 bytes, to its NUL).  INDEX
        counts the entries before it: the libraries' definitions, the application's, then each running
        call's parameters and declarations, repeats included.  CLASS is 0 for a scalar, 1 for an array,
        69 (``E``) for a function, whose ADDRESS is the byte after its name and TYPE ``Int``."""
        found = self._symbol_index(name)
        if found is None:
            return None
        index, sym = found
        return self._entry_line(index, name, sym)

    def _symbol_index(self, name: str) -> tuple[int, Any] | None:
        """(the variable-table index, the symbol) of ``name`` as the running statement sees it, or None."""
        lib, app = self.m.library, self.m.program
        lib_order = getattr(lib, "order", list(lib.symbols))
        app_order = getattr(app, "order", list(app.symbols)) if app is not None else []
        frames = []
        f = self.frame
        while f is not None:
            frames.append(f)
            f = getattr(f, "caller", None)
        seed = frames.pop() if frames and frames[-1].function is None else None
        globals_ = app_order + (seed.__dict__.get("entries", []) if seed is not None else [])
        found = None
        if frames:
            here = frames[0]
            entries = _frame_entries(here)
            if name in entries and name in here.locals:
                below = sum(len(_frame_entries(f)) for f in frames[1:])
                found = (len(lib_order) + len(globals_) + below + entries.index(name), here.locals[name])
        if found is None and app is not None and name in globals_:
            sym = app.get(name) or (seed.locals.get(name) if seed is not None else None)
            if sym is not None:
                found = (len(lib_order) + globals_.index(name), sym)
        if found is None and name in lib_order and lib.get(name) is not None:
            found = (lib_order.index(name), lib.get(name))
        return found

    def _entry_line(self, index: int, name: str, sym: Any) -> str:
        """``dumpVar``'s line for the symbol ``sym`` at ``index`` of the variable table."""
        if sym.kind == "func":
            at = sym.function.pos if sym.function is not None else sym.address
            return f"\n var {index}: {name} 69 Int 1 pr[{self.name_end_at(at)}]"
        kind = 1 if sym.array else 0
        line = f"\n var {index}: {name} {kind} {sym.type.capitalize()} {sym.length if sym.array else 1} pr[{sym.address}]"
        try:
            if sym.array and sym.type == "char":
                text = self.mem.cstring(sym.address)[:30]
                return line + "->" + text.decode("latin-1") + "<-"
            if not sym.array and sym.type == "char":
                c = self.mem.byte(sym.address)
                return line + ("->" + chr(c) + "<-" if c else "->NULL<-")
            if not sym.array:
                return line + f"->{self.mem.read(sym.address, 'int')}<-"
        except MemoryFault:
            return line
        return line

    def name_end_at(self, at: int) -> int:
        """One past the name written at ``at``."""
        data = self.mem.data
        while at < self.mem.size and (chr(data[at]).isalnum() or data[at] == 95):
            at += 1
        return at

    def bind(self, type_: str, d: ast.Declarator, value, frame: Frame) -> Symbol:
        """One parameter: its argument is read, then its space is taken (zero-filled) at the top of
        value space and set.  (Read first: ``pn fib(1)`` prints 1 although pn's ``n`` takes the very
        bytes fib's ``n`` had; the zero-fill still reaches arguments read later, as printf's.)"""
        v = self.rd(value, d)
        if d.size is None:
            addr = self.m.allocate(type_, 1, d.end)
            self.mem.write(addr, type_, v)
            return Symbol(d.name, "var", type_, False, addr)
        length = self.eval(d.size) + 1
        self.m.allocate(type_, max(length, 0), d.end)
        return Symbol(d.name, "var", type_, True, v, length)


def _frame_entries(frame: Any) -> list[str]:
    """The names a frame adds to Gibson's variable table, in order: its parameters (not the variadic
    one), then the locals it declared."""
    params = frame.function.parameters() if frame.function is not None else []
    return [d.name for t, d in params if t != VARIADIC] + frame.__dict__.get("entries", [])
