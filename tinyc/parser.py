"""Parser: classified tokens to a Lark parse tree (LALR), then to the typed AST of ``tinyc.ast``.

Entry points: :func:`parse_tree` (the Lark tree, for ``tinyc parse``), :func:`parse_program` (a whole
text: functions, declarations, blocks) and :func:`parse_statements` (a typed statement, as MC 11 runs).
Syntax errors become :class:`TinyCError` with the tiny-c error number and the offending position.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from functools import lru_cache

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import Lexer

from . import ast
from .errors import ErrorCode, TinyCError
from .lexer import GRAMMAR, Level, canonical, classify, scan_levels, tokenize


class _TokenList(Lexer):
    """Hands the parser the token list that :func:`tinyc.lexer.classify` prepared."""

    __future_interface__ = 2

    def __init__(self, conf):
        pass

    def lex(self, lexer_state, parser_state):
        return iter(lexer_state.text)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR, parser="lalr", lexer=_TokenList, start=["program", "statements"],
                propagate_positions=True, maybe_placeholders=False, cache=True)  # analysis kept in a temp file


def prepare(text: str, outer: list[Level] | None = None, base: int = 0,
            program: Level | None = None) -> tuple[list[Token], list[Level]]:
    """Tokenize and classify ``text``.  Returns the tokens and the symbol levels used for names.

    A program's own top-level names are searched first, then ``outer`` (the library).  A text that
    holds ``endlibrary`` (an IPL, a system file) supplies both levels: the names after it are the
    program level (or ``program``, when a library is linked with another program), then the names
    before it, the library level.
    """
    tokens = tokenize(text, base)
    first, after = scan_levels(tokens)
    outer = list(outer or [])
    if after is not None:
        levels = [program if program is not None else after, first] + outer
    else:
        levels = [first] + outer
    return classify(tokens, levels), levels


def parse_tree(tokens: list[Token], start: str = "program", base: int = 0, text: str = "") -> Tree:
    """The Lark parse tree of classified ``tokens``; raises TinyCError on a syntax error.

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
                  program: Level | None = None) -> ast.Program:
    """Parse a whole program text to an :class:`ast.Program` (reference section 4, 14 item 16).

    Node positions are absolute: ``base`` (the text's address in memory) plus the offset in ``text``.
    """
    tokens, _ = prepare(text, outer, base, program)
    return _to_ast(parse_tree(tokens, "program", base, text), base)


def parse_statements(text: str, outer: list[Level], base: int = 0) -> list[ast.Stmt]:
    """Parse statements typed at the shell or started by MC 11, with names resolved in ``outer``."""
    tokens = classify(tokenize(text, base), outer, statements=True)
    tree = parse_tree(tokens, "statements", base, text)
    return _to_ast(tree, base).body


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
            raise TinyCError(ErrorCode.PUSHERR, base + t.end_pos)


@contextmanager
def _nesting_limit(frames: int = 4000):
    """Bound Python recursion while a tree is built: nesting beyond this is error 16, not a crash
    (the machine raises the interpreter's limit for deep tiny-c recursion, which the C stack of the
    tree transformer would not survive)."""
    depth, f = 0, sys._getframe()
    while f is not None:
        depth, f = depth + 1, f.f_back
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(min(saved, depth + frames))
    try:
        yield
    finally:
        sys.setrecursionlimit(saved)


def _to_ast(tree: Tree, base: int):
    try:
        with _nesting_limit():
            return _ToAST(base).transform(tree)
    except RecursionError:
        raise TinyCError(ErrorCode.PUSHERR, base + (tree.meta.start_pos if not tree.meta.empty else 0)) from None
    except VisitError as e:  # a literal the grammar accepts but the AST rejects
        if isinstance(e.orig_exc, TinyCError):
            raise TinyCError(e.orig_exc.code, base + e.orig_exc.address) from None
        raise


def _after_last_good(tokens: list[Token], bad: Token, text: str) -> int:
    """Offset just after the token before ``bad`` and the blanks that follow it on its line: where
    the original's cursor stood when a token it needed was missing (it skipped only blanks there)."""
    i = next((k for k, t in enumerate(tokens) if t is bad), len(tokens))
    if i == 0:
        return bad.start_pos
    at = tokens[i - 1].end_pos
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
        end = max(len(text.rstrip("\n")), tokens[-1].end_pos if tokens else 0)
        if code in (ErrorCode.STATERR, ErrorCode.LINKERR):
            code = ErrorCode.CURSERR  # the text ended inside a [ ... ]: the cursor ran off the program
        return TinyCError(code, base + end)
    assert isinstance(e, UnexpectedToken)
    if code in (ErrorCode.STATERR, ErrorCode.LINKERR):
        return TinyCError(code, base + e.token.start_pos)
    return TinyCError(code, base + _after_last_good(tokens, e.token, text))


def _strip(children):
    """Children without the punctuation tokens that the grammar names only to retype them."""
    return [c for c in children if not (isinstance(c, Token) and c.type in ("CALLPAREN", "CPAREN"))]


@v_args(meta=True)
class _ToAST(Transformer):
    """Lark tree to ``tinyc.ast`` nodes; every node keeps the absolute addresses of its source."""

    def __init__(self, base: int):
        super().__init__()
        self.base = base

    def _pos(self, meta) -> tuple[int, int]:
        return (self.base + meta.start_pos, self.base + meta.end_pos) if not meta.empty else (self.base, self.base)

    def program(self, meta, items):
        out = []
        for item in items:
            if isinstance(item, Token):
                if item.type == "ENDLIBRARY":
                    out.append(ast.EndLibrary(self.base + item.start_pos, self.base + item.end_pos))
            else:
                out.append(item)
        return ast.Program(*self._pos(meta), items=out)

    def statements(self, meta, stmts):
        return ast.Block(*self._pos(meta), body=[s for s in stmts if s is not None])

    def funcdef(self, meta, ch):
        ch = _strip(ch)
        name = ch[0]
        return ast.Function(*self._pos(meta), name=name, params=ch[1:-1], body=ch[-1])

    def fname(self, meta, ch):
        return canonical(ch[0].value)

    def block(self, meta, stmts):
        return ast.Block(*self._pos(meta), body=list(stmts))

    def decl(self, meta, ch):
        return ast.Decl(*self._pos(meta), type=ch[0].value, names=ch[1:])

    def declarator(self, meta, ch):
        return ast.Declarator(*self._pos(meta), name=canonical(ch[0].value), size=None)

    def array_declarator(self, meta, ch):
        return ast.Declarator(*self._pos(meta), name=canonical(ch[0].value), size=ch[1])

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
        return ast.Number(*self._pos(meta), value=int(ch[0].value))

    def charlit(self, meta, ch):
        body = ch[0].value[1:-1]
        return ast.CharLit(*self._pos(meta), value=ord(body[0]) if body else ord("'"))

    def string(self, meta, ch):
        return ast.String(*self._pos(meta), length=len(ch[0].value) - 2)

    def var(self, meta, ch):
        return ast.Var(*self._pos(meta), name=canonical(ch[0].value))

    def index(self, meta, ch):
        return ast.Index(*self._pos(meta), name=canonical(ch[0].value), index=ch[1])

    def call(self, meta, ch):
        args = ch[1] if len(ch) > 1 else []
        return ast.Call(*self._pos(meta), name=canonical(ch[0].value), args=args)

    def args(self, meta, ch):
        return _strip(ch)

    def mc(self, meta, ch):
        return ast.MachineCall(*self._pos(meta), args=ch[1])
