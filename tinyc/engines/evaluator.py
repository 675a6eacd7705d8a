"""The reference evaluator: a tree-walking interpreter over the AST that reads like the reference.

Each ``visit_<Node>`` method runs one node class of :mod:`tinyc.ast`: a statement of section 5 or an
expression form of section 6.  :func:`tinyc.ast.visitors` finds them by name, once per evaluator class, so a
subclass (the Gibson dialect's evaluator) overrides a node by defining its
``visit_<Node>``.  Names are looked up when they run, through the three symbol levels of section 3.  Tools
(the tracer, the debugger, the stepper) watch it through its one observer slot (:mod:`tinyc.engines.observer`).  The
fast engine (:mod:`tinyc.engines.compiler`) runs the same linked program through the same engine
interface (``name``, ``run``, ``evaluate_constant``: :class:`tinyc.machine.port.Engine`) and must agree with
this one byte for byte.  Both see their machine through :class:`tinyc.machine.port.MachinePort`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

from .. import ast
from ..errors import ErrorCode, TinyCError, MemoryFault
from ..link.linker import declare
from ..link.symbols import Frame, Symbol
from .cdiv import c_div, c_mod

if TYPE_CHECKING:
    from typing import Any, Callable, ClassVar, Protocol

    from ..machine.port import MachinePort as Machine

    class Observer(Protocol):
        """What the evaluator itself calls of its observer (:class:`tinyc.engines.observer.Observer`, which
        imports this module: named here by its shape, so the two modules make no circle)."""

        def machine_call(self, values: list[int]) -> None: ...
        def moved(self, sym: Symbol) -> None: ...
        def entered(self, function: ast.Function) -> None: ...

    Visitor = Callable[[Any, Any], Any]  # an unbound visit_<Node> method: (evaluator, node) -> result
    Place = tuple[int, str] | Symbol  # an lvalue: (address, type) of a scalar or an element; an array name


class ReturnSignal(Exception):
    """``return``: unwinds to the function call with the value."""

    def __init__(self, value: int):
        self.value = value


class BreakSignal(Exception):
    """``break``: unwinds to the innermost while or for."""


class _Again(Exception):
    """A ``while``'s body declared a name its condition uses: its :class:`~tinyc.ast.Reparse` (at ``pos``)
    parses the text again from the loop."""

    def __init__(self, pos: int):
        self.pos = pos


MAX_LOCALS = 4096  # declarations one call may execute before error 18 (the variable table is full)


class Evaluator:
    """Runs statements and calls of a linked program on a :class:`~tinyc.driver.interpreter.Machine`.

    The engine interface: ``run(stmts)`` executes top-level statements in a fresh frame,
    ``evaluate_constant(expr)`` gives an array bound when globals are linked.  Errors are raised as
    TinyCError with the absolute byte address of the error cursor.
    """

    name = "reference"
    _visit: ClassVar[dict[type[ast.Node], Visitor]]  # ast.visitors(the class), set as each class is made

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._visit = ast.visitors(cls)

    def __init__(self, machine: Machine) -> None:
        self.m = machine
        self.mem = machine.memory
        self.frame: Frame | None = None
        self._reparsed: dict[tuple[int, tuple[bool, ...]], tuple[ast.Reparse, list[ast.Stmt]]] = {}
        self.depth = 0
        self.cursor = 0
        self.observer: Observer | None = None  # a tool watching statements, headers and calls

    # ---- the engine interface

    def run(self, stmts: list[ast.Stmt]) -> None:
        """Execute top-level statements (an IPL's start-up block, a shell command) in a new frame."""
        self.run_in(Frame(None, mark=self.m.top), stmts, free=True)

    def run_in(self, frame: Frame, stmts: list[ast.Stmt], free: bool) -> None:
        """Execute ``stmts`` in ``frame``; ``free``: give back the value space they declared."""
        saved, saved_depth = self.frame, self.depth
        self.frame = frame
        try:
            for s in stmts:
                self.execute(s)
        except (ReturnSignal, BreakSignal):
            pass
        except KeyboardInterrupt:
            raise TinyCError(ErrorCode.KILL, self.cursor) from None
        except RecursionError:
            raise TinyCError(ErrorCode.TMFUERR, self.cursor) from None
        finally:
            if free:
                self.m.top = frame.mark
            self.frame, self.depth = saved, saved_depth

    def evaluate_constant(self, expr: ast.Expr) -> int:
        """The value of an array bound of a global declaration, as the linker asks for it (section 3)."""
        return self.eval(expr)

    # ---- names

    def lookup(self, name: str, node: ast.Node, at: int | None = None) -> Symbol:
        """Locals of the running function, then the program's globals, then the library (section 3).

        Error 26 (no level declares the name) is reported at ``at``, by default the node's end."""
        sym = self.frame.locals.get(name) if self.frame else None
        if sym is None and self.m.program is not None:
            sym = self.m.program.get(name)
        if sym is None:
            sym = self.m.library.get(name)
        if sym is None:
            raise self.undeclared(node, at)
        return sym

    def undeclared(self, node: ast.Node, at: int | None) -> TinyCError:
        """The error of a name no level declares: 26 at ``at``, by default the node's end."""
        return TinyCError(ErrorCode.SYMERRA, node.end if at is None else at)

    # ---- statements (section 5)

    def execute(self, node: ast.Stmt) -> None:
        """Run one statement; ``cursor`` (an error's address when Python stops it) is its start."""
        self.cursor = node.pos
        self._visit[type(node)](self, node)

    def visit_Decl(self, node: ast.Decl) -> None:
        """``int a, b(N)`` in a function: zeroed space for each name, a local from now on (sections 3, 5).
        Error 18 (TMVRERR) after MAX_LOCALS declarations in one call, 19 (TMVLERR) when value space is full."""
        frame = self.frame
        assert frame is not None  # statements run in a call's frame, or in the frame run() makes
        for d in node.names:
            frame.declared += 1
            if frame.declared > MAX_LOCALS:
                raise TinyCError(ErrorCode.TMVRERR, d.end)
            frame.declare(declare(node.type, d, self.m.allocate, self.eval))

    def visit_Block(self, node: ast.Block) -> None:
        """``[ stmt ... ]``: each statement in order, until a return or break unwinds (section 5)."""
        for s in node.body:
            self.execute(s)

    def visit_If(self, node: ast.If) -> None:
        """``if cond stmt [else stmt]``: non-zero is true (section 5)."""
        if self.condition(node):
            self.execute(node.then)
        elif node.orelse is not None:
            self.execute(node.orelse)

    def visit_While(self, node: ast.While) -> None:
        """``while cond stmt``: the condition tested before each turn; ``break`` ends the innermost (section 5)."""
        while self.condition(node):
            try:
                self.execute(node.body)
            except BreakSignal:
                break

    def visit_For(self, node: ast.For) -> None:
        """``for (init; cond; step) stmt`` (section 5, the PC's C-style for): init once, then cond, body
        and step each turn; a missing cond is true; ``break`` skips the step."""
        before = node.init
        while self.condition(node, before):
            try:
                self.execute(node.body)
            except BreakSignal:
                break
            before = node.step

    def condition(self, node: ast.If | ast.While | ast.For, before: ast.Expr | None = None) -> int:
        """The header of an ``if``, ``while`` or ``for`` each time it is tested: ``before`` (a for's init
        the first time, its step after), then the condition (a for without one is true).  The one place
        a header runs, so that an observer (the tracer) sees it as one step."""
        if before is not None:
            self.eval(before)
        return 1 if node.cond is None else self.eval(node.cond)

    def visit_Break(self, node: ast.Break) -> None:
        """``break``: unwinds to the innermost while or for (:class:`BreakSignal`)."""
        raise BreakSignal()

    def visit_Return(self, node: ast.Return) -> None:
        """``return [expr]``: unwinds to the call with the value, 0 without one (section 4)."""
        raise ReturnSignal(0 if node.value is None else self.eval(node.value))

    def visit_ExprStmt(self, node: ast.ExprStmt) -> None:
        """An expression run for its effect; the value is dropped (section 5)."""
        self.eval(node.expr)

    def visit_Null(self, node: ast.Null) -> None:
        """``;`` alone: nothing (section 5)."""
        pass

    def visit_ErrorStmt(self, node: ast.ErrorStmt) -> None:
        """A statement that did not parse: what it had parsed runs, then its error (section 14 item 16)."""
        for item in node.prefix:
            if isinstance(item, ast.NameCheck):
                sym = self.lookup(item.name, item)
                if sym.kind != "func" and not sym.array:
                    raise TinyCError(ErrorCode.CLASERR, item.paren + 1)  # just after the ( (section 10.2)
            else:
                self.eval(item)
        raise TinyCError(node.code, node.address)

    def visit_Reparse(self, node: ast.Reparse) -> None:
        """Statements parsed assuming which of ``node.names`` are locals: as parsed when they are, else
        parsed again from their text with the locals of this moment (section 3, the lookup at run time;
        :mod:`tinyc.syntax.runtime_names`)."""
        assert self.frame is not None
        local = self.frame.locals
        while True:
            key = tuple(n in local for n in node.names)
            body = node.body
            if key != node.assumed:
                hit = self._reparsed.get((id(node), key))
                if hit is None or hit[0] is not node:
                    hit = self._reparsed[(id(node), key)] = (node, self._parse_again(node, set(local)))
                body = hit[1]
            try:
                for s in body:
                    self.execute(s)
                return
            except _Again as again:  # a while's body declared a name its condition uses: parse again
                if again.pos != node.pos:
                    raise

    def visit_Recheck(self, node: ast.Recheck) -> None:
        """The end of a while's body inside a :class:`~tinyc.ast.Reparse`: if the body made one of
        ``node.names`` a local (or the other way), the Reparse parses its text again from the while."""
        assert self.frame is not None
        local = self.frame.locals
        if tuple(n in local for n in node.names) != node.assumed:
            raise _Again(node.pos)

    def _parse_again(self, node: ast.Reparse, local: set[str]) -> list[ast.Stmt]:
        from ..syntax.lexer import Level
        from ..syntax.pipeline import reparse  # (Lark: only a program that needs it parses at run time)
        outer = [Level({sym.name: sym.kind == "func" for sym in table})
                 for table in (self.m.program, self.m.library) if table is not None]
        # a string's closing quote is a NUL once the string has run (section 2)
        text = bytes(self.mem.data[node.pos:node.end]).replace(b"\0", b'"').decode("latin-1")
        return reparse(text, outer, node.pos, local, node.dynamic)

    # ---- expressions (section 6)

    def eval(self, node: ast.Expr) -> int:
        """The value of an expression, an int wrapped to the machine's width."""
        value: int = self._visit[type(node)](self, node)
        return value

    def visit_Number(self, node: ast.Number) -> int:
        """A decimal constant, wrapped to the int width (section 2)."""
        return self.mem.wrap(node.value)

    def visit_CharLit(self, node: ast.CharLit) -> int:
        """``'c'``: the character's byte value, 0..255 (section 2)."""
        return node.value

    def visit_String(self, node: ast.String) -> int:
        """A pointer into the program text; the closing quote becomes the string's NUL (section 2)."""
        self.mem.data[node.pos + 1 + node.length] = 0
        return node.pos + 1

    def visit_Var(self, node: ast.Var) -> int:
        """A bare name: a scalar's value, an array's pointer, or a call without arguments (sections 3, 4).
        Error 26 (SYMERRA) at the name's end if no level declares it; 6 if the scalar lies outside memory."""
        sym = self.lookup(node.name, node)
        if sym.kind == "func":
            return self.call(sym, [], node)
        if sym.array:  # the pointer as an int (with 16-bit ints, -25536 for an array at 40000)
            return self.mem.wrap(sym.address)
        return self.load((sym.address, sym.type), node)

    def visit_Index(self, node: ast.Index) -> int:
        """``name(i)``: an array element's value (section 3); errors as for :meth:`lvalue`."""
        return self.load(self.lvalue(node), node)

    def visit_Call(self, node: ast.Call) -> int:
        """``f(a, b)`` or ``f a, b``: the arguments left to right, then the call (section 4).  Error 26
        (SYMERRA) after the name if it is undeclared or not a function, 21 (ARGSERR) for a wrong count."""
        sym = self.lookup(node.name, node, node.name_end)
        args = [self.eval(a) for a in node.args]
        if sym.kind != "func":
            raise TinyCError(ErrorCode.SYMERRA, node.name_end)
        return self.call(sym, args, node)

    def visit_MachineCall(self, node: ast.MachineCall) -> int:
        """``MC a, ..., n``: the arguments left to right, then machine call n through the machine's table
        (section 8).  Error 6 (RANGERR) at its end when it reaches outside memory; 24 for an unknown n."""
        return self.machine_call([self.eval(a) for a in node.args], node)

    def machine_call(self, values: list[int], node: ast.MachineCall) -> int:
        """Machine call ``values[-1]`` with the arguments ``values[:-1]`` (32-bit words), through the
        machine's table; the one place a call is made, so an observer (the stepper) can see its arguments.
        Raises TinyCError 6 at the call's end when it reaches outside memory."""
        if self.observer is not None:
            self.observer.machine_call(values)
        try:
            return self.m.machine_call(self.m, values, node)
        except MemoryFault:
            raise TinyCError(ErrorCode.RANGERR, node.end) from None

    def visit_Assign(self, node: ast.Assign) -> int:
        """``target = value``: the place first, then the value; gives the value stored (section 6.1).
        Error 14 (LVALERR) when the target is not a place (see :meth:`lvalue`)."""
        ref = self.lvalue(node.target)
        return self.store(ref, self.eval(node.value), node)

    def visit_BinOp(self, node: ast.BinOp) -> int:
        """``left op right``: both operands, left first, never short-circuited (section 6); see :func:`binary`."""
        a = self.eval(node.left)
        b = self.eval(node.right)
        return binary(self.mem.wrap, node.op, a, b, node.end)

    def visit_Unary(self, node: ast.Unary) -> int:
        """``-x``, ``+x``, ``!x`` (0 or 1), or ``++x``/``--x`` on a place, giving the new value (section 6.2)."""
        op = node.op
        if op in ("++", "--"):
            ref = self.lvalue(node.operand)
            value = self.load(ref, node) + (1 if op == "++" else -1)
            return self.store(ref, value, node)
        value = self.eval(node.operand)
        if op == "-":
            return self.mem.wrap(-value)
        if op == "!":
            return int(value == 0)
        return value

    # ---- lvalues: (address, type) for a scalar or element, a Symbol for an array name

    def lvalue(self, node: ast.Expr) -> Place:
        """Where an assignment or ``++``/``--`` stores: ``(address, type)`` of a scalar or an element
        (error 6 out of range, 7 subscripting a scalar), or the :class:`Symbol` of an array name
        (whose pointer is assigned).  Error 14 (LVALERR) for a function or any other expression."""
        if isinstance(node, ast.Var):
            sym = self.lookup(node.name, node)
            if sym.kind == "func":
                raise TinyCError(ErrorCode.LVALERR, node.end)
            return sym if sym.array else (sym.address, sym.type)
        if isinstance(node, ast.Index):
            sym = self.lookup(node.name, node, node.name_end)
            if sym.kind == "func":  # a call's value is not a place to store into
                raise TinyCError(ErrorCode.LVALERR, node.end)
            if not sym.array:
                raise TinyCError(ErrorCode.CLASERR, node.paren)
            i = self.eval(node.index)
            if sym.length > 1 and not 0 <= i < sym.length:
                raise TinyCError(ErrorCode.RANGERR, node.end)
            return (sym.address + i * self.mem.sizeof(sym.type), sym.type)
        self.eval(node)
        raise TinyCError(ErrorCode.LVALERR, node.end)

    def load(self, ref: Place, node: ast.Node) -> int:
        """The value at ``ref`` (an array name: its pointer); error 6 at ``node``'s end outside memory."""
        if isinstance(ref, Symbol):
            return self.mem.wrap(ref.address)
        try:
            return self.mem.read(*ref)
        except MemoryFault:
            raise TinyCError(ErrorCode.RANGERR, node.end) from None

    def store(self, ref: Place, value: int, node: ast.Node) -> int:
        """Store ``value`` at ``ref`` and give the value stored (wrapped to its type); an array name's
        pointer takes the value as an address.  Error 6 at ``node``'s end outside memory."""
        if isinstance(ref, Symbol):  # a pointer holds an address (section 14 item 21), its value is an int
            if self.observer is not None:
                self.observer.moved(ref)
            ref.address = self.mem.address(self.mem.wrap(value))
            return self.mem.wrap(ref.address)
        try:
            return self.mem.write(ref[0], ref[1], value)
        except MemoryFault:
            raise TinyCError(ErrorCode.RANGERR, node.end) from None

    # ---- calls (section 4)

    def call(self, sym: Symbol, args: list[int], node: ast.Node) -> int:
        """Call a tiny-c function: bind parameters in a new frame, run the body, free the locals.  (An
        observer wraps this method of its evaluator, so that a plain run pays nothing for the hook.)"""
        fn = sym.function
        assert fn is not None  # only "func" symbols are called, and each holds its AST
        if fn.error is not None:  # a header that did not parse, or no body: found as the call enters
            raise TinyCError(fn.error.code, fn.error.address)
        params = fn.parameters()
        if len(args) != len(params):
            raise TinyCError(ErrorCode.ARGSERR, node.after if isinstance(node, ast.Call) else node.end)
        if self.depth >= self.m.max_depth:
            raise TinyCError(ErrorCode.TMFUERR, node.end)
        frame = Frame(fn, mark=self.m.top)
        for (type_, d), value in zip(params, args):
            frame.declare(self.bind(type_, d, value, frame))
        saved = self.frame
        self.frame = frame
        self.depth += 1
        try:
            if self.observer is not None:
                self.observer.entered(fn)
            self.visit_Block(fn.body)
            return 0
        except ReturnSignal as r:
            return r.value
        except BreakSignal:
            return 0
        finally:
            self.frame = saved
            self.depth -= 1
            self.m.top = frame.mark

    def shown(self, value: Any) -> int:
        """An argument or result as a tool shows it: the int itself (a dialect that passes references
        reads one here)."""
        return int(value)

    def bind(self, type_: str, d: ast.Declarator, value: int, frame: Frame) -> Symbol:
        """One parameter: a scalar gets a copy; an array adopts the passed address (a 0 gets fresh space)."""
        if d.size is None:
            addr = self.m.allocate(type_, 1, d.end)
            self.mem.write(addr, type_, value)
            return Symbol(d.name, "var", type_, False, addr)
        saved, self.frame = self.frame, frame
        try:
            length = self.eval(d.size) + 1
        finally:
            self.frame = saved
        value = self.mem.address(value)  # the int passed is read as an address (section 14 item 21)
        if value == 0:
            value = self.m.allocate(type_, max(length, 0), d.end)
        return Symbol(d.name, "var", type_, True, value, length)


def binary(wrap: Callable[[int], int], op: str, a: int, b: int, at: int) -> int:
    """One binary operator on ints (section 6, section 14 items 1-2): ``wrap`` (the memory's) brings an
    arithmetic result into the int range; a relational operator gives 0 or 1.  Raises TinyCError 30
    (DIVERR) at ``at`` for a division or remainder by zero."""
    if op == "+":
        return wrap(a + b)
    if op == "-":
        return wrap(a - b)
    if op == "*":
        return wrap(a * b)
    if op == "/":
        return wrap(c_div(a, b, at))
    if op == "%":
        return wrap(c_mod(a, b, at))
    if op == "<":
        return int(a < b)
    if op == "<=":
        return int(a <= b)
    if op == ">":
        return int(a > b)
    if op == ">=":
        return int(a >= b)
    if op == "==":
        return int(a == b)
    return int(a != b)


Evaluator._visit = ast.visitors(Evaluator)
