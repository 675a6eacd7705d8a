"""Parser: classified tokens to a Lark parse tree (LALR), then to the typed AST of ``tinyc.ast``.

Entry points: :func:`parse_tree` (the Lark tree, for ``tinyc parse``), :func:`parse_program` (a whole
text: functions, declarations, blocks) and :func:`parse_statements` (a typed statement, as MC 11 runs).

The original parsed a statement only when it ran (reference section 14 item 16), so a statement that
does not parse is not an error here: :func:`parse_program` follows the linker's scan of the top level
(:mod:`tinyc.toplevel`), parses each function on its own, and the parser recovers at the statement
that failed, putting an :class:`ast.ErrorStmt` in its place that raises the error when it runs.  Only
what the original's linker found (an unbalanced ``[``, junk at top level, a global declaration that
does not parse) is a :class:`TinyCError` at load time.
"""

from __future__ import annotations

import gc
import sys
from contextlib import contextmanager
from functools import lru_cache
from types import FrameType

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import Lexer

from .. import ast
from ..errors import ErrorCode, TinyCError
from .lexer import GRAMMAR, Level, canonical, classify, lark_cache, scan_levels, tokenize
from .positions import end_of, start_of
from .recovery import parse_recovering
from .toplevel import scan


class _TokenList(Lexer):
    """Hands the parser the token list that :func:`tinyc.lexer.classify` prepared."""

    __future_interface__ = 2

    def __init__(self, conf):
        pass

    def lex(self, lexer_state, parser_state):
        return iter(lexer_state.text)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR, parser="lalr", lexer=_TokenList, start=["program", "statements", "funcdef", "decl"],
                propagate_positions=True, maybe_placeholders=False, cache=lark_cache("parser", GRAMMAR))


def prepare(text: str, outer: list[Level] | None = None, base: int = 0,
            program: Level | None = None) -> tuple[list[Token], list[Level]]:
    """Tokenize and classify ``text``.  Returns the tokens and the symbol levels used for names.

    A program's own top-level names are searched first, then ``outer`` (the library).  A text that
    holds ``endlibrary`` (an IPL, a system file) supplies both levels: the names after it are the
    program level (or ``program``, when a library is linked with another program), then the names
    before it, the library level.
    """
    tokens = tokenize(text, base)
    levels = _levels(tokens, text, outer, program)
    return classify(tokens, levels), levels


def _levels(tokens, text, outer, program) -> list[Level]:
    first, after = scan_levels(tokens, text)
    outer = list(outer or [])
    if after is not None:
        return [program if program is not None else after, first] + outer
    return [first] + outer


def parse_tree(tokens: list[Token], start: str = "program", base: int = 0, text: str = "") -> Tree:
    """The Lark parse tree of classified ``tokens``; raises TinyCError on the first syntax error.

    ``text`` (the source) lets the error cursor sit where the original would detect the error: after
    the last token that parsed and the blanks that follow it on its line."""
    _check_nesting(tokens, base)
    try:
        with _nesting_limit():
            return _parser().parse(tokens, start=start)
    except UnexpectedInput as e:
        raise _syntax_error(e, tokens, base, text) from None
    except RecursionError:
        raise TinyCError(ErrorCode.PUSHERR, base) from None


def parse_program(text: str, outer: list[Level] | None = None, base: int = 0,
                  program: Level | None = None, startup: bool = False) -> ast.Program:
    """Parse a whole program text to an :class:`ast.Program` (reference sections 4, 14 items 16, 18).

    Node positions are absolute: ``base`` (the text's address in memory) plus the offset in ``text``.
    Top-level blocks are skipped unparsed, except with ``startup`` the first one: the statement a
    system file (IPL) starts with.  Raises TinyCError for what the linker finds: error 2, 20, or an error in a global
    declaration.
    """
    with _gc_paused():
        return _parse_program(text, outer, base, program, startup)


