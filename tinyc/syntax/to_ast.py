"""The AST pass: a Lark ``Transformer`` that builds the typed nodes of :mod:`tinyc.ast` from a parse tree.

Every node keeps the absolute addresses of its source (the text's base address plus the offset), and
statements that did not parse arrive as ``ERRSTMT`` tokens (:mod:`tinyc.syntax.recovery`) and become
:class:`ast.ErrorStmt` nodes.  :func:`build` runs it on one tree, with the errors a tree too deep to
build gives; the pipeline (:mod:`tinyc.syntax.pipeline`) calls it.  The dialect's front end
(:mod:`tinyc.dialects.gibson.syntax`) subclasses :class:`ToAST`.
"""

from __future__ import annotations

from typing import Any, TypeAlias, TypeVar, cast

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import VisitError
from lark.tree import Meta

from .. import ast
from ..errors import ErrorCode, TinyCError
from .lexer import canonical
from .parser import nesting_limit
from .positions import end_of, start_of
from .recovery import PrefixValue

# What Lark hands a callback: the values its children became, tokens and the nodes built below them
# (Lark types them Any: which is which depends on the grammar rule, not on anything mypy can see).
_Children: TypeAlias = list[Any]


def read_number(digits: str) -> int:
    """A decimal literal as the original read it, digit by digit with wrap-around (section 2): the
    value modulo 2**32, which the engines wrap again to the int width (2**16 divides 2**32)."""
    if len(digits) < 1000:
        return int(digits) & 0xFFFFFFFF
    value = 0
    for c in digits:
        value = (value * 10 + ord(c) - 48) & 0xFFFFFFFF
    return value


def _tail(s: ast.Node) -> list[tuple[ast.If | ast.While, str]] | None:
    """The path (node, field) from ``s`` down its last branch to a simple statement, or None when that
    branch is a block, a for, or ``s`` has no branch."""
    if isinstance(s, ast.If):
        field = "orelse" if s.orelse is not None else "then"
    elif isinstance(s, ast.While):
        field = "body"
    else:
        return None
    branch = getattr(s, field)
    if isinstance(branch, (ast.Block, ast.For)):
        return None
    if isinstance(branch, (ast.If, ast.While)):
        rest = _tail(branch)
        return None if rest is None else [(s, field)] + rest
    return [(s, field)]


def header_paren(children: _Children) -> Token | None:
    """The ``(`` of ``name()`` in a function definition's header, if it has one."""
    return next((c for c in children if isinstance(c, Token) and c.type == "CALLPAREN"), None)


def _strip(children: _Children) -> _Children:
    """Children without the punctuation tokens that the grammar names only to retype them."""
    return [c for c in children if not (isinstance(c, Token) and c.type in ("CALLPAREN", "CPAREN"))]


