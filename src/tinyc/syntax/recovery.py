"""Statement-level error recovery for the LALR parser (reference section 14 item 16).

The original parsed a statement when it ran it, so a statement that does not parse is an error only
when it runs, after everything before it has run.  :func:`parse_recovering` gets the same effect from
Lark: when the parse fails it finds the statement that failed, replaces its tokens by one ERRSTMT
token that carries the error number and cursor, and parses again, until the text parses.

* **Which statement.** If a statement could begin at the token that failed (the statement before it
  is complete, as in ``x=3<2<1``), the new statement starts there.  Otherwise it is the innermost
  statement still open on the parser's stack: the values above the topmost state that has a ``stmt``
  transition.  No such state means the error is in a function's header.
* **How far it reaches.** As the original skipped a statement: brackets and parentheses balanced, up
  to a ``;`` or the end of a line outside them, or the ``]`` that closes the enclosing block; an
  ``if`` takes its ``else`` along.
* **Which error.** The number and cursor the parse error maps to, except that a statement failing at
  its first token is error 9 (the original's factor error came first; 1 for a stray keyword), and a
  character no token starts with is 9, an unclosed quote 2.
* **What runs first.** The original evaluated as it parsed, so what the statement had parsed before the
  failure ran: the complete operands on the parser's stack are kept with the error statement (its
  ``prefix``) and evaluated, left to right, before the error is raised.  A name still waiting for its
  ``(`` is looked up (error 26 if no level declares it, 7 if it names a scalar).
"""

from __future__ import annotations

from typing import Callable

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from .. import ast
from ..errors import ErrorCode, TinyCError
from .lexer import Level
from .positions import start_of

SyntaxErrorMap = Callable[[UnexpectedInput, list[Token], int, str], TinyCError]


def parse_recovering(parser: Lark, tokens: list[Token], start: str, text: str, base: int,
                     levels: list[Level], syntax_error: SyntaxErrorMap
                     ) -> tuple[Tree | None, ast.ErrorStmt | None, list[list]]:
    """Parse classified ``tokens`` from ``start``, turning each statement that fails into ERRSTMT.

    Returns ``(tree, None, prefixes)``, or ``(None, error, [])`` when the failure is outside any
    statement (a function's header).  The value of each ERRSTMT token is ``code:address:k``, and
    ``prefixes[k]`` the parse-tree values the statement had parsed (see the module's docstring).
    ``syntax_error`` maps a Lark error to the tiny-c error (number, address).
    """
    tokens = list(tokens)
    prefixes: list[list] = []
    for _ in range(2 * len(tokens) + 2):
        try:
            return parser.parse(tokens, start=start), None, prefixes
        except UnexpectedInput as e:
            failed = _index(tokens, getattr(e, "token", None))
            err = syntax_error(e, tokens, base, text)
            found = _statement_start(e, tokens, failed)
            if found is None:
                return None, ast.ErrorStmt(err.address, err.address, int(err.code), err.address), []
            first, values = found
            end = _statement_end(tokens, first, failed, text)
            code, address = _error(err, tokens, first, failed, base)
            at = tokens[first] if first < len(tokens) else None
            pos = at.start_pos if at is not None else len(text)
            prefixes.append(values)
            mark = Token("ERRSTMT", f"{code}:{address}:{len(prefixes) - 1}", start_pos=pos,
                         end_pos=tokens[end - 1].end_pos if end > first else pos,
                         line=getattr(at, "line", 1), column=getattr(at, "column", 1),
                         end_line=getattr(at, "line", 1), end_column=getattr(at, "column", 1))
            tokens[first:end] = [mark]
    raise TinyCError(ErrorCode.STATERR, base)  # not reached: each round consumes or passes a token


def _index(tokens: list[Token], token) -> int:
    if token is None or token.type == "$END":
        return len(tokens)
    for k, t in enumerate(tokens):
        if t is token:
            return k
    return len(tokens)


