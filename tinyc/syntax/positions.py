"""Typed access to a Lark token's position.

Lark types ``Token.start_pos``, ``end_pos``, ``line`` and ``column`` as ``Optional[int]``: a Token may
be built without them.  Every token tiny-c handles has them: Lark's basic lexer sets all four, and
the tokens tiny-c makes itself (:func:`tinyc.syntax.lexer.tokenize`'s BADQUOTE/BADCHAR, the ERRSTMT
marks of error recovery, the keywords Gibson's dialect splits off a name) are built with them.  These
helpers return them as ``int`` and fail loudly if that invariant is ever broken.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (4 ms of every start); mypy knows it

if TYPE_CHECKING:  # Lark is imported only when something is tokenized
    from lark import Token


def start_of(t: Token) -> int:
    """The offset of ``t``'s first character in the text it was lexed from."""
    assert t.start_pos is not None, f"token {t.type} has no position: every token tiny-c handles has one"
    return t.start_pos


def end_of(t: Token) -> int:
    """The offset just after ``t``'s last character in the text it was lexed from."""
    assert t.end_pos is not None, f"token {t.type} has no position: every token tiny-c handles has one"
    return t.end_pos


def line_of(t: Token) -> int:
    """The line (from 1) ``t`` starts on."""
    assert t.line is not None, f"token {t.type} has no line: every token tiny-c handles has one"
    return t.line


def column_of(t: Token) -> int:
    """The column (from 1) ``t`` starts at."""
    assert t.column is not None, f"token {t.type} has no column: every token tiny-c handles has one"
    return t.column