@contextmanager
def _gc_paused():
    """Python's cyclic collector paused while a parse builds its many small objects (it made parsing
    large programs slower as they grew)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _parse_program(text: str, outer: list[Level] | None, base: int, program: Level | None,
                   startup: bool) -> ast.Program:
    tokens = tokenize(text, base, tolerant=True)
    levels = _levels(tokens, text, outer, program)
    items: list = []
    for item in scan(tokens, text, base):
        raw = tokens[item.start:item.end]
        if item.kind == "endlibrary":
            t = tokens[item.start]
            items.append(ast.EndLibrary(base + start_of(t), base + end_of(t)))
        elif item.kind == "decl":
            tree = parse_tree(classify(raw, levels), "decl", base, text)
            items.append(_to_ast(tree, base, text))
        elif item.kind == "block" and startup:
            startup = False
            items.append(_block(raw, levels, base, text))
        elif item.kind == "func":
            items.append(parse_function(raw, levels, base, text, item.body))
    sig = [t for t in tokens if t.type not in ("WS", "COMMENT", "NEWLINE")]
    span = (base + start_of(sig[0]), base + end_of(sig[-1])) if sig else (base, base)
    return ast.Program(*span, items=items)


def _block(raw: list[Token], levels: list[Level], base: int, text: str) -> ast.Block:
    """A system file's start-up block ``[ ... ]``, its statements recovering from syntax errors."""
    inner = classify(raw, levels)[1:-1]
    first, last = raw[0], raw[-1]
    stmts = _statements(inner, levels, base, text) if inner else []
    return ast.Block(base + start_of(first), base + end_of(last), body=stmts)


def parse_function(raw: list[Token], levels: list[Level], base: int, text: str,
                   body: bool = True) -> ast.Function:
    """One function definition (its raw tokens: name, parameters, body) with statement-level recovery.

    A header that does not parse, or a name with no body, gives a Function whose ``error`` is raised
    when it is called."""
    name = tokens_name = raw[0]
    fname = canonical(tokens_name.value)
    start, end = base + start_of(name), base + end_of(raw[-1])
    if not body:
        at = base + len(text.rstrip("\n"))
        err = ast.ErrorStmt(at, at, int(ErrorCode.LBRCERR), at)
        return ast.Function(start, end, name=fname, params=[], body=ast.Block(end, end, body=[]), error=err)
    tokens = classify(raw, levels)
    _check_nesting(tokens, base)
    tree, header, prefixes = parse_recovering(_parser(), tokens, "funcdef", text, base, levels, _syntax_error)
    if header is not None:
        return ast.Function(start, end, name=fname, params=[], body=ast.Block(end, end, body=[]), error=header)
    assert tree is not None  # parse_recovering gives a tree whenever it gives no header error
    return _to_ast(tree, base, text, prefixes)


def _statements(tokens: list[Token], levels: list[Level], base: int, text: str) -> list[ast.Stmt]:
    _check_nesting(tokens, base)
    tree, header, prefixes = parse_recovering(_parser(), tokens, "statements", text, base, levels, _syntax_error)
    if header is not None:  # cannot happen: every token can start a statement
        return [header]
    assert tree is not None  # parse_recovering gives a tree whenever it gives no header error
    return _to_ast(tree, base, text, prefixes).body


def parse_statements(text: str, outer: list[Level], base: int = 0) -> list[ast.Stmt]:
    """Parse statements typed at the shell or started by MC 11, with names resolved in ``outer``.

    A statement that does not parse becomes an :class:`ast.ErrorStmt` (the ones before it run)."""
    tokens = classify(tokenize(text, base, tolerant=True), outer, statements=True)
    return _statements(tokens, outer, base, text)


MAX_NESTING = 1000  # open parentheses plus stacked prefix operators before error 16