@v_args(meta=True)
class ToAST(Transformer[Token, ast.Node]):
    """Lark tree to ``tinyc.ast`` nodes; every node keeps the absolute addresses of its source."""

    canonical = staticmethod(canonical)  # a name's significant form (a dialect may keep more characters)

    def __init__(self, base: int, text: str = "", prefixes: list[list[PrefixValue]] | None = None) -> None:
        super().__init__()
        self.base = base
        self.text = text
        self.prefixes = prefixes or []

    def _after(self, meta: Meta) -> int:
        """The offset past the blanks, line ends and comments that follow a node: the original skipped
        them after a call's arguments before it entered the function (the cursor of error 21)."""
        text, at = self.text, (meta.end_pos if not meta.empty else 0)
        while at < len(text):
            if text[at] in " \t\f\r\n\x1a":
                at += 1
            elif text.startswith("/*", at):
                nl = text.find("\n", at)
                at = len(text) if nl < 0 else nl
            else:
                break
        return at

    def _pos(self, meta: Meta) -> tuple[int, int]:
        return (self.base + meta.start_pos, self.base + meta.end_pos) if not meta.empty else (self.base, self.base)

    def program(self, meta: Meta, items: _Children) -> ast.Program:
        out: list[ast.Decl | ast.Block | ast.Function | ast.EndLibrary] = []
        for item in items:
            if isinstance(item, Token):
                if item.type == "ENDLIBRARY":
                    out.append(ast.EndLibrary(self.base + start_of(item), self.base + end_of(item)))
            else:
                out.append(item)
        return ast.Program(*self._pos(meta), items=out)

    def statements(self, meta: Meta, stmts: _Children) -> ast.Block:
        return ast.Block(*self._pos(meta), body=self._attach([s for s in stmts if s is not None]))

    def funcdef(self, meta: Meta, ch: _Children) -> ast.Function:
        paren = header_paren(ch)
        ch = _strip(ch)
        name = ch[0]
        if paren is not None:
            return self._paren_function(meta, name, paren)
        return ast.Function(*self._pos(meta), name=name, params=ch[1:-1], body=ch[-1])

    def _paren_function(self, meta: Meta, name: str, paren: Token) -> ast.Function:
        """``foo() [...]``: not a definition in either original.  The linker takes ``foo`` as a function
        whose text starts at the ``(``; a call reads no parameters there and runs the statement ``()``,
        which stops with error 9 after its ``(`` (tc.asm ENTER; Gibson's tc.c ``_enter``)."""
        at = self.base + end_of(paren)
        err = ast.ErrorStmt(at, at, code=int(ErrorCode.SYNXERR), address=at, prefix=[])
        pos, end = self._pos(meta)
        return ast.Function(pos, end, name=name, params=[], body=ast.Block(end, end, body=[]), error=err)

    def fname(self, meta: Meta, ch: _Children) -> str:
        return self.canonical(ch[0].value)

    def block(self, meta: Meta, stmts: _Children) -> ast.Block:
        return ast.Block(*self._pos(meta), body=self._attach(list(stmts)))

    # ---- what a false condition skips (section 14 item 16; the skipping rules of the 1977 design)

    def _attach(self, stmts: list[ast.Stmt]) -> list[ast.Stmt]:
        """Statements that follow an if's or while's simple branch on its line belong to that branch.

        The original skipped a branch that does not run textually: a simple statement (not ``[``,
        ``if``, ``while``, ``for``) up to the first ``;`` or line end.  So in ``if c x=1 y=2`` the
        ``y=2`` runs only when ``c`` is true (after ``x=1``), and in ``if 0 nosuch "x",1`` nothing is
        looked at.  A while re-tests its condition after its branch, so what follows on the line never
        runs."""
        out: list[ast.Stmt] = []
        i = 0
        while i < len(stmts):
            s = stmts[i]
            i += 1
            path = _tail(s)
            if path:
                node, field = path[-1]
                last = getattr(node, field)
                taken: list[ast.Stmt] = []
                while i < len(stmts) and self._same_line(last, stmts[i]):
                    last = stmts[i]
                    taken.append(last)
                    i += 1
                if taken and not any(isinstance(n, ast.While) for n, _ in path):
                    branch = getattr(node, field)
                    setattr(node, field, ast.Block(branch.pos, last.end, body=[branch, *taken]))
            self._swallow(s)
            out.append(s)
        return out

    def _swallow(self, s: ast.Stmt | None) -> None:
        """Drop the ``else`` that a false condition's skip takes with a simple ``then`` branch.

        Both originals skip an untaken simple statement to the first ``;`` or line end (tc.asm SKIPST,
        label SS3; Gibson's tc.c ``_skipSt``) and only then look for ``else``.  So in
        ``if (1==2) q=0 else q=1`` the else and its statement are skipped with the ``q=0``: the else
        branch never runs (when the condition is true it is skipped as usual).  Only an else branch that
        ends before that ``;`` or line end is dropped; one that runs on past it (a ``[`` block over
        several lines) is kept, as the original's resuming inside it is not followed."""
        while isinstance(s, (ast.If, ast.While)):
            if isinstance(s, ast.While):
                s = s.body
                continue
            orelse = s.orelse
            if orelse is not None and not isinstance(s.then, (ast.Block, ast.If, ast.While, ast.For)):
                skipped = self.text[s.then.pos - self.base:orelse.end - self.base]
                if not any(c in skipped[:-1] for c in ";\r\n"):
                    s.orelse = ast.Block(orelse.pos, orelse.end, body=[])
                    return
            if isinstance(s.then, (ast.If, ast.While)):
                self._swallow(s.then)
            s = orelse

    def _same_line(self, before: ast.Node, after: ast.Node) -> bool:
        gap = self.text[before.end - self.base:after.pos - self.base]
        ends = self.text[before.end - self.base - 1:before.end - self.base]
        return "\n" not in gap and ends != ";"

    def decl(self, meta: Meta, ch: _Children) -> ast.Decl:
        return ast.Decl(*self._pos(meta), type=ch[0].value, names=ch[1:])

    def declarator(self, meta: Meta, ch: _Children) -> ast.Declarator:
        return ast.Declarator(*self._pos(meta), name=self.canonical(ch[0].value), size=None)

    def array_declarator(self, meta: Meta, ch: _Children) -> ast.Declarator:
        return ast.Declarator(*self._pos(meta), name=self.canonical(ch[0].value), size=ch[1])

    def if_stmt(self, meta: Meta, ch: _Children) -> ast.If:
        cond, then = ch[1], ch[2]
        orelse = ch[4] if len(ch) > 4 else None
        return ast.If(*self._pos(meta), cond=cond, then=then, orelse=orelse)

    def while_stmt(self, meta: Meta, ch: _Children) -> ast.While:
        return ast.While(*self._pos(meta), cond=ch[1], body=ch[2])

    def for_stmt(self, meta: Meta, ch: _Children) -> ast.For:
        return ast.For(*self._pos(meta), init=ch[1], cond=ch[2], step=ch[3], body=ch[4])

    def opt_expr(self, meta: Meta, ch: _Children) -> ast.Expr | None:
        return ch[0] if ch else None

    def cond(self, meta: Meta, ch: _Children) -> ast.Expr:
        expr: ast.Expr = _strip(ch)[0]
        return expr

    def break_stmt(self, meta: Meta, ch: _Children) -> ast.Break:
        return ast.Break(*self._pos(meta))

    def return_stmt(self, meta: Meta, ch: _Children) -> ast.Return:
        return ast.Return(*self._pos(meta), value=ch[1])

    def return_void(self, meta: Meta, ch: _Children) -> ast.Return:
        return ast.Return(*self._pos(meta), value=None)

    def expr_stmt(self, meta: Meta, ch: _Children) -> ast.ExprStmt:
        return ast.ExprStmt(*self._pos(meta), expr=ch[0])

    def null_stmt(self, meta: Meta, ch: _Children) -> ast.Null:
        return ast.Null(*self._pos(meta))

    def error_stmt(self, meta: Meta, ch: _Children) -> ast.ErrorStmt:
        code, address, k = ch[0].value.split(":")
        prefix = self._prefix(self.prefixes[int(k)]) if self.prefixes else []
        return ast.ErrorStmt(*self._pos(meta), code=int(code), address=int(address), prefix=prefix)

    def _prefix(self, values: list[PrefixValue]) -> list[ast.Expr | ast.NameCheck]:
        """What a failed statement had parsed, as the engines evaluate it before the error: complete
        operands (expressions) and the names still waiting for their ``(`` (see tinyc.syntax.recovery)."""
        out: list[ast.Expr | ast.NameCheck] = []
        declaring = any(isinstance(v, Token) and v.type in ("INT", "CHAR") for v in values)

        def add(items: list[PrefixValue]) -> None:
            for j, v in enumerate(items):
                if isinstance(v, Tree):
                    r = self.transform(v)
                    if isinstance(r, ast.Expr):
                        out.append(r)
                    elif isinstance(r, Tree):
                        add(r.children)
                    elif isinstance(r, list):
                        add(r)
                elif isinstance(v, ast.Expr):
                    out.append(v)
                elif isinstance(v, list):
                    add(v)
                elif isinstance(v, Token) and v.type == "NAME" and not declaring:
                    nxt = items[j + 1] if j + 1 < len(items) else None
                    if isinstance(nxt, Token) and nxt.type == "LPAR":
                        out.append(ast.NameCheck(self.base + start_of(v), self.base + end_of(v),
                                                 name=self.canonical(v.value), paren=self.base + start_of(nxt)))
        add(values)
        return out

    def assign(self, meta: Meta, ch: _Children) -> ast.Assign:
        return ast.Assign(*self._pos(meta), target=ch[0], value=ch[1])

    def binop(self, meta: Meta, ch: _Children) -> ast.BinOp:
        return ast.BinOp(*self._pos(meta), op=ch[1].value, left=ch[0], right=ch[2])

    def not_(self, meta: Meta, ch: _Children) -> ast.Unary:
        return ast.Unary(*self._pos(meta), op="!", operand=ch[0])

    def sign(self, meta: Meta, ch: _Children) -> ast.Unary:
        return ast.Unary(*self._pos(meta), op=ch[0].value, operand=ch[1])

    def preinc(self, meta: Meta, ch: _Children) -> ast.Unary:
        return ast.Unary(*self._pos(meta), op=ch[0].value, operand=ch[1])

    def number(self, meta: Meta, ch: _Children) -> ast.Number:
        return ast.Number(*self._pos(meta), value=read_number(ch[0].value))

    def charlit(self, meta: Meta, ch: _Children) -> ast.CharLit:
        """A character constant is a signed byte, like every char read into an expression (14 item 20)."""
        body = ch[0].value[1:-1]
        code = ord(body[0]) if body else ord("'")
        return ast.CharLit(*self._pos(meta), value=code - 256 if code > 127 else code)

    def string(self, meta: Meta, ch: _Children) -> ast.String:
        return ast.String(*self._pos(meta), length=len(ch[0].value) - 2)

    def var(self, meta: Meta, ch: _Children) -> ast.Var:
        return ast.Var(*self._pos(meta), name=self.canonical(ch[0].value))

    def index(self, meta: Meta, ch: _Children) -> ast.Index:
        k = self.text.find("(", ch[0].end_pos)  # only blanks lie between the name and its (
        return ast.Index(*self._pos(meta), name=self.canonical(ch[0].value), index=ch[1],
                         name_end=self.base + ch[0].end_pos, paren=self.base + k + 1 if k >= 0 else 0)

    def call(self, meta: Meta, ch: _Children) -> ast.Call:
        ch = [c for c in ch if not (isinstance(c, Token) and c.type == "RPAR")]
        args = ch[1] if len(ch) > 1 else []
        return ast.Call(*self._pos(meta), name=self.canonical(ch[0].value), args=args,
                        name_end=self.base + ch[0].end_pos, after=self.base + self._after(meta))

    def args(self, meta: Meta, ch: _Children) -> list[ast.Expr]:
        return _strip(ch)

    def mc(self, meta: Meta, ch: _Children) -> ast.MachineCall:
        return ast.MachineCall(*self._pos(meta), args=ch[1])


