"""The reference evaluator: a tree-walking interpreter over the AST that reads like the reference.

Each ``exec_*`` method is one statement of section 5 and each ``eval_*`` one expression form of
section 6.  Names are looked up when they run, through the three symbol levels of section 3.  The
fast engine (a separate module) runs the same linked program through the same :class:`Engine`
interface and must agree with this one byte for byte.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

from .. import ast
from ..errors import ErrorCode, TinyCError, MemoryFault
from ..link.linker import declare
from ..link.symbols import Frame, Symbol

if TYPE_CHECKING:
    from ..machine.port import MachinePort as Machine


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
    """Runs statements and calls of a linked program on a :class:`~tinyc.interpreter.Machine`.

    The engine interface: ``run(stmts)`` executes top-level statements in a fresh frame,
    ``evaluate_constant(expr)`` gives an array bound when globals are linked.  Errors are raised as
    TinyCError with the absolute byte address of the error cursor.
    """

    name = "reference"

    def __init__(self, machine: Machine):
        self.m = machine
        self.mem = machine.memory
        self.frame: Frame | None = None
        self._reparsed: dict[tuple[int, tuple[bool, ...]], tuple[ast.Reparse, list[ast.Stmt]]] = {}
        self.depth = 0
        self.cursor = 0
        self._exec = {t: getattr(self, "exec_" + t.__name__.lower()) for t in
                      (ast.Decl, ast.Block, ast.If, ast.While, ast.For, ast.Break, ast.Return,
                       ast.ExprStmt, ast.Null, ast.ErrorStmt, ast.Reparse, ast.Recheck)}
        self._eval = {t: getattr(self, "eval_" + t.__name__.lower()) for t in
                      (ast.Number, ast.CharLit, ast.String, ast.Var, ast.Index, ast.Call,
                       ast.MachineCall, ast.Assign, ast.BinOp, ast.Unary)}

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
        self.cursor = node.pos
        self._exec[type(node)](node)

    def exec_decl(self, node: ast.Decl) -> None:
        frame = self.frame
        assert frame is not None  # statements run in a call's frame, or in the frame run() makes
        for d in node.names:
            frame.declared += 1
            if frame.declared > MAX_LOCALS:
                raise TinyCError(ErrorCode.TMVRERR, d.end)
            frame.declare(declare(node.type, d, self.m.allocate, self.eval))

    def exec_block(self, node: ast.Block) -> None:
        for s in node.body:
            self.execute(s)

    def exec_if(self, node: ast.If) -> None:
        if self.eval(node.cond):
            self.execute(node.then)
        elif node.orelse is not None:
            self.execute(node.orelse)

    def exec_while(self, node: ast.While) -> None:
        while self.eval(node.cond):
            try:
                self.execute(node.body)
            except BreakSignal:
                break

    def exec_for(self, node: ast.For) -> None:
        if node.init is not None:
            self.eval(node.init)
        while node.cond is None or self.eval(node.cond):
            try:
                self.execute(node.body)
            except BreakSignal:
                break
            if node.step is not None:
                self.eval(node.step)

    def exec_break(self, node: ast.Break) -> None:
        raise BreakSignal()

    def exec_return(self, node: ast.Return) -> None:
        raise ReturnSignal(0 if node.value is None else self.eval(node.value))

    def exec_exprstmt(self, node: ast.ExprStmt) -> None:
        self.eval(node.expr)

    def exec_null(self, node: ast.Null) -> None:
        pass

    def exec_errorstmt(self, node: ast.ErrorStmt) -> None:
        """A statement that did not parse: what it had parsed runs, then its error (section 14 item 16)."""
        for item in node.prefix:
            if isinstance(item, ast.NameCheck):
                sym = self.lookup(item.name, item)
                if sym.kind != "func" and not sym.array:
                    raise TinyCError(ErrorCode.CLASERR, item.paren + 1)  # just after the ( (section 10.2)
            else:
                self.eval(item)
        raise TinyCError(node.code, node.address)

    def exec_reparse(self, node: ast.Reparse) -> None:
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

    def exec_recheck(self, node: ast.Recheck) -> None:
        assert self.frame is not None
        local = self.frame.locals
        if tuple(n in local for n in node.names) != node.assumed:
            raise _Again(node.pos)

    def _parse_again(self, node: ast.Reparse, local: set[str]) -> list[ast.Stmt]:
        from ..syntax.lexer import Level
        from ..syntax.parser import reparse  # (Lark: only a program that needs it parses at run time)
        outer = [Level({sym.name: sym.kind == "func" for sym in table})
                 for table in (self.m.program, self.m.library) if table is not None]
        # a string's closing quote is a NUL once the string has run (section 2)
        text = bytes(self.mem.data[node.pos:node.end]).replace(b"\0", b'"').decode("latin-1")
        return reparse(text, outer, node.pos, local, node.dynamic)

    # ---- expressions (section 6)

    def eval(self, node: ast.Expr) -> int:
        return self._eval[type(node)](node)

    def eval_number(self, node: ast.Number) -> int:
        return self.mem.wrap(node.value)

    def eval_charlit(self, node: ast.CharLit) -> int:
        return node.value

    def eval_string(self, node: ast.String) -> int:
        """A pointer into the program text; the closing quote becomes the string's NUL (section 2)."""
        self.mem.data[node.pos + 1 + node.length] = 0
        return node.pos + 1

    def eval_var(self, node: ast.Var) -> int:
        sym = self.lookup(node.name, node)
        if sym.kind == "func":
            return self.call(sym, [], node)
        if sym.array:  # the pointer as an int (with 16-bit ints, -25536 for an array at 40000)
            return self.mem.wrap(sym.address)
        return self.load((sym.address, sym.type), node)

    def eval_index(self, node: ast.Index) -> int:
        return self.load(self.lvalue(node), node)

    def eval_call(self, node: ast.Call) -> int:
        sym = self.lookup(node.name, node, node.name_end)
        args = [self.eval(a) for a in node.args]
        if sym.kind != "func":
            raise TinyCError(ErrorCode.SYMERRA, node.name_end)
        return self.call(sym, args, node)

    def eval_machinecall(self, node: ast.MachineCall) -> int:
        values = [self.eval(a) for a in node.args]
        try:
            return self.m.machine_call(self.m, values, node)
        except MemoryFault:
            raise TinyCError(ErrorCode.RANGERR, node.end) from None

    def eval_assign(self, node: ast.Assign) -> int:
        ref = self.lvalue(node.target)
        return self.store(ref, self.eval(node.value), node)

    def eval_binop(self, node: ast.BinOp) -> int:
        a = self.eval(node.left)
        b = self.eval(node.right)
        return binary(self.mem.wrap, node.op, a, b, node.end)

    def eval_unary(self, node: ast.Unary) -> int:
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

    def lvalue(self, node: ast.Expr) -> tuple[int, str] | Symbol:
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

    def load(self, ref, node: ast.Node) -> int:
        if isinstance(ref, Symbol):
            return self.mem.wrap(ref.address)
        try:
            return self.mem.read(*ref)
        except MemoryFault:
            raise TinyCError(ErrorCode.RANGERR, node.end) from None

    def store(self, ref, value: int, node: ast.Node) -> int:
        if isinstance(ref, Symbol):  # a pointer holds an address (section 14 item 21), its value is an int
            ref.address = self.mem.address(self.mem.wrap(value))
            return self.mem.wrap(ref.address)
        try:
            return self.mem.write(ref[0], ref[1], value)
        except MemoryFault:
            raise TinyCError(ErrorCode.RANGERR, node.end) from None

    # ---- calls (section 4)

    def call(self, sym: Symbol, args: list[int], node: ast.Node) -> int:
        """Call a tiny-c function: bind parameters in a new frame, run the body, free the locals."""
        fn = sym.function
        assert fn is not None  # only "func" symbols are called, and each holds its AST
        if fn.error is not None:  # a header that did not parse, or no body: found as the call enters
            raise TinyCError(fn.error.code, fn.error.address)
        params = [(decl.type, d) for decl in fn.params for d in decl.names]
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
            self.exec_block(fn.body)
            return 0
        except ReturnSignal as r:
            return r.value
        except BreakSignal:
            return 0
        finally:
            self.frame = saved
            self.depth -= 1
            self.m.top = frame.mark

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


def binary(wrap, op: str, a: int, b: int, at: int) -> int:
    """One binary operator on ints (section 6, section 14 items 1-2); ``at`` is the cursor for error 30."""
    if op == "+":
        return wrap(a + b)
    if op == "-":
        return wrap(a - b)
    if op == "*":
        return wrap(a * b)
    if op in ("/", "%"):
        if b == 0:
            raise TinyCError(ErrorCode.DIVERR, at)
        q = abs(a) // abs(b)
        if (a < 0) != (b < 0):
            q = -q
        return wrap(q) if op == "/" else wrap(a - q * b)
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
