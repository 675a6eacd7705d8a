"""Parse errors of the Gibson dialect: the shared mapping of a Lark error to a tiny-c error number and
cursor (tinyc.syntax.parser), with the places where this dialect's interpreter stood elsewhere."""

from __future__ import annotations

from lark import Token

from ...errors import ErrorCode, TinyCError
from ...syntax.parser import syntax_error
from ...syntax.positions import start_of


def _call_took_paren(tokens: list[Token], bad) -> bool:
    """True when the ``)`` just before the token ``bad`` was taken by a call, after which the original's
    cursor skipped line ends and comments: it closes a call's own ``(`` (``f(3)``), closes nothing, or
    closes a group holding a call without ``(`` (``(gn)``, ``(x + f 3)``: the call takes its arguments up
    to the ``)`` and that ``)`` as its optional one).  ``tokens``: the whole text's, classified."""
    at = start_of(bad) if bad is not None else -1
    i = next((k for k, t in enumerate(tokens) if start_of(t) == at), 0)
    if i == 0 or tokens[i - 1].type != "RPAR":
        return False
    opened: list[int] = []
    for k, t in enumerate(tokens[:i - 1]):
        if t.type in ("LPAR", "CPAREN", "CALLPAREN"):
            opened.append(k)
        elif t.type == "RPAR" and opened:
            opened.pop()
    if not opened or tokens[opened[-1]].type == "CALLPAREN":
        return True
    depth = 0  # a call without ( in that group takes arguments up to the ) and the ) itself
    for k in range(opened[-1] + 1, i - 1):
        kind = tokens[k].type
        depth += {"LPAR": 1, "CPAREN": 1, "CALLPAREN": 1, "RPAR": -1}.get(kind, 0)
        if depth == 0 and kind in ("FNAME", "FNAME0") and tokens[k + 1].type != "CALLPAREN":
            return True
    return False


def gibson_syntax_error(tokens: list[Token]):
    """The shared mapping of a parse error (tinyc.syntax.parser) with one case of this dialect: a ``)``
    still needed after a ``)`` a call took (``x = (gn)``).  The call then skipped the line ends and
    comments after it (3.6), so the error stands past them.  ``tokens``: the whole text's."""
    def mapping(e, part: list[Token], base: int, text: str) -> TinyCError:
        err = syntax_error(e, part, base, text)
        if err.code != ErrorCode.RPARERR or not _call_took_paren(tokens, getattr(e, "token", None)):
            return err
        at = base + _after_remarks(text, err.address - base)
        return TinyCError(err.code, at)
    return mapping


def _after_remarks(text: str, at: int) -> int:
    """``at`` moved past blanks, line ends and comments (``/*`` and ``//`` run to the line's end)."""
    while True:
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        if text[at:at + 2] not in ("/*", "//"):
            return at
        while at < len(text) and text[at] not in "\r\n":
            at += 1
