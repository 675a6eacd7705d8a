"""Parser: classified tokens to a Lark parse tree (LALR), then to the typed AST of ``tinyc.ast``.

Entry points: :func:`parse_tree` (the Lark tree, for ``tinyc parse``), :func:`parse_program` (a whole
text: functions, declarations, blocks) and :func:`parse_statements` (a typed statement, as MC 11 runs).

The original parsed a statement only when it ran (reference section 14 item 16), so a statement that
does not parse is not an error here: :func:`parse_program` follows the linker's scan of the top level
(:mod:`tinyc.syntax.toplevel`), parses each function on its own, and the parser recovers at the statement
that failed, putting an :class:`ast.ErrorStmt` in its place that raises the error when it runs.  Only
what the original's linker found (an unbalanced ``[``, junk at top level, a global declaration that
does not parse) is a :class:`TinyCError` at load time.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from types import FrameType
from typing import Any, TypeVar, cast

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.common import LexerConf
from lark.lexer import Lexer, LexerState

from .. import ast
from ..errors import ErrorCode, TinyCError
from .lexer import GRAMMAR, Level, canonical, cached_lark, classify, run_time_names, scan_levels, tokenize
from .positions import end_of, start_of
from .recovery import parse_recovering
from .runtime_names import wrap
from .to_ast import PrefixValue, _ToAST
from .toplevel import scan


class _TokenList(Lexer):
    """Hands the parser the token list that :func:`tinyc.syntax.lexer.classify` prepared."""

    __future_interface__ = 2

    def __init__(self, conf: LexerConf) -> None:
        pass

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        # the "text" is the token list handed to Lark.parse (Lark's stubs say text, its code passes it on)
        tokens: list[Token] = lexer_state.text  # type: ignore[assignment]
        return iter(tokens)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return cached_lark("parser", GRAMMAR, parser="lalr", lexer=_TokenList,
                       start=["program", "statements", "funcdef", "decl"], propagate_positions=True,
                       maybe_placeholders=False)


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


def _levels(tokens: list[Token], text: str, outer: list[Level] | None, program: Level | None) -> list[Level]:
    first, after = scan_levels(tokens, text)
    outer = list(outer or [])
    if after is not None:
        return [program if program is not None else after, first] + outer
    return [first] + outer


def parse_tree(tokens: list[Token], start: str = "program", base: int = 0, text: str = "") -> Tree[Token]:
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
def _gc_paused() -> Iterator[None]:
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
    items: list[ast.Decl | ast.Block | ast.Function | ast.EndLibrary] = []
    for item in scan(tokens, text, base):
        raw = tokens[item.start:item.end]
        if item.kind == "endlibrary":
            t = tokens[item.start]
            items.append(ast.EndLibrary(base + start_of(t), base + end_of(t)))
        elif item.kind == "decl":
            tree = parse_tree(classify(raw, levels), "decl", base, text)
            items.append(_to_ast(tree, ast.Decl, base, text))
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
    fn = _to_ast(tree, ast.Function, base, text, prefixes)
    dynamic, marks = run_time_names(tokens, levels, 1)
    if marks:  # uses of a name a nested declaration may make a local: decided when they run
        fn.body.body = wrap(fn.body.body, {base + k: v for k, v in marks.items()}, dynamic, fn.body.end - 1)
    return fn


def _statements(tokens: list[Token], levels: list[Level], base: int, text: str) -> list[ast.Stmt]:
    _check_nesting(tokens, base)
    tree, header, prefixes = parse_recovering(_parser(), tokens, "statements", text, base, levels, _syntax_error)
    if header is not None:  # cannot happen: every token can start a statement
        return [header]
    assert tree is not None  # parse_recovering gives a tree whenever it gives no header error
    return _to_ast(tree, ast.Block, base, text, prefixes).body


def parse_statements(text: str, outer: list[Level], base: int = 0) -> list[ast.Stmt]:
    """Parse statements typed at the shell or started by MC 11, with names resolved in ``outer``.

    A statement that does not parse becomes an :class:`ast.ErrorStmt` (the ones before it run)."""
    return reparse(text, outer, base)


def reparse(text: str, outer: list[Level], base: int = 0, local_names: set[str] | None = None,
            dynamic: frozenset[str] | None = None) -> list[ast.Stmt]:
    """Statements of ``text`` (at address ``base``), the names in ``local_names`` being locals when they
    start: typed statements (:func:`parse_statements`), or the tail of a statement list parsed again
    while its function runs (``dynamic``: the function's names that a nested declaration may make
    locals; :mod:`tinyc.syntax.runtime_names`).  A statement that does not parse becomes an
    :class:`ast.ErrorStmt`."""
    tokens = classify(tokenize(text, base, tolerant=True), outer, statements=True, local_names=local_names)
    stmts = _statements(tokens, outer, base, text)
    dynamic, marks = run_time_names(tokens, outer, 0, local_names or frozenset(), dynamic)
    if marks:
        stmts = wrap(stmts, {base + k: v for k, v in marks.items()}, dynamic, base + len(text))
    return stmts


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
def _nesting_limit(frames: int = 4000) -> Iterator[None]:
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


def _to_ast(tree: Tree[Token], kind: type[_Node], base: int, text: str = "",
            prefixes: list[list[PrefixValue]] | None = None) -> _Node:
    """The AST of ``tree``: a node of class ``kind``, what the grammar's start rule builds (named for
    the type checker: the transformer's result is not checked)."""
    try:
        with _nesting_limit():
            return cast(_Node, _ToAST(base, text, prefixes).transform(tree))
    except RecursionError:
        raise TinyCError(ErrorCode.PUSHERR, base + _deepest(tree)) from None
    except VisitError as e:  # a literal the grammar accepts but the AST rejects
        if isinstance(e.orig_exc, RecursionError):
            raise TinyCError(ErrorCode.PUSHERR, base + _deepest(tree)) from None
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
