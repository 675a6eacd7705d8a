"""The parse pass: classified tokens to a Lark parse tree (LALR), and Lark's errors to tiny-c's.

:func:`lark_parser` is tiny-c/PC's LALR parser over ``grammar.lark`` (reference section 2), reading the
token list the lexer prepared (:class:`TokenList`); :func:`parse_tree` parses a whole token list at
once (for ``tinyc parse``), and :func:`syntax_error` maps a parse that stopped
to the error number and cursor the original gave (sections 10.1, 10.2).  :func:`check_nesting` and
:func:`nesting_limit` make an expression nested too deeply error 16, not a crash.

The driver that runs this pass among the others (lexer, level scan, recovery, AST builder) is
:mod:`tinyc.syntax.pipeline`; this module calls none of them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from types import FrameType
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.common import LexerConf
from lark.lexer import Lexer, LexerState

from ..errors import ErrorCode, TinyCError
from .lexer import GRAMMAR, cached_lark
from .positions import end_of, start_of


class TokenList(Lexer):
    """Hands the parser the token list that :func:`tinyc.syntax.lexer.classify` prepared."""

    __future_interface__ = 2

    def __init__(self, conf: LexerConf) -> None:
        pass

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        """The tokens, in order: Lark's lexer interface, called once per parse."""
        # the "text" is the token list handed to Lark.parse (Lark's stubs say text, its code passes it on)
        tokens: list[Token] = lexer_state.text  # type: ignore[assignment]
        return iter(tokens)


@lru_cache(maxsize=1)
def lark_parser() -> Lark:
    """tiny-c/PC's LALR parser (start rules ``program``, ``statements``, ``funcdef``, ``decl``), built
    once per process from Lark's cached analysis (:func:`tinyc.syntax.lexer.cached_lark`)."""
    return cached_lark("parser", GRAMMAR, parser="lalr", lexer=TokenList,
                       start=["program", "statements", "funcdef", "decl"], propagate_positions=True,
                       maybe_placeholders=False)


def parse_tree(tokens: list[Token], start: str = "program", base: int = 0, text: str = "") -> Tree[Token]:
    """The Lark parse tree of classified ``tokens``; raises TinyCError on the first syntax error.

    ``text`` (the source) lets the error cursor sit where the original would detect the error: after
    the last token that parsed and the blanks that follow it on its line."""
    check_nesting(tokens, base)
    try:
        with nesting_limit():
            return lark_parser().parse(tokens, start=start)
    except UnexpectedInput as e:
        raise syntax_error(e, tokens, base, text) from None
    except RecursionError:
        raise TinyCError(ErrorCode.PUSHERR, base) from None


MAX_NESTING = 1000  # open parentheses plus stacked prefix operators before error 16


def check_nesting(tokens: list[Token], base: int) -> None:
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
def nesting_limit(frames: int = 4000) -> Iterator[None]:
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


def syntax_error(e: UnexpectedInput, tokens: list[Token], base: int, text: str) -> TinyCError:
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
