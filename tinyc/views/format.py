"""A conservative formatter for tiny-c source (``tinyc fmt``): each line re-indented by its ``[ ]`` depth.

Only the blanks at the two ends of a line change: a line gets two spaces per open ``[`` block (one level
less when it starts with ``]``), and loses its trailing blanks.  Every token, comment and string stays as it
was.  Brackets inside a string, a character constant or a comment do not count; the lexical rules are those
of the dialect's grammar, given by its ``lexis`` hook (a :class:`Lexis`):

- tiny-c/PC (:data:`PC_LEXIS`, syntax/grammar.lark): a string ends at ``"`` (or a NUL) on its line, a
  character constant at ``'`` on its line, and ``/*`` comments to the end of the line; an unmatched quote
  is a single stray character.
- Gibson (``tinyc.dialects.gibson.lexis``): a string may run over several lines (the lines it covers are
  left exactly as they are), a character constant is one character between quotes, comments are ``//`` or
  ``/*`` to the end of the line, and a line that starts with ``#`` (``#include NAME``) is kept exactly:
  the blanks after the name are part of it.

The text is handled as Latin-1 so that any byte survives.  A file whose brackets do not balance, or whose
string is never closed where strings may span lines, is not formatted: :class:`FormatError` says where."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..driver.dialect import DEFAULT

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing; mypy knows it
if TYPE_CHECKING:
    from ..driver.dialect import Lexis as Rules  # what a dialect's lexis hook gives: a Lexis, or its like

INDENT = "  "
BLANKS = " \t"


@dataclass(frozen=True)
class Lexis:
    """A dialect's lexical rules, as far as the formatter needs them.

    ``hiding``: what can hide a bracket (strings, character constants, comments: the grammar's terminals),
    matched where one of the characters ``starts`` is; ``open_strings``: a ``"`` that ``hiding`` cannot
    match is a string never closed (FormatError), not a stray character; ``headers``: a line that starts
    with ``#`` is kept exactly, blanks and all."""

    hiding: re.Pattern[str]
    open_strings: bool = False
    headers: bool = False
    starts: str = "\"'/"


PC_LEXIS = Lexis(re.compile(r'"[^"\x00\n]*["\x00]|\'[^\'\n]*\'|/\*[^\n]*'))


class FormatError(ValueError):
    """The text cannot be formatted safely; ``line`` is the 1-based line the problem is on."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line


def _brackets(text: str, lexis: Rules) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The offsets of the ``[`` and ``]`` that count (their character, +1 or -1), and the spans
    (start, end) of the multi-line strings, in ``text``."""
    hiding, starts = lexis.hiding, lexis.starts
    marks: list[tuple[int, int]] = []
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c in starts:
            m = hiding.match(text, i)
            if m:
                if "\n" in m.group():
                    spans.append(m.span())
                i = m.end()
                continue
            if c == '"' and lexis.open_strings:
                raise FormatError(text.count("\n", 0, i) + 1, 'a string (") that is never closed')
        elif c in "[]":
            marks.append((i, 1 if c == "[" else -1))
        i += 1
    return marks, spans


def format_source(text: str, dialect: str | Rules = DEFAULT) -> str:
    """``text`` (tiny-c source in ``dialect``: a dialect's name, whose ``lexis`` hook gives its rules, or
    the :class:`Lexis` itself) re-indented: two spaces per open ``[ ]`` block, trailing blanks dropped;
    line ends (``\\n``, ``\\r\\n``) kept.  Raises FormatError for unbalanced brackets or a string never
    closed (where strings may span lines); UnknownDialect for a name with no dialect.  Formatting the
    result again gives it unchanged."""
    lexis = _lexis(dialect) if isinstance(dialect, str) else dialect
    marks, spans = _brackets(text, lexis)
    out: list[str] = []
    depth, at, start = 0, 0, 0
    for number, line in enumerate(text.split("\n"), 1):
        end = start + len(line)
        body, cr = (line[:-1], "\r") if line.endswith("\r") else (line, "")
        begins_inside = any(s < start <= e - 1 for s, e in spans)
        ends_inside = any(s <= end < e for s, e in spans)
        opening_depth = depth
        leading_closers = 0
        counting = True
        while at < len(marks) and marks[at][0] < end:
            offset, step = marks[at]
            if counting and step < 0 and text[start:offset].strip(BLANKS + "]") == "":
                leading_closers += 1
            else:
                counting = False
            depth += step
            if depth < 0:
                raise FormatError(number, "a ] with no [ open")
            at += 1
        header = lexis.headers and body.lstrip(BLANKS).startswith("#")
        if not ends_inside and not header:
            body = body.rstrip(BLANKS)
        if not begins_inside and body.strip(BLANKS) and not header:
            body = INDENT * max(0, opening_depth - leading_closers) + body.lstrip(BLANKS)
        elif not begins_inside and not body.strip(BLANKS):
            body = ""
        out.append(body + cr)
        start = end + 1
    if depth:
        raise FormatError(text.count("\n") + 1, f"{depth} [ never closed")
    return "\n".join(out)


def _lexis(name: str) -> Rules:
    """The lexical rules of the dialect called ``name`` (its ``lexis`` hook)."""
    from ..driver.dialect import find
    return find(name).lexis()