def _check_nesting(tokens: list[Token], base: int) -> None:
    """Error 16 (expression-stack overflow) at the token where an expression nests too deeply."""
    depth = run = 0
    for t in tokens:
        if t.type in ("LPAR", "CPAREN", "CALLPAREN"):
            depth += 1
        elif t.type == "RPAR":
            depth -= 1
        run = run + 1 if t.type in ("BANG", "ADDOP", "INCDEC") else 0
        if depth + run > MAX_NESTING:
            raise TinyCError(ErrorCode.PUSHERR, base + end_of(t))


@contextmanager
def _nesting_limit(frames: int = 4000):
    """Python recursion set to ``frames`` more than now while a tree is built: nesting beyond this is
    error 16, not a crash, whatever limit the machine has raised for deep tiny-c recursion (which
    the C stack of the tree transformer would not survive)."""
    depth = 0
    f: FrameType | None = sys._getframe()
    while f is not None:
        depth, f = depth + 1, f.f_back
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(saved)


def _to_ast(tree: Tree, base: int, text: str = "", prefixes: list | None = None):
    try:
        with _nesting_limit():
            return _ToAST(base, text, prefixes).transform(tree)
    except RecursionError:
        raise TinyCError(ErrorCode.PUSHERR, base + (tree.meta.start_pos if not tree.meta.empty else 0)) from None
    except VisitError as e:  # a literal the grammar accepts but the AST rejects
        if isinstance(e.orig_exc, RecursionError):
            raise TinyCError(ErrorCode.PUSHERR, base + (tree.meta.start_pos if not tree.meta.empty else 0)) from None
        if isinstance(e.orig_exc, TinyCError):
            raise TinyCError(e.orig_exc.code, base + e.orig_exc.address) from None
        raise


def _after_last_good(tokens: list[Token], bad: Token, text: str) -> int:
    """Offset just after the token before ``bad`` and the blanks that follow it on its line: where
    the original's cursor stood when a token it needed was missing (it skipped only blanks there)."""
    i = next((k for k, t in enumerate(tokens) if t is bad), len(tokens))
    if i == 0:
        return start_of(bad)
    at = end_of(tokens[i - 1])
    while at < len(text) and text[at] in " \t\f\r":
        at += 1
    return at


def _error_code(expected: set[str]) -> ErrorCode:
    """The tiny-c error number for a parse that stopped where one of ``expected`` was needed."""
    if "RPAR" in expected and expected <= {"RPAR", "COMMA"}:
        return ErrorCode.RPARERR
    if expected == {"NAME"}:
        return ErrorCode.SYMERR  # after int or char
    if "ENDLIBRARY" in expected:
        return ErrorCode.LINKERR  # a top-level item that is neither a declaration, a block nor a function
    if "LSQB" in expected and "IF" not in expected:
        return ErrorCode.LBRCERR  # a function's parameter declarations must end in its body's [
    if "NUMBER" in expected and "IF" not in expected:
        return ErrorCode.SYNXERR  # an operand (factor) was expected
    return ErrorCode.STATERR


def _syntax_error(e: UnexpectedInput, tokens: list[Token], base: int, text: str) -> TinyCError:
    """Map a Lark parse error to a tiny-c error number and cursor (sections 10.1, 10.2).

    A statement or top-level item that is not recognised is reported at its first character (the
    original skipped newlines and comments before one); a missing token just after the last good one."""
    expected = set(getattr(e, "expected", ()) or ())
    code = _error_code(expected)
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        end = max(len(text.rstrip("\n")), end_of(tokens[-1]) if tokens else 0)
        if code in (ErrorCode.STATERR, ErrorCode.LINKERR):
            code = ErrorCode.CURSERR  # the text ended inside a [ ... ]: the cursor ran off the program
        return TinyCError(code, base + end)
    assert isinstance(e, UnexpectedToken)
    if code in (ErrorCode.STATERR, ErrorCode.LINKERR):
        return TinyCError(code, base + start_of(e.token))
    return TinyCError(code, base + _after_last_good(tokens, e.token, text))


