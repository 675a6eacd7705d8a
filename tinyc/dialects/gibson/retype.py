"""The Gibson dialect's retypings of classified tokens: after the lexer hack (:func:`tinyc.syntax.lexer.classify`,
shared with tiny-c/PC), the rules of gibson-dialect.md that change what a token is to the dialect's parser
(:meth:`_Retyper.retyped` lists them, each with its section).  Used by :mod:`tinyc.dialects.gibson.syntax`."""

from __future__ import annotations

from lark import Token

from ...driver.dialect import find
from ...errors import ErrorCode
from ...syntax.positions import end_of

canonical = find("gibson").canonical  # this package's DIALECT, not imported: it imports this module

# the tokens after which a statement begins (a name there is not an argument or an operand)
_STATEMENT_BEFORE = {None, "LSQB", "RSQB", "SEMICOLON", "ELSE", "NUMBER", "STRING", "CHARLIT", "RPAR",
                     "NAME", "FNAME0", "ERRSTMT", "SIGNNUM"}


def _closing(tokens: list[Token], i: int) -> int | None:
    """The index of the ``)`` that closes the parenthesis at ``tokens[i]``, or None when a bracket or the
    end of the tokens comes first."""
    depth, j, n = 0, i, len(tokens)
    while j < n:
        depth += {"LPAR": 1, "CPAREN": 1, "CALLPAREN": 1, "RPAR": -1}.get(tokens[j].type, 0)
        if depth == 0 or tokens[j].type in ("LSQB", "RSQB"):
            break
        j += 1
    return j if j < n and tokens[j].type == "RPAR" else None


def _undeclared_statement(tokens: list[Token], i: int, prev: str | None) -> tuple[Token, int] | None:
    """For ``for(i=0;i<9;i=i+1) ...`` (an undeclared name ``tokens[i]`` starting a statement, a parenthesis
    after it): the statement is error 3 at the name, and its parenthesis, whatever it holds, is part of it
    (its ``;`` would otherwise cut the block around it).  Returns (the ERRSTMT token, the index of the
    closing parenthesis); None for any other name."""
    t = tokens[i]
    if i + 1 >= len(tokens) or tokens[i + 1].type != "LPAR" or prev not in _STATEMENT_BEFORE:
        return None
    j = _closing(tokens, i + 1)
    if j is None:
        return None
    return Token("ERRSTMT", f"{int(ErrorCode.SYMERRA)}:{t.end_pos}:-", start_pos=t.start_pos,
                 end_pos=tokens[j].end_pos, line=t.line, column=t.column,
                 end_line=t.line, end_column=t.column), j


def _sign_quirk(t: Token, text: str) -> Token:
    """The sign quirk (section 2.6): a ``+``/``-`` right after an operator that no digit follows is a constant
    (SIGNNUM), the sign times the next character's code minus 48, that character read again; else ``t``."""
    at = end_of(t)
    c = text[at] if at < len(text) else "\0"
    if c.isdigit():
        return t
    return Token.new_borrow_pos("SIGNNUM", str((ord(c) - 48) * (-1 if t.value == "-" else 1)), t)


def retype(tokens: list[Token], text: str, known: set[str]) -> list[Token]:
    """The dialect's changes to classified tokens (layout already removed by classify): the rules of
    :meth:`_Retyper.retyped`.  ``known``: the canonical names that a level or this text declares."""
    return _Retyper(tokens, text, known).run()


_DECLARING = ("INT", "CHAR", "COMMA")  # a name after these is being declared: no retyping applies to it


class _Retyper:
    """:func:`retype` walking one item's tokens, and the parentheses open at each (a call's or not)."""

    def __init__(self, tokens: list[Token], text: str, known: set[str]) -> None:
        self.tokens, self.text, self.known = tokens, text, known
        self.parens: list[str] = []  # the open parentheses' kinds
        self.closed_call = False  # the last ) closed a call's (

    def run(self) -> list[Token]:
        """The retyped tokens (new tokens where a type changes; the input is unchanged)."""
        out: list[Token] = []
        i = 0
        while i < len(self.tokens):
            made, i = self.retyped(i, out[-1].type if out else None)
            if made.type in ("LPAR", "CPAREN", "CALLPAREN"):
                self.parens.append(made.type)
            elif made.type == "RPAR":
                self.closed_call = bool(self.parens) and self.parens.pop() == "CALLPAREN"
            out.append(made)
            i += 1
        return out

    def retyped(self, i: int, prev: str | None) -> tuple[Token, int]:
        """The token the parser reads for ``tokens[i]``, by the rule of its type, and the index of the last
        token it stands for; ``prev`` is the type given to the token before it."""
        t = self.tokens[i]
        if t.type == "NAME":
            return self.name(i, prev)
        if t.type == "FNAME":  # a function name right before [ takes no arguments (3.6)
            return _as("FNAME0" if self.next_type(i) == "LSQB" else "FNAME", t), i
        if t.type == "LINEMULOP":
            return self.line_operator(t, prev), i
        if t.type == "BADCHAR":  # ! & { ...: no rule takes it, the statement it is in fails when it runs (2.1, 3.5)
            return _as("STRAY", t), i
        if t.type == "CPAREN":  # if has no parenthesis of its own (3.3)
            return _as("LPAR" if prev == "IF" else "CPAREN", t), i
        if t.type == "LPAR":  # the parenthesis of a call or an MC (3.6, 3.10)
            return _as("CALLPAREN" if prev in ("MC", "FNAME") else "LPAR", t), i
        if t.type == "ADDOP" and prev in ("MULOP", "ADDOP"):
            return _sign_quirk(t, self.text), i
        return t, i

    def name(self, i: int, prev: str | None) -> tuple[Token, int]:
        """A name in use (not declared here): ``M`` alone is the machine call (section 2.5).  A name that no
        level and no declaration of this text declares is error 3 at that name when it runs, whatever follows
        it (3.6; ``for`` is one, 2.5): it is taken as a call without arguments (FNAME0), and what follows is
        parsed as statements of their own, which never run (``nosuch "x", 1``), or, for ``for(...)``, taken
        with it (:func:`_undeclared_statement`)."""
        t = self.tokens[i]
        if prev in _DECLARING:  # int x, y: being declared
            return t, i
        if t.value == "M":
            return _as("MC", t), i
        if canonical(t.value) in self.known:
            return t, i
        stmt = _undeclared_statement(self.tokens, i, prev)
        return stmt if stmt is not None else (_as("FNAME0", t), i)

    def next_type(self, i: int) -> str | None:
        """The type of the token after ``tokens[i]``; None at the end."""
        return self.tokens[i + 1].type if i + 1 < len(self.tokens) else None

    def line_operator(self, t: Token, prev: str | None) -> Token:
        """A ``*``, ``/`` or ``%`` that starts a line (LINEMULOP, a statement of its own) goes on with the term
        before it when that ends with a call: a call skips the line ends and comments after it (2.1, 3.6)."""
        after_call = (prev == "RPAR" and self.closed_call) or prev == "FNAME0"
        return _as("MULOP", t) if after_call else t


def _as(kind: str, t: Token) -> Token:
    """``t`` with the type ``kind`` (itself when it has that type already)."""
    return t if kind == t.type else Token.new_borrow_pos(kind, t.value, t)
