"""What a tiny-c cell holds, read with the linker's own top-level scan (:mod:`tinyc.syntax.toplevel`).

The linker takes any word at the top level for a function name, so ``pn 2+3`` would be a function
``pn`` without a body.  A cell is *definitions* when every top-level item is a global declaration
(``int x, y(10)``), a top-level ``[ ... ]`` block (prose), or a function whose name is followed only by
parameter declarations and then its ``[`` body (``twice int n [ return n*2 ]``); anything else is a
statement to run.  Definitions followed, on a later line, by a statement are split: the definitions
go into the program, then the statement runs.

Texts here are program bytes decoded as Latin-1 (one character a byte), so offsets are byte offsets.
"""

from __future__ import annotations

from typing import NamedTuple

from ..syntax.lexer import tokenize
from ..syntax.positions import end_of, start_of
from ..syntax.toplevel import scan

LAYOUT = frozenset({"WS", "NEWLINE", "COMMENT"})
PARAMETER_TOKENS = frozenset({"INT", "CHAR", "NAME", "COMMA", "LPAR", "RPAR", "NUMBER", "SEMICOLON"})


class Definition(NamedTuple):
    """One top-level item of a program text: ``kind`` "func", "decl" or "block"; ``names`` it defines;
    ``start``/``end`` its byte span, ``start`` at its leading comment if it has one; ``head`` a
    function's parameter declarations (text between its name and its ``[``); ``comment`` its leading
    comment's text, without ``/*`` and ``*/``."""
    kind: str
    names: tuple[str, ...]
    start: int
    end: int
    head: str = ""
    comment: str = ""


def _tokens(text: str):
    return tokenize(text, 0, tolerant=True)


def _leading_comment(tokens, first: int, floor: int) -> tuple[int, str]:
    """The index of the first comment token right before token ``first`` (only layout between, none
    before ``floor``) and that comment's text; ``(first, "")`` when there is none."""
    k, found = first, first
    while k - 1 >= floor and tokens[k - 1].type in LAYOUT:
        k -= 1
        if tokens[k].type == "COMMENT":
            found = k
    if found == first:
        return first, ""
    lines = [_comment_text(str(tokens[i])) for i in range(found, first) if tokens[i].type == "COMMENT"]
    return found, "\n".join(lines)


def _comment_text(comment: str) -> str:
    """A comment's words: a tiny-c/PC comment runs from ``/*`` to the end of its line (a ``*/`` there
    is only written by habit)."""
    body = comment[2:].strip()
    return body.removesuffix("*/").strip(" *")


def masked(text: str) -> str:
    """A Gibson-dialect text with its ``#include``/``#loadMC`` lines and ``//`` comments blanked (the
    same length, so offsets stay), for the PC dialect's scan."""
    out = []
    for line in text.split("\n"):
        if line.lstrip().startswith("#"):
            line = " " * len(line)
        else:
            at = line.find("//")
            while at >= 0 and line.count('"', 0, at) % 2:
                at = line.find("//", at + 2)
            if at >= 0:
                line = line[:at] + " " * (len(line) - at)
        out.append(line)
    return "\n".join(out)


def items(text: str, gibson: bool = False) -> list[Definition] | None:
    """The top-level items of ``text``, each a definition, or None when ``text`` holds something else
    (a statement: see the module's rule).  ``gibson``: a Gibson-dialect text (:func:`masked`)."""
    split = split_cell(text, gibson)
    return split[0] if split is not None and not split[1].strip() else None


def split_cell(text: str, gibson: bool = False) -> tuple[list[Definition], str] | None:
    """``(definitions, statement)``: the definitions a cell starts with and the rest of it (from the
    line the first item that is not a definition starts on); None when it starts with no definition.
    ``gibson``: a Gibson-dialect text, whose ``#`` lines and ``//`` comments count as definitions."""
    if gibson:
        split = split_cell(masked(text))
        return None if split is None else (split[0], text[len(text) - len(split[1]):])
    tokens = _tokens(text)
    found: list[Definition] = []
    previous_end = 0
    for item in scan(tokens, text, strict=False):
        definition = _definition(tokens, text, item, previous_end)
        if definition is None:
            at = start_of(tokens[item.start])
            line_start = text.rfind("\n", 0, at) + 1
            if not found or line_start < found[-1].end:
                return None  # a statement on the line of a definition: the whole cell is a statement
            return found, text[line_start:]
        found.append(definition)
        previous_end = item.end
    return found, ""


def _definition(tokens, text: str, item, floor: int, lenient: bool = False) -> Definition | None:
    """The item as a definition, or None; ``lenient``: any head before a function's ``[`` (a program's own
    items, as the linker takes them), else only parameter declarations (a cell's, see the module)."""
    first = tokens[item.start]
    last = tokens[item.end - 1]
    start, comment = _leading_comment(tokens, item.start, floor)
    span = (start_of(tokens[start]), end_of(last))
    if item.kind == "block" or item.kind == "endlibrary":
        return Definition(item.kind, (), *span)
    if item.kind == "decl":
        return Definition("decl", _declared(tokens[item.start:item.end]), *span, comment=comment)
    if first.type != "NAME" or not item.body:
        return None
    head = [t for t in tokens[item.start + 1:item.end] if t.type not in LAYOUT]
    bracket = next(k for k, t in enumerate(head) if t.type == "LSQB")
    params = head[:bracket]
    if params and not lenient and (params[0].type not in ("INT", "CHAR")
                                   or any(t.type not in PARAMETER_TOKENS for t in params)):
        return None
    head_text = " ".join(text[start_of(params[0]):end_of(params[-1])].split()) if params else ""
    return Definition("func", (str(first),), *span, head=head_text, comment=comment)


def _declared(tokens) -> tuple[str, ...]:
    """The names a declaration declares: each NAME outside parentheses."""
    names, depth = [], 0
    for t in tokens:
        if t.type == "LPAR":
            depth += 1
        elif t.type == "RPAR":
            depth -= 1
        elif t.type == "NAME" and depth == 0:
            names.append(str(t))
    return tuple(names)


def program_items(text: str, gibson: bool = False) -> list[Definition]:
    """The definitions of a whole program text (its other items passed over); ``gibson``: a
    Gibson-dialect text (:func:`masked`)."""
    if gibson:
        text = masked(text)
    tokens = _tokens(text)
    found, previous_end = [], 0
    for item in scan(tokens, text, strict=False):
        definition = _definition(tokens, text, item, previous_end, lenient=True)
        if definition is not None:
            found.append(definition)
        previous_end = item.end
    return found


def one_line(statement: str) -> str:
    """A statement cell as the one line the shell types: its lines joined with blanks (tiny-c reads a
    line end inside a statement as a blank; a typed statement ends at its line's end)."""
    return " ".join(line.strip() for line in statement.strip().splitlines() if line.strip())