def _deepest(tree: Tree[Token]) -> int:
    """The offset of the deepest subtree of ``tree`` (found without recursion): where an expression
    nests too deeply to build, the place error 16 points at (not the start of the function)."""
    best, best_depth = (tree.meta.start_pos if not tree.meta.empty else 0), -1
    stack: list[tuple[Tree[Token], int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > best_depth and not node.meta.empty:
            best, best_depth = node.meta.start_pos, depth
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return best


_Node = TypeVar("_Node", bound=ast.Node)


def build(tree: Tree[Token], kind: type[_Node], base: int, text: str = "",
          prefixes: list[list[PrefixValue]] | None = None) -> _Node:
    """The AST of ``tree`` (parsed from ``text``, at address ``base``; ``prefixes`` from the recovery): a
    node of class ``kind``, what the grammar's start rule builds (named for the type checker: the
    transformer's result is not checked).  Raises TinyCError 16 at the deepest subtree when the tree is
    too deep to build, or the error a literal gives that the grammar accepts and the AST rejects."""
    try:
        with nesting_limit():
            return cast(_Node, ToAST(base, text, prefixes).transform(tree))
    except RecursionError:
        raise TinyCError(ErrorCode.PUSHERR, base + _deepest(tree)) from None
    except VisitError as e:  # a literal the grammar accepts but the AST rejects
        if isinstance(e.orig_exc, RecursionError):
            raise TinyCError(ErrorCode.PUSHERR, base + _deepest(tree)) from None
        if isinstance(e.orig_exc, TinyCError):
            raise TinyCError(e.orig_exc.code, base + e.orig_exc.address) from None
        raise