def read_number(digits: str) -> int:
    """A decimal literal as the original read it, digit by digit with wrap-around (section 2): the
    value modulo 2**32, which the engines wrap again to the int width (2**16 divides 2**32)."""
    if len(digits) < 1000:
        return int(digits) & 0xFFFFFFFF
    value = 0
    for c in digits:
        value = (value * 10 + ord(c) - 48) & 0xFFFFFFFF
    return value


def _tail(s) -> list | None:
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


def _strip(children):
    """Children without the punctuation tokens that the grammar names only to retype them."""
    return [c for c in children if not (isinstance(c, Token) and c.type in ("CALLPAREN", "CPAREN"))]


@v_args(meta=True)
class _ToAST(Transformer):
    """Lark tree to ``tinyc.ast`` nodes; every node keeps the absolute addresses of its source."""

    canonical = staticmethod(canonical)  # a name's significant form (a dialect may keep more characters)

    def __init__(self, base: int, text: str = "", prefixes: list | None = None):
        super().__init__()
        self.base = base
        self.text = text
        self.prefixes = prefixes or []

    def _after(self, meta) -> int:
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

    def _pos(self, meta) -> tuple[int, int]:
        return (self.base + meta.start_pos, self.base + meta.end_pos) if not meta.empty else (self.base, self.base)

    def program(self, meta, items):
        out: list[ast.Decl | ast.Block | ast.Function | ast.EndLibrary] = []
        for item in items:
            if isinstance(item, Token):
                if item.type == "ENDLIBRARY":
                    out.append(ast.EndLibrary(self.base + start_of(item), self.base + end_of(item)))
            else:
                out.append(item)
        return ast.Program(*self._pos(meta), items=out)

    def statements(self, meta, stmts):
        return ast.Block(*self._pos(meta), body=self._attach([s for s in stmts if s is not None]))

    def funcdef(self, meta, ch):
        ch = _strip(ch)
        name = ch[0]
        return ast.Function(*self._pos(meta), name=name, params=ch[1:-1], body=ch[-1])

    def fname(self, meta, ch):
        return self.canonical(ch[0].value)

    def block(self, meta, stmts):
        return ast.Block(*self._pos(meta), body=self._attach(list(stmts)))

    # ---- what a false condition skips (section 14 item 16; the skipping rules of the 1977 design)

    def _attach(self, stmts: list) -> list:
        """Statements that follow an if's or while's simple branch on its line belong to that branch.

        The original skipped a branch that does not run textually: a simple statement (not ``[``,
        ``if``, ``while``, ``for``) up to the first ``;`` or line end.  So in ``if c x=1 y=2`` the
        ``y=2`` runs only when ``c`` is true (after ``x=1``), and in ``if 0 nosuch "x",1`` nothing is
        looked at.  A while re-tests its condition after its branch, so what follows on the line never
        runs."""
        out = []
        i = 0
        while i < len(stmts):
            s = stmts[i]
            i += 1
            path = _tail(s)
            if path:
                node, field = path[-1]
                last = getattr(node, field)
                taken = []
                while i < len(stmts) and self._same_line(last, stmts[i]):
                    last = stmts[i]
                    taken.append(last)
                    i += 1
                if taken and not any(isinstance(n, ast.While) for n, _ in path):
                    branch = getattr(node, field)
                    setattr(node, field, ast.Block(branch.pos, last.end, body=[branch, *taken]))
            out.append(s)
        return out

    def _same_line(self, before, after) -> bool:
        gap = self.text[before.end - self.base:after.pos - self.base]
        ends = self.text[before.end - self.base - 1:before.end - self.base]
        return "\n" not in gap and ends != ";"

    def decl(self, meta, ch):
        return ast.Decl(*self._pos(meta), type=ch[0].value, names=ch[1:])

    def declarator(self, meta, ch):
        return ast.Declarator(*self._pos(meta), name=self.canonical(ch[0].value), size=None)

    def array_declarator(self, meta, ch):
        return ast.Declarator(*self._pos(meta), name=self.canonical(ch[0].value), size=ch[1])

    def if_stmt(self, meta, ch):
        cond, then = ch[1], ch[2]
        orelse = ch[4] if len(ch) > 4 else None
        return ast.If(*self._pos(meta), cond=cond, then=then, orelse=orelse)

    def while_stmt(self, meta, ch):
        return ast.While(*self._pos(meta), cond=ch[1], body=ch[2])

    def for_stmt(self, meta, ch):
        return ast.For(*self._pos(meta), init=ch[1], cond=ch[2], step=ch[3], body=ch[4])

    def opt_expr(self, meta, ch):
        return ch[0] if ch else None

    def cond(self, meta, ch):
        return _strip(ch)[0]

    def break_stmt(self, meta, ch):
        return ast.Break(*self._pos(meta))

    def return_stmt(self, meta, ch):
        return ast.Return(*self._pos(meta), value=ch[1])

    def return_void(self, meta, ch):
        return ast.Return(*self._pos(meta), value=None)

    def expr_stmt(self, meta, ch):
        return ast.ExprStmt(*self._pos(meta), expr=ch[0])

    def null_stmt(self, meta, ch):
        return ast.Null(*self._pos(meta))

    def error_stmt(self, meta, ch):
        code, address, k = ch[0].value.split(":")
        prefix = self._prefix(self.prefixes[int(k)]) if self.prefixes else []
        return ast.ErrorStmt(*self._pos(meta), code=int(code), address=int(address), prefix=prefix)

    def _prefix(self, values: list) -> list:
        """What a failed statement had parsed, as the engines evaluate it before the error: complete
        operands (expressions) and the names still waiting for their ``(`` (see tinyc.recovery)."""
        out: list = []
        declaring = any(isinstance(v, Token) and v.type in ("INT", "CHAR") for v in values)

        def add(items):
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

    def assign(self, meta, ch):
        return ast.Assign(*self._pos(meta), target=ch[0], value=ch[1])

    def binop(self, meta, ch):
        return ast.BinOp(*self._pos(meta), op=ch[1].value, left=ch[0], right=ch[2])

    def not_(self, meta, ch):
        return ast.Unary(*self._pos(meta), op="!", operand=ch[0])

    def sign(self, meta, ch):
        return ast.Unary(*self._pos(meta), op=ch[0].value, operand=ch[1])

    def preinc(self, meta, ch):
        return ast.Unary(*self._pos(meta), op=ch[0].value, operand=ch[1])

    def number(self, meta, ch):
        return ast.Number(*self._pos(meta), value=read_number(ch[0].value))

    def charlit(self, meta, ch):
        """A character constant is a signed byte, like every char read into an expression (14 item 20)."""
        body = ch[0].value[1:-1]
        code = ord(body[0]) if body else ord("'")
        return ast.CharLit(*self._pos(meta), value=code - 256 if code > 127 else code)

    def string(self, meta, ch):
        return ast.String(*self._pos(meta), length=len(ch[0].value) - 2)

    def var(self, meta, ch):
        return ast.Var(*self._pos(meta), name=self.canonical(ch[0].value))

    def index(self, meta, ch):
        return ast.Index(*self._pos(meta), name=self.canonical(ch[0].value), index=ch[1],
                         name_end=self.base + ch[0].end_pos)

    def call(self, meta, ch):
        ch = [c for c in ch if not (isinstance(c, Token) and c.type == "RPAR")]
        args = ch[1] if len(ch) > 1 else []
        return ast.Call(*self._pos(meta), name=self.canonical(ch[0].value), args=args,
                        name_end=self.base + ch[0].end_pos, after=self.base + self._after(meta))

    def args(self, meta, ch):
        return _strip(ch)

    def mc(self, meta, ch):
        return ast.MachineCall(*self._pos(meta), args=ch[1])