def _statement_start(e: UnexpectedInput, tokens: list[Token], failed: int) -> tuple[int, list] | None:
    """The index of the first token of the statement that failed and the values the parser holds for
    it, or None outside any statement."""
    state = getattr(e, "state", None)
    if state is None:
        return failed, []
    probe = state.copy()
    try:
        probe.feed_token(Token("BREAK", "break"))
        return failed, []  # a statement may begin here: the one before it is complete
    except UnexpectedInput:
        pass
    states = state.parse_conf.states
    stack = state.state_stack
    for k in range(len(stack) - 1, -1, -1):
        if "stmt" in states[stack[k]]:
            values = list(state.value_stack[k:])
            first = _leftmost(values)
            if first is None:
                return failed, []
            return next((j for j, t in enumerate(tokens) if t.start_pos == first.start_pos
                         and t.type == first.type), failed), values
    return None


def _leftmost(values) -> Token | None:
    for v in values:
        if isinstance(v, Token):
            return v
        if isinstance(v, Tree):
            t = _leftmost(v.children)
            if t is not None:
                return t
        elif isinstance(v, list):
            t = _leftmost(v)
            if t is not None:
                return t
    return None


def _newline_before(tokens: list[Token], j: int, text: str) -> bool:
    return "\n" in text[tokens[j - 1].end_pos:tokens[j].start_pos]


def _statement_end(tokens: list[Token], first: int, failed: int, text: str) -> int:
    """The index just after the failed statement, as the original would skip it: a simple statement
    up to the first ``;`` or line end, an ``if``/``while``/``for`` with its parentheses and branch."""
    compound = first < len(tokens) and tokens[first].type in ("IF", "WHILE", "FOR")
    end = _extent(tokens, first, failed if compound else first + 1, text, not compound)
    while first < len(tokens) and tokens[first].type == "IF" and end < len(tokens) and tokens[end].type == "ELSE":
        end = _extent(tokens, end, end + 1, text)
    return end


def _extent(tokens: list[Token], first: int, must: int, text: str, simple: bool = False) -> int:
    """From ``first``, tokens up to ``must`` always, then to a ``;`` or a line end outside brackets
    and parentheses, or before the ``]`` that closes the enclosing block (an open ``(`` does not
    hold a ``]``: the statement's parentheses were left unbalanced).  A ``simple`` statement ends at
    the first ``;`` or line end whatever is open, as the original's skip did."""
    open_: list[str] = []
    j = first
    while j < len(tokens):
        t = tokens[j]
        if j > first and j >= must and (simple or not open_) and _newline_before(tokens, j, text):
            return j
        if simple and j > first and t.type == "SEMICOLON":
            return j + 1
        if t.type in ("LSQB", "LPAR", "CPAREN", "CALLPAREN"):
            open_.append("[" if t.type == "LSQB" else "(")
        elif t.type == "RSQB":
            while open_ and open_[-1] == "(":
                open_.pop()
            if not open_:
                return j
            open_.pop()
        elif t.type == "RPAR":
            if open_ and open_[-1] == "(":
                open_.pop()
            elif not open_ and j >= must and j > first:
                return j
        elif t.type == "SEMICOLON" and not open_ and j >= must:
            return j + 1
        j += 1
    return j


def _error(err: TinyCError, tokens: list[Token], first: int, failed: int, base: int) -> tuple[int, int]:
    """The error number and address the statement raises when it runs."""
    if failed < len(tokens) and tokens[failed].type in ("BADCHAR", "BADQUOTE"):
        t = tokens[failed]  # text no token starts with: 9, or a literal with no closing quote: 2
        return int(ErrorCode.CURSERR if t.type == "BADQUOTE" else ErrorCode.SYNXERR), base + start_of(t)
    if failed == first and failed < len(tokens):
        t = tokens[failed]
        code = ErrorCode.STATERR if t.type in ("ELSE", "ENDLIBRARY") else ErrorCode.SYNXERR
        return int(code), base + start_of(t)
    return int(err.code), err.address
